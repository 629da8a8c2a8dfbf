// The HTTP client of a workbench server (`dsw serve`): every call of docs/serve-api.md, its failures in words.
import { isAbortError } from '../abort/index.ts';
import type { CorpusDocument, CorpusQuery, Qrel } from '../corpus/index.ts';
import type { PipelineSpec } from '../retrieval/index.ts';
import {
  SERVE_API_PREFIX,
  ServeError,
  type ServedCorpusInfo,
  type ServedEmbedResponse,
  type ServedPrepareResult,
  type ServedRunResult,
  type ServedSearchResponse,
  type ServeErrorBody,
  type ServeHealth,
  type ServeStreamLine,
} from './serve-protocol.ts';

export interface ServerClientOptions {
  /** e.g. http://127.0.0.1:8790 (a trailing slash or /api/v1 is tolerated). */
  server: string;
  token?: string;
  fetch?: typeof fetch;
}

/** A server address as the workbench keeps it: origin and path, no trailing slash or API prefix. */
export function normalizeServerUrl(text: string): string {
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`);
  } catch {
    throw new Error(`"${text}" is not a server address; write it like http://127.0.0.1:8790`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`A workbench server is reached over http or https, not ${url.protocol}`);
  const path = url.pathname.replace(/\/+$/, '').replace(new RegExp(`${SERVE_API_PREFIX}$`), '');
  return `${url.origin}${path}`;
}

export class WorkbenchServerClient {
  readonly server: string;
  private readonly token: string | undefined;
  private readonly fetchImpl: typeof fetch;

  constructor(options: ServerClientOptions) {
    this.server = normalizeServerUrl(options.server);
    this.token = options.token?.trim() || undefined;
    this.fetchImpl = options.fetch ?? ((...args) => fetch(...args));
  }

  health(): Promise<ServeHealth> {
    return this.json('GET', '/health');
  }
  listCorpora(): Promise<ServedCorpusInfo[]> {
    return this.json('GET', '/corpora');
  }
  corpus(id: string): Promise<ServedCorpusInfo> {
    return this.json('GET', `/corpora/${enc(id)}`);
  }
  queries(id: string): Promise<CorpusQuery[]> {
    return this.json('GET', `/corpora/${enc(id)}/queries`);
  }
  qrels(id: string): Promise<Qrel[]> {
    return this.json('GET', `/corpora/${enc(id)}/qrels`);
  }
  async documents(id: string, ids: readonly string[]): Promise<Array<CorpusDocument | undefined>> {
    const out: Array<CorpusDocument | undefined> = [];
    for (let i = 0; i < ids.length; i += 1000) {
      const page = await this.json<Array<CorpusDocument | null>>('POST', `/corpora/${enc(id)}/documents`, { ids: ids.slice(i, i + 1000) });
      out.push(...page.map((d) => d ?? undefined));
    }
    return out;
  }
  listDocuments(id: string, options: { after?: string; limit: number }): Promise<CorpusDocument[]> {
    const query = new URLSearchParams({ limit: String(Math.min(options.limit, 1000)), ...(options.after !== undefined ? { after: options.after } : {}) });
    return this.json('GET', `/corpora/${enc(id)}/documents?${query}`);
  }
  search(id: string, spec: PipelineSpec, query: string, k: number, signal?: AbortSignal): Promise<ServedSearchResponse> {
    return this.json('POST', `/corpora/${enc(id)}/search`, { spec, query, k }, signal);
  }
  run(id: string, spec: PipelineSpec, k: number, onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<ServedRunResult> {
    return this.stream('/corpora/' + enc(id) + '/run', { spec, k }, onProgress, signal);
  }
  prepareGqr(
    id: string,
    spec: PipelineSpec,
    k: number,
    which: { queryIds?: readonly string[] | null; texts?: readonly string[] },
    onProgress?: (done: number, total: number) => void,
    signal?: AbortSignal,
  ): Promise<ServedPrepareResult> {
    return this.stream(`/corpora/${enc(id)}/gqr/prepare`, { spec, k, ...which }, onProgress, signal);
  }

  /** Passage vectors of `texts` (at most SERVE_MAX_EMBED_TEXTS) by the server's model. */
  embed(id: string, texts: readonly string[], signal?: AbortSignal): Promise<ServedEmbedResponse> {
    return this.json('POST', `/corpora/${enc(id)}/embed`, { texts }, signal);
  }

  private async request(method: string, path: string, body: unknown, signal: AbortSignal | undefined): Promise<Response> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.server}${SERVE_API_PREFIX}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new Error(
        `Cannot reach the workbench server at ${this.server} (${(error as Error).message}). Is \`dsw serve\` running there, and does it allow this page's origin (--allow-origin)?`,
        { cause: error },
      );
    }
    if (!response.ok) throw await this.failure(response);
    return response;
  }

  private async failure(response: Response): Promise<ServeError> {
    let body: ServeErrorBody | undefined;
    try {
      body = ((await response.json()) as { error?: ServeErrorBody }).error;
    } catch {
      body = undefined;
    }
    const said = body?.message ?? `HTTP ${response.status} ${response.statusText}`;
    if (response.status === 401) return new ServeError(401, 'unauthorized', `The workbench server at ${this.server} refused the request: ${said} Check the token in the server's settings on the Corpora page.`);
    return new ServeError(response.status, body?.code ?? 'internal', `The workbench server at ${this.server} answered: ${said}`);
  }

  private async json<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    return (await (await this.request(method, path, body, signal)).json()) as T;
  }

  private async stream<T>(path: string, body: unknown, onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<T> {
    const response = await this.request('POST', path, body, signal);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (value) buffered += value;
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = JSON.parse(buffered.slice(0, newline)) as ServeStreamLine<T>;
          buffered = buffered.slice(newline + 1);
          if (line.type === 'progress') onProgress?.(line.done, line.total);
          else if (line.type === 'result') return line.result;
          else throw new ServeError(line.status, line.error.code, `The workbench server at ${this.server} failed: ${line.error.message}`);
        }
        if (done) throw new Error(`The workbench server at ${this.server} closed the stream before the result.`);
      }
    } finally {
      void reader.cancel().catch(() => undefined);
    }
  }
}

const enc = encodeURIComponent;
