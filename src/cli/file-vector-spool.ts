import type { VectorSpool } from '../core/index.ts';
import { closeSpoolFile, openSpoolFile, readFully, writeFully, type SpoolFile } from './spool-folder.ts';

export interface FileVectorSpoolOptions {
  /** Values per row. */
  dimensions: number;
  /** Folder in which the spool's own folder is made (default the OS temp folder). */
  dir?: string;
  /** Opens the spool file (default `fs.promises.open(file, 'w+')`). */
  open?: (file: string) => Promise<SpoolFile>;
}

/**
 * A vector spool in a file: the float32 rows back to back (row r at byte r × dimensions × 4, so no offsets are
 * kept), read back with one positioned read per run of consecutive rows asked. The file lives in a folder of its
 * own, removed on close or when the process exits.
 */
export class FileVectorSpool implements VectorSpool {
  private rows = 0;
  private readonly pending = new Set<Promise<unknown>>();
  private failure: Error | undefined;
  private closed = false;
  private readonly rowBytes: number;

  private constructor(
    private readonly file: SpoolFile,
    readonly dimensions: number,
    /** The spool file's path (for messages and tests). */
    readonly path: string,
    private readonly folder: string,
  ) {
    this.rowBytes = dimensions * 4;
  }

  static async create(options: FileVectorSpoolOptions): Promise<FileVectorSpool> {
    const { dimensions } = options;
    if (!Number.isInteger(dimensions) || dimensions <= 0) throw new Error(`A vector spool needs a positive whole number of dimensions, got ${dimensions}`);
    const { handle, file, folder } = await openSpoolFile('vector', 'vectors.f32', options);
    return new FileVectorSpool(handle, dimensions, file, folder);
  }

  get count(): number {
    return this.rows;
  }

  /** Bytes the file holds (written or being written). */
  get size(): number {
    return this.rows * this.rowBytes;
  }

  append(values: Float32Array): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The vector spool is closed'));
    const count = values.length / this.dimensions;
    if (!Number.isInteger(count)) return Promise.reject(new Error(`${values.length} values are not whole rows of ${this.dimensions}`));
    if (count === 0) return Promise.resolve();
    const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
    const position = this.size;
    this.rows += count;
    return this.track(this.writeAll(Buffer.from(bytes), position));
  }

  async read(rows: readonly number[]): Promise<Float32Array[]> {
    await this.ready();
    for (const row of rows) this.checkRow(row);
    // Runs of consecutive (or repeated) rows, each one read.
    const order = rows.map((_, i) => i).sort((a, b) => rows[a]! - rows[b]!);
    const out = new Array<Float32Array>(rows.length);
    const reads: Promise<void>[] = [];
    for (let i = 0; i < order.length; ) {
      const first = rows[order[i]!]!;
      let j = i + 1;
      while (j < order.length && rows[order[j]!]! - rows[order[j - 1]!]! <= 1) j++;
      const run = order.slice(i, j);
      const last = rows[order[j - 1]!]!;
      reads.push(
        this.readRows(first, last - first + 1).then((values) => {
          for (const k of run) {
            const at = (rows[k]! - first) * this.dimensions;
            out[k] = values.subarray(at, at + this.dimensions);
          }
        }),
      );
      i = j;
    }
    await Promise.all(reads);
    return out;
  }

  async readRange(first: number, count: number): Promise<Float32Array> {
    await this.ready();
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`Cannot read ${count} rows of the vector spool`);
    if (count === 0) return new Float32Array(0);
    this.checkRow(first);
    this.checkRow(first + count - 1);
    return this.readRows(first, count);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled(this.pending);
    await closeSpoolFile(this.file, this.folder);
  }

  private async ready(): Promise<void> {
    if (this.closed) throw new Error('The vector spool is closed');
    if (this.pending.size > 0) await Promise.all(this.pending);
    if (this.failure) throw this.failure;
  }

  private checkRow(row: number): void {
    if (!Number.isInteger(row) || row < 0 || row >= this.rows) throw new RangeError(`No vector at row ${row} of the spool (it holds ${this.rows})`);
  }

  // Into a fresh Float32Array, so the values are aligned whatever Buffer's pool would give.
  private async readRows(first: number, count: number): Promise<Float32Array> {
    const values = new Float32Array(count * this.dimensions);
    const buffer = Buffer.from(values.buffer);
    const position = first * this.rowBytes;
    await readFully(this.file, buffer, position, 'vector', this.path);
    return values;
  }

  private async writeAll(buffer: Buffer, position: number): Promise<void> {
    try {
      await writeFully(this.file, buffer, position);
    } catch (error) {
      this.failure ??= new Error(`Cannot write the vector spool ${this.path}: ${(error as Error).message}`);
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
