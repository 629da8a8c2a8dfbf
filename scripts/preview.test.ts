import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewArgs } from './preview.mjs';

describe('npm start arguments', () => {
  it('serves on 127.0.0.1:5173 by default and takes --port N, --port=N and --host H', () => {
    expect(previewArgs([])).toEqual(['preview', '--host', '127.0.0.1', '--port', '5173', '--strictPort']);
    expect(previewArgs(['--port', '8080'])).toEqual(['preview', '--host', '127.0.0.1', '--port', '8080', '--strictPort']);
    expect(previewArgs(['--port=9000', '--host', '0.0.0.0'])).toEqual(['preview', '--host', '0.0.0.0', '--port', '9000', '--strictPort']);
    expect(previewArgs(['--open'])).toEqual(['preview', '--host', '127.0.0.1', '--port', '5173', '--strictPort', '--open']);
  });
  it('refuses a port that is not a port number, saying what to give', () => {
    expect(() => previewArgs(['--port'])).toThrow('--port needs a value, e.g. --port 8080');
    expect(() => previewArgs(['--port', 'abc'])).toThrow('--port abc: give a port number from 1 to 65535');
    expect(() => previewArgs(['--port=70000'])).toThrow('--port 70000: give a port number from 1 to 65535');
  });
  it('serves the built app on the port asked for', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsw-start-'));
    fs.writeFileSync(path.join(outDir, 'index.html'), '<!doctype html><title>built app</title>');
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'preview.mjs'), '--port', String(port), '--outDir', outDir], {
      cwd: path.join(import.meta.dirname, '..'),
      stdio: 'ignore',
    });
    try {
      let body = '';
      for (let i = 0; i < 100 && !body; i++) {
        body = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text(), () => '');
        if (!body) await new Promise((r) => setTimeout(r, 100));
      }
      expect(body).toContain('built app');
    } finally {
      child.kill('SIGTERM');
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  });
});
