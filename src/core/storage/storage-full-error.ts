/** The storage quota is used up. Nothing stored before the failed write was changed. */
export class StorageFullError extends Error {
  /** `outcome` says what was not stored and what is intact, in a sentence or two. */
  constructor(outcome = 'The corpus being loaded was not kept; corpora stored before are intact.') {
    super(
      `The browser refused to store more data: the storage quota for this site is used up. ${outcome} ` +
        'Free space by deleting corpora, embedding sets or runs, or allow more storage for this site.',
    );
    this.name = 'StorageFullError';
  }
}
