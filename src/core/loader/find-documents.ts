import { ingest, type IngestOptions, type FileSource, type CorpusDocument } from '../corpus/index.ts';

/**
 * Reads the files again and keeps only the documents asked for: how a corpus that is not held in memory shows
 * its hits. One streaming pass; nothing else is kept.
 */
export async function findDocuments(
  sources: FileSource[],
  options: IngestOptions,
  ids: readonly string[],
  signal?: AbortSignal,
): Promise<Array<CorpusDocument | undefined>> {
  const wanted = new Map<string, CorpusDocument | undefined>(ids.map((id) => [id, undefined]));
  let missing = wanted.size;
  const found = new AbortController();
  try {
    await ingest(
      sources,
      options,
      {
        onBatch(batch) {
          for (const doc of batch.documents) {
            if (wanted.has(doc.id) && wanted.get(doc.id) === undefined) {
              wanted.set(doc.id, doc);
              missing--;
            }
          }
          if (missing === 0) found.abort();
        },
      },
      signal ? AbortSignal.any([signal, found.signal]) : found.signal,
    );
  } catch (error) {
    if (!found.signal.aborted || signal?.aborted) throw error;
  }
  return ids.map((id) => wanted.get(id));
}
