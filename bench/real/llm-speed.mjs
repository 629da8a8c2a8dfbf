// Speed of an OpenAI-compatible chat server (e.g. `npm run llm:serve`): prompt tokens/s from the time to the first
// streamed token of a long prompt, generated tokens/s from the tokens after it. Prints one JSON line per trial.
//   node bench/real/llm-speed.mjs [baseUrl=http://127.0.0.1:8080/v1] [trials=2]
// The prompt is hotpotqa-500 passage text (../shared/data/hotpotqa-500/corpus.jsonl), different per trial, so that
// no prompt cache helps; the usage chunk gives the token counts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const base = process.argv[2] ?? 'http://127.0.0.1:8080/v1';
const trials = Number(process.argv[3] ?? 2);
const PASSAGES = Number(process.env.SPEED_PASSAGES ?? 12);
const corpus = path.resolve(import.meta.dirname, '../../../shared/data/hotpotqa-500/corpus.jsonl');
const docs = fs.readFileSync(corpus, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

async function trial(i) {
  const passages = docs.slice(i * PASSAGES, i * PASSAGES + PASSAGES).map((d) => `${d.title}. ${d.text}`).join('\n\n');
  const body = {
    model: 'x',
    stream: true,
    stream_options: { include_usage: true },
    temperature: 0,
    max_tokens: Number(process.env.SPEED_MAX_TOKENS ?? 128),
    messages: [{ role: 'user', content: `${passages}\n\nWrite a long summary of every passage above, one paragraph each.` }],
  };
  const t0 = performance.now();
  const res = await fetch(`${base}/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let first = null;
  let usage = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let at;
    while ((at = buf.indexOf('\n\n')) >= 0) {
      const event = buf.slice(0, at);
      buf = buf.slice(at + 2);
      if (!event.startsWith('data: ') || event === 'data: [DONE]') continue;
      const data = JSON.parse(event.slice(6));
      if (data.usage) usage = data.usage;
      if (first === null && data.choices?.[0]?.delta?.content) first = performance.now();
    }
  }
  const end = performance.now();
  const promptS = (first - t0) / 1000;
  const genS = (end - first) / 1000;
  return {
    trial: i,
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    promptSeconds: +promptS.toFixed(1),
    promptTokensPerS: +(usage.prompt_tokens / promptS).toFixed(1),
    generateSeconds: +genS.toFixed(1),
    generatedTokensPerS: +((usage.completion_tokens - 1) / genS).toFixed(2),
    loadAverage: os.loadavg().map((v) => +v.toFixed(2)),
  };
}

for (let i = 0; i < trials; i++) console.log(JSON.stringify(await trial(i)));
