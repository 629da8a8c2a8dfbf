/** 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export { formatBytes } from '../../core/index.ts';

/** Seconds as "12 s" / "3 min 5 s". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—';
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

/** The message of anything thrown, as words. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** "1 document", "2 documents" (formatted count). */
export function plural(n: number, word: string, words = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : words}`;
}
