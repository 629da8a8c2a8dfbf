import { useRef } from 'react';
import { create } from 'zustand';
import { exportCorpusSnapshot, importCorpusSnapshot, isAbortError, type CorpusRecord, type SnapshotProgress } from '../../core/index.ts';
import { errorMessage, formatBytes, formatCount } from '../shared/format.ts';
import { downloadBlob, safeFileName } from '../shared/download.ts';
import { announceCorporaChanged } from '../shared/corpora-channel.ts';
import { getCorpusStore, getVectorStore } from '../services/stores.ts';

type SnapshotJob =
  | { status: 'idle' }
  | { status: 'running'; kind: 'export' | 'import'; name: string; progress: SnapshotProgress | null }
  | { status: 'done' | 'failed' | 'cancelled'; kind: 'export' | 'import'; message: string };

let controller: AbortController | null = null;

/** One snapshot export or import at a time, shown on the Corpora page. */
const useSnapshotJob = create<{ job: SnapshotJob; set(job: SnapshotJob): void }>((set) => ({ job: { status: 'idle' }, set: (job) => set({ job }) }));

/** Exports a corpus (documents, queries, qrels, BM25 index, embedding sets) as one snapshot file. */
export async function exportSnapshot(corpus: CorpusRecord): Promise<void> {
  const { job, set } = useSnapshotJob.getState();
  if (job.status === 'running') return;
  controller = new AbortController();
  set({ status: 'running', kind: 'export', name: corpus.name, progress: null });
  try {
    const parts: BlobPart[] = [];
    const stores = { corpora: await getCorpusStore(), vectors: await getVectorStore() };
    // Chunks go straight into Blob parts (kept by the browser, not as one buffer); the file is never one string.
    for await (const chunk of exportCorpusSnapshot(corpus.id, stores, { signal: controller.signal, onProgress: (p) => set({ status: 'running', kind: 'export', name: corpus.name, progress: p }) })) {
      parts.push(chunk as Uint8Array<ArrayBuffer>);
    }
    const blob = new Blob(parts, { type: 'application/octet-stream' });
    downloadBlob(`${safeFileName(corpus.name, 'corpus')}.dsw-snapshot`, blob);
    set({ status: 'done', kind: 'export', message: `Exported “${corpus.name}” as a snapshot (${formatBytes(blob.size)}).` });
  } catch (error) {
    const aborted = isAbortError(error);
    set({ status: aborted ? 'cancelled' : 'failed', kind: 'export', message: aborted ? 'The export was cancelled.' : `Could not export “${corpus.name}”: ${errorMessage(error)}` });
  } finally {
    controller = null;
  }
}

async function importSnapshot(file: File): Promise<void> {
  const { job, set } = useSnapshotJob.getState();
  if (job.status === 'running') return;
  controller = new AbortController();
  set({ status: 'running', kind: 'import', name: file.name, progress: null });
  try {
    const stores = { corpora: await getCorpusStore(), vectors: await getVectorStore() };
    const corpus = await importCorpusSnapshot(file.stream(), file.size, stores, {
      signal: controller.signal,
      onProgress: (p) => set({ status: 'running', kind: 'import', name: file.name, progress: p }),
    });
    const sets = await stores.vectors.listSets(corpus.id);
    set({
      status: 'done',
      kind: 'import',
      message: `Imported “${corpus.name}”: ${formatCount(corpus.documentCount)} documents, ${formatCount(corpus.queryCount)} queries, ${formatCount(corpus.qrelCount)} qrels, the BM25 index and ${sets.length} embedding set(s) — nothing was re-indexed or re-embedded.`,
    });
  } catch (error) {
    const aborted = isAbortError(error);
    set({ status: aborted ? 'cancelled' : 'failed', kind: 'import', message: aborted ? 'The import was cancelled; nothing was stored.' : `Could not import ${file.name}: ${errorMessage(error)} Nothing was stored.` });
  } finally {
    controller = null;
    announceCorporaChanged();
  }
}

/** Import a snapshot, and the progress / result of the running export or import. */
export function SnapshotPanel() {
  const job = useSnapshotJob((s) => s.job);
  const input = useRef<HTMLInputElement>(null);
  return (
    <section className="panel" aria-label="Corpus snapshots">
      <h2>Corpus snapshots</h2>
      <p className="hint">
        A snapshot (Export snapshot on a corpus) holds its documents, queries, qrels, BM25 index and embedding sets, checksummed section by section.
        Importing it in another browser needs no indexing or embedding.
      </p>
      <label>
        Snapshot file{' '}
        <input
          ref={input}
          type="file"
          accept=".dsw-snapshot,application/octet-stream"
          aria-label="Import a corpus snapshot"
          disabled={job.status === 'running'}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void importSnapshot(file);
          }}
        />
      </label>
      {job.status === 'running' && (
        <div data-testid="snapshot-progress">
          <p>
            {job.kind === 'export' ? 'Exporting' : 'Importing'} “{job.name}”{job.progress ? `: ${job.progress.phase}` : '…'}
            {job.progress && job.progress.phase === 'reading' ? ` ${formatBytes(job.progress.done)} of ${formatBytes(job.progress.total)}` : ''}
            {job.progress && job.progress.phase !== 'reading' && job.progress.total > 1 ? ` ${formatCount(job.progress.done)} of ${formatCount(job.progress.total)}` : ''}
          </p>
          <progress aria-label="Snapshot progress" max={job.progress?.total || 1} value={job.progress?.done ?? 0} />
          <button type="button" onClick={() => controller?.abort()}>
            Cancel
          </button>
        </div>
      )}
      {(job.status === 'done' || job.status === 'failed' || job.status === 'cancelled') && (
        <p className={job.status === 'done' ? 'ok' : 'error'} role="status" data-testid="snapshot-result">
          {job.message}
        </p>
      )}
    </section>
  );
}
