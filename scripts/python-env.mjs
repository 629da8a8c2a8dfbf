// The Python environment for model preparation and the bench peers: a venv in .venv-models/ (git-ignored) with
// bench/peers/requirements.txt installed. Made once; remade only when the requirements file changes.
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const VENV_DIR = '.venv-models';
export const REQUIREMENTS = 'bench/peers/requirements.txt';

/** The venv's python, or null when the venv has not been made. */
export function venvPython(root) {
  const python = path.join(root, VENV_DIR, 'bin', 'python');
  return fs.existsSync(python) ? python : null;
}

/**
 * Makes the venv and installs a requirements file (default REQUIREMENTS) unless that was already done for this
 * file's content. Each file has its own stamp (`.<file name>.sha256`), so a step's extra requirements never
 * reinstall the others.
 */
export function ensurePythonEnv({ root, log, requirements: file = REQUIREMENTS }) {
  const dir = path.join(root, VENV_DIR);
  const requirements = path.join(root, file);
  const wanted = crypto.createHash('sha256').update(fs.readFileSync(requirements)).digest('hex');
  const stamp = path.join(dir, `.${path.basename(file, '.txt')}.sha256`);
  if (venvPython(root) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === wanted) return venvPython(root);
  const system = process.env.PYTHON ?? 'python3';
  if (!venvPython(root)) {
    log(`making a Python venv in ${VENV_DIR}/ with ${system}`);
    execFileSync(system, ['-m', 'venv', dir], { stdio: 'inherit' });
  }
  log(`installing ${file} into ${VENV_DIR}/${file === REQUIREMENTS ? ' (PyTorch for CPU, sentence-transformers, ONNX tools; a few GB the first time)' : ''}`);
  execFileSync(venvPython(root), ['-m', 'pip', 'install', '--disable-pip-version-check', '-r', requirements], { stdio: 'inherit' });
  fs.writeFileSync(stamp, `${wanted}\n`);
  return venvPython(root);
}

/**
 * Starts a Python script of bench/peers/ in the venv that answers lines with lines (JSON): `next()` resolves with
 * the next line it prints (rejecting with its standard error if it exits first), `send(line)` writes one. `env` is
 * added to the environment.
 */
export function startPeer(root, script, args, env = {}) {
  const python = venvPython(root);
  if (!python) throw new Error(`No Python venv in ${VENV_DIR}/; run \`npm run models\` first`);
  const child = spawn(python, [path.join(root, 'bench/peers', script), ...args], {
    cwd: path.join(root, 'bench/peers'),
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, HF_HUB_OFFLINE: '1', TRANSFORMERS_OFFLINE: '1', TOKENIZERS_PARALLELISM: 'false', ...env },
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const lines = [];
  const waiting = [];
  let buffered = '';
  let exited = null;
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (waiting.length) waiting.shift().resolve(line);
      else lines.push(line);
    }
  });
  child.on('exit', (code) => {
    exited = new Error(`${script} exited (${code}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`);
    for (const w of waiting.splice(0)) w.reject(exited);
  });
  return {
    next() {
      if (lines.length) return Promise.resolve(lines.shift());
      if (exited) return Promise.reject(exited);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    send(line) {
      child.stdin.write(`${line}\n`);
    },
    stop() {
      child.kill();
    },
  };
}

/** Runs a Python script of bench/peers/ in the venv and returns its standard output. */
export function runPeer(root, script, args, options = {}) {
  const python = venvPython(root);
  if (!python) throw new Error(`No Python venv in ${VENV_DIR}/; run \`npm run models\` first`);
  return execFileSync(python, [path.join(root, 'bench/peers', script), ...args], {
    cwd: path.join(root, 'bench/peers'),
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', options.quiet ? 'pipe' : 'inherit'],
    env: { ...process.env, HF_HUB_OFFLINE: '1', TRANSFORMERS_OFFLINE: '1', TOKENIZERS_PARALLELISM: 'false' },
  });
}
