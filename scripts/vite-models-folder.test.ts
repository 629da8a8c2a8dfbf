import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelFilesMiddleware } from './vite-models-folder.ts';

const COI = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
let dir: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-models-folder-'));
  const models = path.join(dir, 'public', 'models');
  fs.mkdirSync(path.join(models, 'tiny', 'onnx'), { recursive: true });
  fs.writeFileSync(path.join(models, 'tiny', 'config.json'), '{"hidden_size":32}');
  fs.writeFileSync(path.join(models, 'tiny', 'onnx', 'model.onnx'), Buffer.from([...Array(256).keys()]));
  // A model linked in from elsewhere, as `npm run models` folders often are.
  fs.mkdirSync(path.join(dir, 'elsewhere', 'linked'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'elsewhere', 'linked', 'config.json'), '{"linked":true}');
  fs.symlinkSync(path.join(dir, 'elsewhere', 'linked'), path.join(models, 'linked'));
  fs.writeFileSync(path.join(dir, 'public', 'secret.txt'), 'not a model');
  const serve = modelFilesMiddleware(models, '/models/', COI);
  server = http.createServer((req, res) =>
    serve(req, res, () => {
      res.statusCode = 418; // what the next middleware (the built app) would serve
      res.end();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('modelFilesMiddleware', () => {
  it('serves a model file with its type, length and the cross-origin isolation headers', async () => {
    const response = await fetch(`${base}/models/tiny/config.json`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"hidden_size":32}');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('content-length')).toBe('18');
    expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    const weights = new Uint8Array(await (await fetch(`${base}/models/tiny/onnx/model.onnx`)).arrayBuffer());
    expect(weights).toEqual(Uint8Array.from([...Array(256).keys()]));
  });

  it('answers HEAD with the length and no body, follows symlinked folders, and serves byte ranges', async () => {
    const head = await fetch(`${base}/models/tiny/onnx/model.onnx`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('256');
    expect(await head.text()).toBe('');
    expect(await (await fetch(`${base}/models/linked/config.json`)).text()).toBe('{"linked":true}');
    const part = await fetch(`${base}/models/tiny/onnx/model.onnx`, { headers: { range: 'bytes=10-13' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 10-13/256');
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([10, 11, 12, 13]);
    const tail = await fetch(`${base}/models/tiny/onnx/model.onnx`, { headers: { range: 'bytes=-2' } });
    expect([...new Uint8Array(await tail.arrayBuffer())]).toEqual([254, 255]);
    expect((await fetch(`${base}/models/tiny/onnx/model.onnx`, { headers: { range: 'bytes=300-' } })).status).toBe(416);
  });

  it('lists the served files (symlinked folders followed) at served-files.json, with the same headers', async () => {
    const response = await fetch(`${base}/models/served-files.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(await response.json()).toEqual({ files: ['linked/config.json', 'tiny/config.json', 'tiny/onnx/model.onnx'] });
  });

  it('says 404 for a missing file, a folder and anything outside the models folder; other paths go on', async () => {
    for (const url of ['/models/tiny/missing.json', '/models/tiny', '/models/tiny/', '/models/..%2fsecret.txt', '/models/tiny/..%2f..%2fsecret.txt']) {
      const response = await fetch(`${base}${url}`);
      expect(response.status, url).toBe(404);
      expect(response.headers.get('cross-origin-embedder-policy'), url).toBe('require-corp');
    }
    // Dot segments are resolved in the URL first: this one is a path of the app, not of the models folder.
    expect((await fetch(`${base}/models/%2e%2e/secret.txt`)).status).toBe(418);
    expect((await fetch(`${base}/index.html`)).status).toBe(418);
    expect((await fetch(`${base}/models/tiny/config.json`, { method: 'POST' })).status).toBe(418);
  });
});
