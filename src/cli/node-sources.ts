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
  return Promise.all(folderFiles(dir).map((rel) => fileSource(path.join(dir, rel), dir)));
}

/**
 * Every file below `dir` ('/'-separated paths relative to it, sorted; dot-files skipped). The one symlink policy of
 * every loader: a link that stays inside the folder is followed (a file reached twice is listed once, under its
 * shortest path; a folder reached twice is walked once), a link that leaves it, or leads nowhere, is refused with
 * words, so no file is silently skipped and nothing outside the chosen folder is read.
 */
export function folderFiles(dir: string): string[] {
  const root = fs.realpathSync(dir);
  const inside = (real: string) => real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
  const walkedDirs = new Set<string>([root]);
  const byRealPath = new Map<string, string>();
  const walk = (current: string, rel: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(current, entry.name);
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      let real = full;
      let kind: 'dir' | 'file' | 'other' = entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other';
      if (entry.isSymbolicLink()) {
        const target = fs.readlinkSync(full);
        try {
          real = fs.realpathSync(full);
        } catch {
          throw new CliError(`${relPath} in ${dir} is a symbolic link to ${target}, which does not exist`);
        }
        if (!inside(real)) {
          throw new CliError(
            `${relPath} in ${dir} is a symbolic link that leaves the folder (to ${real}); links are followed only inside the folder given. Give the folder that holds the data, or copy the file in`,
          );
        }
        const stat = fs.statSync(real);
        kind = stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'other';
      } else if (kind !== 'other') {
        real = fs.realpathSync(full);
      }
      if (kind === 'dir') {
        if (walkedDirs.has(real)) continue;
        walkedDirs.add(real);
        walk(full, relPath);
      } else if (kind === 'file') {
        const seen = byRealPath.get(real);
        if (seen === undefined || depth(relPath) < depth(seen) || (depth(relPath) === depth(seen) && relPath < seen)) byRealPath.set(real, relPath);
      }
    }
  };
  walk(root, '');
  return [...byRealPath.values()].sort();
}

const depth = (rel: string) => rel.split('/').length;
