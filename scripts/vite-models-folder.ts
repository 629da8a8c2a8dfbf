// public/models/ (the generated tiny-bert and what `npm run models` exports: GBs of weights) stays out of the build:
// `vite build` copies the rest of public/ only, and `vite preview` serves /models/* from public/models/ itself, with
// the preview's headers (cross-origin isolation). `vite dev` serves public/ as always. BUILD_MODELS=1 copies the
// models folder into the build too, for a static host that should serve it from there.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

const MODELS = 'models';
/** The list of the files served under /models/ (one GET instead of a HEAD per file: a missing file would log a 404). */
export const SERVED_FILES = 'served-files.json';

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

/** Serves the files under `folder` at `urlPrefix` (GET and HEAD, one byte range); anything else is left to `next`. */
export function modelFilesMiddleware(folder: string, urlPrefix: string, headers: Record<string, string> = {}) {
  const root = path.resolve(folder);
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const url = new URL(req.url ?? '/', 'http://host');
    if (!url.pathname.startsWith(urlPrefix) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (url.pathname === urlPrefix + SERVED_FILES && !fs.existsSync(path.join(root, SERVED_FILES))) {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Cache-Control', 'no-cache');
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ files: listFiles(root) }));
      return;
    }
    let relative: string;
    try {
      relative = decodeURIComponent(url.pathname.slice(urlPrefix.length));
    } catch {
      return notFound(res, headers);
    }
    const file = path.resolve(root, relative);
    if (relative.includes('\0') || (file !== root && !file.startsWith(root + path.sep))) return notFound(res, headers);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file); // follows symlinks: models are often linked into public/models/
    } catch {
      return notFound(res, headers);
    }
    if (!stat.isFile()) return notFound(res, headers);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.setHeader('Content-Type', CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream');
    res.setHeader('Last-Modified', stat.mtime.toUTCString());
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Accept-Ranges', 'bytes');
    let start = 0;
    let end = stat.size - 1;
    const range = req.headers.range;
    if (range) {
      const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
      const from = match?.[1] ? Number(match[1]) : undefined;
      const to = match?.[2] ? Number(match[2]) : undefined;
      if (from !== undefined) [start, end] = [from, Math.min(to ?? end, end)];
      else if (to !== undefined) start = Math.max(0, stat.size - to); // the last `to` bytes
      if (!match || (from === undefined && to === undefined) || start > end || start >= stat.size) {
        res.statusCode = 416;
        res.setHeader('Content-Range', `bytes */${stat.size}`);
        res.end();
        return;
      }
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${start}-${end}/${stat.size}`);
    } else {
      res.statusCode = 200;
    }
    res.setHeader('Content-Length', String(end - start + 1));
    if (req.method === 'HEAD' || stat.size === 0) {
      res.end();
      return;
    }
    const stream = fs.createReadStream(file, { start, end });
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  };
}

/** Every file under `root` (symlinks followed, a few levels deep), as paths relative to it with '/'. */
export function listFiles(root: string, depth = 6): string[] {
  const files: string[] = [];
  const walk = (folder: string, prefix: string, level: number) => {
    let entries: string[];
    try {
      entries = fs.readdirSync(folder);
    } catch {
      return;
    }
    for (const name of entries.sort()) {
      const full = path.join(folder, name);
      let stat: fs.Stats;
      try {
        stat = fs.statSync(full);
      } catch {
        continue;
      }
      if (stat.isFile()) files.push(prefix + name);
      else if (stat.isDirectory() && level < depth) walk(full, `${prefix}${name}/`, level + 1);
    }
  };
  walk(root, '', 0);
  return files;
}

function notFound(res: ServerResponse, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end('Not found');
}

/** Copies public/ into the build without its models folder (unless `withModels`). */
function copyPublic(publicDir: string, outDir: string, withModels: boolean): void {
  if (!fs.existsSync(publicDir)) return;
  for (const entry of fs.readdirSync(publicDir)) {
    if (entry === MODELS && !withModels) continue;
    fs.cpSync(path.join(publicDir, entry), path.join(outDir, entry), { recursive: true, dereference: true });
  }
}

export function modelsFolder(options: { copyIntoBuild?: boolean } = {}): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'dsw-models-folder',
    config: () => ({ build: { copyPublicDir: false } }),
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle() {
      if (!config.publicDir) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      copyPublic(config.publicDir, outDir, options.copyIntoBuild === true);
      // A static host serves the copied models folder as it is: the list is written beside it.
      const copied = path.join(outDir, MODELS);
      if (options.copyIntoBuild && fs.existsSync(copied)) fs.writeFileSync(path.join(copied, SERVED_FILES), JSON.stringify({ files: listFiles(copied) }));
    },
    configureServer(server) {
      // `vite dev` serves public/ itself; only the list of its models is answered here.
      const folder = path.join(config.publicDir, MODELS);
      const serve = modelFilesMiddleware(folder, `${config.base}${MODELS}/`, server.config.server.headers as Record<string, string> | undefined);
      server.middlewares.use((req, res, next) => (new URL(req.url ?? '/', 'http://host').pathname.endsWith(`/${MODELS}/${SERVED_FILES}`) ? serve(req, res, next) : next()));
    },
    configurePreviewServer(server) {
      const outDir = path.resolve(config.root, config.build.outDir);
      // Vite checks this itself only when no plugin serves files in preview.
      if (!fs.existsSync(outDir)) throw new Error(`The directory "${config.build.outDir}" does not exist. Did you build your project?`);
      const builtModels = path.join(outDir, MODELS);
      // DSW_SERVED_MODELS: another folder of models to serve (the e2e tests serve tiny-bert alone).
      const folder = process.env.DSW_SERVED_MODELS || (fs.existsSync(builtModels) ? builtModels : path.join(config.publicDir, MODELS));
      server.middlewares.use(modelFilesMiddleware(folder, `${config.base}${MODELS}/`, server.config.preview.headers as Record<string, string> | undefined));
    },
  };
}
