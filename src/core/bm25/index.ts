// The door of bm25: the lexical index (MiniSearch-compatible and compact) and its parameters.
export { type Bm25Hit, Bm25Index, type SerializedBm25Index } from './bm25-index.ts';
export { StringTableLookup } from './compact/string-lookup.ts';
export { MiniSearchBm25 } from './minisearch-bm25.ts';
export { type Bm25Params, MINISEARCH_BM25, OKAPI_BM25, validateBm25Params } from './params.ts';
export type { Bm25Explanation } from './explain.ts';
