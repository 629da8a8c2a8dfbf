import { Unzip, UnzipInflate, UnzipPassThrough, type AsyncFlateStreamHandler, type UnzipDecoder, type UnzipDecoderConstructor, type UnzipFile } from 'fflate';
import { readChunks } from './lines.ts';
import { basename, normalizePath, type FileSource } from './source.ts';

/** One file of a zip archive, as its local header describes it. */
export interface ZipEntryInfo {
  /** Position among the archive's entries (directories included), from 0. */
  index: number;
  /** Path inside the archive, '/'-separated. */
  name: string;
  /** Uncompressed size, when the archive states it up front. */
  size?: number;
  /** PKZIP compression method: 0 stored, 8 deflate (the two supported). */
  compression: number;
}

const DECODERS: Record<number, UnzipDecoderConstructor> = { 0: UnzipPassThrough, 8: UnzipInflate };

/** Limits on what one zip entry may inflate to: past them the entry is refused as a likely zip bomb. */
export interface ZipLimits {
  /** Largest inflated size of one entry, in bytes. Default 4 GiB. */
  maxEntryBytes: number;
  /** Largest inflated/compressed ratio, checked once an entry has inflated `ratioAfterBytes`. Default 200. */
  maxRatio: number;
  /** Inflated bytes before the ratio is checked (small entries may compress very well). Default 8 MiB. */
  ratioAfterBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntryBytes: 4 * 1024 ** 3, maxRatio: 200, ratioAfterBytes: 8 * 1024 ** 2 };

/** Compressed bytes handed to the inflater at a time, so one read inflates to at most ~1 MiB (deflate's ratio is ≤ 1032). */
const INPUT_SLICE_BYTES = 1024;


/**
 * Lists the entries of a zip by streaming through it once; entry data is skipped without being decompressed or kept.
 * Throws when the archive is truncated or malformed.
 */
export async function listZipEntries(zip: FileSource, signal?: AbortSignal): Promise<ZipEntryInfo[]> {
  const entries: ZipEntryInfo[] = [];
  const walk = new ZipWalk(() => false, (file, index) => {
    entries.push({ index, name: normalizePath(file.name), compression: file.compression, ...(file.originalSize === undefined ? {} : { size: file.originalSize }) });
  });
  for await (const chunk of readChunks(zip.stream(), signal)) walk.push(chunk, false);
  walk.push(new Uint8Array(0), true);
  return entries;
}

/**
 * A zip entry as a FileSource. Each `stream()` call streams through the archive again, up to the end of this entry,
 * inflating only this entry's data as the reader pulls it; nothing beyond one input chunk's output is buffered.
 */
export function zipEntrySource(zip: FileSource, entry: ZipEntryInfo, limits: ZipLimits = DEFAULT_ZIP_LIMITS): FileSource {
  return { name: basename(entry.name), path: entry.name, size: entry.size ?? 0, stream: () => zipEntryStream(zip, entry, limits) };
}

/** The files of a zip (directories left out) as FileSources, in archive order. */
export async function expandZip(zip: FileSource, signal?: AbortSignal, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<FileSource[]> {
  const entries = await listZipEntries(zip, signal);
  return entries.filter((e) => !e.name.endsWith('/')).map((e) => zipEntrySource(zip, e, limits));
}

function zipEntryStream(zip: FileSource, entry: ZipEntryInfo, limits: ZipLimits): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const queue: Uint8Array[] = [];
  let ended = false;
  let failure: Error | undefined;
  let found = false;
  let cancelled = false;
  /** Archive bytes pushed since this entry began, and what it has inflated to. */
  let compressed = 0;
  let inflated = 0;
  let input: Uint8Array | null = null;
  let inputAt = 0;
  let inputDone = false;
  const walk = new ZipWalk(
    (index) => index === entry.index,
    (file, index) => {
      if (index !== entry.index) return;
      found = true;
      compressed = 0;
      if (!DECODERS[file.compression]) failure = new Error(`unsupported zip compression method ${file.compression} for ${entry.name}`);
    },
    (error, data, final) => {
      if (error) failure = new Error(`zip entry ${entry.name} could not be inflated (damaged or encrypted?): ${error.message}`);
      else if (data.byteLength > 0) {
        inflated += data.byteLength;
        const refusal = bombCheck(entry.name, inflated, compressed, limits);
        if (refusal) failure = refusal;
        else queue.push(data);
      }
      if (final) ended = true;
    },
  );
  const close = () => reader?.cancel().catch(() => undefined);
  return new ReadableStream<Uint8Array>(
    {
      start() {
        reader = zip.stream().getReader();
      },
      async pull(controller) {
        while (queue.length === 0 && !ended && !failure) {
          if (input === null && !inputDone) {
            const { done, value } = await reader!.read();
            if (cancelled) return;
            if (done) inputDone = true;
            else [input, inputAt] = [value, 0];
          }
          try {
            if (input !== null) {
              const slice = input.subarray(inputAt, inputAt + INPUT_SLICE_BYTES);
              inputAt += slice.byteLength;
              if (inputAt >= input.byteLength) input = null;
              if (found) compressed += slice.byteLength;
              walk.push(slice, false);
            } else walk.push(new Uint8Array(0), true);
          } catch (error) {
            failure = error instanceof Error ? error : new Error(String(error));
          }
          const done = inputDone && input === null;
          if (done && queue.length === 0 && !ended && !failure) {
            failure = new Error(found ? `zip entry ${entry.name} is truncated` : `zip entry ${entry.name} not found`);
          }
        }
        if (queue.length > 0) {
          for (const data of queue.splice(0)) controller.enqueue(data);
        } else if (failure) {
          controller.error(failure);
          await close();
        } else {
          controller.close();
          await close();
        }
      },
      cancel() {
        cancelled = true;
        return close();
      },
    },
    { highWaterMark: 0 },
  );
}

/** The refusal of an entry that inflates past the limits, or null. */
function bombCheck(name: string, inflated: number, compressed: number, limits: ZipLimits): Error | null {
  const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(bytes < 1024 ** 2 ? 2 : 0)} MiB`;
  if (inflated > limits.maxEntryBytes) {
    return new Error(`zip entry ${name} inflates to more than ${mib(limits.maxEntryBytes)}: refused (the rest of the entry is not read)`);
  }
  if (inflated >= limits.ratioAfterBytes && inflated > limits.maxRatio * Math.max(compressed, 1)) {
    return new Error(
      `zip entry ${name} inflates more than ${limits.maxRatio} times (${mib(inflated)} from ${mib(compressed)}): refused as a likely zip bomb (the rest of the entry is not read)`,
    );
  }
  return null;
}

/**
 * Feeds an archive to fflate's streaming Unzip. Every entry is started at once (otherwise fflate would keep its
 * compressed bytes); unwanted entries go to a decoder that drops their data, wanted ones to the real decoder.
 */
class ZipWalk {
  private readonly unzip = new Unzip();
  private readonly registered = new Set<number>();
  private count = 0;
  private wantCurrent = false;

  constructor(
    wanted: (index: number) => boolean,
    onEntry: (file: UnzipFile, index: number) => void,
    onData: AsyncFlateStreamHandler = () => undefined,
  ) {
    this.unzip.onfile = (file) => {
      const index = this.count++;
      onEntry(file, index);
      this.wantCurrent = wanted(index) && DECODERS[file.compression] !== undefined;
      if (!this.registered.has(file.compression)) {
        this.unzip.register(this.selectiveDecoder(file.compression));
        this.registered.add(file.compression);
      }
      file.ondata = this.wantCurrent ? onData : () => undefined;
      file.start();
    };
  }

  push(chunk: Uint8Array, final: boolean): void {
    this.unzip.push(chunk, final);
  }

  /** A decoder class that decodes the entry being started if it is wanted and drops its data otherwise. */
  private selectiveDecoder(compression: number): UnzipDecoderConstructor {
    const walk = this;
    return class SelectiveDecoder implements UnzipDecoder {
      static compression = compression;
      ondata: AsyncFlateStreamHandler = () => undefined;
      private readonly inner: UnzipDecoder | null;
      constructor(name: string, size?: number, originalSize?: number) {
        const Real = walk.wantCurrent ? DECODERS[compression] : undefined;
        this.inner = Real ? new Real(name, size, originalSize) : null;
        if (this.inner) this.inner.ondata = (error, data, final) => this.ondata(error, data, final);
      }
      push(chunk: Uint8Array, final: boolean): void {
        if (this.inner) this.inner.push(chunk, final);
        else if (final) this.ondata(null, new Uint8Array(0), true);
      }
    };
  }
}
