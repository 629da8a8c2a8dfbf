// The door of loader: loading files into a corpus store, and finding documents in it.
export { findDocuments } from './find-documents.ts';
export {
  CorpusLoadError, DuplicateCorpusError, loadCorpus, type LoadCorpusOptions, type LoadCorpusResult, type LoadProgress,
  newCorpusId,
} from './load-corpus.ts';
