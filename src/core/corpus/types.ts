/** One passage or document of a corpus. */
export interface CorpusDocument {
  /** Unique within its corpus. */
  id: string;
  /** May be empty. Indexed together with `text`. */
  title: string;
  /** The passage text. Never empty for an accepted document unless the load kept empty documents (`keepEmptyDocuments`). */
  text: string;
  /** Fields of the source record that were not mapped to id, title or text. */
  metadata?: Record<string, unknown>;
}

/** One query (or question) of a corpus's query set. */
export interface CorpusQuery {
  id: string;
  text: string;
  /** Gold answers, for question sets (HotpotQA-style `answers`). */
  answers?: string[];
  metadata?: Record<string, unknown>;
}

/** One relevance judgement. `relevance <= 0` means judged not relevant. */
export interface Qrel {
  queryId: string;
  docId: string;
  relevance: number;
}

/**
 * A problem found in the input. The offending line or file is skipped; everything else is kept.
 * `line` is 1-based; absent when the problem concerns a whole file.
 */
export interface IngestIssue {
  file: string;
  line?: number;
  /** The field at fault (`_id`, `text`, `corpus-id`, …), when one is. */
  field?: string;
  reason: string;
}
