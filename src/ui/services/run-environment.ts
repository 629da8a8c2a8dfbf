import type { RunEnvironmentSource } from '../../core/index.ts';
import { browserEnvironmentSource } from '../../workers/browser-environment.ts';
import { getVectorStore } from './stores.ts';

/** What a run saved from this page records: this browser, the bundled inference software, the corpus's model hashes. */
export async function runEnvironmentOf(corpusId: string): Promise<RunEnvironmentSource> {
  return browserEnvironmentSource(await getVectorStore(), corpusId);
}
