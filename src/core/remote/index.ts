// The door of remote: corpora served by `dsw serve` and searched from the browser.
export {
  RemoteAwareCorpusStore, remoteCorpusRecord, RemoteRetriever, remoteRunConfig, routedResources,
} from './remote-corpus.ts';
export {
  createServeHandler, hostProblem, type PassageEmbedder, type ServedCorporaState, type ServedCorpus, type ServeResponse,
} from './serve-handler.ts';
export {
  preparedFromJson, SERVE_API_PREFIX, SERVE_MAX_BODY_BYTES, SERVE_MAX_STREAMS, type ServedCorpusInfo, ServeError,
} from './serve-protocol.ts';
export { normalizeServerUrl, WorkbenchServerClient } from './server-client.ts';
export { embedThroughServer, serverEmbeddingModel, type ServerEmbedded, type ServerEmbeddingModel } from './server-vectors.ts';
