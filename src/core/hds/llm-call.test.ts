import { describe, expect, it } from 'vitest';
import type { LlmProvider } from '../llm/index.ts';
import { joinReasoning, newLlmCallRecord, recordedLlmCall } from './llm-call.ts';
import { ScriptedLlm } from './test-doubles.ts';

describe('recordedLlmCall', () => {
  it('fills the record: response, reasoning, usage, first-token and end offsets', async () => {
    let t = 0;
    const at = () => (t += 5);
    const record = newLlmCallRecord('prompt', 0);
    const llm = new ScriptedLlm([{ content: 'answer', reasoning: 'why' }]);
    const response = await recordedLlmCall(llm, record, { at });
    expect(response.content).toBe('answer');
    expect(llm.prompts).toEqual(['prompt']);
    expect(record).toEqual({
      prompt: 'prompt',
      response: 'answer',
      reasoning: 'why',
      startMs: 5,
      firstTokenMs: 10,
      endMs: 15,
      usage: { promptTokens: 2, completionTokens: 3, totalTokens: 5 },
      messages: [{ role: 'user', content: 'prompt' }],
      endedBy: 'end-of-stream',
    });
  });

  it('keeps the partial response when cancelled, and ignores pieces arriving afterwards', async () => {
    const controller = new AbortController();
    let push: ((s: string) => void) | undefined;
    const llm: LlmProvider = {
      describe: () => ({ provider: 'x', baseUrl: '', model: 'm' }),
      complete: (_req, options) =>
        new Promise(() => {
          push = (s) => options?.onDelta?.({ content: s, reasoning: '' });
        }),
    };
    const record = newLlmCallRecord('p', 0);
    const call = recordedLlmCall(llm, record, { at: () => 1, signal: controller.signal });
    push?.('part');
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    push?.(' late');
    expect(record.response).toBe('part');
    expect(record.cancelled).toBe(true);
    expect(record.error).toBeUndefined();
  });

  it('records the error message of a failed call', async () => {
    const llm: LlmProvider = {
      describe: () => ({ provider: 'x', baseUrl: '', model: 'm' }),
      complete: async () => {
        throw new Error('server down');
      },
    };
    const record = newLlmCallRecord('p', 0);
    await expect(recordedLlmCall(llm, record, { at: () => 1 })).rejects.toThrow('server down');
    expect(record.error).toBe('server down');
  });
});

describe('joinReasoning', () => {
  it('joins non-empty parts with a blank line', () => {
    expect(joinReasoning('a', ' ', 'b')).toBe('a\n\nb');
    expect(joinReasoning('', '')).toBe('');
  });
});
