/** Which fields of a record hold a document's id, title and text. Dotted paths (`meta.title`) reach into objects. */
export interface FieldMapping {
  /** field holding the id */
  id: string;
  /** field holding the title, if any */
  title?: string;
  /** field holding the text */
  text: string;
}

/** Fields tried, in order, when no mapping is given. */
export const ID_FIELD_GUESSES = ['_id', 'id', 'docid', 'doc_id'] as const;
export const TITLE_FIELD_GUESSES = ['title'] as const;
export const TEXT_FIELD_GUESSES = ['text', 'contents', 'body', 'passage'] as const;

/** A record mapped to the parts of a document. */
export interface MappedRecord {
  /** The id, trimmed; never empty. */
  id: string;
  /** '' when the record has none. */
  title: string;
  /** Never blank. */
  text: string;
  /** The record's other fields; absent when there are none. */
  metadata?: Record<string, unknown>;
}

/** `untrimmedId`: the id as the record has it, when whitespace at its ends was trimmed (readers report it). */
export type MappingResult = { ok: true; value: MappedRecord; untrimmedId?: string } | { ok: false; field: string; reason: string };

/** Guesses a mapping from a record's field names (matched case-insensitively); null without an id or text field. */
export function guessFieldMapping(fields: readonly string[]): FieldMapping | null {
  const find = (guesses: readonly string[]) => {
    for (const guess of guesses) {
      const found = fields.find((f) => f.toLowerCase() === guess);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const id = find(ID_FIELD_GUESSES);
  const text = find(TEXT_FIELD_GUESSES);
  if (id === undefined || text === undefined) return null;
  const title = find(TITLE_FIELD_GUESSES);
  return title === undefined ? { id, text } : { id, title, text };
}

/** Why no mapping could be guessed from these fields. */
export function explainNoGuess(fields: readonly string[]): string {
  const has = (guesses: readonly string[]) => fields.some((f) => guesses.includes(f.toLowerCase()));
  const missing = [
    ...(has(ID_FIELD_GUESSES) ? [] : [`id field (${ID_FIELD_GUESSES.join(', ')})`]),
    ...(has(TEXT_FIELD_GUESSES) ? [] : [`text field (${TEXT_FIELD_GUESSES.join(', ')})`]),
  ];
  return `cannot guess the field mapping: found no ${missing.join(' and no ')} among the fields ${fields.join(', ') || '(none)'}; choose a field mapping`;
}

/** Nesting followed by recordFieldPaths; deeper objects are leaves (no mapping names a field that deep). */
const MAX_FIELD_PATH_DEPTH = 8;

/**
 * The field paths of a record, nested plain objects flattened to dotted paths (`meta.title`), in first-seen order.
 * Arrays and other values are leaves, and so are objects below MAX_FIELD_PATH_DEPTH levels.
 */
export function recordFieldPaths(record: Record<string, unknown>, prefix = '', depth = 1): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    const path = prefix + key;
    if (isPlainObject(value) && Object.keys(value).length > 0 && depth < MAX_FIELD_PATH_DEPTH) paths.push(...recordFieldPaths(value, path + '.', depth + 1));
    else paths.push(path);
  }
  return paths;
}

/** The value at a field path; a key that literally contains dots wins over the nested reading. */
export function readField(record: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(record, path)) return record[path];
  const dot = path.indexOf('.');
  if (dot < 0) return undefined;
  const head = record[path.slice(0, dot)];
  return isPlainObject(head) ? readField(head, path.slice(dot + 1)) : undefined;
}

/**
 * Applies a mapping: id and text must be non-empty (with `keepEmptyText` a missing or blank text is kept as ''),
 * title defaults to ''; unmapped fields become metadata.
 */
export function applyFieldMapping(record: Record<string, unknown>, mapping: FieldMapping, keepEmptyText = false): MappingResult {
  const id = asText(readField(record, mapping.id));
  if (id === null) return { ok: false, field: mapping.id, reason: `id field '${mapping.id}' is not a string or number` };
  if (id === undefined || id.trim() === '') return { ok: false, field: mapping.id, reason: `missing or empty id (field '${mapping.id}')` };
  const text = asText(readField(record, mapping.text));
  if (text === null) return { ok: false, field: mapping.text, reason: `text field '${mapping.text}' is not a string` };
  if ((text === undefined || text.trim() === '') && !keepEmptyText) {
    return { ok: false, field: mapping.text, reason: `empty text (field '${mapping.text}')` };
  }
  let title = '';
  if (mapping.title !== undefined) {
    const value = asText(readField(record, mapping.title));
    if (value === null) return { ok: false, field: mapping.title, reason: `title field '${mapping.title}' is not a string` };
    title = value ?? '';
  }
  const mapped = [mapping.id, mapping.text, ...(mapping.title === undefined ? [] : [mapping.title])];
  let rest: Record<string, unknown> = record;
  for (const path of mapped) rest = withoutField(rest, path);
  const value: MappedRecord = { id: id.trim(), title, text: text ?? '' };
  if (Object.keys(rest).length > 0) value.metadata = rest;
  return value.id === id ? { ok: true, value } : { ok: true, value, untrimmedId: id };
}

/** A copy of the record without the field at `path` (parents left empty by the removal are removed too). */
export function withoutField(record: Record<string, unknown>, path: string): Record<string, unknown> {
  if (Object.hasOwn(record, path)) {
    const { [path]: _removed, ...rest } = record;
    return rest;
  }
  const dot = path.indexOf('.');
  if (dot < 0) return record;
  const key = path.slice(0, dot);
  const head = record[key];
  if (!isPlainObject(head)) return record;
  const inner = withoutField(head, path.slice(dot + 1));
  if (inner === head) return record;
  const { [key]: _old, ...rest } = record;
  return Object.keys(inner).length > 0 ? { ...rest, [key]: inner } : rest;
}

/** A string for strings and finite numbers; undefined when absent or null; null when the value cannot be text. */
function asText(value: unknown): string | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
