// SHA-256 of the model files transformers.js fetches, computed once per file URL in this worker (crypto.subtle).
import { sha256Hex, type ModelFileHash } from '../core/index.ts';

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

const hashes = new Map<string, Promise<{ sha256: string; bytes: number } | null>>();

/** `inner`, with every successful response hashed (a clone, so transformers.js reads the body as before). */
export function hashingFetch(inner: Fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const url = new URL(String(input), self.location.href).href;
    if (response.ok && !hashes.has(url)) {
      hashes.set(
        url,
        response
          .clone()
          .arrayBuffer()
          .then(async (bytes) => ({ sha256: await sha256Hex(bytes), bytes: bytes.byteLength }))
          .catch(() => null),
      );
    }
    return response;
  };
}

/** The hashed files of a model (paths inside its folder; a hub's `resolve/<revision>/` is dropped). */
export async function modelFileHashes(modelId: string): Promise<ModelFileHash[]> {
  const marker = `/${modelId}/`;
  const files = new Map<string, ModelFileHash>();
  for (const [url, pending] of hashes) {
    const pathname = decodeURIComponent(new URL(url).pathname);
    const at = pathname.lastIndexOf(marker);
    if (at < 0) continue;
    const hash = await pending;
    if (!hash) continue;
    const path = pathname.slice(at + marker.length).replace(/^resolve\/[^/]+\//, '');
    files.set(path, { path, ...hash });
  }
  return [...files.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}
