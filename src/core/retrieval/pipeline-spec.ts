import type { Bm25Params } from '../bm25/params.ts';

/**
 * A retrieval pipeline as data: what a run saves as its configuration, what the UI edits, what workers and the
 * CLI turn into a Retriever with `buildRetriever`. Every variant records every setting that affects ranking.
 */
export type PipelineSpec = Bm25PipelineSpec;

/** BM25 over the corpus's stored index. */
export interface Bm25PipelineSpec {
  kind: 'bm25';
  /** Scoring parameters (query time). The analyzer is the index's own and is recorded by the retriever. */
  params: Bm25Params;
}

/** A short human-readable label for a spec, for lists and chart legends. */
export function describePipeline(spec: PipelineSpec): string {
  switch (spec.kind) {
    case 'bm25': {
      const p = spec.params;
      const plain = p.d === 0 && !p.termCountBoost;
      return `BM25 k1=${p.k1} b=${p.b}${plain ? '' : ` d=${p.d}${p.termCountBoost ? ' +boost' : ''}`}`;
    }
  }
}
