// The door of retrieval: pipelines (BM25, dense, fusion, GQR) built into retrievers and run over queries.
export { Bm25Retriever } from './bm25-retriever.ts';
export { buildRetriever, type RetrievalResources } from './build-retriever.ts';
export { type DenseIndex, type QueryEmbedder } from './dense-retriever.ts';
export { DEFAULT_FETCH_K_MULTIPLIER, FusionRetriever } from './fusion-retriever.ts';
export {
  type GqrChildLists, type GqrGeometry, type GqrOutcome, type GqrPrepared, GqrRetriever, rerankPrepared, tracePrepared,
} from './gqr-retriever.ts';
export {
  type CcPipelineSpec, DEFAULT_CC_WEIGHT, defaultSpec, type DensePipelineSpec, describePipeline, type GqrPipelineSpec,
  isComplete, PIPELINE_KINDS, type PipelineSpec, type RrfPipelineSpec, theoreticalMinScore,
} from './pipeline-spec.ts';
export { matchesTerms, type Retriever, type TermMatchingRetriever } from './retriever.ts';
export { runQueries } from './run-queries.ts';
export { DenseRetriever } from './dense-retriever.ts';
