import { describe, expect, it } from 'vitest';
import { memorySource } from './fixtures/memory-source.ts';
import { formatOf, planIngestion } from './plan.ts';

const src = (path: string) => memorySource(path.slice(path.lastIndexOf('/') + 1), '', { path });
const summary = (paths: string[], split?: string) =>
  planIngestion(paths.map(src), split).map((f) => [f.path, f.kind, ...(f.split ? [f.split] : []), ...(f.reason ? ['reason'] : [])]);

describe('formatOf', () => {
  it('goes by extension, case-insensitively', () => {
    expect(['a.jsonl', 'a.NDJSON', 'a.csv', 'a.TSV', 'a.txt', 'a.md', 'a.markdown', 'a.json', 'README'].map(formatOf)).toEqual([
      'jsonl', 'jsonl', 'csv', 'tsv', 'text', 'text', 'text', null, null,
    ]);
  });
});

describe('planIngestion', () => {
  it('reads BEIR files corpus → queries → qrels whatever the input order', () => {
    expect(summary(['sf/qrels/test.tsv', 'sf/queries.jsonl', 'sf/corpus.jsonl'])).toEqual([
      ['sf/corpus.jsonl', 'corpus'],
      ['sf/queries.jsonl', 'queries'],
      ['sf/qrels/test.tsv', 'qrels', 'test'],
    ]);
  });

  it('keeps a qrels file picked without its folder (Choose files… gives bare names)', () => {
    expect(summary(['corpus.jsonl', 'queries.jsonl', 'test.tsv'])).toEqual([
      ['corpus.jsonl', 'corpus'],
      ['queries.jsonl', 'queries'],
      ['test.tsv', 'qrels', 'test'],
    ]);
    expect(summary(['corpus.jsonl', 'queries.jsonl', 'qrels.txt', 'notes.txt'])).toEqual([
      ['corpus.jsonl', 'corpus'],
      ['queries.jsonl', 'queries'],
      ['qrels.txt', 'qrels', 'qrels'],
      ['notes.txt', 'skipped', 'reason'],
    ]);
  });

  it('takes the test split by default, else every split; an asked split wins', () => {
    const paths = ['corpus.jsonl', 'queries.jsonl', 'qrels/train.tsv', 'qrels/test.tsv', 'qrels/dev.tsv'];
    expect(summary(paths).slice(2)).toEqual([
      ['qrels/dev.tsv', 'skipped', 'dev'],
      ['qrels/test.tsv', 'qrels', 'test'],
      ['qrels/train.tsv', 'skipped', 'train'],
    ]);
    expect(summary(paths, 'dev').slice(2).map((r) => r[1])).toEqual(['qrels', 'skipped', 'skipped']);
    expect(summary(['corpus.jsonl', 'queries.jsonl', 'qrels/train.tsv', 'qrels/dev.tsv']).slice(2)).toEqual([
      ['qrels/dev.tsv', 'qrels', 'dev'],
      ['qrels/train.tsv', 'qrels', 'train'],
    ]);
  });

  it('skips every qrels file with a reason when the asked split is missing', () => {
    const plan = planIngestion(['corpus.jsonl', 'queries.jsonl', 'qrels/test.tsv'].map(src), 'dev');
    expect(plan[2]).toMatchObject({ kind: 'skipped', reason: "qrels split 'dev' not found (available: test)" });
  });

  it('skips other files of a BEIR set with an issue, and documentation and hidden files without one', () => {
    expect(summary(['sf/corpus.jsonl', 'sf/extra.csv', 'sf/README.md', 'sf/queries.jsonl', 'sf/.DS_Store', '__MACOSX/sf/._corpus.jsonl'])).toEqual([
      ['sf/corpus.jsonl', 'corpus'],
      ['sf/queries.jsonl', 'queries'],
      ['sf/extra.csv', 'skipped', 'reason'],
      ['sf/README.md', 'skipped'],
      ['sf/.DS_Store', 'skipped'],
      ['__MACOSX/sf/._corpus.jsonl', 'skipped'],
    ]);
  });

  it('treats any other set as document files and rejects unknown types', () => {
    expect(summary(['docs.jsonl', 'table.csv', 'notes/a.md', 'data.json', 'queries.jsonl'])).toEqual([
      ['docs.jsonl', 'documents'],
      ['table.csv', 'documents'],
      ['notes/a.md', 'documents'],
      ['data.json', 'skipped', 'reason'],
      ['queries.jsonl', 'documents'],
    ]);
    expect(planIngestion([src('data.json')])[0].reason).toContain("unsupported file type '.json'");
  });
});
