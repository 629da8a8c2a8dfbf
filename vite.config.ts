import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { modelsFolder } from './scripts/vite-models-folder.ts';

// The inference software bundled into this build, recorded on every saved run (RunEnvironment).
const versionOf = (pkg: string): string => JSON.parse(readFileSync(new URL(`./node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;
const inferenceVersions = { transformersJs: versionOf('@huggingface/transformers'), onnxRuntimeWeb: versionOf('onnxruntime-web') };

// Cross-origin isolation, on by default (COI=0 turns it off): it gives the page SharedArrayBuffer, so dense vectors
// can live in shared WebAssembly memory and ONNX Runtime's wasm backend can use threads. Everything the app loads
// is same-origin; cross-origin fetches (a model URL) use CORS, which require-corp accepts. Without the headers the
// app still works: vectors stay in plain memory and inference runs single-threaded.
const coi = process.env.COI === '0'
  ? undefined
  : { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  // The build leaves public/models/ out (GBs after `npm run models`; BUILD_MODELS=1 copies it); preview serves it.
  plugins: [react(), modelsFolder({ copyIntoBuild: process.env.BUILD_MODELS === '1' })],
  // No SPA fallback: a missing /models/* file must 404 rather than come back as index.html.
  appType: 'mpa',
  worker: { format: 'es' },
  define: { __DSW_INFERENCE_VERSIONS__: JSON.stringify(inferenceVersions) },
  optimizeDeps: { exclude: ['@huggingface/transformers', 'onnxruntime-web'] },
  build: { target: 'es2022', chunkSizeWarningLimit: 1500 },
  server: { headers: coi },
  preview: { headers: coi },
});
