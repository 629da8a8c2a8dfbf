import { describeAgentRunStoreContract } from '../../test-support/agent-run-store-contract.ts';
import { MemorySettingsStore } from '../llm/index.ts';
import { MemoryAgentRunStore } from './memory-agent-run-store.ts';

describeAgentRunStoreContract('MemoryAgentRunStore', async () => {
  const settings = new MemorySettingsStore();
  return { runs: new MemoryAgentRunStore(() => settings.secrets()), settings };
});
