import { describe, expect, it } from 'vitest';
import {
  answerOutsideReasoning,
  extractBoxed,
  parseHdsAction,
  parseHdsResponse,
  splitReasoning,
} from './parse-action.ts';

const B = '<|begin search queries|>';
const E = '<|end search queries|>';

describe("the reference's worked parsing scenarios", () => {
  it('1 parse_paper_parallel_queries_with_semicolons_newlines_and_dedup', () => {
    const action = parseHdsAction(`<think>plan</think>${B}1. alpha; - beta\nquery 3: alpha${E}`, 4);
    expect(action).toEqual({ kind: 'queries', queries: ['alpha', 'beta'] });
  });

  it('2 parse_limits_queries', () => {
    expect(parseHdsAction(`${B}a; b\nc${E}`, 2)).toEqual({ kind: 'queries', queries: ['a', 'b'] });
  });

  it('3 parse_boxed_answer', () => {
    expect(parseHdsAction('<think>done</think>\\boxed{final result}', 2)).toEqual({ kind: 'answer', text: 'final result' });
  });

  it('4 parse_tolerant_answer_tag', () => {
    expect(parseHdsAction('<answer>done</answer>', 2)).toEqual({ kind: 'answer', text: 'done' });
  });
});

describe("the reference's worked query-parsing examples", () => {
  it('answer tag content is trimmed', () => {
    expect(parseHdsAction('<answer>\n  spaced  \n</answer>', 4)).toEqual({ kind: 'answer', text: 'spaced' });
  });

  it('boxed with a space before the brace wins over an answer tag', () => {
    expect(parseHdsAction('\\boxed {x} and <answer>y</answer>', 4)).toEqual({ kind: 'answer', text: 'x' });
  });

  it('an empty boxed answer wins over a query block', () => {
    expect(parseHdsAction(`${B}x${E}\\boxed{}`, 4)).toEqual({ kind: 'answer', text: '' });
  });

  it('tokens match case-insensitively and queries are trimmed', () => {
    expect(parseHdsAction('<|BEGIN SEARCH QUERIES|> A ; b <|END SEARCH QUERIES|>', 4)).toEqual({
      kind: 'queries',
      queries: ['A', 'b'],
    });
  });

  it('an empty query block gives the whole text as the answer, not flagged unmarked', () => {
    const text = `${B}  ${E} tail text`;
    expect(parseHdsAction(text, 4)).toEqual({ kind: 'answer', text });
  });

  it('strips one list prefix of each kind', () => {
    const text = `${B}1) x\n2. y\na) z\nB. w\n* v\n• u\nQuery: t\nquery12 : s${E}`;
    expect(parseHdsAction(text, 10)).toEqual({ kind: 'queries', queries: ['x', 'y', 'z', 'w', 'v', 'u', 't', 's'] });
  });

  // Changed by H4: without a block these inputs are unmarked answers, so they are wrapped in a query block here.
  it('de-duplicates case-sensitively (inside a block, H4)', () => {
    expect(parseHdsAction(`${B}Apple; apple; apple${E}`, 4)).toEqual({ kind: 'queries', queries: ['Apple', 'apple'] });
  });

  it('strips a letter prefix only once: "e.g. foo" gives "g. foo" (inside a block, H4)', () => {
    expect(parseHdsAction(`${B}e.g. foo${E}`, 4)).toEqual({ kind: 'queries', queries: ['g. foo'] });
  });

  it('reads only the first query block', () => {
    expect(parseHdsAction(`${B}a${E} then ${B}b${E}`, 4)).toEqual({ kind: 'queries', queries: ['a'] });
  });

  it('"query" without a colon is not a prefix; "3." is one (the reference\'s rule, like "e.g.")', () => {
    expect(parseHdsAction(`${B}query expansion methods; 3.5 mm jack${E}`, 4)).toEqual({
      kind: 'queries',
      queries: ['query expansion methods', '5 mm jack'],
    });
  });
});

describe('H1: both token spellings', () => {
  it('reads the underscore spelling (reference: junk queries containing the tokens)', () => {
    const parsed = parseHdsResponse('<|begin_search_queries|>q1;\nq2<|end_search_queries|>', 4);
    expect(parsed.action).toEqual({ kind: 'queries', queries: ['q1', 'q2'] });
    expect(parsed.tokenSpelling).toBe('underscores');
  });

  it('reads the underscore spelling in any case', () => {
    expect(parseHdsAction('<|BEGIN_SEARCH_QUERIES|>x<|End_Search_Queries|>', 4)).toEqual({
      kind: 'queries',
      queries: ['x'],
    });
  });

  it('reports the spaces spelling', () => {
    expect(parseHdsResponse(`${B}x${E}`, 4).tokenSpelling).toBe('spaces');
  });

  it('an unterminated block is read to the end of the text (or to a fabricated results block) and flagged', () => {
    const parsed = parseHdsResponse('<|begin_search_queries|>a;\nb\n<|begin_search_results|>made up', 4);
    expect(parsed.action).toEqual({ kind: 'queries', queries: ['a', 'b'] });
    expect(parsed.unterminatedQueryBlock).toBe(true);
    expect(parseHdsResponse(`${B}x${E}`, 4).unterminatedQueryBlock).toBeUndefined();
  });
});

describe('H2: reasoning is never parsed', () => {
  it('ignores a boxed answer inside <think>', () => {
    const parsed = parseHdsResponse(`<think>maybe \\boxed{guess}</think>${B}check guess${E}`, 4);
    expect(parsed.action).toEqual({ kind: 'queries', queries: ['check guess'] });
    expect(parsed.reasoning).toBe('maybe \\boxed{guess}');
  });

  it('ignores a query block inside <think>', () => {
    const parsed = parseHdsResponse(`<THINK>${B}hidden${E}</THINK>\\boxed{42}`, 4);
    expect(parsed.action).toEqual({ kind: 'answer', text: '42' });
  });

  it('treats everything before a stray </think> as reasoning', () => {
    const parsed = parseHdsResponse(`I should search ${B}no${E}</think>${B}yes${E}`, 4);
    expect(parsed.action).toEqual({ kind: 'queries', queries: ['yes'] });
    expect(parsed.reasoning).toBe(`I should search ${B}no${E}`);
  });

  it('treats an unclosed <think> as reasoning to the end', () => {
    const parsed = parseHdsResponse('<think>still thinking \\boxed{x}', 4);
    expect(parsed.action).toEqual({ kind: 'answer', text: '', unmarked: true });
    expect(parsed.reasoning).toBe('still thinking \\boxed{x}');
  });

  it('splitReasoning keeps the visible parts in order', () => {
    expect(splitReasoning('a<think>x</think>b<think>y</think>c')).toEqual({ visibleText: 'abc', reasoning: 'x\n\ny' });
  });

  it('reasoning inside a query or an answer leaves the text around it joined, not split', () => {
    expect(parseHdsAction('<|begin search queries|>capital of <think>which country?</think>France<|end search queries|>', 4)).toEqual({
      kind: 'queries',
      queries: ['capital of France'],
    });
    expect(parseHdsAction('The capital is <think>double-check</think>Paris.', 4)).toEqual({ kind: 'answer', text: 'The capital is Paris.', unmarked: true });
  });

  it('answerOutsideReasoning strips reasoning, and leaves text without reasoning untouched', () => {
    expect(answerOutsideReasoning('<think>hmm</think>\n\n Paris \n')).toBe('Paris');
    expect(answerOutsideReasoning(' Paris \n')).toBe(' Paris \n');
  });
});

describe('H3: boxed answers', () => {
  it('reads nested braces (reference: "\\frac{1")', () => {
    expect(parseHdsAction('\\boxed{\\frac{1}{2}}', 4)).toEqual({ kind: 'answer', text: '\\frac{1}{2}' });
  });

  it('takes the last boxed answer (reference: the first)', () => {
    expect(parseHdsAction('first \\boxed{A}, corrected: \\boxed{B}', 4)).toEqual({ kind: 'answer', text: 'B' });
  });

  it('removes a \\text{} that wraps the whole answer, and only then', () => {
    expect(extractBoxed('\\boxed{ \\text{Paris} }')).toBe('Paris');
    expect(extractBoxed('\\boxed{\\text{a} and \\text{b}}')).toBe('\\text{a} and \\text{b}');
  });

  it('skips an unbalanced boxed and keeps an earlier complete one', () => {
    expect(extractBoxed('\\boxed{ok} then \\boxed{broken')).toBe('ok');
    expect(extractBoxed('\\boxed{broken')).toBeUndefined();
  });

  it('escaped braces do not count', () => {
    expect(extractBoxed('\\boxed{\\{1,2\\}}')).toBe('\\{1,2\\}');
  });

  it('spans newlines', () => {
    expect(extractBoxed('\\boxed{line one\nline two}')).toBe('line one\nline two');
  });

  it('<answer> is the second choice', () => {
    expect(parseHdsResponse('<answer>x</answer>', 4).marker).toBe('answer-tag');
    expect(parseHdsResponse('<answer>x</answer> \\boxed{y}', 4).action).toEqual({ kind: 'answer', text: 'y' });
  });
});

describe('H4: a response without any marker is an unmarked final answer', () => {
  it('free text becomes the answer (reference: a query)', () => {
    const parsed = parseHdsResponse('<think>easy</think>\n I think the answer is Paris. ', 4);
    expect(parsed.action).toEqual({ kind: 'answer', text: 'I think the answer is Paris.', unmarked: true });
    expect(parsed.marker).toBe('none');
  });

  it('empty and whitespace-only responses give an empty unmarked answer', () => {
    expect(parseHdsAction('', 4)).toEqual({ kind: 'answer', text: '', unmarked: true });
    expect(parseHdsAction('   ', 4)).toEqual({ kind: 'answer', text: '', unmarked: true });
  });

  it('"- " gives "-" as in the reference, now flagged unmarked', () => {
    expect(parseHdsAction('- ', 4)).toEqual({ kind: 'answer', text: '-', unmarked: true });
  });

  it('marked answers are not flagged', () => {
    expect(parseHdsAction('\\boxed{x}', 4)).not.toHaveProperty('unmarked');
  });
});

describe('cap bookkeeping', () => {
  it('reports distinct queries beyond the cap', () => {
    const parsed = parseHdsResponse(`${B}a; b; a; c; d; c${E}`, 2);
    expect(parsed.action).toEqual({ kind: 'queries', queries: ['a', 'b'] });
    expect(parsed.queriesOverCap).toEqual(['c', 'd']);
  });

  it('ends an unclosed <think> at a query block (think-closes-at-query-block), as the HDS authors\' code does', () => {
    const parsed = parseHdsResponse('<think>I need the engineer first.\n\n<|begin_search_queries|>Harrow Point engineer<|end_search_queries|>', 4);
    expect(parsed.action).toEqual({ kind: 'queries', queries: ['Harrow Point engineer'] });
    expect(parsed.reasoning).toBe('I need the engineer first.');
    expect(parsed.thinkClosedAtBlock).toBe(true);
    // Without a block the whole unclosed reasoning stays reasoning (H2).
    expect(parseHdsResponse('<think>still thinking \\boxed{x}', 4)).toMatchObject({ reasoning: 'still thinking \\boxed{x}', action: { kind: 'answer', text: '', unmarked: true } });
  });

  it('reads an opening "Reasoning:" line as reasoning (reasoning-line): never the answer, and a block or box after it still acts', () => {
    // A real dsw-1 reply of the 1.5B model that wrote only its reasoning line: no action, so the final prompt is asked.
    const only = parseHdsResponse('Reasoning: I need to find a science fantasy young adult series told in first person.', 4);
    expect(only.action).toEqual({ kind: 'answer', text: '', unmarked: true });
    expect(only.reasoning).toBe('I need to find a science fantasy young adult series told in first person.');
    expect(parseHdsResponse('Reasoning: the engineer first.\n<|begin search queries|>\nHarrow Point engineer\n<|end search queries|>', 4).action).toEqual({ kind: 'queries', queries: ['Harrow Point engineer'] });
    expect(parseHdsResponse('Reasoning: the log says Tarn valley. \\boxed{Tarn valley}', 4).action).toEqual({ kind: 'answer', text: 'Tarn valley' });
    expect(parseHdsResponse('Reasoning: found it.\nParis', 4).action).toEqual({ kind: 'answer', text: 'Paris', unmarked: true });
  });
});
