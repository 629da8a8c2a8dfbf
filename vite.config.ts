import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Cross-origin isolation, on by default (COI=0 turns it off): it gives the page SharedArrayBuffer, so dense vectors
// can live in shared WebAssembly memory and ONNX Runtime's wasm backend can use threads. Everything the app loads
// is same-origin; cross-origin fetches (a model URL) use CORS, which require-corp accepts. Without the headers the
// app still works: vectors stay in plain memory and inference runs single-threaded.
const coi = process.env.COI === '0'
  ? undefined
  : { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

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
