import type { PickedFile } from '../../workers/corpus-worker-api.ts';

/** Files chosen with an <input type=file> (with or without `webkitdirectory`). */
export function filesFromInput(list: FileList | null): PickedFile[] {
  return [...(list ?? [])].map((file) => ({ file, path: file.webkitRelativePath || file.name }));
}

/**
 * Files and folders dropped on the page, folders walked recursively. The entries must be taken synchronously
 * inside the drop handler, before anything is awaited, so call this first thing there.
 */
export function filesFromDrop(dataTransfer: DataTransfer): Promise<PickedFile[]> {
  const entries = [...dataTransfer.items]
    .map((item) => (item.kind === 'file' ? item.webkitGetAsEntry() : null))
    .filter((entry): entry is FileSystemEntry => entry !== null);
  if (entries.length === 0) return Promise.resolve(filesFromInput(dataTransfer.files));
  return Promise.all(entries.map(walk)).then((lists) => lists.flat());
}

async function walk(entry: FileSystemEntry): Promise<PickedFile[]> {
  const path = entry.fullPath.replace(/^\//, '');
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    return [{ file, path }];
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const children: FileSystemEntry[] = [];
  // readEntries returns at most ~100 entries per call; keep reading until it returns none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    children.push(...batch);
  }
  const nested = await Promise.all(children.filter((c) => !c.name.startsWith('.')).map(walk));
  return nested.flat();
}

/** What the picked files look like, to decide which options the load form shows. */
export interface SelectionKind {
  beir: boolean;
  /** The first JSONL/CSV/TSV file when the selection is not a BEIR folder: it needs a field mapping. */
  mappable: PickedFile | null;
  /** Whether plain text or Markdown files are present: they take passage options. */
  hasText: boolean;
  /** A name for the corpus: the folder's, or the single file's without extension. */
  suggestedName: string;
}

export function describeSelection(files: PickedFile[]): SelectionKind {
  const base = (p: string) => p.split('/').pop() ?? p;
  const beir = files.some((f) => base(f.path) === 'corpus.jsonl' || /\.zip$/i.test(f.path));
  const mappable = beir ? null : (files.find((f) => /\.(jsonl|ndjson|csv|tsv)$/i.test(f.path)) ?? null);
  const hasText = files.some((f) => /\.(txt|md|markdown)$/i.test(f.path));
  const first = files[0]?.path ?? 'corpus';
  const folder = first.includes('/') ? first.split('/')[0]! : base(first).replace(/\.[^.]+$/, '');
  return { beir, mappable, hasText, suggestedName: folder };
}
