import MiniSearch, { type Options } from 'minisearch';
import { compactFreqs, type FlatCompactIndex } from './compact/compact-index.ts';
import { packStrings } from './compact/string-table.ts';

/**
 * A MiniSearch index as flat typed arrays: what the BM25 index stores. Structured clone (IndexedDB, postMessage)
 * copies typed arrays as raw memory, and restoring builds MiniSearch's maps directly from them, with none of the
 * string parsing of MiniSearch's JSON format. Only single-field indexes are supported (the workbench indexes
 * title + text as one field).
 */
export interface MiniSearchSnapshot {
  documentCount: number;
  nextId: number;
  dirtCount: number;
  averageFieldLength: number[];
  fieldIds: Record<string, number>;
  /** External document ids, aligned with `shortIds` and `fieldLengths`. */
  ids: string[];
  shortIds: Uint32Array;
  fieldLengths: Uint32Array;
  terms: string[];
  /** Postings of `terms[i]` are at `[termStarts[i], termStarts[i + 1])` of `postingDocs` / `postingFreqs`. */
  termStarts: Uint32Array;
  postingDocs: Uint32Array;
  postingFreqs: Uint32Array;
}

// MiniSearch 7.2 (pinned) keeps its index in these fields; MiniSearch's own toJSON/loadJS read and write them
// the same way. The round-trip tests in bm25-index.test.ts guard this against an upgrade.
interface MiniSearchInternals {
  _documentCount: number;
  _nextId: number;
  _dirtCount: number;
  _avgFieldLength: number[];
  _fieldIds: Record<string, number>;
  _documentIds: Map<number, string>;
  _idToShortId: Map<string, number>;
  _fieldLength: Map<number, number[]>;
  _index: { set(term: string, data: Map<number, Map<number, number>>): unknown } & Iterable<[string, Map<number, Map<number, number>>]>;
}

const internals = <T>(ms: MiniSearch<T>) => ms as unknown as MiniSearchInternals;

export function takeSnapshot<T>(miniSearch: MiniSearch<T>): MiniSearchSnapshot {
  const ms = internals(miniSearch);
  if (Object.keys(ms._fieldIds).length !== 1) throw new Error('Only single-field MiniSearch indexes can be snapshotted');
  const n = ms._documentIds.size;
  const ids = new Array<string>(n);
  const shortIds = new Uint32Array(n);
  const fieldLengths = new Uint32Array(n);
  let i = 0;
  for (const [shortId, id] of ms._documentIds) {
    ids[i] = id;
    shortIds[i] = shortId;
    fieldLengths[i] = ms._fieldLength.get(shortId)?.[0] ?? 0;
    i++;
  }
  const terms: string[] = [];
  const starts: number[] = [0];
  const docs: number[] = [];
  const freqs: number[] = [];
  for (const [term, fieldIndex] of ms._index) {
    const postings = fieldIndex.get(0);
    if (!postings || postings.size === 0) continue;
    terms.push(term);
    for (const [doc, freq] of postings) {
      docs.push(doc);
      freqs.push(freq);
    }
    starts.push(docs.length);
  }
  return {
    documentCount: ms._documentCount,
    nextId: ms._nextId,
    dirtCount: ms._dirtCount,
    averageFieldLength: [...ms._avgFieldLength],
    fieldIds: { ...ms._fieldIds },
    ids,
    shortIds,
    fieldLengths,
    terms,
    termStarts: Uint32Array.from(starts),
    postingDocs: Uint32Array.from(docs),
    postingFreqs: Uint32Array.from(freqs),
  };
}

export function restoreSnapshot<T>(snapshot: MiniSearchSnapshot, options: Options<T>): MiniSearch<T> {
  // loadJS with an empty index sets up every other private field exactly as MiniSearch does itself.
  const miniSearch = MiniSearch.loadJS<T>(
    {
      documentCount: snapshot.documentCount,
      nextId: snapshot.nextId,
      documentIds: {},
      fieldIds: snapshot.fieldIds,
      fieldLength: {},
      averageFieldLength: snapshot.averageFieldLength,
      storedFields: {},
      dirtCount: snapshot.dirtCount,
      index: [],
      serializationVersion: 2,
    },
    options,
  );
  const ms = internals(miniSearch);
  const { ids, shortIds, fieldLengths, terms, termStarts, postingDocs, postingFreqs } = snapshot;
  for (let i = 0; i < ids.length; i++) {
    ms._documentIds.set(shortIds[i]!, ids[i]!);
    ms._idToShortId.set(ids[i]!, shortIds[i]!);
    ms._fieldLength.set(shortIds[i]!, [fieldLengths[i]!]);
  }
  for (let t = 0; t < terms.length; t++) {
    const postings = new Map<number, number>();
    for (let p = termStarts[t]!, end = termStarts[t + 1]!; p < end; p++) postings.set(postingDocs[p]!, postingFreqs[p]!);
    ms._index.set(terms[t]!, new Map([[0, postings]]));
  }
  return miniSearch;
}

/** The compact index holding the same postings as a snapshot (reads format version 2 records). */
export function compactFromSnapshot(snapshot: MiniSearchSnapshot): FlatCompactIndex {
  const { ids, shortIds, fieldLengths, terms, termStarts, postingDocs, postingFreqs } = snapshot;
  const docOf = new Map<number, number>();
  for (let i = 0; i < shortIds.length; i++) docOf.set(shortIds[i]!, i);
  const order = Array.from({ length: terms.length }, (_, t) => t).sort((a, b) =>
    terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0,
  );
  const starts = new Uint32Array(terms.length + 1);
  const docs = new Uint32Array(postingDocs.length);
  const freqs = new Uint32Array(postingDocs.length);
  let at = 0;
  let maxFreq = 0;
  order.forEach((t, r) => {
    const postings: Array<[number, number]> = [];
    for (let p = termStarts[t]!; p < termStarts[t + 1]!; p++) postings.push([docOf.get(postingDocs[p]!)!, postingFreqs[p]!]);
    postings.sort((a, b) => a[0] - b[0]);
    for (const [doc, freq] of postings) {
      docs[at] = doc;
      freqs[at++] = freq;
      if (freq > maxFreq) maxFreq = freq;
    }
    starts[r + 1] = at;
  });
  return {
    documentCount: snapshot.documentCount,
    averageLength: snapshot.averageFieldLength[0] ?? 0,
    ids: packStrings(ids),
    lengths: Uint32Array.from(fieldLengths),
    terms: packStrings(order.map((t) => terms[t]!)),
    termStarts: starts,
    postingDocs: docs,
    postingFreqs: compactFreqs(freqs, maxFreq),
  };
}
