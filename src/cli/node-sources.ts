import fs from 'node:fs';
import path from 'node:path';
import type { FileSource } from '../core/index.ts';
import { CliError } from './io.ts';

/** A file on disk as a FileSource, streamed from disk (never read into one string). */
export async function fileSource(file: string, relativeTo?: string): Promise<FileSource> {
  const blob = await fs.openAsBlob(file);
  const rel = relativeTo ? path.relative(relativeTo, file).split(path.sep).join('/') : path.basename(file);
  return { name: path.basename(file), path: rel, size: blob.size, stream: () => blob.stream() as ReadableStream<Uint8Array> };
}

/** Every file below `dir` (a BEIR folder, or any folder of loadable files), paths relative to `dir`. */
export async function directorySources(dir: string): Promise<FileSource[]> {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new CliError(`Cannot read dataset ${dir}: no such file or directory`);
  }
  if (!stat.isDirectory()) return [await fileSource(dir)];
  const files: string[] = [];
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  walk(dir);
  files.sort();
  return Promise.all(files.map((f) => fileSource(f, dir)));
}
