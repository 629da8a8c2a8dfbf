/**
 * Threads that can scan one set of vectors in shared memory at once (compact codes or float32 rows in a row
 * arena), each with a scratch area of its own in that memory; the thread that loaded the set has slot 0.
 */
export const SCANNER_SLOTS = 4;
