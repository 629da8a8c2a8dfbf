import { beforeEach, describe, expect, it } from 'vitest';
import { MINISEARCH_BM25, OKAPI_BM25, defaultSpec } from '../../core/index.ts';
import { DEFAULT_RUN_K, initialSearchSettings, searchSpecOf, useSearchSettings } from './search-settings.ts';

const store = () => useSearchSettings.getState();

describe('search-settings store', () => {
  beforeEach(() => useSearchSettings.setState(initialSearchSettings()));

  it('starts with plain Okapi BM25 on every page and k 1000 for runs', () => {
    expect(searchSpecOf(store())).toEqual({ kind: 'bm25', params: OKAPI_BM25 });
    expect(store().run).toEqual({ spec: { kind: 'bm25', params: OKAPI_BM25 }, k: DEFAULT_RUN_K });
    expect(store().deepSearch).toEqual({ kind: 'bm25', params: OKAPI_BM25 });
  });

  it('keeps the settings of each Search kind while switching between them', () => {
    store().setBm25({ k1: 1.2 });
    store().setKind('cc');
    store().setSpec({ ...store().cc, weight: 0.3 });
    store().setKind('bm25');
    expect(searchSpecOf(store())).toEqual({ kind: 'bm25', params: { ...OKAPI_BM25, k1: 1.2 } });
    store().setKind('cc');
    expect(searchSpecOf(store())).toMatchObject({ kind: 'cc', weight: 0.3 });
  });

  it('a BM25 spec from a form sets the Search page BM25 parameters (one owner)', () => {
    store().setSpec({ kind: 'bm25', params: { ...MINISEARCH_BM25 } });
    expect(store().bm25).toEqual(MINISEARCH_BM25);
  });

  it('"search with" an embedding set switches to dense and points the fusions dense child at it', () => {
    store().searchWithSet('tiny-bert|fp32|mean');
    expect(searchSpecOf(store())).toEqual({ kind: 'dense', modelKey: 'tiny-bert|fp32|mean' });
    expect(store().rrf.pipelines[0]).toEqual({ kind: 'dense', modelKey: 'tiny-bert|fp32|mean' });
    expect(store().cc.pipelines[0]).toEqual({ kind: 'dense', modelKey: 'tiny-bert|fp32|mean' });
    expect(store().rrf.pipelines[1]).toEqual(defaultSpec('rrf').pipelines[1]);
  });

  it('keeps the Runs form and the Deep search retriever apart from the Search page', () => {
    store().setRun({ spec: defaultSpec('rrf'), k: 100 });
    store().setDeepSearchSpec(defaultSpec('cc'));
    expect(store().run).toEqual({ spec: defaultSpec('rrf'), k: 100 });
    store().setRun({ k: 10 });
    expect(store().run.spec).toEqual(defaultSpec('rrf'));
    expect(store().deepSearch.kind).toBe('cc');
    expect(store().kind).toBe('bm25');
  });
});
