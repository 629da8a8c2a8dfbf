import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** What a spool needs of an open file (a `FileHandle`; tests wrap one to count bytes). */
export type SpoolFile = Pick<fsp.FileHandle, 'read' | 'write' | 'close'>;

/** Folders of spools still open, removed if the process exits without closing them. */
const openFolders = new Set<string>();
let exitHookInstalled = false;

/** Removes `folder` if the process exits before {@link forgetOnExit} is called for it (spools' own folders). */
export function removeOnExit(folder: string): void {
  openFolders.add(folder);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const f of openFolders) fs.rmSync(f, { recursive: true, force: true });
  });
}

export function forgetOnExit(folder: string): void {
  openFolders.delete(folder);
}

/**
 * Makes a spool's own folder under `dir` (default the OS temp folder) and opens `fileName` in it; the folder is
 * removed when the process exits unless the spool forgets it on close. Errors name the spool (`what`) and the path.
 */
export async function openSpoolFile(
  what: 'document' | 'vector',
  fileName: string,
  options: { dir?: string; open?: (file: string) => Promise<SpoolFile> },
): Promise<{ handle: SpoolFile; file: string; folder: string }> {
  const parent = options.dir ?? os.tmpdir();
  let folder: string;
  try {
    folder = await fsp.mkdtemp(path.join(parent, `dsw-${what}s-`));
  } catch (error) {
    throw new Error(`Cannot make a folder for the ${what} spool in ${parent}: ${(error as Error).message}`);
  }
  const file = path.join(folder, fileName);
  try {
    const handle = await (options.open ?? ((f) => fsp.open(f, 'w+')))(file);
    removeOnExit(folder);
    return { handle, file, folder };
  } catch (error) {
    await fsp.rm(folder, { recursive: true, force: true });
    throw new Error(`Cannot open the ${what} spool ${file}: ${(error as Error).message}`);
  }
}

/** Closes a spool's file and removes its folder (also when closing fails), which then needs no removal at exit. */
export async function closeSpoolFile(file: SpoolFile, folder: string): Promise<void> {
  try {
    await file.close();
  } finally {
    await fsp.rm(folder, { recursive: true, force: true });
    forgetOnExit(folder);
  }
}

/** Writes all of `buffer` at `position` (a positional write may write less than asked). */
export async function writeFully(file: SpoolFile, buffer: Buffer, position: number): Promise<void> {
  for (let done = 0; done < buffer.length; ) {
    const { bytesWritten } = await file.write(buffer, done, buffer.length - done, position + done);
    done += bytesWritten;
  }
}

/** Fills `buffer` from `position`; a file that ends first is an error naming the spool (`what`) and its path. */
export async function readFully(file: SpoolFile, buffer: Buffer, position: number, what: 'document' | 'vector', filePath: string): Promise<void> {
  for (let done = 0; done < buffer.length; ) {
    const { bytesRead } = await file.read(buffer, done, buffer.length - done, position + done);
    if (bytesRead === 0) throw new Error(`The ${what} spool ${filePath} ends early (at byte ${position + done})`);
    done += bytesRead;
  }
}
