// Builds the bench pages (bench/browser: the scale page and the embedding page) on their own:
// `vite build --config bench/browser/vite.config.ts`. The app's models folder is served as the app serves it, with
// the app's cross-origin isolation, so the embedding page loads models and runs threads as the app does.
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vite';
import { modelsFolder } from '../../scripts/vite-models-folder.ts';

const coi = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
const versionOf = (pkg: string): string => JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, `../../node_modules/${pkg}/package.json`), 'utf8')).version;

export default defineConfig({
  root: import.meta.dirname,
  publicDir: path.resolve(import.meta.dirname, '../../public'),
  plugins: [modelsFolder()],
  appType: 'mpa',
  worker: { format: 'es' },
  define: { __DSW_INFERENCE_VERSIONS__: JSON.stringify({ transformersJs: versionOf('@huggingface/transformers'), onnxRuntimeWeb: versionOf('onnxruntime-web') }) },
  optimizeDeps: { exclude: ['@huggingface/transformers', 'onnxruntime-web'] },
  build: {
    target: 'es2022',
    outDir: path.resolve(import.meta.dirname, '../../.tmp/bench-browser-dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    rollupOptions: { input: { index: path.resolve(import.meta.dirname, 'index.html'), embed: path.resolve(import.meta.dirname, 'embed.html'), rescore: path.resolve(import.meta.dirname, 'rescore.html') } },
  },
  server: { headers: coi },
  preview: { headers: coi },
});
