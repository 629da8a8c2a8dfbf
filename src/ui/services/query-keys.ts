// Query keys of the data pages share (invalidate them after changing that data anywhere).

/** The corpus list. */
export const corporaKey = ['corpora'] as const;
/** The storage meter (usage and quota). */
export const storageKey = ['storage'] as const;
/** A corpus's run list. */
export const runsKey = (corpusId: string | null) => ['runs', corpusId] as const;
/** One run with its rankings. */
export const runKey = (id: string | null) => ['run', id] as const;
/** A corpus's embedding sets. */
export const embeddingSetsKey = (corpusId: string | null) => ['embedding-sets', corpusId] as const;
/** The model folders kept in this browser. */
export const modelFoldersKey = ['model-folders'] as const;
/** Saved HDS and baseline runs. */
export const agentRunsKey = ['hds-runs'] as const;
/** A corpus's stored queries, by id. */
export const queriesKey = (corpusId: string | null) => ['queries', corpusId] as const;
/** A corpus's qrels. */
export const qrelsKey = (corpusId: string | null) => ['qrels', corpusId] as const;
