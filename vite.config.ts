import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// COI=1 turns on cross-origin isolation (SharedArrayBuffer, multi-threaded ONNX Runtime wasm).
const coi = process.env.COI === '1'
  ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' }
  : undefined;

export default defineConfig({
  plugins: [react()],
  // No SPA fallback: a missing /models/* file must 404 rather than come back as index.html.
  appType: 'mpa',
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['@huggingface/transformers', 'onnxruntime-web'] },
  build: { target: 'es2022', chunkSizeWarningLimit: 1500 },
  server: { headers: coi },
  preview: { headers: coi },
});
