import { modelIdOfKey } from '../embedding/index.ts';
import { describePipeline, type PipelineSpec } from '../retrieval/index.ts';

/** Where an imported run came from (a TREC run file made by any system). */
export interface ImportedRunSource {
  kind: 'imported';
  /** Name of the imported file. */
  fileName: string;
}

/** What produced a run: a pipeline of the workbench, or an imported file. */
export type RunPipeline = PipelineSpec | ImportedRunSource;

/** A short label for what produced a run: the pipeline, or the imported file. */
export function describeRunPipeline(pipeline: RunPipeline): string {
  if (pipeline.kind === 'imported') return `Imported: ${pipeline.fileName}`;
  // A kind this build does not know (a run imported from a newer workbench) is shown by its name.
  try {
    const label: unknown = describePipeline(pipeline);
    if (typeof label === 'string' && label) return label;
  } catch {
    // fall through
  }
  return String(pipeline.kind);
}

/**
 * The models a pipeline uses, as model id → full model key, found in any `modelKey` field at any depth (dense
 * children of fusions and GQR included). For `RunVersions.models`.
 */
export function modelsOfPipeline(spec: PipelineSpec): Record<string, string> {
  const models: Record<string, string> = {};
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (key === 'modelKey' && typeof v === 'string') models[modelIdOfKey(v)] = v;
        else visit(v);
      }
    }
  };
  visit(spec);
  return models;
}
