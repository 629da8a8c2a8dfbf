// A worker thread of the shared-vectors bench: adopts each set it is sent (rows by reference, ids cloned) and
// answers with a value read through the adopted view.
import { parentPort } from 'node:worker_threads';
import { adoptVectorSet, type ShareableVectorSet } from '../src/core/index.ts';

parentPort!.on('message', (set: ShareableVectorSet) => {
  const adopted = adoptVectorSet(set, set.identity);
  parentPort!.postMessage('matrix' in adopted ? adopted.matrix.rows.row(0)[0] : adopted.compact.scales()[0]);
});
parentPort!.postMessage('ready');
