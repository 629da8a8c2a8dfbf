/**
 * The one rule for ids with whitespace, which no TREC run or qrels file can hold: ids from the data (documents,
 * queries, saved runs) that contain whitespace are rejected where they are read; whitespace of any kind (space, tab,
 * no-break space) at the ends of an id is trimmed and reported, never silently; ids the workbench makes from
 * file paths have their whitespace percent-encoded.
 */

/** Why an id cannot be used (it holds whitespace), or null. `what` names it (`document id`). */
export function whitespaceInId(id: string, what: string): string | null {
  return /\s/.test(id) ? `${what} '${id}' contains whitespace, which a TREC run or qrels file cannot hold` : null;
}

/** A file path as a document id: whitespace is percent-encoded (`my notes.txt` → `my%20notes.txt`). */
export function pathId(path: string): string {
  return path.replace(/\s/g, (c) => encodeURIComponent(c));
}

/** The notice for an id read without the whitespace at its ends (the record is kept). */
export function trimmedIdNotice(what: string, untrimmed: string, id: string): string {
  return `${what} ${JSON.stringify(untrimmed)} has whitespace at its ends: it is read as '${id}', the record kept`;
}
