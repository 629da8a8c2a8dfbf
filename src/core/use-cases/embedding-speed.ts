import type { CorpusStore } from '../storage/index.ts';
import { documentText, type Embedder } from '../embedding/index.ts';

/** Docs/s of a model on a corpus, measured on a first small batch. */
export interface EmbeddingSpeed {
  /** Documents timed (after one untimed warm-up text). */
  documents: number;
  seconds: number;
  docsPerSecond: number;
}

/**
 * Times the embedder on the corpus's first `sample` documents (in id order, as one batch, after one untimed text
 * that warms the runtime up). Nothing is stored. A first batch pads to its longest text where the real run sorts
 * texts by length, so the figure errs on the slow side.
 */
export async function measureEmbeddingSpeed(
  embedder: Embedder,
  corpora: CorpusStore,
  corpusId: string,
  options: { sample: number; signal?: AbortSignal },
): Promise<EmbeddingSpeed> {
  const documents = await corpora.listDocuments(corpusId, { limit: Math.max(1, options.sample) });
  if (documents.length === 0) throw new Error(`Corpus ${corpusId} has no stored documents to embed.`);
  const texts = documents.map(documentText);
  await embedder.embedTexts([texts[0]!], 'passage');
  options.signal?.throwIfAborted();
  const started = performance.now();
  await embedder.embedTexts(texts, 'passage');
  const seconds = Math.max(1e-6, (performance.now() - started) / 1000);
  return { documents: texts.length, seconds, docsPerSecond: texts.length / seconds };
}

/** Seconds to embed the `remaining` documents at `docsPerSecond`. */
export function secondsToEmbed(remaining: number, docsPerSecond: number): number {
  return docsPerSecond > 0 ? remaining / docsPerSecond : Infinity;
}
