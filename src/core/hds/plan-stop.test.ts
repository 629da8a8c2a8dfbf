import { describe, expect, it } from 'vitest';
import { inventsResults, PLAN_STOP_SEQUENCES, replyEnding, restoreStopMarker } from './plan-stop.ts';

describe('plan-call stop sequences (H9)', () => {
  it('are the end-of-queries and begin-results markers in both spellings: four, as OpenAI allows', () => {
    expect(PLAN_STOP_SEQUENCES).toEqual(['<|end search queries|>', '<|end_search_queries|>', '<|begin search results|>', '<|begin_search_results|>']);
  });

  it('put back the end marker a server consumed, in the spelling of the open block', () => {
    expect(restoreStopMarker('x <|begin search queries|>a; b', { finishReason: 'stop' })).toEqual({ content: 'x <|begin search queries|>a; b<|end search queries|>', restored: '<|end search queries|>' });
    expect(restoreStopMarker('<|begin_search_queries|>a', { stopSequence: '<|end_search_queries|>' }).restored).toBe('<|end_search_queries|>');
    // Only the last block counts: an earlier closed block and a later open one.
    expect(restoreStopMarker('<|begin search queries|>a<|end search queries|> <|BEGIN_SEARCH_QUERIES|>b', { finishReason: 'stop' }).restored).toBe('<|end_search_queries|>');
  });

  it('leave a reply alone when it was cut by max_tokens, has no open block, or the server kept the marker', () => {
    expect(restoreStopMarker('<|begin search queries|>a', { finishReason: 'length' })).toEqual({ content: '<|begin search queries|>a' });
    expect(restoreStopMarker('\\boxed{x}', { finishReason: 'stop' })).toEqual({ content: '\\boxed{x}' });
    expect(restoreStopMarker('<|begin search queries|>a<|end search queries|>', { finishReason: 'stop' })).toEqual({ content: '<|begin search queries|>a<|end search queries|>' });
  });

  it('say why a reply ended', () => {
    expect(replyEnding({ finishReason: 'length' }, false)).toBe('max_tokens');
    expect(replyEnding({ finishReason: 'stop', stopSequence: '<|end search queries|>' }, false)).toBe('stop-sequence');
    expect(replyEnding({ finishReason: 'stop' }, true)).toBe('stop-sequence');
    expect(replyEnding({ finishReason: 'stop' }, false)).toBe('end-of-turn');
    expect(replyEnding({}, false)).toBe('end-of-stream');
  });

  it('tell a reply that began writing results itself', () => {
    expect(inventsResults('<|begin search queries|>a<|end search queries|>\n<|begin_search_results|>made up')).toBe(true);
    expect(inventsResults('<|begin search queries|>a', '<|begin search results|>')).toBe(true);
    expect(inventsResults('<|begin search queries|>a', '<|end search queries|>')).toBe(false);
  });
});
