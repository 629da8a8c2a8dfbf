import 'fake-indexeddb/auto';
import { describeAgentRunStoreContract } from '../test-support/agent-run-store-contract.ts';
import { IdbAgentRunStore } from './agent-run-store.ts';
import { openWorkbenchDb } from './database.ts';
import { IdbSettingsStore } from './settings-store.ts';

let n = 0;
describeAgentRunStoreContract('IdbAgentRunStore', async () => {
  const db = await openWorkbenchDb(`agent-runs-test-${++n}`);
  const settings = new IdbSettingsStore(db);
  return { runs: new IdbAgentRunStore(db, () => settings.secrets()), settings };
});
