// Builds the scale bench page (bench/browser) on its own: `vite build --config bench/browser/vite.config.ts`.
import path from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  appType: 'mpa',
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['@huggingface/transformers', 'onnxruntime-web'] },
  build: { target: 'es2022', outDir: path.resolve(import.meta.dirname, '../../.tmp/bench-browser-dist'), emptyOutDir: true, chunkSizeWarningLimit: 4000 },
});
