import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureIo } from '../test-support/capture-io.ts';
import { loadDataset } from './load-dataset.ts';
import { folderFiles } from './node-sources.ts';

let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-links-')));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const corpusLine = (id: string) => JSON.stringify({ _id: id, title: '', text: `text of ${id}` });
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
  fs.writeFileSync(path.join(tmp, rel), text);
};
const queries = JSON.stringify({ _id: 'q1', text: 'a question' }) + '\n';

describe('one symlink policy for every folder loader (issue case 4)', () => {
  it('refuses a corpus.jsonl that links outside the folder, naming the link and its target, instead of indexing queries.jsonl', async () => {
    write('elsewhere/corpus.jsonl', corpusLine('d1') + '\n');
    write('beir/queries.jsonl', queries);
    fs.symlinkSync(path.join(tmp, 'elsewhere/corpus.jsonl'), path.join(tmp, 'beir/corpus.jsonl'));
    await expect(loadDataset(path.join(tmp, 'beir'), captureIo(tmp))).rejects.toThrow(
      `corpus.jsonl in ${path.join(tmp, 'beir')} is a symbolic link that leaves the folder (to ${path.join(tmp, 'elsewhere/corpus.jsonl')})`,
    );
  });

  it('follows a link inside the folder, once, under its shorter name', async () => {
    write('beir/data/corpus-v2.jsonl', [corpusLine('d1'), corpusLine('d2')].join('\n') + '\n');
    write('beir/queries.jsonl', queries);
    fs.symlinkSync('data/corpus-v2.jsonl', path.join(tmp, 'beir/corpus.jsonl'));
    expect(folderFiles(path.join(tmp, 'beir'))).toEqual(['corpus.jsonl', 'queries.jsonl']);
    const dataset = await loadDataset(path.join(tmp, 'beir'), captureIo(tmp));
    expect(dataset.corpus.documentCount).toBe(2);
    expect(dataset.corpus.queryCount).toBe(1);
  });

  it('walks a linked subfolder inside the folder once, loads a dataset given as a link to a folder, and refuses a dangling link', async () => {
    write('beir/real/corpus.jsonl', corpusLine('d1') + '\n');
    fs.symlinkSync('real', path.join(tmp, 'beir/alias'));
    fs.symlinkSync('.', path.join(tmp, 'beir/real/loop'));
    expect(folderFiles(path.join(tmp, 'beir'))).toEqual(['alias/corpus.jsonl']);
    fs.symlinkSync(path.join(tmp, 'beir'), path.join(tmp, 'linked-dataset'));
    expect((await loadDataset(path.join(tmp, 'linked-dataset'), captureIo(tmp))).corpus.documentCount).toBe(1);
    fs.symlinkSync('missing.jsonl', path.join(tmp, 'beir/queries.jsonl'));
    expect(() => folderFiles(path.join(tmp, 'beir'))).toThrow('queries.jsonl in ' + path.join(tmp, 'beir') + ' is a symbolic link to missing.jsonl, which does not exist');
  });
});
