// Vectors for a browser corpus made by `dsw serve --model` (its embed endpoint), over a real loopback socket: the
// client side the app's embed worker runs (batches, progress, cancel), against the server as the CLI starts it.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine, documentText, embedThroughServer, loadEmbedder, serverEmbeddingModel, WorkbenchServerClient, type CorpusDocument, type Embedder } from '../../core/index.ts';
import { captureIo } from '../../test-support/capture-io.ts';
import { ensureBundledTinyModel } from '../../test-support/tiny-model.ts';
import { startServer, type RunningServer } from './serve.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataset = path.join(root, 'sample-data/meridian');

let server: RunningServer;
let bare: RunningServer;
let local: Embedder;
let docs: CorpusDocument[];

beforeAll(async () => {
  ensureBundledTinyModel();
  server = await startServer({ dataset, model: path.join(root, 'public/models/tiny-bert'), port: 0, host: '127.0.0.1', allowOrigins: [] }, captureIo(root));
  bare = await startServer({ dataset, port: 0, host: '127.0.0.1', allowOrigins: [] }, captureIo(root));
  local = await loadEmbedder({ modelId: 'tiny-bert', localModelPath: path.join(root, 'public/models/') });
  docs = await new WorkbenchServerClient({ server: bare.url }).listDocuments('meridian', { limit: 1000 });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await bare?.close();
  await local?.dispose();
});

/** A client whose requests are recorded (body sizes), over the real fetch. */
function recordingClient(url: string) {
  const bodies: number[] = [];
  const client = new WorkbenchServerClient({
    server: url,
    fetch: (input, init) => {
      if (init?.body) bodies.push(new TextEncoder().encode(String(init.body)).length);
      return fetch(input, init);
    },
  });
  return { client, bodies };
}

describe('embedding a corpus through dsw serve --model', () => {
  it('finds the served model and embeds every text in batches, the vectors the model makes here', async () => {
    const { client, bodies } = recordingClient(server.url);
    const served = await serverEmbeddingModel(client);
    expect(served).toMatchObject({ servedCorpusId: 'meridian', model: { modelId: 'tiny-bert', dimensions: 32, dtype: 'fp32' } });
    const texts = docs.map(documentText);
    expect(texts).toHaveLength(168);
    const progress: number[] = [];
    const result = await embedThroughServer(client, served.servedCorpusId, texts, { batchSize: 40, onProgress: (p) => progress.push(p.done) });
    expect(result.requests).toBe(5);
    expect(progress).toEqual([40, 80, 120, 160, 168]);
    expect(bodies).toHaveLength(5);
    const fresh = await local.embedTexts(texts, 'passage');
    let worst = 1;
    for (let r = 0; r < texts.length; r++) worst = Math.min(worst, cosine(result.values.subarray(r * 32, (r + 1) * 32), fresh.subarray(r * 32, (r + 1) * 32)));
    expect(worst).toBeGreaterThan(0.9999);
  }, 240_000);

  it('keeps each request under the body budget', async () => {
    const { client, bodies } = recordingClient(server.url);
    const texts = docs.slice(0, 24).map(documentText);
    const result = await embedThroughServer(client, 'meridian', texts, { batchSize: 256, maxBodyBytes: 2500 });
    expect(result.requests).toBeGreaterThan(3);
    expect(bodies.every((b) => b <= 2500)).toBe(true);
    const whole = await embedThroughServer(client, 'meridian', texts, { batchSize: 256 });
    expect(whole.requests).toBe(1);
    expect(result.values).toEqual(whole.values);
  }, 240_000);

  it('stops between batches when cancelled', async () => {
    const { client, bodies } = recordingClient(server.url);
    const controller = new AbortController();
    const run = embedThroughServer(client, 'meridian', docs.map(documentText), { batchSize: 8, signal: controller.signal, onProgress: () => controller.abort() });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(bodies).toHaveLength(1);
  }, 120_000);

  it('says what is wrong: no model on the server, bad or too many texts', async () => {
    await expect(serverEmbeddingModel(new WorkbenchServerClient({ server: bare.url }))).rejects.toThrow(
      `The workbench server at ${bare.url} has no embedding model (it serves meridian without one): start it with dsw serve --dataset <folder> --model <folder or id>.`,
    );
    const client = new WorkbenchServerClient({ server: bare.url });
    await expect(client.embed('meridian', ['a'])).rejects.toThrow('This server has no embedding model: start it with --model');
    const post = (body: unknown) => fetch(`${server.url}/api/v1/corpora/meridian/embed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const bad = await post({ texts: ['a', 3] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: 'bad-request', message: 'Field "texts" must be a non-empty array of strings (document texts).' } });
    const many = await post({ texts: Array.from({ length: 257 }, () => 'x') });
    expect(many.status).toBe(413);
    expect(((await many.json()) as { error: { message: string } }).error.message).toBe('At most 256 texts per embed request; got 257.');
  });
});
