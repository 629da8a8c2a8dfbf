// Vitest global setup: the OpenSearch node the cluster tests index into. DSW_OPENSEARCH_URL names a running one
// (.ci/run starts it); otherwise one is started here through `npm run opensearch`'s own code (port
// DSW_OPENSEARCH_PORT, default 9200) and stopped after the run. Skipped only when the run's file filters leave out
// every OpenSearch test, or when DSW_OPENSEARCH=off (said loudly; refused under CI=true).
import type { TestProject } from 'vitest/node';
import { startOpenSearch, stopOpenSearch } from './opensearch.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The OpenSearch address the cluster tests use, or '' when they are skipped. */
    opensearchUrl: string;
  }
}

/** Whether the command line's file filters (if any) select an OpenSearch test. */
function selectsOpenSearchTests(argv: readonly string[]): boolean {
  const afterRun = argv.slice(argv.findIndex((a) => a === 'run' || a.endsWith('vitest.mjs') || a.endsWith('vitest')) + 1);
  const filters: string[] = [];
  for (let i = 0; i < afterRun.length; i++) {
    const arg = afterRun[i]!;
    if (arg.startsWith('-')) {
      if (!arg.includes('=') && ['--config', '-c', '--project', '--reporter', '-t', '--testNamePattern', '--root', '--dir'].includes(arg)) i++;
      continue;
    }
    if (arg === 'run') continue;
    filters.push(arg);
  }
  return filters.length === 0 || filters.some((f) => /opensearch/i.test(f));
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const given = process.env.DSW_OPENSEARCH_URL?.trim();
  if (given) {
    project.provide('opensearchUrl', given.replace(/\/+$/, ''));
    return;
  }
  if (process.env.DSW_OPENSEARCH === 'off') {
    if (process.env.CI === 'true') throw new Error('DSW_OPENSEARCH=off under CI=true: the OpenSearch tests must run in CI');
    process.stderr.write('\n*** DSW_OPENSEARCH=off: the OpenSearch cluster tests are SKIPPED (they need a node; npm run opensearch -- start) ***\n\n');
    project.provide('opensearchUrl', '');
    return;
  }
  if (!selectsOpenSearchTests(process.argv)) {
    project.provide('opensearchUrl', '');
    return;
  }
  const port = Number(process.env.DSW_OPENSEARCH_PORT ?? 9200);
  const started = await startOpenSearch({ port });
  process.stderr.write(`OpenSearch for the cluster tests: ${started.url}${started.reused ? ' (already running)' : ` (started in ${started.seconds.toFixed(0)} s)`}\n`);
  project.provide('opensearchUrl', started.url);
  if (!started.reused) return () => stopOpenSearch({ port });
}
