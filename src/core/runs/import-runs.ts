// What importing runs from a file does to them: each becomes a marked copy for this corpus.
import { newSweepId, sweepTagOf, type SweepRunTag } from './saved-sweep.ts';
import { newRunId, type RunRecord, type RunSummary } from './run-record.ts';

/** Where the runs are imported. */
export interface RunImportContext {
  corpusId: string;
  corpusName: string;
  fileName: string;
  /** When (ms since the epoch). */
  at: number;
  /** The runs already stored for this corpus. */
  existing: readonly RunSummary[];
  /** New run ids (default `newRunId`). */
  newId?: () => string;
}

/** A run of the file that is already stored here (imported before, or made here and exported). */
export interface RunAlreadyHere {
  /** The run's name in the file. */
  name: string;
  /** The stored run it matches. */
  existingName: string;
  /** When the stored copy was imported; null when it was made here. */
  importedAt: number | null;
}

/** The records to save, and which of them were already here. */
export interface PreparedRunImport {
  records: RunRecord[];
  alreadyHere: RunAlreadyHere[];
}

/**
 * Every run of the file becomes a new run of this corpus, marked `imported` with the file, the time and its id in
 * the file. A run already stored (same original id) is imported again as a marked copy and listed in
 * `alreadyHere`, so a person is told and can delete either. A sweep already stored gets a new sweep id for the
 * copy, so the two never merge into one sweep (in the Runs groups or the GQR lab). Not rescored here.
 */
export function prepareRunImport(parsed: readonly RunRecord[], context: RunImportContext): PreparedRunImport {
  const newId = context.newId ?? newRunId;
  const byOriginal = new Map<string, RunSummary>();
  for (const run of context.existing) {
    byOriginal.set(run.id, run);
    if (run.imported?.originalId) byOriginal.set(run.imported.originalId, run);
  }
  const storedSweeps = new Set(context.existing.map((r) => sweepTagOf(r)?.id).filter((id): id is string => !!id));
  const sweepIds = new Map<string, string>();
  const alreadyHere: RunAlreadyHere[] = [];
  const records = parsed.map((run) => {
    const originalId = run.imported?.originalId ?? run.id;
    const existing = byOriginal.get(originalId);
    if (existing) alreadyHere.push({ name: run.name, existingName: existing.name, importedAt: existing.imported?.at ?? null });
    const moved = run.corpusId !== context.corpusId;
    const note = `Imported from ${context.fileName}${moved ? ` (made on corpus “${run.corpusName}”)` : ''}`;
    return {
      ...run,
      id: newId(),
      corpusId: context.corpusId,
      corpusName: context.corpusName,
      config: withSweepId(run.config, storedSweeps, sweepIds),
      notes: [run.notes, note].filter(Boolean).join('\n'),
      imported: { fileName: context.fileName, at: context.at, originalId },
    };
  });
  return { records, alreadyHere };
}

// A sweep tag pointing at a sweep stored already is moved to a new sweep id (one per original sweep of the file).
function withSweepId(config: Record<string, unknown>, stored: ReadonlySet<string>, ids: Map<string, string>): Record<string, unknown> {
  const tag = sweepTagOf({ config });
  if (!tag || !stored.has(tag.id)) return config;
  let id = ids.get(tag.id);
  if (!id) {
    id = newSweepId();
    ids.set(tag.id, id);
  }
  const sweep: SweepRunTag = { ...tag, id };
  return { ...config, sweep };
}

/** `imported from run.json at 1 Dec 2026, 12:04`: the mark in words (`formatTime` renders the time). */
export function describeImportMark(mark: NonNullable<RunRecord['imported']>, formatTime: (ms: number) => string): string {
  return `imported from ${mark.fileName} at ${formatTime(mark.at)}`;
}
