import type { CorpusDocument, DocumentSpool } from '../core/index.ts';
import { closeSpoolFile, openSpoolFile, readFully, writeFully, type SpoolFile } from './spool-folder.ts';

export interface FileSpoolOptions {
  /** Folder in which the spool's own folder is made (default the OS temp folder). */
  dir?: string;
  /** Opens the spool file (default `fs.promises.open(file, 'w+')`). */
  open?: (file: string) => Promise<SpoolFile>;
}

/** End offsets are kept in chunks of 2^16 (512 KB): no copy as they grow, at most one chunk unused. */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;

/**
 * A document spool in a file: each document as one JSON line (what was parsed, so the source's format and
 * encoding no longer matter), its end offset in Float64Arrays (8 bytes a document), read back with one
 * positioned read per document. The file lives in a folder of its own, removed on close or when the process exits.
 */
export class FileDocumentSpool implements DocumentSpool {
  private readonly ends: Float64Array[] = [];
  private documents = 0;
  private bytes = 0;
  private readonly pending = new Set<Promise<unknown>>();
  private failure: Error | undefined;
  private closed = false;

  private constructor(
    private readonly file: SpoolFile,
    /** The spool file's path (for messages and tests). */
    readonly path: string,
    private readonly folder: string,
  ) {}

  static async create(options: FileSpoolOptions = {}): Promise<FileDocumentSpool> {
    const { handle, file, folder } = await openSpoolFile('document', 'documents.jsonl', options);
    return new FileDocumentSpool(handle, file, folder);
  }

  get count(): number {
    return this.documents;
  }

  /** Bytes the file holds (written or being written). */
  get size(): number {
    return this.bytes;
  }

  append(documents: readonly CorpusDocument[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The document spool is closed'));
    if (documents.length === 0) return Promise.resolve();
    const lines = documents.map((doc) => Buffer.from(JSON.stringify(doc) + '\n'));
    const position = this.bytes;
    for (const line of lines) {
      this.bytes += line.length;
      if ((this.documents & (CHUNK - 1)) === 0) this.ends.push(new Float64Array(CHUNK));
      this.ends[this.documents >>> CHUNK_BITS]![this.documents & (CHUNK - 1)] = this.bytes;
      this.documents++;
    }
    return this.track(this.writeAll(Buffer.concat(lines), position));
  }

  async read(rows: readonly number[]): Promise<CorpusDocument[]> {
    if (this.closed) throw new Error('The document spool is closed');
    if (this.pending.size > 0) await Promise.all(this.pending);
    if (this.failure) throw this.failure;
    return Promise.all(
      rows.map(async (row) => {
        if (!Number.isInteger(row) || row < 0 || row >= this.documents) throw new RangeError(`No document at row ${row} of the spool (it holds ${this.documents})`);
        const start = row === 0 ? 0 : this.endOf(row - 1);
        const buffer = Buffer.allocUnsafe(this.endOf(row) - start - 1);
        await readFully(this.file, buffer, start, 'document', this.path);
        return JSON.parse(buffer.toString('utf8')) as CorpusDocument;
      }),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled(this.pending);
    await closeSpoolFile(this.file, this.folder);
  }

  private endOf(row: number): number {
    return this.ends[row >>> CHUNK_BITS]![row & (CHUNK - 1)]!;
  }

  private async writeAll(buffer: Buffer, position: number): Promise<void> {
    try {
      await writeFully(this.file, buffer, position);
    } catch (error) {
      this.failure ??= new Error(`Cannot write the document spool ${this.path}: ${(error as Error).message}`);
      throw this.failure;
    }
  }

  private track(write: Promise<void>): Promise<void> {
    this.pending.add(write);
    const settle = () => this.pending.delete(write);
    write.then(settle, settle);
    return write;
  }
}
