import type {
  VectorIssue,
  EmbedCorpusProgress,
  EmbeddingDtype,
  EmbeddingModelSource,
  EmbeddingPrefixes,
  EmbeddingSetRecord,
  ModelLoadProgress,
} from '../core/index.ts';
import type { PickedFile } from './corpus-worker-api.ts';
import type { StoredModelFolder } from './model-files.ts';

/** How to load an embedding model in the browser. */
export interface ModelSettings {
  /** Where the model files come from. */
  source: EmbeddingModelSource;
  /** Weight variant (`fp32` reads onnx/model.onnx). */
  dtype: EmbeddingDtype;
  /** Pooling; default the preset's, else mean. */
  pooling?: 'mean' | 'cls';
  /** Query/passage prefixes; default the preset's, else none. */
  prefixes?: EmbeddingPrefixes;
  /** Max tokens per text; default the preset's, else the model's limit. */
  maxTokens?: number;
}

/** One embedding job. */
export interface EmbedRequest {
  corpusId: string;
  model: ModelSettings;
  /** Texts per inference call. */
  batchSize: number;
  /** Also store token-level vectors (new sets only). */
  tokens: boolean;
  /**
   * Measure docs/s on a first small batch before embedding (new or unfinished sets of corpora larger than the
   * sample); the `estimate` event then waits for `confirm` when the rest would take longer than this many seconds.
   */
  askAboveSeconds?: number;
}

/** Docs/s measured on a first batch, and what it means for the documents left. */
export interface EmbedEstimate {
  sampled: number;
  docsPerSecond: number;
  /** Documents still to embed. */
  remaining: number;
  secondsLeft: number;
  /** Whether the job waits for the person's answer. */
  asking: boolean;
}

/** Vectors to import into a corpus, and the model that made them. */
export interface VectorImportRequest {
  corpusId: string;
  model: ModelSettings;
  files: PickedFile[];
}

/** Vectors to fetch from a workbench server (`dsw serve --model`) for a corpus of this browser. */
export interface ServerVectorImportRequest {
  corpusId: string;
  /** The model chosen here: it embeds the queries and re-embeds the sample; the server's must agree with it. */
  model: ModelSettings;
  /** e.g. http://127.0.0.1:8790 */
  server: string;
  token?: string;
  /** Documents per request (default 32). */
  batchSize?: number;
}

/** What an import stored and checked. */
export interface VectorImportReport {
  set: EmbeddingSetRecord;
  /** What was read, in words. */
  source: string;
  /** Lines or ids skipped (the rest was stored). */
  issues: VectorIssue[];
  /** Documents re-embedded here and the lowest cosine of their imported vectors to those. */
  checked: { documents: number; worstCosine: number };
}

/** What a job reports while it runs. */
export type EmbedEvent =
  | { kind: 'load'; progress: ModelLoadProgress }
  | { kind: 'measuring'; sample: number }
  | { kind: 'estimate'; estimate: EmbedEstimate }
  | { kind: 'start'; set: EmbeddingSetRecord; resumedAt: number; device: string }
  | { kind: 'progress'; progress: EmbedCorpusProgress };

/** What the embedding worker offers the UI (through comlink). */
export interface EmbedWorkerApi {
  /**
   * Embeds a corpus (or resumes its set); resolves with the stored set. Rejects with words on failure.
   * `abortPort` (see abort-bridge.ts) cancels it within one model batch; what it embedded is kept and can be resumed.
   * `confirm` answers an asking estimate (false: nothing is embedded, the job ends as cancelled).
   */
  embed(
    request: EmbedRequest,
    onEvent: (event: EmbedEvent) => void,
    abortPort?: MessagePort,
    confirm?: (estimate: EmbedEstimate) => Promise<boolean>,
  ): Promise<EmbeddingSetRecord>;
  /**
   * Stores vectors made elsewhere (`.npy` with ids, `.jsonl`, a `dsw --vector-cache` folder) as the corpus's set of
   * `model`: ids and dimension checked against the corpus and the model, and a sample of documents re-embedded
   * here must match to cosine 0.999. Rejects with words naming the file and the problem; nothing is stored then.
   */
  importVectors(request: VectorImportRequest, onEvent: (event: EmbedEvent) => void, abortPort?: MessagePort): Promise<VectorImportReport>;
  /**
   * Embeds the corpus's documents on a workbench server (`dsw serve --model`, its `embed` endpoint, in batches;
   * `progress` events) and stores them as the corpus's set of `model`. A sample is embedded there first and
   * re-embedded here (cosine 0.999), before the rest is sent. `abortPort` cancels between batches; nothing is stored then.
   */
  importFromServer(request: ServerVectorImportRequest, onEvent: (event: EmbedEvent) => void, abortPort?: MessagePort): Promise<VectorImportReport>;
  /** Keeps a picked model folder in this browser; its name is the model id to use with location `folder`. */
  storeModelFolder(files: PickedFile[]): Promise<StoredModelFolder>;
  /** Model folders kept in this browser. */
  listModelFolders(): Promise<StoredModelFolder[]>;
  /** Forgets a kept model folder. */
  removeModelFolder(name: string): Promise<void>;
}
