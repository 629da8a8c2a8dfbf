// npm run test:real: the llama.cpp server of `npm run llm:serve` speaks the OpenAI chat-completions protocol the
// workbench's provider expects (streaming, usage, model list). Skipped when `npm run models` has not run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiCompatibleProvider } from '../src/core/index.ts';
import { REAL_LLM_MODEL, realLlmMissing, startLlmServer, type LlmServer } from './real-llm.ts';

const missing = realLlmMissing();
if (missing) console.warn(`llm-server.real.test.ts skipped: ${missing}`);

describe.skipIf(missing !== null)(`the real LLM (${REAL_LLM_MODEL}) on loopback`, () => {
  let server: LlmServer | undefined;
  let baseUrl = process.env.LLM_BASE_URL ?? '';
  beforeAll(async () => {
    if (baseUrl) return;
    server = await startLlmServer(Number(process.env.REAL_LLM_PORT ?? 8184));
    baseUrl = server.baseUrl;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists its model and passes the provider\'s connection test', async () => {
    const provider = new OpenAiCompatibleProvider({ baseUrl, model: REAL_LLM_MODEL });
    const result = await provider.testConnection();
    expect(result.ok, result.message).toBe(true);
  });

  it('streams a real answer with token usage', async () => {
    const provider = new OpenAiCompatibleProvider({ baseUrl, model: REAL_LLM_MODEL, temperature: 0, maxTokens: 8 });
    const pieces: string[] = [];
    const response = await provider.complete(
      { messages: [{ role: 'user', content: 'What is the capital of France? Answer with one word.' }] },
      { onDelta: (d) => pieces.push(d.content) },
    );
    expect(response.content).toMatch(/paris/i);
    expect(pieces.join('')).toBe(response.content);
    expect(response.usage?.promptTokens).toBeGreaterThan(5);
    expect(response.usage?.completionTokens).toBeGreaterThan(0);
  });
});
