/** A measure value with 4 decimals. */
export function formatMeasure(value: number): string {
  return value.toFixed(4);
}

/** A difference with its sign: +0.0123, −0.0123, 0.0000. */
export function formatDelta(value: number): string {
  const text = Math.abs(value).toFixed(4);
  if (Number(text) === 0) return text;
  return value > 0 ? `+${text}` : `−${text}`;
}

/** A p-value with 4 decimals. */
export function formatP(value: number): string {
  return value.toFixed(4);
}

/** CSS class of a difference: better, worse or neither. */
export function deltaClass(value: number): string {
  if (Number(Math.abs(value).toFixed(4)) === 0) return 'delta';
  return value > 0 ? 'delta up' : 'delta down';
}
