import { describeVectorStoreContract } from '../../test-support/vector-store-contract.ts';
import { MemoryVectorStore } from './memory-vector-store.ts';

describeVectorStoreContract('MemoryVectorStore', async () => new MemoryVectorStore());
