// The page's end of the vector broker (workers/vector-share.ts): one copy per tab of a loaded vector set.
import * as Comlink from 'comlink';
import { VectorShareBroker } from '../../workers/vector-share.ts';

let broker: VectorShareBroker | null = null;

/** The tab's broker; null when the page is not cross-origin isolated (each worker then keeps its own copy). */
export function getVectorBroker(): VectorShareBroker | null {
  if (!globalThis.crossOriginIsolated) return null;
  if (!broker) {
    broker = new VectorShareBroker();
    // Its record of loads and hand-overs, for the end-to-end tests.
    (globalThis as { __dswVectorShare?: VectorShareBroker }).__dswVectorShare = broker;
  }
  return broker;
}

/** Connects a new worker to the broker over a MessagePort of its own (nothing happens without cross-origin isolation). */
export function connectVectorShare(worker: { shareVectors?: (port: MessagePort) => unknown }, name: string): void {
  const tabBroker = getVectorBroker();
  if (!tabBroker || !worker.shareVectors) return;
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(tabBroker.forWorker(name), port1);
  void worker.shareVectors(Comlink.transfer(port2, [port2]));
}

/** Drops the shared sets of a corpus after it or one of its sets is deleted (workers check staleness as well). */
export function forgetSharedVectors(corpusId: string): void {
  broker?.forget(corpusId);
}
