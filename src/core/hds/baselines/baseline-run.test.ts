import { describe, expect, it } from 'vitest';
import { doc, KeyedRetriever, RuntimeError, ScriptedLlm } from '../test-doubles.ts';
import { BaselineRunError, formatParagraphs, qaPrompt } from './baseline-run.ts';
import { runSingleShot } from './single-shot.ts';

describe('baseline runs', () => {
  it('a retrieval failure fails the run with a sanitised message and keeps the partial run', async () => {
    const retriever = new KeyedRetriever({}, new RuntimeError('password=SECRET'));
    let caught: unknown;
    try {
      await runSingleShot('q', {}, { llm: new ScriptedLlm(['a']), retriever });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(BaselineRunError);
    const err = caught as BaselineRunError;
    expect(err.message).toBe('single-shot retrieval failed for "q": RuntimeError: retrieval failed');
    expect(err.run.status).toBe('failed');
    expect(err.run.retrievals[0]).toMatchObject({ status: 'failed', error: 'RuntimeError: retrieval failed' });
    expect(JSON.stringify(err.run)).not.toContain('SECRET');
  });

  it('cancellation returns the partial run', async () => {
    const controller = new AbortController();
    const retriever = new KeyedRetriever({}, () => new Promise(() => undefined));
    setTimeout(() => controller.abort(), 20);
    const run = await runSingleShot('q', {}, { llm: new ScriptedLlm(['a']), retriever }, { signal: controller.signal });
    expect(run.status).toBe('cancelled');
    expect(run.retrievals[0].status).toBe('cancelled');
    expect(run.llmCalls).toEqual([]);
  });

  it('backfills missing texts and records relevance', async () => {
    const retriever = new KeyedRetriever({}, [doc('7', 1)]);
    const run = await runSingleShot('q', { k: 1 }, {
      llm: new ScriptedLlm(['a']),
      retriever,
      getTexts: async (ids) => ids.map((id) => `text of ${id}`),
      relevance: (id) => (id === '7' ? 2 : undefined),
    });
    expect(run.retrievals[0].results).toEqual([{ id: '7', score: 1, text: 'text of 7', shown: true, relevance: 2 }]);
    expect(run.llmCalls[0].prompt).toContain('[1] text of 7');
  });

  it('formats paragraphs and the QA prompt', () => {
    expect(formatParagraphs([])).toBe('(no paragraphs retrieved)');
    expect(qaPrompt('Q?', ['x'])).toBe(
      'Answer the question using the paragraphs below. Reply with a concise answer only.\n\nParagraphs:\n[1] x\n\nQuestion: Q?\n\nAnswer:',
    );
  });
});
