// How a workbench corpus is laid out in OpenSearch: one index of documents (analysed text, BM25 similarity, an
// optional knn_vector field) and a small side index `<name>__dsw` with the corpus record, its queries and qrels.
import type { Bm25Params } from '../bm25/index.ts';
import type { EmbeddingModelInfo } from '../embedding/index.ts';
import type { CorpusRecord } from '../storage/index.ts';
import type { AnalyzerOptions } from '../text/index.ts';

/** The side index of a corpus index. */
export function sideIndexOf(index: string): string {
  return `${index}__dsw`;
}

/** HNSW graph settings of the vector field (build time); `efSearch` is chosen per run. */
export interface HnswParams {
  m: number;
  efConstruction: number;
}

export const DEFAULT_HNSW: Readonly<HnswParams> = Object.freeze({ m: 16, efConstruction: 100 });

/** Version of the index layout below; an index of another layout is not resumed or reused. */
export const CLUSTER_LAYOUT = 2;

/** What a corpus index holds and how it was built; the side index's `corpus` document. */
export interface ClusterCorpusMeta {
  /** `CLUSTER_LAYOUT` when it was made. */
  layout?: number;
  /** The workbench's record of the corpus (counts, analyzer, checksum, sources). */
  record: CorpusRecord;
  /** `indexing` until every document, query and qrel is written; then `ready`. */
  status: 'indexing' | 'ready';
  /** Documents written so far, in load order (where an interrupted `dsw index` continues). */
  documentsDone: number;
  /** Identity of the source files (names, sizes, first bytes): an index is resumed or reused only for the same files. */
  fingerprint: string;
  /** Primary shards of the document index. */
  shards: number;
  /** The BM25 similarity of the text field. */
  bm25: { k1: number; b: number };
  /** The embedding model of the vector field, when documents were embedded. */
  embedding?: { model: EmbeddingModelInfo; modelKey: string; hnsw: HnswParams };
  /** OpenSearch's version when the index was made. */
  engineVersion?: string;
}

/** The analysed field BM25 searches: title and text as the workbench indexes them (`title\ntext`). */
export const SEARCH_FIELD = 'search_text';
export const VECTOR_FIELD = 'vector';
/** The stored copy of each vector: its float32 bytes (little-endian) in base64, 4/3 of the raw size, read back exactly. */
export const STORED_VECTOR_FIELD = 'vector_f32';

/** A vector's float32 bytes as base64 (what `STORED_VECTOR_FIELD` holds). */
export function vectorToBase64(vector: Float32Array): string {
  const bytes = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** The float32 vector a `vectorToBase64` string holds. */
export function vectorFromBase64(text: string): Float32Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Float32Array(bytes.buffer);
}

/** The text the workbench's BM25 index reads for a document. */
export function searchTextOf(doc: { title: string; text: string }): string {
  return doc.title ? `${doc.title}\n${doc.text}` : (doc.text ?? '');
}

/**
 * The workbench's word pattern (`core/text/analyzer.ts`) in Java's regex dialect: a run of letters, digits and marks
 * of any script, or one Han / Hiragana / Katakana character; `(?U)` makes `\s` Unicode white space as in JavaScript.
 */
export const WORD_PATTERN = '(?U)[\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}]|[^\\s\\p{P}\\p{S}\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}]+';

/** Settings and mappings of a document index reproducing the workbench's analyzer and BM25 parameters. */
export function documentIndexBody(options: { analyzer: AnalyzerOptions; bm25: Pick<Bm25Params, 'k1' | 'b'>; shards: number; embedding?: { dimensions: number; hnsw: HnswParams } }) {
  const { analyzer, bm25, shards, embedding } = options;
  const filter = [...(analyzer.lowercase ? ['lowercase'] : []), ...(analyzer.stopWords === 'english' ? ['dsw_english_stop'] : []), ...(analyzer.stemming === 'porter' ? ['porter_stem'] : [])];
  return {
    settings: {
      index: {
        number_of_shards: shards,
        number_of_replicas: 0,
        ...(embedding ? { knn: true } : {}),
        similarity: { dsw_bm25: { type: 'BM25', k1: bm25.k1, b: bm25.b } },
      },
      analysis: {
        tokenizer: { dsw_words: { type: 'pattern', pattern: WORD_PATTERN, group: 0 } },
        // Lucene's English stop set is the workbench's list; the stop filter lower-cases before comparing only
        // when asked, so with lowercase off it is told to ignore case, as the workbench does.
        filter: { dsw_english_stop: { type: 'stop', stopwords: '_english_', ignore_case: !analyzer.lowercase } },
        analyzer: { dsw_text: { type: 'custom', tokenizer: 'dsw_words', filter } },
      },
    },
    mappings: {
      dynamic: false,
      // The knn_vector field is indexed, not kept: `_source` keeps its exact float32 bytes in base64 (2 KB at 384
      // dimensions instead of ~8 KB of JSON numbers), which GQR reads back by _mget.
      _source: { excludes: [SEARCH_FIELD, VECTOR_FIELD] },
      properties: {
        id: { type: 'keyword' },
        title: { type: 'text', index: false },
        text: { type: 'text', index: false },
        metadata: { type: 'object', enabled: false },
        [STORED_VECTOR_FIELD]: { type: 'binary' },
        [SEARCH_FIELD]: { type: 'text', analyzer: 'dsw_text', similarity: 'dsw_bm25', norms: true },
        ...(embedding
          ? {
              [VECTOR_FIELD]: {
                type: 'knn_vector',
                dimension: embedding.dimensions,
                method: { name: 'hnsw', engine: 'lucene', space_type: 'innerproduct', parameters: { m: embedding.hnsw.m, ef_construction: embedding.hnsw.efConstruction } },
              },
            }
          : {}),
      },
    },
  };
}

/** The side index: the corpus document and chunks of queries and qrels, stored whole and never searched as text. */
export const SIDE_INDEX_BODY = {
  settings: { index: { number_of_shards: 1, number_of_replicas: 0 } },
  mappings: { dynamic: false, properties: { kind: { type: 'keyword' }, chunk: { type: 'integer' } } },
};

/** Queries and qrels are stored in chunks of this many. */
export const SIDE_CHUNK = 2000;

/**
 * k-NN scores are OpenSearch's transform of the inner product (ip + 1 when ip ≥ 0, else 1 / (1 − ip)); the
 * workbench reports the cosine itself (vectors are unit length), so the transform is undone.
 */
export function innerProductOfKnnScore(score: number): number {
  return score >= 1 ? score - 1 : 1 - 1 / score;
}
