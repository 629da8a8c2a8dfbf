// Document vectors made by a workbench server (`dsw serve --model`): the texts go over in batches to its `embed`
// endpoint, the vectors come back in order. Its model runs on onnxruntime-node with every core, much faster than
// transformers.js in a tab.
import { isAbortError, throwIfAborted } from '../abort/index.ts';
import type { WorkbenchServerClient } from './server-client.ts';
import { SERVE_MAX_BODY_BYTES, SERVE_MAX_EMBED_TEXTS, ServeError, type ServedEmbedResponse } from './serve-protocol.ts';
import type { EmbeddingModelInfo } from '../embedding/index.ts';
import type { EmbedCorpusProgress } from '../use-cases/index.ts';

/** The served corpus whose model embeds, and that model. */
export interface ServerEmbeddingModel {
  servedCorpusId: string;
  model: EmbeddingModelInfo;
}

/** The first served corpus with an embedding set: its model is the server's `--model`. */
export async function serverEmbeddingModel(client: WorkbenchServerClient, signal?: AbortSignal): Promise<ServerEmbeddingModel> {
  const corpora = await client.listCorpora();
  throwIfAborted(signal);
  const withModel = corpora.find((c) => c.embeddingSets.length > 0);
  if (!withModel) {
    throw new Error(
      `The workbench server at ${client.server} has no embedding model (it serves ${corpora.map((c) => c.id).join(', ') || 'nothing'} without one): ` +
        'start it with dsw serve --dataset <folder> --model <folder or id>.',
    );
  }
  return { servedCorpusId: withModel.id, model: withModel.embeddingSets[0]!.model };
}

export interface ServerEmbedOptions {
  /** Texts per request (default 32; at most SERVE_MAX_EMBED_TEXTS). */
  batchSize?: number;
  /** Request body budget in bytes (default half the server's limit). */
  maxBodyBytes?: number;
  signal?: AbortSignal;
  onProgress?: (progress: EmbedCorpusProgress) => void;
}

/** What the server made of the texts: `texts.length × model.dimensions` values in the order sent. */
export interface ServerEmbedded {
  values: Float32Array;
  model: EmbeddingModelInfo;
  maxTokens: number;
  requests: number;
}

/** A text is cut to this many characters before sending: far beyond any model's token limit (512 tokens). */
const MAX_TEXT_CHARS = 100_000;

/**
 * Embeds `texts` on the server, one batch per request, one request at a time (the server uses every core for
 * each). Batches close at `batchSize` texts or at the body budget. The answers are checked: one vector per text,
 * every vector of the model's dimension and finite, the same model throughout.
 */
export async function embedThroughServer(
  client: WorkbenchServerClient,
  servedCorpusId: string,
  texts: readonly string[],
  options: ServerEmbedOptions = {},
): Promise<ServerEmbedded> {
  const batchSize = Math.max(1, Math.min(options.batchSize ?? 32, SERVE_MAX_EMBED_TEXTS));
  const budget = options.maxBodyBytes ?? SERVE_MAX_BODY_BYTES / 2;
  const encoder = new TextEncoder();
  const started = performance.now();
  let values: Float32Array | null = null;
  let model: EmbeddingModelInfo | null = null;
  let maxTokens = 0;
  let requests = 0;
  for (let start = 0; start < texts.length; ) {
    throwIfAborted(options.signal);
    const batch: string[] = [];
    let bytes = 16;
    while (start + batch.length < texts.length && batch.length < batchSize) {
      const text = texts[start + batch.length]!.slice(0, MAX_TEXT_CHARS);
      const size = encoder.encode(JSON.stringify(text)).length + 1;
      if (batch.length > 0 && bytes + size > budget) break;
      batch.push(text);
      bytes += size;
    }
    const answer = await embedOnce(client, servedCorpusId, batch, options.signal);
    requests++;
    const dims = answer.model?.dimensions;
    if (!model) {
      model = answer.model;
      maxTokens = answer.maxTokens;
      if (!Number.isInteger(dims) || dims < 1) throw new Error(`The workbench server at ${client.server} answered embed without a model dimension.`);
      values = new Float32Array(texts.length * dims);
    } else if (answer.model.modelId !== model.modelId || dims !== model.dimensions) {
      throw new Error(`The workbench server at ${client.server} changed model during the import (${model.modelId} → ${answer.model.modelId}); start again.`);
    }
    if (!Array.isArray(answer.vectors) || answer.vectors.length !== batch.length) {
      throw new Error(`The workbench server at ${client.server} answered ${answer.vectors?.length ?? 'no'} vectors for ${batch.length} texts.`);
    }
    answer.vectors.forEach((vector, i) => {
      if (!Array.isArray(vector) || vector.length !== dims || !vector.every((v) => typeof v === 'number' && Number.isFinite(v))) {
        throw new Error(`The workbench server at ${client.server} answered a vector that is not ${dims} finite numbers (text ${start + i + 1}).`);
      }
      values!.set(vector, (start + i) * dims);
    });
    start += batch.length;
    const elapsedMs = performance.now() - started;
    const docsPerSecond = start / (elapsedMs / 1000);
    options.onProgress?.({ done: start, total: texts.length, docsPerSecond, elapsedMs, secondsLeft: (texts.length - start) / docsPerSecond });
  }
  if (!model || !values) throw new Error('No texts to embed.');
  return { values, model, maxTokens, requests };
}

/** One embed request, sent again once when the connection failed (a kept-alive socket the server had just closed). */
async function embedOnce(client: WorkbenchServerClient, servedCorpusId: string, batch: string[], signal: AbortSignal | undefined): Promise<ServedEmbedResponse> {
  try {
    return await client.embed(servedCorpusId, batch, signal);
  } catch (error) {
    if (isAbortError(error) || error instanceof ServeError) throw error;
    return client.embed(servedCorpusId, batch, signal);
  }
}
