// The few OpenSearch REST calls the workbench makes, over plain fetch (docs/opensearch.md says why not the official
// client): JSON in, JSON out, failures in words that name the call and OpenSearch's own reason.

/** A failed OpenSearch call: the HTTP status and OpenSearch's error type and reason. */
export class OpenSearchError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly type?: string,
  ) {
    super(message);
    this.name = 'OpenSearchError';
  }
}

export interface OpenSearchClientOptions {
  /** e.g. http://127.0.0.1:9200 */
  url: string;
  fetch?: typeof fetch;
}

/** One hit of a search response. */
export interface OpenSearchHit<T = Record<string, unknown>> {
  _id: string;
  _score: number | null;
  _source?: T;
  matched_queries?: string[];
  sort?: unknown[];
}

export class OpenSearchClient {
  readonly url: string;
  private readonly fetchImpl: typeof fetch;

  constructor(options: OpenSearchClientOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new Error(`"${options.url}" is not an OpenSearch address; write it like http://127.0.0.1:9200`);
    }
    this.url = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    this.fetchImpl = options.fetch ?? ((...args) => fetch(...args));
  }

  /** Sends one request; `body` is JSON, or NDJSON text for `_bulk`. Rejects with an OpenSearchError on status ≥ 400. */
  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const ndjson = typeof body === 'string';
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.url}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' },
        body: body === undefined ? undefined : ndjson ? body : JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new Error(`OpenSearch at ${this.url} cannot be reached (${(error as Error).message}); is it running? (npm run opensearch -- start)`);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? {} : JSON.parse(text);
    } catch {
      throw new OpenSearchError(`OpenSearch ${method} ${path} answered ${response.status} with text that is not JSON: ${text.slice(0, 200)}`, response.status);
    }
    if (response.status >= 400) {
      const error = (parsed as { error?: { type?: string; reason?: string; root_cause?: { reason?: string }[] } | string }).error;
      const reason = typeof error === 'string' ? error : (error?.root_cause?.[0]?.reason ?? error?.reason ?? text.slice(0, 200));
      throw new OpenSearchError(`OpenSearch ${method} ${path} failed (${response.status}): ${reason}`, response.status, typeof error === 'object' ? error?.type : undefined);
    }
    return parsed as T;
  }

  async exists(index: string): Promise<boolean> {
    const response = await this.fetchImpl(`${this.url}/${encodeURIComponent(index)}`, { method: 'HEAD' }).catch((error: Error) => {
      throw new Error(`OpenSearch at ${this.url} cannot be reached (${error.message}); is it running? (npm run opensearch -- start)`);
    });
    return response.status === 200;
  }

  /** `_source` of each id (undefined when absent), in the order asked. */
  async mget<T>(index: string, ids: readonly string[], source: { includes?: string[]; excludes?: string[] } = {}, signal?: AbortSignal): Promise<Array<T | undefined>> {
    if (ids.length === 0) return [];
    const params = new URLSearchParams();
    if (source.includes) params.set('_source_includes', source.includes.join(','));
    if (source.excludes) params.set('_source_excludes', source.excludes.join(','));
    const query = params.size > 0 ? `?${params}` : '';
    const result = await this.request<{ docs: { found: boolean; _source?: T }[] }>('POST', `/${encodeURIComponent(index)}/_mget${query}`, { ids }, signal);
    return result.docs.map((doc) => (doc.found ? doc._source : undefined));
  }

  /** A search; `searchType` dfs_query_then_fetch makes scores independent of how the index is sharded. */
  async search<T = Record<string, unknown>>(index: string, body: unknown, signal?: AbortSignal, searchType = 'dfs_query_then_fetch'): Promise<OpenSearchHit<T>[]> {
    const result = await this.request<{ hits: { hits: OpenSearchHit<T>[] } }>('POST', `/${encodeURIComponent(index)}/_search?search_type=${searchType}`, body, signal);
    return result.hits.hits;
  }

  /** Bulk actions (pairs of action and source lines); rejects naming the first item that failed. */
  async bulk(lines: readonly unknown[], signal?: AbortSignal, refresh = false): Promise<void> {
    const body = lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
    const result = await this.request<{ errors: boolean; items: Record<string, { _id: string; status: number; error?: { reason?: string } }>[] }>(
      'POST',
      `/_bulk${refresh ? '?refresh=true' : ''}`,
      body,
      signal,
    );
    if (result.errors) {
      const failed = result.items.map((item) => Object.values(item)[0]!).filter((item) => item.status >= 300);
      throw new OpenSearchError(`OpenSearch refused ${failed.length} of ${result.items.length} bulk items; the first, ${failed[0]?._id}: ${failed[0]?.error?.reason}`, 400);
    }
  }
}
