#!/usr/bin/env node
// `npm start` serves the built app with vite preview on 127.0.0.1:5173; `npm start -- --port N` (or `--port=N`,
// `--host H`) picks another address. The port is strict: a port in use is an error, not a silent move.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_PORT = 5173;
export const DEFAULT_HOST = '127.0.0.1';

/** The vite preview arguments for `npm start`'s own arguments; throws with words on a bad one. */
export function previewArgs(argv) {
  let port = DEFAULT_PORT;
  let host = DEFAULT_HOST;
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag === '--port' || flag === '--host') {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') throw new Error(`${flag} needs a value, e.g. ${flag === '--port' ? '--port 8080' : '--host 0.0.0.0'}`);
      if (flag === '--port') {
        if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 65535) throw new Error(`--port ${value}: give a port number from 1 to 65535`);
        port = Number(value);
      } else {
        host = value;
      }
    } else {
      rest.push(arg);
    }
  }
  return ['preview', '--host', host, '--port', String(port), '--strictPort', ...rest];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let args;
  try {
    args = previewArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`npm start: ${error.message}`);
    process.exit(2);
  }
  const vite = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'vite', 'bin', 'vite.js');
  const child = spawn(process.execPath, [vite, ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
