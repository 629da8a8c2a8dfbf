import { describe, expect, it } from 'vitest';
import { randomRows, seededRandom } from '../../test-support/random-vectors.ts';
import { searchCompact } from './compact-search.ts';
import { CompactVectors } from './compact-vectors.ts';
import { searchDense } from './dense-search.ts';
import { adoptVectorSet, shareableVectorSet, shareMismatch, vectorSetIdentity, type ShareableVectorSet, type VectorSetIdentity } from './shared-vector-set.ts';
import { loadCompactVectors, loadVectorMatrix, storedFloatRows } from './stored-vectors.ts';
import { storedSet } from '../../test-support/stored-vector-set.ts';
import { testModel } from './test-fixtures.ts';

const model = testModel(24);

/** `value` after a real postMessage (structured clone): shared buffers arrive as the same memory. */
function posted<T>(value: T): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  return new Promise<T>((resolve) => {
    port2.onmessage = (event) => {
      port1.close();
      port2.close();
      resolve(event.data as T);
    };
    port1.postMessage(value);
  });
}

const queries = Array.from({ length: 8 }, (_, q) => ({ vector: randomRows(seededRandom(70 + q), 1, 24), model }));

describe('sharing a loaded float32 matrix', () => {
  it('loads into shared chunks (the partial last one too) that another thread adopts without a copy, with the same hits', async () => {
    const { store, set } = await storedSet(40); // chunks of 16, 16, 8 rows
    const own = await loadVectorMatrix(store, set, { shared: true });
    const identity = vectorSetIdentity(set, 'float32');
    const shareable = shareableVectorSet(identity, { matrix: own })!;
    expect(shareable).not.toBeNull();
    const received = await posted(shareable);
    const adopted = adoptVectorSet(received, identity);
    if (!('matrix' in adopted)) throw new Error('expected a matrix');
    expect(adopted.matrix.ids).toEqual(own.ids);
    for (const query of queries) expect(searchDense(adopted.matrix, query, 5)).toEqual(searchDense(own, query, 5));
    // The same memory: a value written through the loader's rows is read through the adopted ones (last chunk too).
    const before = adopted.matrix.rows.row(39)[3]!;
    own.rows.row(39)[3] = 0.125;
    own.rows.row(2)[0] = -0.5;
    expect(adopted.matrix.rows.row(39)[3]).toBe(0.125);
    expect(adopted.matrix.rows.row(2)[0]).toBe(-0.5);
    expect(before).not.toBe(0.125);
    expect(() => adopted.matrix.add('new', new Float32Array(24).fill(1))).toThrow(/shared with another thread/);
  });

  it('a matrix loaded as before (plain memory) is not offered: another thread would only get a copy', async () => {
    const { store, set } = await storedSet(20);
    const plain = await loadVectorMatrix(store, set);
    expect(shareableVectorSet(vectorSetIdentity(set, 'float32'), { matrix: plain })).toBeNull();
    // and the shared load holds the same values
    const shared = await loadVectorMatrix(store, set, { shared: true });
    for (let r = 0; r < 20; r++) expect(Array.from(shared.rows.row(r))).toEqual(Array.from(plain.rows.row(r)));
  });

  it('the shared load still refuses a set with fewer stored rows than its record', async () => {
    const { store, set } = await storedSet(40);
    await expect(loadVectorMatrix(store, { ...set, rowsDone: 60, totalRows: 60 }, { shared: true })).rejects.toThrow(/records 60 vectors but 40 are stored/);
  });
});

describe('sharing a loaded compact set', () => {
  it('the int8 memory passes by reference; the adopted set rescores from its own float rows and finds the same hits', async () => {
    const { store, set } = await storedSet(100);
    const own = await loadCompactVectors(store, set);
    const identity = vectorSetIdentity(set, 'compact');
    const offered = shareableVectorSet(identity, { compact: own })!;
    expect(shareMismatch(offered, identity)).toBe('it was handed over without a scanner slot of its own');
    const received = await posted({ ...offered, scannerSlot: 2 });
    const adopted = adoptVectorSet(received, identity, { floatRows: storedFloatRows(store, set) });
    if (!('compact' in adopted)) throw new Error('expected the compact form');
    expect([own.scannerSlot, adopted.compact.scannerSlot]).toEqual([0, 2]);
    for (const query of queries) expect(await searchCompact(adopted.compact, query, 5)).toEqual(await searchCompact(own, query, 5));
    // Each thread writes its query into its own scratch area of the one memory.
    await searchCompact(adopted.compact, queries[0]!, 5);
    const slotQuery = (slot: number) => Array.from(new Int16Array(own.memory.buffer, own.slotOffset(slot), 24));
    await searchCompact(own, queries[1]!, 5);
    expect(slotQuery(2)).not.toEqual(slotQuery(0));
    await searchCompact(own, queries[0]!, 5);
    expect(slotQuery(2)).toEqual(slotQuery(0));
    new Int8Array(own.memory.buffer)[own.codesOffset] = 99;
    expect(new Int8Array(adopted.compact.memory.buffer)[adopted.compact.codesOffset]).toBe(99);
  });

  it('compact vectors in plain memory are not offered', () => {
    const plain = CompactVectors.allocate(model, ['a'], { shared: false });
    expect(shareableVectorSet(vectorSetIdentity({ ...baseRecord(), rowsDone: 1 }, 'compact'), { compact: plain })).toBeNull();
  });
});

function baseRecord() {
  return { corpusId: 'c', modelKey: 'm', model, rowsDone: 40, createdAt: 1, updatedAt: 1 } as Parameters<typeof vectorSetIdentity>[0];
}

describe('shareMismatch', () => {
  let stored: VectorSetIdentity;
  async function offered(): Promise<ShareableVectorSet> {
    const { store, set } = await storedSet(40);
    stored = vectorSetIdentity(set, 'float32');
    return shareableVectorSet(stored, { matrix: await loadVectorMatrix(store, set, { shared: true }) })!;
  }

  it('accepts the set it was loaded from', async () => {
    expect(shareMismatch(await offered(), stored)).toBeNull();
  });

  it('refuses a set embedded again or resumed since (its record times changed), and says so', async () => {
    const set = await offered();
    expect(shareMismatch(set, { ...stored, createdAt: stored.createdAt + 1 })).toBe('the stored set was embedded again since it was loaded');
    expect(shareMismatch(set, { ...stored, updatedAt: stored.updatedAt + 1 })).toBe('the stored set was embedded again since it was loaded');
    expect(() => adoptVectorSet(set, { ...stored, createdAt: 0 })).toThrow('The shared vectors of test-model cannot be used: the stored set was embedded again since it was loaded.');
  });

  it('refuses another corpus, model key, form, model, row count or dimensions', async () => {
    const set = await offered();
    expect(shareMismatch(set, { ...stored, corpusId: 'other' })).toMatch(/^it holds/);
    expect(shareMismatch(set, { ...stored, modelKey: 'm2' })).toMatch(/^it holds/);
    expect(shareMismatch(set, { ...stored, form: 'compact' })).toMatch(/^it holds/);
    expect(shareMismatch(set, { ...stored, model: testModel(24, { dtype: 'q8' }) })).toBe('it was made with another model');
    expect(shareMismatch(set, { ...stored, model: testModel(32) })).toBe('it was made with another model');
    expect(shareMismatch(set, { ...stored, rows: 41 })).toBe('it has 40 rows, the stored set 41');
  });

  it('refuses a payload whose body does not match its own identity (wrong form, ids, chunks, unshared memory)', async () => {
    const set = await offered();
    if (!('matrix' in set)) throw new Error('expected a matrix');
    expect(shareMismatch({ ...set, matrix: { ...set.matrix, ids: set.matrix.ids.slice(1) } }, stored)).toBe('it has 39 ids for 40 rows');
    expect(shareMismatch({ ...set, matrix: { ...set.matrix, chunks: set.matrix.chunks.map((c) => c.slice()) } }, stored)).toBe('its rows are not in whole shared chunks');
    expect(shareMismatch({ ...set, matrix: { ...set.matrix, model: testModel(24, { pooling: 'cls' }) } }, stored)).toBe('its vectors were made with another model');
    const compact = CompactVectors.allocate(model, set.matrix.ids, { shared: false });
    expect(shareMismatch({ identity: set.identity, compact: compact.share() }, stored)).toBe('it is not in float32 form');
    expect(shareMismatch({ identity: { ...set.identity, form: 'compact' }, compact: compact.share() }, { ...stored, form: 'compact' })).toBe('its memory is not shared');
  });
});
