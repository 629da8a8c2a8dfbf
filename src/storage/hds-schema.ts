// Row types of the HDS stores. Owned by the HDS feature; refine freely.

/** A saved HDS (or baseline) run over one question or a question set. */
export interface StoredHdsRun {
  id: string;
  corpusId: string;
  createdAt: number;
  [field: string]: unknown;
}
