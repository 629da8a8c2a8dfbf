// The door of storage: the corpus and vector store interfaces, their memory twins and spools.
export { type CorpusCommit, type CorpusRecord, type CorpusStore, type RemoteCorpusRef } from './corpus-store.ts';
export { type DocumentSpool } from './document-spool.ts';
export { formatBytes } from './format-bytes.ts';
export { IndexOnlyCorpusStore } from './index-only-corpus-store.ts';
export { MemoryCorpusStore } from './memory-corpus-store.ts';
export { MemoryVectorStore, rowsOf } from './memory-vector-store.ts';
export { SpooledCorpusStore } from './spooled-corpus-store.ts';
export { type StorageAfterFailure, storageFullAdvice } from './storage-full-advice.ts';
export { StorageFullError } from './storage-full-error.ts';
export { type VectorSpool } from './vector-spool.ts';
export {
  type ChunkRowReader, type EmbeddingProgressUpdate, type EmbeddingSetRecord, type TokenBatch, type VectorChunk, VectorStorageFullError,
  type VectorStore,
} from './vector-store.ts';
