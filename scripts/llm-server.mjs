// npm run llm:serve: serves the GGUF model that `npm run models` fetched over the OpenAI chat-completions protocol
// on loopback, with llama.cpp (through node-llama-cpp's prebuilt binaries, installed into .llm/runtime).
//   [DSW_LLM_MODEL=<id>] node scripts/llm-server.mjs [--port 8080] [--host 127.0.0.1] [--model .llm/models/<file>.gguf] [--threads 2]
//                               [--context 8192] [--max-tokens 512]
// Endpoints: GET /v1/models, GET /health, POST /v1/chat/completions (JSON or SSE with a final usage chunk).
// One request is generated at a time; the others wait in order. A client that disconnects stops its generation.
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { LLM_MODEL_FILE, LLM_RUNTIME_ENTRY, llmPaths } from './llm-paths.mjs';

const root = path.resolve(import.meta.dirname, '..');
const paths = llmPaths(root);
const { values } = parseArgs({
  options: {
    // 8080 is llama-server's port, so the app's "llama.cpp server" preset finds it as it is.
    port: { type: 'string', default: process.env.LLM_PORT ?? '8080' },
    host: { type: 'string', default: '127.0.0.1' },
    model: { type: 'string', default: path.join(paths.models, LLM_MODEL_FILE) },
    threads: { type: 'string', default: '2' },
    context: { type: 'string', default: '8192' },
    'max-tokens': { type: 'string', default: '512' },
  },
});
const log = (msg) => console.error(`[llm] ${msg}`);
// The name the server reports: the GGUF's file name (the selected model unless --model names another file).
const MODEL_ID = path.basename(values.model).replace(/\.gguf$/i, '');

let nodeLlamaCpp;
try {
  nodeLlamaCpp = await import(pathToFileURL(path.join(paths.runtime, LLM_RUNTIME_ENTRY)).href);
} catch {
  log(`llama.cpp runtime not found in ${paths.runtime}: run \`npm run models\` (or \`node scripts/models.mjs llm\`) first`);
  process.exit(2);
}
const { getLlama, LlamaChat } = nodeLlamaCpp;
const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
let model;
try {
  model = await llama.loadModel({ modelPath: values.model });
} catch (error) {
  log(`cannot load the model ${values.model}: ${error.message}. Run \`npm run models\` first.`);
  process.exit(2);
}
const context = await model.createContext({ contextSize: Number(values.context), threads: Number(values.threads) });
const sequence = context.getSequence();
const chat = new LlamaChat({ contextSequence: sequence });
const defaultMaxTokens = Number(values['max-tokens']);

/** OpenAI messages → node-llama-cpp chat history (system / user / model turns). */
function toHistory(messages) {
  if (!Array.isArray(messages) || messages.length === 0) throw new RequestError('messages must be a non-empty array');
  const history = messages.map((m, i) => {
    const text = typeof m?.content === 'string'
      ? m.content
      : Array.isArray(m?.content) ? m.content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('') : null;
    if (text === null) throw new RequestError(`messages[${i}].content must be a string`);
    if (m.role === 'system' || m.role === 'developer') return { type: 'system', text };
    if (m.role === 'user') return { type: 'user', text };
    if (m.role === 'assistant') return { type: 'model', response: [text] };
    throw new RequestError(`messages[${i}].role "${m?.role}" is not system, user or assistant`);
  });
  if (history.at(-1).type !== 'model') history.push({ type: 'model', response: [] });
  return history;
}

class RequestError extends Error {}

function promptTokens(history) {
  const { contextText } = chat.chatWrapper.generateContextState({ chatHistory: history });
  return contextText.tokenize(model.tokenizer).length;
}

let queue = Promise.resolve();
/** Runs `job` after every earlier request has finished (one sequence, one generation at a time). */
function serialized(job) {
  const result = queue.then(job, job);
  queue = result.catch(() => {});
  return result;
}

/** A number field of the request, when it is one. */
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

async function generate(body, signal, onText) {
  const history = toHistory(body.messages);
  // A trailing assistant message is continued (as llama.cpp's server does): the reply holds only the continuation.
  const last = history.at(-1);
  const prefill = last.type === 'model' && typeof last.response[0] === 'string' ? last.response[0] : '';
  const maxTokens = Number.isInteger(body.max_tokens) && body.max_tokens > 0 ? body.max_tokens : defaultMaxTokens;
  const temperature = num(body.temperature) ?? 0;
  const stop = typeof body.stop === 'string' ? [body.stop] : Array.isArray(body.stop) ? body.stop.filter((s) => typeof s === 'string') : [];
  const penalties = { penalty: num(body.repeat_penalty), frequencyPenalty: num(body.frequency_penalty), presencePenalty: num(body.presence_penalty) };
  const repeatPenalty = Object.values(penalties).some((v) => v !== undefined)
    ? Object.fromEntries(Object.entries({ ...penalties, penalty: penalties.penalty ?? 1 }).filter(([, v]) => v !== undefined))
    : undefined;
  const prompt = promptTokens(history);
  const before = sequence.tokenMeter.usedOutputTokens;
  const result = await chat.generateResponse(history, {
    maxTokens,
    temperature,
    ...(num(body.top_p) !== undefined ? { topP: body.top_p } : {}),
    ...(repeatPenalty ? { repeatPenalty } : {}),
    ...(typeof body.seed === 'number' ? { seed: body.seed } : {}),
    ...(stop.length > 0 ? { customStopTriggers: stop } : {}),
    signal,
    stopOnAbortSignal: true,
    onTextChunk: onText,
  });
  const completion = sequence.tokenMeter.usedOutputTokens - before;
  const matched = result.metadata.stopReason === 'customStopTrigger' ? result.metadata.customStopTrigger.filter((t) => typeof t === 'string').join('') : undefined;
  const text = prefill && result.response.startsWith(prefill) ? result.response.slice(prefill.length) : result.response;
  return {
    text,
    finishReason: result.metadata.stopReason === 'maxTokens' ? 'length' : 'stop',
    // vLLM's field: the stop sequence that ended the reply.
    ...(matched ? { stopReason: matched } : {}),
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization, Accept',
};

function sendJson(res, status, value) {
  res.writeHead(status, { ...CORS, 'Content-Type': 'application/json' });
  res.end(JSON.stringify(value));
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new RequestError('the request body is not JSON');
  }
}

async function completions(req, res) {
  const body = await readJson(req);
  const id = `chatcmpl-${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const base = { id, created, model: MODEL_ID };
  if (body.stream) {
    res.writeHead(200, { ...CORS, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const send = (value) => res.write(`data: ${JSON.stringify(value)}\n\n`);
    send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    // An SSE comment now and then while the request waits its turn or the prompt is read (minutes on a busy CPU),
    // so that clients' idle timeouts measure a stalled server, not a queue.
    const keepAlive = setInterval(() => res.write(': waiting\n\n'), 10_000);
    let out;
    try {
      out = await serialized(() => generate(body, controller.signal, (text) => {
        send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
      }));
    } finally {
      clearInterval(keepAlive);
    }
    send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: out.finishReason, ...(out.stopReason ? { stop_reason: out.stopReason } : {}) }] });
    if (body.stream_options?.include_usage) send({ ...base, object: 'chat.completion.chunk', choices: [], usage: out.usage });
    res.end('data: [DONE]\n\n');
    return;
  }
  const out = await serialized(() => generate(body, controller.signal, undefined));
  sendJson(res, 200, {
    ...base,
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: out.text }, finish_reason: out.finishReason, ...(out.stopReason ? { stop_reason: out.stopReason } : {}) }],
    usage: out.usage,
  });
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  try {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
    } else if (req.method === 'GET' && url.pathname === '/health') {
      sendJson(res, 200, { status: 'ok', model: MODEL_ID });
    } else if (req.method === 'GET' && url.pathname === '/v1/models') {
      sendJson(res, 200, { object: 'list', data: [{ id: MODEL_ID, object: 'model', owned_by: 'local' }] });
    } else if (req.method === 'POST' && url.pathname === '/v1/chat/completions') {
      await completions(req, res);
    } else {
      sendJson(res, 404, { error: { message: `no route ${req.method} ${url.pathname}`, type: 'not_found' } });
    }
  } catch (error) {
    const status = error instanceof RequestError ? 400 : 500;
    if (!res.headersSent) sendJson(res, status, { error: { message: error.message, type: status === 400 ? 'invalid_request_error' : 'server_error' } });
    else res.end();
  }
});
server.listen(Number(values.port), values.host, () => {
  log(`${MODEL_ID} (${path.relative(root, values.model)}) on http://${values.host}:${values.port}/v1, ${values.threads} threads, context ${values.context}`);
});
// Exit at once: a generation in progress has nobody left to answer.
const shutdown = () => {
  server.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
