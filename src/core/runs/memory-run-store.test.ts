import { describeRunStoreContract } from '../../test-support/run-store-contract.ts';
import { MemoryRunStore } from './memory-run-store.ts';

describeRunStoreContract('MemoryRunStore', async () => new MemoryRunStore());
