/**
 * Bounds on the metadata kept with one document or query. Storage clones records recursively (IndexedDB's
 * structured clone overflows its stack at a few thousand levels), so a record's metadata is measured here,
 * without recursion, and a field that is too deep or too large is dropped from it (and reported).
 */

/** Deepest nesting of objects and arrays kept in a metadata field (the field itself is level 1). */
export const MAX_METADATA_DEPTH = 32;
/** Largest metadata of one record, in characters of its keys and values (roughly its JSON size). */
export const MAX_METADATA_CHARS = 256 * 1024;

/** A metadata field that was not kept, and why. */
export interface DroppedField {
  field: string;
  reason: string;
}

export interface BoundedMetadata {
  /** The fields kept; undefined when none is left. */
  metadata: Record<string, unknown> | undefined;
  dropped: DroppedField[];
}

/** Keeps the metadata fields within MAX_METADATA_DEPTH; drops the largest fields while the whole is over MAX_METADATA_CHARS. */
export function boundMetadata(metadata: Record<string, unknown>): BoundedMetadata {
  const dropped: DroppedField[] = [];
  const sizes = new Map<string, number>();
  let total = 0;
  for (const [key, value] of Object.entries(metadata)) {
    const measured = measure(value, MAX_METADATA_CHARS);
    if (measured.depth > MAX_METADATA_DEPTH) {
      dropped.push({ field: key, reason: `metadata field '${key}' is nested deeper than ${MAX_METADATA_DEPTH} levels: it was dropped, the record kept` });
    } else {
      sizes.set(key, key.length + measured.chars);
      total += key.length + measured.chars;
    }
  }
  const bySize = [...sizes].sort((a, b) => b[1] - a[1]);
  for (const [key, size] of bySize) {
    if (total <= MAX_METADATA_CHARS) break;
    dropped.push({ field: key, reason: `metadata field '${key}' is too large (over ${MAX_METADATA_CHARS / 1024} K characters in all): it was dropped, the record kept` });
    sizes.delete(key);
    total -= size;
  }
  if (dropped.length === 0) return { metadata, dropped };
  const kept = Object.fromEntries([...sizes.keys()].map((key) => [key, metadata[key]]));
  return { metadata: sizes.size > 0 ? kept : undefined, dropped };
}

/** Depth and size of a value, walked with an explicit stack; stops counting once past the limits. */
function measure(value: unknown, maxChars: number): { depth: number; chars: number } {
  let depth = 0;
  let chars = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, level] = stack.pop()!;
    if (typeof current === 'string') chars += current.length + 2;
    else if (current !== null && typeof current === 'object') {
      depth = Math.max(depth, level);
      if (depth > MAX_METADATA_DEPTH) return { depth, chars };
      for (const [key, child] of Object.entries(current)) {
        chars += Array.isArray(current) ? 1 : key.length + 3;
        stack.push([child, level + 1]);
      }
      chars += 2;
    } else chars += String(current).length;
    if (chars > maxChars) return { depth, chars };
  }
  return { depth, chars };
}
