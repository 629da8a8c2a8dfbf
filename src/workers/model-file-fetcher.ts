// The app's own fetcher for model files served from its origin (bundled /models/, kept folders), given to
// transformers.js as `env.fetch`. transformers.js asks for every file twice when it reports progress: a metadata
// probe (a full GET whose body it never reads, `get_file_metadata`) and the load, in parallel. In Chromium both
// GETs join one HTTP-cache entry, and when the probe's unread response is dropped the load's read fails with
// "network error" (net::ERR_CACHE_WRITE_FAILURE). Here each file is downloaded once per load, whole, one file at
// a time, outside the HTTP cache, its length checked and failures retried; every caller gets its own Response
// over the same bytes. transformers.js is fed through its custom-cache hook (`env.customCache`, asked first by the
// probe and by the load) and through `env.fetch` (asked when the cache has no answer).

/** Bytes of one model file as far as it was read. */
export interface ModelFileProgress {
  url: string;
  loaded: number;
  /** Bytes expected (content-length), or 0 when the server did not say. */
  total: number;
}

export interface ModelFileFetcherOptions {
  /** Absolute URL prefixes whose files this fetcher downloads; other URLs go to `next` untouched. */
  prefixes: readonly string[];
  /** What relative URLs (transformers.js asks for `/models/…`) are resolved against; default this page or worker. */
  base?: string;
  /** The fetch underneath; default the global `fetch`. */
  next?: (input: string, init?: RequestInit) => Promise<Response>;
  /** Attempts per file; default 3. */
  tries?: number;
  /** Wait before attempt n+1, times n; default 300 ms. */
  retryDelayMs?: number;
  /** Called as a file's bytes arrive. */
  onProgress?: (progress: ModelFileProgress) => void;
}

interface Downloaded {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Blob;
}

export class ModelFileFetcher {
  /** Words for the last file that could not be read (transformers.js reports such a file as "not found"). */
  failure: string | null = null;
  private readonly files = new Map<string, Promise<Downloaded>>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly next: (input: string, init?: RequestInit) => Promise<Response>;

  constructor(private readonly options: ModelFileFetcherOptions) {
    this.next = options.next ?? ((input, init) => fetch(input, init));
  }

  /** A `fetch` for transformers.js' `env.fetch`. */
  readonly fetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), this.options.base ?? globalThis.location?.href).href;
    const method = (init?.method ?? 'GET').toUpperCase();
    const ranged = init?.headers !== undefined && new Headers(init.headers).has('range');
    if (method !== 'GET' || ranged || !this.options.prefixes.some((prefix) => url.startsWith(prefix))) return this.next(url, init);
    let file = this.files.get(url);
    if (!file) {
      // One download at a time: two big bodies in flight only compete for the same two cores.
      file = this.queue.then(() => this.download(url));
      this.queue = file.catch(() => undefined);
      this.files.set(url, file);
    }
    const { status, statusText, headers, body } = await file;
    return new Response(body, { status, statusText, headers });
  };

  /**
   * For transformers.js' `env.customCache`: answers keys under the prefixes with the downloaded file (nothing for a
   * 404, so transformers.js reports the file missing); never stores anything.
   */
  readonly cache = {
    match: async (key: string): Promise<Response | undefined> => {
      const url = new URL(key, this.options.base ?? globalThis.location?.href).href;
      if (!this.options.prefixes.some((prefix) => url.startsWith(prefix))) return undefined;
      const response = await this.fetch(url);
      return response.ok ? response : undefined;
    },
    put: async (): Promise<void> => undefined,
  };

  /** Forgets the downloaded bytes (call once the model has loaded or failed). */
  release(): void {
    this.files.clear();
  }

  private async download(url: string): Promise<Downloaded> {
    const tries = Math.max(1, this.options.tries ?? 3);
    let lastError: unknown;
    for (let attempt = 1; attempt <= tries; attempt++) {
      try {
        return await this.read(url);
      } catch (error) {
        lastError = error;
        if (attempt < tries) await new Promise((resolve) => setTimeout(resolve, (this.options.retryDelayMs ?? 300) * attempt));
      }
    }
    const reason = lastError instanceof Error ? lastError.message : String(lastError);
    this.failure = `The model file ${new URL(url).pathname} could not be read from this app (${tries} ${tries === 1 ? 'try' : 'tries'}): ${reason}. Check that the app's server is still running, then try again.`;
    throw new Error(this.failure, { cause: lastError });
  }

  private async read(url: string): Promise<Downloaded> {
    const response = await this.next(url, { cache: 'no-store' });
    const headers: [string, string][] = [];
    response.headers.forEach((value, key) => headers.push([key, value]));
    const expected = Number(response.headers.get('content-length') ?? NaN);
    // A compressed body arrives decoded, so its length differs from content-length.
    const checkLength = response.ok && Number.isFinite(expected) && !response.headers.has('content-encoding');
    const chunks: Uint8Array[] = [];
    let loaded = 0;
    const reader = response.body?.getReader();
    if (reader) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        loaded += value.byteLength;
        if (response.ok) this.options.onProgress?.({ url, loaded, total: checkLength ? expected : 0 });
      }
    }
    if (checkLength && loaded !== expected) throw new Error(`the server sent ${loaded} of ${expected} bytes`);
    return { status: response.status, statusText: response.statusText, headers, body: new Blob(chunks as BlobPart[]) };
  }
}
