/** A file to ingest: a browser File satisfies it, and so does a Node Blob from fs.openAsBlob plus a name. */
export interface FileSource {
  /** The file name, e.g. `test.tsv`. */
  name: string;
  /** path inside a dropped folder or zip, '/'-separated, e.g. 'scifact/qrels/test.tsv'; defaults to name */
  path?: string;
  /** Size in bytes (for a zip entry: its uncompressed size, 0 when the archive does not say). */
  size: number;
  /** A fresh stream of the file's bytes on every call. */
  stream(): ReadableStream<Uint8Array>;
}

/** A Blob (e.g. from Node's `fs.openAsBlob`) as a FileSource. */
export function blobSource(blob: Blob, name: string, path?: string): FileSource {
  return { name, path, size: blob.size, stream: () => blob.stream() as ReadableStream<Uint8Array> };
}

/** The source's '/'-separated path (backslashes and a leading './' or '/' removed). */
export function sourcePath(source: FileSource): string {
  return normalizePath(source.path ?? source.name);
}

export function normalizePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '');
}

/** The last segment of a '/'-separated path. */
export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The directory part of a '/'-separated path ('' at top level). */
export function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** The lower-case extension without the dot ('' when there is none). */
export function extension(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The file name without its extension. */
export function stem(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? name : name.slice(0, dot);
}

/** Hidden files and archive clutter (`.DS_Store`, `__MACOSX/`), which are skipped without an issue. */
export function isJunkPath(path: string): boolean {
  return basename(path).startsWith('.') || path.split('/').includes('__MACOSX');
}
