// After a write was refused for quota: what is stored now, measured, and the advice that can actually help.
import { formatBytes } from './format-bytes.ts';

/** What this site stores after the failed load was cleaned up. */
export interface StorageAfterFailure {
  /** `navigator.storage.estimate()`, when the browser has it. */
  estimate?: { usage: number; quota: number; indexedDb?: number; caches?: number };
  /** Rows of the failed load still stored after the clean-up (0 when it is gone). */
  leftoverRows: number;
  /** Other data of the workbench that deleting would free. */
  stored: { corpora: number; embeddingSets: number; runs: number };
}

const MB = 1024 * 1024;

/**
 * The words after a load was refused for quota: that nothing of it remains (or what does), what the site stores
 * now, and only the advice that frees space in this situation.
 */
export function storageFullAdvice(what: string, after: StorageAfterFailure): string {
  const parts = [`The browser refused to store more data (storage quota exceeded) while saving ${what}.`];
  if (after.leftoverRows > 0) {
    parts.push(
      `${after.leftoverRows.toLocaleString('en-US')} row(s) of it are still stored because the clean-up was refused too; ` +
        'reload the page: half-loaded data is removed when the workbench starts.',
    );
  } else {
    parts.push('Nothing of it was kept: its partial data has been removed.');
  }
  const e = after.estimate;
  if (e) {
    const kinds = [
      e.indexedDb !== undefined ? `${formatBytes(e.indexedDb)} of corpora, embeddings and runs` : '',
      e.caches !== undefined ? `${formatBytes(e.caches)} of model files kept in this browser` : '',
    ].filter(Boolean);
    parts.push(`This site now uses ${formatBytes(e.usage)}${kinds.length ? ` (${kinds.join(', ')})` : ''}; the browser reports ${formatBytes(e.quota)} available.`);
  }
  const { corpora, embeddingSets, runs } = after.stored;
  const modelFiles = e?.caches ?? 0;
  const workbenchData = e?.indexedDb ?? e?.usage ?? 0;
  const advice: string[] = [];
  if (modelFiles >= MB && modelFiles >= workbenchData) {
    advice.push('Most of that is model files: removing model folders you no longer need (Embeddings page) frees the most.');
  }
  if ((corpora > 0 || embeddingSets > 0 || runs > 0) && workbenchData >= MB) {
    advice.push(`Deleting some of the ${describeStored(after.stored)} frees space.`);
  }
  if (advice.length === 0) {
    advice.push(
      'Little else is stored, so deleting will not help: this load alone needs more space than the browser grants ' +
        'this site right now. Load a smaller file (or part of it), or give the browser more room: free disk space, ' +
        'or allow persistent storage for this site.',
    );
  }
  return [...parts, ...advice].join(' ');
}

function describeStored({ corpora, embeddingSets, runs }: StorageAfterFailure['stored']): string {
  return [
    corpora > 0 ? `${corpora} stored corpus(es)` : '',
    embeddingSets > 0 ? `${embeddingSets} embedding set(s)` : '',
    runs > 0 ? `${runs} saved run(s)` : '',
  ]
    .filter(Boolean)
    .join(', ');
}
