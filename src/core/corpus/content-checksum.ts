// The content checksum of a corpus: what makes two loads "the same corpus" for recipes and snapshots, whatever
// the order, batches or files the documents came in.
import type { CorpusDocument, CorpusQuery, Qrel } from './types.ts';
import { Sha256, toHex } from '../text/index.ts';

const encoder = new TextEncoder();

/**
 * A checksum over a set of items that does not depend on their order: the SHA-256 of the item count and the sum
 * (mod 2^256) of each item's SHA-256. Items are hashed as `JSON.stringify` of a fixed tuple, UTF-8.
 * Format `dsw-set-v1`; documents hash `[id, title, text]`, queries `[id, text, answers]`, qrels `[queryId, docId, relevance]`.
 */
export class SetChecksum {
  private readonly sum = new Uint32Array(8);
  private count = 0;

  add(tuple: readonly unknown[]): void {
    const digest = new Sha256().update(encoder.encode(JSON.stringify(tuple))).digest();
    let carry = 0;
    for (let i = 7; i >= 0; i--) {
      const word = ((digest[4 * i]! << 24) | (digest[4 * i + 1]! << 16) | (digest[4 * i + 2]! << 8) | digest[4 * i + 3]!) >>> 0;
      const total = this.sum[i]! + word + carry;
      this.sum[i] = total >>> 0;
      carry = total > 0xffffffff ? 1 : 0;
    }
    this.count++;
  }

  /** `sha256:<hex>` of the set so far. */
  value(): string {
    const sum = new Uint8Array(32);
    const view = new DataView(sum.buffer);
    for (let i = 0; i < 8; i++) view.setUint32(4 * i, this.sum[i]!);
    return `sha256:${toHex(new Sha256().update(encoder.encode(`dsw-set-v1\n${this.count}\n`)).update(sum).digest())}`;
  }
}

/** Adds a document to a corpus checksum (the fields retrieval reads: id, title, text). */
export function addDocument(checksum: SetChecksum, doc: CorpusDocument): void {
  checksum.add([doc.id, doc.title ?? '', doc.text]);
}

/** The checksum of a list of documents. */
export function documentsChecksum(docs: Iterable<CorpusDocument>): string {
  const checksum = new SetChecksum();
  for (const doc of docs) addDocument(checksum, doc);
  return checksum.value();
}

/** The checksum of a query set (ids, texts, gold answers). */
export function queriesChecksum(queries: Iterable<CorpusQuery>): string {
  const checksum = new SetChecksum();
  for (const q of queries) checksum.add([q.id, q.text, q.answers ?? []]);
  return checksum.value();
}

/** The checksum of relevance judgements. */
export function qrelsChecksum(qrels: Iterable<Qrel>): string {
  const checksum = new SetChecksum();
  for (const r of qrels) checksum.add([r.queryId, r.docId, r.relevance]);
  return checksum.value();
}
