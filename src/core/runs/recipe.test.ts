import { describe, expect, it } from 'vitest';
import { documentsChecksum, queriesChecksum } from '../corpus/index.ts';
import { buildQrelsMap } from '../eval/index.ts';
import { corpusDifferences, formatRecipe, modelDifferences, parseRecipe, recipeOfRun, type RecipeCorpus, type RecipeModel } from './recipe.ts';
import { buildRunRecord } from './run-record.ts';

const docs = [
  { id: 'd1', title: 'A', text: 'alpha' },
  { id: 'd2', title: '', text: 'beta' },
];
const corpus: RecipeCorpus = {
  name: 'Sample',
  documentCount: 2,
  checksum: documentsChecksum(docs),
  analyzer: { lowercase: true, stopWords: 'english', stemming: 'porter' },
  queryCount: 1,
  qrelCount: 1,
  queriesChecksum: queriesChecksum([{ id: 'q1', text: 'alpha' }]),
  qrelsChecksum: `sha256:${'0'.repeat(64)}`,
};
const model: RecipeModel = {
  modelKey: 'k',
  model: { modelId: 'tiny-bert', dtype: 'fp32', pooling: 'mean', dimensions: 32, prefixes: { query: '', passage: '' } },
  maxTokens: 128,
  tokens: false,
  files: [{ path: 'onnx/model.onnx', sha256: 'a'.repeat(64), bytes: 10 }],
};
const record = buildRunRecord({
  name: 'dense',
  corpusId: 'c',
  corpusName: 'Sample',
  pipeline: { kind: 'dense', modelKey: 'k' },
  run: new Map([['q1', [{ id: 'd1', score: 0.9 }]]]),
  k: 10,
  qrels: buildQrelsMap([{ queryId: 'q1', docId: 'd1', relevance: 1 }]),
  measures: ['nDCG@10'],
});

describe('corpus checksums', () => {
  it('do not depend on document order and change with any field', () => {
    expect(documentsChecksum([...docs].reverse())).toBe(documentsChecksum(docs));
    expect(documentsChecksum(docs)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(documentsChecksum([docs[0]!, { ...docs[1]!, text: 'beta.' }])).not.toBe(documentsChecksum(docs));
    expect(documentsChecksum([docs[0]!, { ...docs[1]!, id: 'd3' }])).not.toBe(documentsChecksum(docs));
    expect(documentsChecksum([docs[0]!])).not.toBe(documentsChecksum(docs));
  });
});

describe('recipes', () => {
  it('round-trip a run: pipeline, k, measures, corpus, model files and metrics', () => {
    const recipe = recipeOfRun(record, corpus, [model], new Date('2026-12-01T00:00:00Z'));
    expect(parseRecipe(formatRecipe(recipe))).toEqual(recipe);
    expect(recipe.experiment).toEqual({ kind: 'run', pipeline: { kind: 'dense', modelKey: 'k' }, k: 10, measures: ['nDCG@10'] });
    expect(recipe.metrics).toEqual({ 'nDCG@10': 1 });
  });

  it('refuse foreign, newer and damaged files with the field named', () => {
    const text = formatRecipe(recipeOfRun(record, corpus, [model]));
    const changed = (change: (r: Record<string, any>) => void) => {
      const r = JSON.parse(text);
      change(r);
      return JSON.stringify(r);
    };
    expect(() => parseRecipe('{')).toThrow('This is not a JSON file');
    expect(() => parseRecipe(JSON.stringify({ format: 'dsw-agent-runs' }))).toThrow('This JSON file is a "dsw-agent-runs" file, not a workbench recipe');
    expect(() => parseRecipe(changed((r) => (r.version = 2)))).toThrow('This recipe is format version 2; this workbench reads version 1.');
    expect(() => parseRecipe(changed((r) => (r.experiment.k = 0)))).toThrow('Field "experiment.k" must be a positive whole number');
    expect(() => parseRecipe(changed((r) => (r.corpus.checksum = 'abc')))).toThrow('Field "corpus.checksum" must be a checksum');
    expect(() => parseRecipe(changed((r) => (r.models[0].files[0].sha256 = 'x')))).toThrow('Field "models[0].files[0].sha256" must be 64 lower-case hex digits');
    expect(() => parseRecipe(changed((r) => (r.corpus.analyzer.stemming = 'snowball')))).toThrow('Field "corpus.analyzer.stemming" must be "porter" or "none"');
  });

  it('say exactly what differs in the corpus and the model', () => {
    expect(corpusDifferences(corpus, corpus)).toEqual([]);
    const other = { ...corpus, documentCount: 3, checksum: documentsChecksum([...docs, { id: 'd3', title: '', text: 'c' }]), analyzer: { ...corpus.analyzer, stemming: 'none' as const } };
    const words = corpusDifferences(corpus, other);
    expect(words[0]).toBe("The recipe's corpus has 2 documents; this one has 3.");
    expect(words[1]).toMatch(/^The documents differ: content checksum sha256:/);
    expect(words[2]).toContain('another analyzer');
    expect(modelDifferences(model, undefined)[0]).toContain('has no embedding set of tiny-bert');
    expect(modelDifferences(model, { modelKey: 'k', maxTokens: 128, files: model.files })).toEqual([]);
    expect(modelDifferences(model, { modelKey: 'k', maxTokens: 64, files: [{ path: 'onnx/model.onnx', sha256: 'b'.repeat(64), bytes: 10 }] })).toEqual([
      'tiny-bert cuts texts at 64 tokens here; the recipe\'s at 128.',
      `tiny-bert: onnx/model.onnx differs (sha256 ${'a'.repeat(12)}… in the recipe, ${'b'.repeat(12)}… here).`,
    ]);
  });
});
