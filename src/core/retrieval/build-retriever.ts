import type { Bm25Index } from '../bm25/index.ts';
import type { VectorFormChoice } from '../dense/index.ts';
import { Bm25Retriever } from './bm25-retriever.ts';
import { DenseRetriever, type DenseIndex } from './dense-retriever.ts';
import { FusionRetriever } from './fusion-retriever.ts';
import { GqrRetriever, gqrGeometryOf } from './gqr-retriever.ts';
import type { PipelineSpec } from './pipeline-spec.ts';
import type { Retriever } from './retriever.ts';

/**
 * What a host (a worker, the CLI, a test) provides for building retrievers over one corpus. Resources are
 * loaded on demand: a BM25-only pipeline never loads an embedding model.
 */
export interface RetrievalResources {
  /** The corpus's BM25 index. */
  bm25Index(): Promise<Bm25Index>;
  /**
   * The stored vectors of one embedding set with a query embedder of the same model. Rejects with words a person
   * can act on when the set is missing, incomplete, or its model cannot be loaded. Absent: the host has no
   * dense retrieval. `vectorForm` is the pipeline's choice: a host that can hold only the compact form of a large
   * set (no float32 rows in memory) returns it with `compact` set; otherwise the retriever derives what it needs.
   */
  denseIndex?(modelKey: string, vectorForm?: VectorFormChoice): Promise<DenseIndex>;
  /**
   * Present when the corpus lives elsewhere (a workbench server): that host runs whole pipelines, so
   * `buildRetriever` hands it the spec instead of building one here.
   */
  retriever?(spec: PipelineSpec): Promise<Retriever>;
}

/** Turns a pipeline spec into a Retriever over the given resources. */
export async function buildRetriever(spec: PipelineSpec, resources: RetrievalResources): Promise<Retriever> {
  if (resources.retriever) return resources.retriever(spec);
  switch (spec.kind) {
    case 'bm25':
      return new Bm25Retriever(await resources.bm25Index(), spec.params);
    case 'dense': {
      if (!resources.denseIndex) throw new Error('Dense retrieval is not available here (no stored vectors).');
      return new DenseRetriever(await resources.denseIndex(spec.modelKey, spec.vectorForm), { searchMode: spec.searchMode, vectorForm: spec.vectorForm });
    }
    case 'rrf': {
      const [first, second] = await buildChildren(spec.pipelines, resources);
      return new FusionRetriever(first, second, { method: 'rrf', k: spec.k }, spec.fetchKMultiplier);
    }
    case 'cc': {
      const [first, second] = await buildChildren(spec.pipelines, resources);
      const { weight, normalizeMethod, pipeline1Min, pipeline2Min } = spec;
      return new FusionRetriever(first, second, { method: 'cc', weight, normalizeMethod, pipeline1Min, pipeline2Min }, spec.fetchKMultiplier);
    }
    case 'gqr': {
      // The primary first, then the complementary (as the reference, docs/decisions.md#gqr-reference).
      const primary = await buildRetriever(spec.primary, resources);
      const complementary = await buildRetriever(spec.complementary, resources);
      return new GqrRetriever({ primary, complementary, geometry: gqrGeometryOf(primary), config: spec.config });
    }
    default:
      throw new Error(`Unknown pipeline kind: ${String((spec as { kind: unknown }).kind)}`);
  }
}

async function buildChildren(pipelines: readonly [PipelineSpec, PipelineSpec], resources: RetrievalResources): Promise<[Retriever, Retriever]> {
  if (!Array.isArray(pipelines) || pipelines.length !== 2) throw new Error('A fusion pipeline needs exactly two pipelines to fuse.');
  return [await buildRetriever(pipelines[0], resources), await buildRetriever(pipelines[1], resources)];
}
