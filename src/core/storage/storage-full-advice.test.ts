import { describe, expect, it } from 'vitest';
import { storageFullAdvice } from './storage-full-advice.ts';

const MB = 1024 * 1024;
const none = { corpora: 0, embeddingSets: 0, runs: 0 };

describe('storageFullAdvice', () => {
  it('with little stored, says deleting will not help and what does', () => {
    const text = storageFullAdvice('“big”', { estimate: { usage: 73728, quota: 10 * 1024 * MB, indexedDb: 73728, caches: 0 }, leftoverRows: 0, stored: none });
    expect(text).toBe(
      'The browser refused to store more data (storage quota exceeded) while saving “big”. Nothing of it was kept: its partial data has been removed. ' +
        'This site now uses 72 KB (72 KB of corpora, embeddings and runs, 0 B of model files kept in this browser); the browser reports 10 GB available. ' +
        'Little else is stored, so deleting will not help: this load alone needs more space than the browser grants this site right now. ' +
        'Load a smaller file (or part of it), or give the browser more room: free disk space, or allow persistent storage for this site.',
    );
  });

  it('points at what takes the space: model files, stored data, or both', () => {
    const models = storageFullAdvice('x', { estimate: { usage: 7 * MB, quota: 8 * MB, indexedDb: MB / 2, caches: 6.5 * MB }, leftoverRows: 0, stored: none });
    expect(models).toContain('Most of that is model files');
    expect(models).not.toContain('deleting will not help');
    const data = storageFullAdvice('x', { estimate: { usage: 40 * MB, quota: 50 * MB, indexedDb: 40 * MB, caches: 0 }, leftoverRows: 0, stored: { corpora: 2, embeddingSets: 1, runs: 3 } });
    expect(data).toContain('Deleting some of the 2 stored corpus(es), 1 embedding set(s), 3 saved run(s) frees space.');
    expect(data).not.toContain('model files you no longer need');
  });

  it('says when rows of the failed load are still there and how they go', () => {
    const text = storageFullAdvice('x', { leftoverRows: 1500, stored: none });
    expect(text).toContain('1,500 row(s) of it are still stored because the clean-up was refused too; reload the page');
    expect(text).not.toContain('Nothing of it was kept');
  });
});
