// A worker's end of the vector broker: the page sends a MessagePort once (VectorShareTarget.shareVectors).
import * as Comlink from 'comlink';
import type { VectorShare, VectorShareTarget } from './vector-share.ts';

/** Where a worker keeps its connection to the broker: `share()` is null until the page connects it. */
export function vectorShareSlot(): { share: () => VectorShare | null; target: VectorShareTarget } {
  let remote: VectorShare | null = null;
  return {
    share: () => remote,
    target: {
      shareVectors(port: MessagePort) {
        remote = Comlink.wrap<VectorShare>(port) as unknown as VectorShare;
      },
    },
  };
}
