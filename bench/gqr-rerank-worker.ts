// A worker thread of the GQR bench: re-ranks the prepared queries it is sent at every grid point of the job.
import { parentPort } from 'node:worker_threads';
import { sweepPreparedQueries, type SweepJob, type SweepPreparedQuery } from '../src/core/index.ts';

parentPort!.on('message', (message: { id: number; prepared: SweepPreparedQuery[]; job: SweepJob }) => {
  parentPort!.postMessage({ id: message.id, results: sweepPreparedQueries(message.prepared, message.job) });
});
parentPort!.postMessage({ ready: true });
