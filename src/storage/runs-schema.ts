// Row types of the saved-runs stores. Owned by the evaluation feature; refine freely.

/** A saved retrieval run (rankings of a query set with its configuration and metrics). */
export interface StoredRun {
  id: string;
  corpusId: string;
  createdAt: number;
  [field: string]: unknown;
}
