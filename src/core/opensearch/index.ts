// The door of opensearch: corpora indexed into and searched in an OpenSearch cluster.
export { OpenSearchCorpusStore } from './cluster-corpus-store.ts';
export { DEFAULT_HNSW } from './cluster-index.ts';
export { type ClusterKnnMode, openSearchResources } from './cluster-retrievers.ts';
export { indexIntoOpenSearch, setClusterBm25 } from './index-into-opensearch.ts';
export { OpenSearchClient } from './opensearch-client.ts';
