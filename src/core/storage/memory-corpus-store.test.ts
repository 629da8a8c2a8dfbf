import { describeCorpusStoreContract } from '../../test-support/corpus-store-contract.ts';
import { MemoryCorpusStore } from './memory-corpus-store.ts';

describeCorpusStoreContract('MemoryCorpusStore', async () => new MemoryCorpusStore());
