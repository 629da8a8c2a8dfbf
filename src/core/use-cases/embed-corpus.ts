import { taskYielder } from '../abort/index.ts';
import type { CorpusStore, EmbeddingSetRecord, TokenBatch, VectorStore } from '../storage/index.ts';
import {
  documentText, type Embedder, defaultLengthSortWindow, lengthSortWindowSize, longestFirst, embeddingModelKey,
  type TokenEmbedding, type EmbeddingModelSource,
} from '../embedding/index.ts';

/** Options of {@link embedCorpus}. */
export interface EmbedCorpusOptions {
  /** The corpus to embed (must be `ready`). */
  corpusId: string;
  /** Where the model was loaded from; saved with the set so queries can load it again. */
  source: EmbeddingModelSource;
  /** Where inference runs (`webgpu`, `wasm`, `cpu`); saved for the record. */
  device?: string;
  /** Texts per inference call; default the embedder's. */
  batchSize?: number;
  /**
   * Documents whose texts are sorted by token count (longest first) before they are cut into batches, so a batch
   * pads to texts of about its own length; their vectors are stored in id order all the same. Rounded up to whole batches;
   * default 8 batches ({@link defaultLengthSortWindow}); one batch or less (e.g. 1) embeds in id order. A cancel
   * loses at most the window in progress.
   */
  lengthSortWindow?: number;
  /** Rows per stored chunk of a new set; default {@link defaultChunkRows}. A resumed set keeps its own. */
  chunkRows?: number;
  /** Also store token-level (multi-vector) embeddings; new sets only, a resumed set keeps its own choice. */
  tokens?: boolean;
  /**
   * Checked before every model batch (after yielding to the event loop, so an abort sent as a message is heard
   * within one batch); on abort the rows embedded so far are stored, then the abort reason is thrown.
   */
  signal?: AbortSignal;
  /** Called once the set is known, before the first batch; `resumedAt` is the number of rows already stored. */
  onStart?: (set: EmbeddingSetRecord, resumedAt: number) => void;
  /** Called after every batch. */
  onProgress?: (progress: EmbedCorpusProgress) => void;
}

/** Progress of {@link embedCorpus}, after each batch. */
export interface EmbedCorpusProgress {
  /** Documents embedded, counting those stored before a resume. */
  done: number;
  /** Documents in the corpus. */
  total: number;
  /** Documents embedded by this call per second. */
  docsPerSecond: number;
  /** Milliseconds since this call started (model loading excluded). */
  elapsedMs: number;
  /** Estimated seconds left at the current rate (Infinity before the first batch). */
  secondsLeft: number;
}

/** Rows per stored chunk: about 1 MiB of float32 per chunk, between 256 and 4,096 rows. */
export function defaultChunkRows(dimensions: number): number {
  const rows = 2 ** Math.round(Math.log2((1 << 20) / (4 * Math.max(1, dimensions))));
  return Math.min(4096, Math.max(256, rows));
}

/**
 * Embeds every document of a stored corpus (in id order, `documentText` with the passage prefix) into the
 * embedding set of the embedder's model, creating the set or resuming it after its last stored row. Within a
 * window of documents the model sees them longest first (`lengthSortWindow`); rows are kept in id order.
 * Chunks are written as they fill, each together with the set's progress, so a closed tab loses at most the
 * chunk in progress; a cancelled call stores its partial chunk first (the windows done) and loses at most the
 * window in progress.
 * Returns the set as stored at the end.
 */
export async function embedCorpus(
  embedder: Embedder,
  corpora: CorpusStore,
  vectors: VectorStore,
  options: EmbedCorpusOptions,
): Promise<EmbeddingSetRecord> {
  const { corpusId, signal } = options;
  const corpus = await corpora.getCorpus(corpusId);
  if (!corpus || corpus.status !== 'ready') throw new Error(`Corpus ${corpusId} is not stored (it may have been deleted).`);
  const info = embedder.info;
  const modelKey = embeddingModelKey(info);
  const dims = info.dimensions;
  const total = corpus.documentCount;

  let set = await vectors.getSet(corpusId, modelKey);
  if (!set) {
    const now = Date.now();
    set = {
      corpusId,
      modelKey,
      model: info,
      source: options.source,
      maxTokens: embedder.maxTokens,
      chunkRows: options.chunkRows ?? defaultChunkRows(dims),
      tokens: options.tokens ?? false,
      totalRows: total,
      rowsDone: 0,
      lastId: null,
      complete: total === 0,
      device: options.device ?? 'unknown',
      bytes: 0,
      createdAt: now,
      updatedAt: now,
      ...(embedder.modelFiles ? { modelFiles: embedder.modelFiles } : {}),
    };
    await vectors.createSet(set);
  } else if (set.maxTokens !== embedder.maxTokens) {
    throw new Error(
      `The stored vectors of ${info.modelId} were made with texts cut at ${set.maxTokens} tokens, ` +
        `but the model is now set to ${embedder.maxTokens}; use the same setting to resume, or delete the set.`,
    );
  }
  options.onStart?.(set, set.rowsDone);
  if (set.complete) return set;

  const { chunkRows } = set;
  const batchSize = options.batchSize ?? embedder.batchSize;
  if (!Number.isInteger(batchSize) || batchSize <= 0) throw new Error(`batchSize must be a positive integer, got ${batchSize}`);
  const windowSize = lengthSortWindowSize(options.lengthSortWindow ?? defaultLengthSortWindow(batchSize), batchSize);

  // The chunk being filled: a resumed partial chunk is read back and rewritten with the new rows.
  let chunkIndex = Math.floor(set.rowsDone / chunkRows);
  let buffer = new Float32Array(chunkRows * dims);
  let ids: string[] = [];
  const already = set.rowsDone - chunkIndex * chunkRows;
  if (already > 0) {
    const stored = await vectors.getChunk(corpusId, modelKey, chunkIndex);
    if (!stored || stored.ids.length !== already) throw new Error(`The stored vectors of ${info.modelId} are inconsistent; delete the set and embed again.`);
    buffer.set(stored.vectors);
    ids = [...stored.ids];
  }
  let storedRows = set.rowsDone;
  let storedInChunk = ids.length;
  let cursor = set.lastId;
  let pendingTokens: TokenBatch[] = [];
  let pendingTokenBytes = 0;
  let latest = set;

  const flush = async (complete: boolean) => {
    const rows = ids.length;
    const added = rows - storedInChunk;
    await vectors.writeChunk(
      corpusId,
      modelKey,
      { index: chunkIndex, ids: [...ids], vectors: rows === chunkRows ? buffer : buffer.slice(0, rows * dims) },
      pendingTokens,
      { rowsDone: storedRows + added, lastId: cursor!, complete, bytesAdded: added * dims * 4 + pendingTokenBytes },
    );
    storedRows += added;
    pendingTokens = [];
    pendingTokenBytes = 0;
    latest = { ...latest, rowsDone: storedRows, lastId: cursor, complete };
    if (rows === chunkRows) {
      chunkIndex++;
      buffer = new Float32Array(chunkRows * dims);
      ids = [];
    }
    storedInChunk = ids.length;
  };

  const started = performance.now();
  let embedded = 0;
  // At most one task switch per 25 ms: a cancel is heard within one batch, and fast models barely pay for it.
  const pause = taskYielder(25);
  try {
    for (;;) {
      signal?.throwIfAborted();
      const page = await corpora.listDocuments(corpusId, { after: cursor ?? undefined, limit: chunkRows - ids.length });
      if (page.length === 0) break;
      for (let w = 0; w < page.length; w += windowSize) {
        const window = page.slice(w, w + windowSize);
        const texts = window.map(documentText);
        const order = longestFirst(embedder.tokenCounts(texts, 'passage'));
        const startRow = storedRows + (ids.length - storedInChunk);
        // The window's rows in id order; written to the chunk only once all are embedded.
        const pooled = new Float32Array(window.length * dims);
        const tokens: TokenEmbedding[] = [];
        for (let b = 0; b < order.length; b += batchSize) {
          if (signal) await pause();
          signal?.throwIfAborted();
          const rows = order.slice(b, b + batchSize);
          const batchTexts = rows.map((r) => texts[r]!);
          let out: Float32Array;
          if (set.tokens) {
            const both = await embedder.embedTextsWithTokens(batchTexts, 'passage');
            out = both.pooled;
            rows.forEach((r, j) => (tokens[r] = both.tokens[j]!));
          } else {
            out = await embedder.embedTexts(batchTexts, 'passage');
          }
          rows.forEach((r, j) => pooled.set(out.subarray(j * dims, (j + 1) * dims), r * dims));
          embedded += rows.length;
          const done = startRow + b + rows.length;
          const elapsedMs = performance.now() - started;
          const docsPerSecond = elapsedMs > 0 ? (embedded * 1000) / elapsedMs : 0;
          options.onProgress?.({ done, total, docsPerSecond, elapsedMs, secondsLeft: docsPerSecond > 0 ? (total - done) / docsPerSecond : Infinity });
        }
        buffer.set(pooled, ids.length * dims);
        for (const doc of window) ids.push(doc.id);
        cursor = window[window.length - 1]!.id;
        if (set.tokens) {
          const packed = packTokens(startRow, window.map((d) => d.id), tokens, dims);
          pendingTokens.push(packed);
          pendingTokenBytes += packed.vectors.byteLength + packed.counts.byteLength;
        }
      }
      const done = storedRows + ids.length - storedInChunk;
      if (ids.length === chunkRows || done >= total) await flush(done >= total);
      if (latest.complete) break;
    }
    if (!latest.complete) {
      // Fewer documents than the corpus record says (should not happen): store what there is as complete.
      if (ids.length === 0 && chunkIndex === 0) throw new Error(`Corpus ${corpusId} has no stored documents to embed.`);
      if (ids.length === 0 && chunkIndex > 0) {
        const last = (await vectors.getChunk(corpusId, modelKey, chunkIndex - 1))!;
        chunkIndex--;
        buffer = new Float32Array(chunkRows * dims);
        buffer.set(last.vectors);
        ids = [...last.ids];
        storedInChunk = ids.length;
      }
      await flush(true);
    }
  } catch (error) {
    if (signal?.aborted && ids.length > storedInChunk) await flush(false);
    throw error;
  }
  return (await vectors.getSet(corpusId, modelKey)) ?? latest;
}

function packTokens(startRow: number, ids: string[], embeddings: TokenEmbedding[], dims: number): TokenBatch {
  const counts = Int32Array.from(embeddings, (e) => e.count);
  const vectors = new Float32Array(counts.reduce((sum, c) => sum + c, 0) * dims);
  let offset = 0;
  for (const e of embeddings) {
    vectors.set(e.vectors, offset);
    offset += e.vectors.length;
  }
  return { startRow, ids, counts, vectors };
}
