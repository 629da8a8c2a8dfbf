import type { ModelFileHash } from './model-file-hash.ts';
import { toLoadProgress, type ModelLoadProgress } from './load-progress.ts';
import type { CorpusDocument } from '../corpus/index.ts';
import { documentText } from './document-text.ts';
import { defaultLengthSortWindow, lengthSortWindowSize, longestFirst } from './length-order.ts';
import type {
  EmbeddingDtype,
  EmbeddingModelInfo,
  EmbeddingPrefixes,
  QueryEmbedding,
  QueryTokenEmbedding,
  TokenEmbedding,
} from './model-info.ts';
import { poolHiddenStates, tokenVectors, type HiddenStates } from './pooling.ts';
import { findEmbeddingPreset } from './registry.ts';
import { howToGetModel } from './app-model-presence.ts';
import { inferenceRuntime, type TransformersModule } from './runtime-versions.ts';

export type { TransformersModule } from './runtime-versions.ts';

/** ONNX Runtime device: `wasm`/`webgpu` in browsers and workers, `cpu` in Node. */
export type EmbeddingDevice = 'wasm' | 'webgpu' | 'cpu';

/** Options of {@link loadEmbedder}. The transformers `env` fields named below are global and set on load. */
export type { ModelLoadProgress } from './load-progress.ts';

export interface EmbedderOptions {
  /** Model id: a registry preset or any transformers.js feature-extraction model; also its folder name. */
  modelId: string;
  /** Sets `env.localModelPath`: a folder in Node, a URL path such as `/models/` in browsers (not a full URL). */
  localModelPath?: string;
  /** Sets `env.remoteHost`, the host models are fetched from when remote loading is allowed. */
  remoteHost?: string;
  /** Sets `env.allowRemoteModels`; default false (local-first: only the local model path is read). */
  allowRemoteModels?: boolean;
  /** ONNX Runtime device; default the runtime's own (cpu in Node, wasm in browsers). */
  device?: EmbeddingDevice;
  /** Weight variant; default `fp32` (transformers' wasm default q8 needs `model_quantized.onnx`). */
  dtype?: EmbeddingDtype;
  /** Pooling; default the preset's, else `mean`. */
  pooling?: 'mean' | 'cls';
  /** L2-normalise pooled and token vectors; default true. */
  normalize?: boolean;
  /** Query/passage prefixes; default the preset's, else none. */
  prefixes?: Partial<EmbeddingPrefixes>;
  /** Max tokens per text, special tokens included; default the preset's, else the model's own limit. */
  maxTokens?: number;
  /** Texts per inference call; default 32. */
  batchSize?: number;
  /** Receives model-loading progress. */
  onLoadProgress?: (event: ModelLoadProgress) => void;
  /** The transformers.js module to use; default a dynamic import of `@huggingface/transformers`. */
  transformers?: TransformersModule;
}

/** Progress after each batch of {@link Embedder.embedDocuments}. */
export interface EmbedProgress {
  /** Documents embedded so far, counting those skipped by `startAt`. */
  done: number;
  /** Documents in the whole input. */
  total: number;
  /** Throughput of this call (documents embedded by it / elapsed seconds). */
  docsPerSecond: number;
  /** Milliseconds since this call started. */
  elapsedMs: number;
}

/** Options of {@link Embedder.embedDocuments} and {@link Embedder.embedDocumentTokens}. */
export interface EmbedDocumentsOptions<TBatch> {
  /** First document to embed; pass the number of rows already stored to resume after a reload. Default 0. */
  startAt?: number;
  /** Texts per inference call; default the embedder's. */
  batchSize?: number;
  /**
   * Documents whose texts go to the model longest first in tokens (as `embedCorpus` does), so a batch pads to texts
   * of about its own length; the batches handed to `onBatch` are in input order all the same. Rounded up to whole batches;
   * default 8 batches; one batch or less (e.g. 1) embeds in input order. A cancel loses at most the window in progress.
   */
  lengthSortWindow?: number;
  /** Checked before every model batch and every `onBatch`; aborting stops between batches by throwing the signal's reason. */
  signal?: AbortSignal;
  /** Called after each batch, once `onBatch` has finished. */
  onProgress?: (progress: EmbedProgress) => void;
  /** Receives each batch in order; awaited before the next batch starts (store it here). */
  onBatch: (batch: TBatch) => void | Promise<void>;
}

/** A batch of pooled document vectors. */
export interface EmbeddedBatch {
  /** Index in the input of the first document of the batch (= its row in a store filled in order). */
  startRow: number;
  /** Document ids of the batch. */
  ids: string[];
  /** `ids.length × dimensions` values, row-major. */
  vectors: Float32Array;
}

/** A batch of token-level document embeddings. */
export interface EmbeddedTokenBatch {
  /** Index in the input of the first document of the batch. */
  startRow: number;
  /** Document ids of the batch. */
  ids: string[];
  /** One token matrix per document. */
  embeddings: TokenEmbedding[];
}

/** What an embedDocuments call did. */
export interface EmbedDocumentsResult {
  /** Documents embedded by this call. */
  embedded: number;
  /** The next document to embed (= the input length when complete). */
  nextRow: number;
}

const DEFAULT_EMBED_BATCH_SIZE = 32;
/** Texts per tokenizer call when counting tokens (bounds the padded id matrix). */
const TOKEN_COUNT_BATCH = 256;

// The parts of a transformers.js feature-extraction pipeline this module uses.
interface TensorLike {
  dims: number[];
  data: ArrayLike<number> | ArrayLike<bigint>;
}
interface FeatureExtractorLike {
  tokenizer: ((
    texts: string[],
    options: { padding?: boolean; truncation?: boolean; max_length?: number; add_special_tokens?: boolean },
  ) => Record<string, TensorLike>) & { model_max_length?: number };
  model: ((inputs: Record<string, TensorLike>) => Promise<Record<string, TensorLike | undefined>>) & {
    config?: { hidden_size?: number; max_position_embeddings?: number };
  };
  dispose(): Promise<void>;
}

/**
 * Loads a feature-extraction model through transformers.js `pipeline('feature-extraction', …)` and returns an
 * {@link Embedder}. Runs in Node (onnxruntime-node) and in Web Workers (onnxruntime-web); the caller configures
 * anything else on `env` (wasm paths, thread count, caches) before calling.
 * A model that cannot be loaded gives an Error naming the model and where it was looked for.
 */
export async function loadEmbedder(options: EmbedderOptions): Promise<Embedder> {
  const transformers = options.transformers ?? (await import('@huggingface/transformers'));
  const { env } = transformers;
  if (options.localModelPath !== undefined) {
    env.localModelPath = options.localModelPath;
    env.allowLocalModels = true;
  }
  if (options.remoteHost !== undefined) env.remoteHost = options.remoteHost;
  env.allowRemoteModels = options.allowRemoteModels ?? false;

  const { modelId } = options;
  const dtype = options.dtype ?? 'fp32';
  let extractor: FeatureExtractorLike;
  try {
    extractor = (await transformers.pipeline('feature-extraction', modelId, {
      dtype,
      device: options.device,
      progress_callback: options.onLoadProgress ? (info) => options.onLoadProgress?.(toLoadProgress(info)) : undefined,
    })) as unknown as FeatureExtractorLike;
  } catch (error) {
    const tried: string[] = [];
    if (env.allowLocalModels) tried.push(`local path "${joinPath(env.localModelPath, modelId)}"`);
    if (env.allowRemoteModels) tried.push(`remote host "${joinPath(env.remoteHost, modelId)}"`);
    const reason = error instanceof Error ? error.message : String(error);
    const advice = env.allowRemoteModels ? '' : ` ${howToGetModel(modelId)}`;
    throw new Error(
      `Could not load embedding model "${modelId}" (dtype ${dtype}) from ${tried.join(' or ') || 'nowhere: local and remote loading are both off'}: ${reason}${advice}`,
      { cause: error },
    );
  }

  const preset = findEmbeddingPreset(modelId);
  const config = extractor.model.config ?? {};
  const modelLimit = Math.min(
    finiteOr(extractor.tokenizer.model_max_length, Infinity),
    finiteOr(config.max_position_embeddings, Infinity),
  );
  const maxTokens = options.maxTokens ?? preset?.maxTokens ?? (Number.isFinite(modelLimit) ? modelLimit : 512);
  const embedder = new Embedder(extractor, {
    modelId,
    dtype,
    pooling: options.pooling ?? preset?.pooling ?? 'mean',
    normalize: options.normalize ?? true,
    prefixes: { query: options.prefixes?.query ?? preset?.prefixes.query ?? '', passage: options.prefixes?.passage ?? preset?.prefixes.passage ?? '' },
    maxTokens: Math.min(maxTokens, modelLimit),
    batchSize: options.batchSize ?? DEFAULT_EMBED_BATCH_SIZE,
    dimensions: config.hidden_size ?? 0,
    runtime: inferenceRuntime(transformers),
  });
  if (embedder.info.dimensions === 0) await embedder.probeDimensions();
  return embedder;
}

interface EmbedderSettings {
  modelId: string;
  dtype: string;
  pooling: 'mean' | 'cls';
  normalize: boolean;
  prefixes: EmbeddingPrefixes;
  maxTokens: number;
  batchSize: number;
  dimensions: number;
  runtime: Record<string, string>;
}

/** A loaded embedding model. Create with {@link loadEmbedder}. */
export class Embedder {
  private identity: EmbeddingModelInfo;
  /** Max tokens per text, special tokens included. */
  readonly maxTokens: number;
  /** Default texts per inference call. */
  readonly batchSize: number;
  /** Whether vectors are L2-normalised. */
  readonly normalize: boolean;
  /** transformers.js and ONNX Runtime versions this embedder runs on (for saved runs). */
  readonly runtime: Readonly<Record<string, string>>;
  /** SHA-256 of the model's files, set by the host that loaded them (saved with embedding sets and runs). */
  modelFiles?: ModelFileHash[];
  private readonly extractor: FeatureExtractorLike;
  private readonly closingTokens: bigint[];

  /** @internal use {@link loadEmbedder}. */
  constructor(extractor: FeatureExtractorLike, settings: EmbedderSettings) {
    if (!Number.isInteger(settings.batchSize) || settings.batchSize <= 0) {
      throw new Error(`batchSize must be a positive integer, got ${settings.batchSize}`);
    }
    if (!Number.isInteger(settings.maxTokens) || settings.maxTokens < 2) {
      throw new Error(`maxTokens must be an integer of at least 2, got ${settings.maxTokens}`);
    }
    this.extractor = extractor;
    this.closingTokens = closingSpecialTokens(extractor.tokenizer);
    this.maxTokens = settings.maxTokens;
    this.batchSize = settings.batchSize;
    this.normalize = settings.normalize;
    this.runtime = settings.runtime;
    this.identity = {
      modelId: settings.modelId,
      dtype: settings.dtype,
      pooling: settings.pooling,
      dimensions: settings.dimensions,
      prefixes: settings.prefixes,
    };
  }

  /** Identity of the pooled vectors this embedder produces (record it on the store). */
  get info(): EmbeddingModelInfo {
    return this.identity;
  }

  /** Identity of the token-level vectors (same model, pooling `token`). */
  get tokenInfo(): EmbeddingModelInfo {
    return { ...this.info, pooling: 'token' };
  }

  /** Embeds one query (query prefix applied). */
  async embedQuery(text: string): Promise<QueryEmbedding> {
    return { vector: await this.embedTexts([text], 'query'), model: this.info };
  }

  /** Token-level embedding of one query (query prefix applied), for MaxSim. */
  async embedQueryTokens(text: string): Promise<QueryTokenEmbedding> {
    const [tokens] = await this.embedTextTokens([text], 'query');
    return { ...tokens, model: this.tokenInfo };
  }

  /** Pooled vectors of `texts` with the query or passage prefix, as one call: `texts.length × dimensions`. */
  async embedTexts(texts: string[], kind: 'query' | 'passage'): Promise<Float32Array> {
    if (texts.length === 0) return new Float32Array(0);
    const states = await this.run(this.withPrefix(texts, kind));
    return poolHiddenStates(states, this.info.pooling as 'mean' | 'cls', this.normalize);
  }

  /** Pooled and token-level vectors of `texts` from one model run (a multi-vector store needs both). */
  async embedTextsWithTokens(texts: string[], kind: 'query' | 'passage'): Promise<{ pooled: Float32Array; tokens: TokenEmbedding[] }> {
    if (texts.length === 0) return { pooled: new Float32Array(0), tokens: [] };
    const states = await this.run(this.withPrefix(texts, kind));
    return { pooled: poolHiddenStates(states, this.info.pooling as 'mean' | 'cls', this.normalize), tokens: tokenVectors(states, this.normalize) };
  }

  /**
   * Tokens the model sees for each text (prefix and special tokens included, cut at `maxTokens`): what a batch is
   * padded to, so what sorting by length should sort by. Costs a tokenizer pass (about 1% of embedding a text).
   */
  tokenCounts(texts: readonly string[], kind: 'query' | 'passage'): number[] {
    const counts: number[] = [];
    for (let from = 0; from < texts.length; from += TOKEN_COUNT_BATCH) {
      const slice = this.withPrefix(texts.slice(from, from + TOKEN_COUNT_BATCH), kind);
      const mask = this.extractor.tokenizer(slice, { padding: true, truncation: true, max_length: this.maxTokens }).attention_mask;
      const width = mask.dims[1] ?? 0;
      for (let i = 0; i < slice.length; i++) {
        let n = 0;
        for (let j = i * width; j < (i + 1) * width; j++) n += Number(mask.data[j]);
        counts.push(n);
      }
    }
    return counts;
  }

  /** Token-level vectors of `texts` (attention-masked, special tokens included), one call. */
  async embedTextTokens(texts: string[], kind: 'query' | 'passage'): Promise<TokenEmbedding[]> {
    if (texts.length === 0) return [];
    return tokenVectors(await this.run(this.withPrefix(texts, kind)), this.normalize);
  }

  /**
   * Embeds documents (text = title + ". " + text, see `documentText`, with the passage prefix) in batches from
   * `startAt`, handing each batch to `onBatch` in input order. Within a window (`lengthSortWindow`) the model sees
   * the texts longest first, as `embedCorpus` does. Cancel with `signal` (checked between model batches); after a
   * reload, resume with `startAt` = rows already stored.
   */
  embedDocuments(docs: readonly CorpusDocument[], options: EmbedDocumentsOptions<EmbeddedBatch>): Promise<EmbedDocumentsResult> {
    return this.runBatches(
      docs,
      options,
      async (texts) => {
        const out = await this.embedTexts(texts, 'passage');
        const dims = out.length / texts.length;
        return texts.map((_, j) => out.subarray(j * dims, (j + 1) * dims));
      },
      (startRow, ids, rows) => {
        const vectors = new Float32Array(rows.reduce((n, r) => n + r.length, 0));
        rows.forEach((r, j) => vectors.set(r, j * r.length));
        return { startRow, ids, vectors };
      },
    );
  }

  /** As {@link embedDocuments}, with token-level output for a multi-vector store. */
  embedDocumentTokens(
    docs: readonly CorpusDocument[],
    options: EmbedDocumentsOptions<EmbeddedTokenBatch>,
  ): Promise<EmbedDocumentsResult> {
    return this.runBatches(
      docs,
      options,
      (texts) => this.embedTextTokens(texts, 'passage'),
      (startRow, ids, embeddings) => ({ startRow, ids, embeddings }),
    );
  }

  /** Releases the ONNX session. */
  async dispose(): Promise<void> {
    await this.extractor.dispose();
  }

  /** @internal sets `dimensions` from a one-text run when the model config lacks `hidden_size`. */
  async probeDimensions(): Promise<void> {
    const states = await this.run(['a']);
    this.identity = { ...this.identity, dimensions: states.dimensions };
  }

  private restoreClosingTokens(inputs: Record<string, TensorLike>): void {
    const closing = this.closingTokens;
    const ids = inputs.input_ids.data as unknown as BigInt64Array;
    const [batch, sequence] = inputs.input_ids.dims;
    if (closing.length === 0 || sequence !== this.maxTokens) return;
    const mask = inputs.attention_mask.data;
    for (let i = 0; i < batch; i++) {
      const end = (i + 1) * sequence;
      if (Number(mask[end - 1]) === 0) continue; // padded, so not truncated
      const tail = end - closing.length;
      if (closing.every((id, j) => ids[tail + j] === id)) continue; // exactly maxTokens long
      closing.forEach((id, j) => (ids[tail + j] = id));
    }
  }

  private withPrefix(texts: readonly string[], kind: 'query' | 'passage'): string[] {
    const prefix = this.info.prefixes[kind];
    return prefix === '' ? [...texts] : texts.map((t) => prefix + t);
  }

  // Windows of documents embedded longest first (`embed` returns one item per text, in order), then handed out
  // as batches in input order (`assemble`).
  private async runBatches<TBatch, TItem>(
    docs: readonly CorpusDocument[],
    options: EmbedDocumentsOptions<TBatch>,
    embed: (texts: string[]) => Promise<TItem[]>,
    assemble: (startRow: number, ids: string[], items: TItem[]) => TBatch,
  ): Promise<EmbedDocumentsResult> {
    const startAt = options.startAt ?? 0;
    const batchSize = options.batchSize ?? this.batchSize;
    if (!Number.isInteger(startAt) || startAt < 0 || startAt > docs.length) {
      throw new Error(`startAt must be an integer in [0, ${docs.length}], got ${startAt}`);
    }
    if (!Number.isInteger(batchSize) || batchSize <= 0) throw new Error(`batchSize must be a positive integer, got ${batchSize}`);
    const windowSize = lengthSortWindowSize(options.lengthSortWindow ?? defaultLengthSortWindow(batchSize), batchSize);
    const started = performance.now();
    let row = startAt;
    while (row < docs.length) {
      const window = docs.slice(row, row + windowSize);
      const texts = window.map(documentText);
      const items: TItem[] = new Array(window.length);
      const order = longestFirst(this.tokenCounts(texts, 'passage'));
      for (let b = 0; b < order.length; b += batchSize) {
        options.signal?.throwIfAborted();
        const rows = order.slice(b, b + batchSize);
        const out = await embed(rows.map((r) => texts[r]!));
        rows.forEach((r, j) => (items[r] = out[j]!));
      }
      for (let b = 0; b < window.length; b += batchSize) {
        options.signal?.throwIfAborted();
        const batch = window.slice(b, b + batchSize);
        await options.onBatch(assemble(row, batch.map((d) => d.id), items.slice(b, b + batch.length)));
        row += batch.length;
        const elapsedMs = performance.now() - started;
        options.onProgress?.({
          done: row,
          total: docs.length,
          docsPerSecond: elapsedMs > 0 ? ((row - startAt) * 1000) / elapsedMs : 0,
          elapsedMs,
        });
      }
    }
    return { embedded: row - startAt, nextRow: row };
  }

  // Tokenise (padded, truncated to maxTokens) and run the model: the pipeline's own steps, except that a
  // truncated text keeps its closing special token ([SEP]) as Python transformers does; transformers.js cuts it.
  private async run(texts: string[]): Promise<HiddenStates> {
    const { tokenizer, model } = this.extractor;
    const inputs = tokenizer(texts, { padding: true, truncation: true, max_length: this.maxTokens });
    this.restoreClosingTokens(inputs);
    const outputs = await model(inputs);
    const hidden = outputs.last_hidden_state ?? outputs.token_embeddings ?? outputs.logits;
    if (!hidden || hidden.dims.length !== 3) {
      throw new Error(`model "${this.info.modelId}" returned no [batch, sequence, hidden] output`);
    }
    const [batch, sequence, dimensions] = hidden.dims;
    const states: HiddenStates = {
      data: hidden.data as ArrayLike<number>,
      mask: inputs.attention_mask.data,
      batch,
      sequence,
      dimensions,
    };
    return states;
  }
}

// The special tokens a tokenizer appends after a single text ([SEP] for BERT, </s> for RoBERTa-style models).
function closingSpecialTokens(tokenizer: FeatureExtractorLike['tokenizer']): bigint[] {
  const withSpecial = Array.from(tokenizer(['a'], {}).input_ids.data as ArrayLike<bigint>);
  const bare = Array.from(tokenizer(['a'], { add_special_tokens: false }).input_ids.data as ArrayLike<bigint>);
  for (let i = 0; i + bare.length <= withSpecial.length; i++) {
    if (bare.every((id, j) => withSpecial[i + j] === id)) return withSpecial.slice(i + bare.length);
  }
  return [];
}

function finiteOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function joinPath(base: string, modelId: string): string {
  return `${base.endsWith('/') ? base : `${base}/`}${modelId}/`;
}
