// Type tests of the core's public API: the signatures other modules and outside scripts rely on.
import { describe, expectTypeOf, it } from 'vitest';
import {
  Bm25Index,
  gqrRerank,
  loadCorpus,
  extractFinalAnswer,
  parseHdsAction,
  type Bm25Hit,
  type CorpusStore,
  type FileSource,
  type FinalAnswer,
  type GqrConfig,
  type GqrInput,
  type HdsAction,
  type IngestSummary,
  type LoadCorpusResult,
  type Retriever,
  type ScoredDoc,
} from './index.ts';

describe('public API types', () => {
  it('gqrRerank keeps the contracted signature', () => {
    expectTypeOf(gqrRerank).toEqualTypeOf<(input: GqrInput, topK: number, config?: Partial<GqrConfig>) => ScoredDoc[]>();
    expectTypeOf<GqrConfig['target']>().toEqualTypeOf<'per-step' | 'fixed'>();
    expectTypeOf<GqrConfig['optimizer']>().toEqualTypeOf<'gd' | 'adam'>();
    expectTypeOf<GqrInput['primarySearchMode']>().toEqualTypeOf<'single' | 'multi' | undefined>();
  });

  it('parseHdsAction keeps the contracted signature', () => {
    expectTypeOf(parseHdsAction).toEqualTypeOf<(text: string, maxQueries: number) => HdsAction>();
    expectTypeOf<HdsAction>().toEqualTypeOf<{ kind: 'answer'; text: string; unmarked?: boolean; unrunQueries?: string[] } | { kind: 'queries'; queries: string[] }>();
  });

  it('extractFinalAnswer reads a final-prompt reply into an answer action', () => {
    expectTypeOf(extractFinalAnswer).toEqualTypeOf<(text: string) => FinalAnswer>();
    expectTypeOf<FinalAnswer['action']>().toEqualTypeOf<Extract<HdsAction, { kind: 'answer' }>>();
    expectTypeOf<FinalAnswer['marker']>().toEqualTypeOf<'boxed' | 'answer-tag' | 'none'>();
  });

  it('a browser File is a FileSource', () => {
    expectTypeOf<File>().toExtend<FileSource>();
  });

  it('loadCorpus streams sources into any CorpusStore', () => {
    expectTypeOf(loadCorpus).parameter(0).toEqualTypeOf<FileSource[]>();
    expectTypeOf(loadCorpus).parameter(2).toEqualTypeOf<CorpusStore>();
    expectTypeOf(loadCorpus).returns.resolves.toEqualTypeOf<LoadCorpusResult>();
    expectTypeOf<LoadCorpusResult['summary']>().toEqualTypeOf<IngestSummary>();
  });

  it('retrievers and BM25 return scored documents', () => {
    expectTypeOf<ReturnType<Retriever['search']>>().toEqualTypeOf<Promise<ScoredDoc[]>>();
    expectTypeOf<ReturnType<Bm25Index['search']>>().toEqualTypeOf<Bm25Hit[]>();
    expectTypeOf<Bm25Hit>().toExtend<ScoredDoc>();
  });
});
