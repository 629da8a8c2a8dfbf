/** The `@huggingface/transformers` module (type only; loaded lazily so importing the core stays light). */
export type TransformersModule = typeof import('@huggingface/transformers');

/**
 * The inference software behind an embedder, for a run's reproducibility record: the transformers.js version and
 * the ONNX Runtime build it runs on (`onnxruntime-node` in Node, `onnxruntime-web` in browsers and workers).
 */
export function inferenceRuntime(transformers: Pick<TransformersModule, 'env'>): Record<string, string> {
  const runtime: Record<string, string> = { 'transformers.js': transformers.env.version };
  const versions = (transformers.env.backends.onnx as { versions?: Record<string, string> }).versions ?? {};
  if (versions.node) runtime['onnxruntime-node'] = versions.node;
  else if (versions.web) runtime['onnxruntime-web'] = versions.web;
  else if (versions.common) runtime.onnxruntime = versions.common;
  return runtime;
}
