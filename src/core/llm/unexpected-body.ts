// Words for a 200 answer that is not the protocol (a proxy's or web server's page instead of the API).

/** At most `max` characters of the start of a body, whitespace runs collapsed, for quoting in a message. */
export function bodyExcerpt(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** True when a body's start looks like markup (HTML or XML) rather than SSE or JSON. */
export function looksLikeMarkup(head: string): boolean {
  return head.trimStart().startsWith('<');
}

function describeContentType(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === '') return 'a body without a content type';
  if (type === 'text/html' || type === 'application/xhtml+xml') return `an HTML page (${type})`;
  return `a ${type} body`;
}

/**
 * Explains an answer whose body is not what the protocol promised: what came back (content type, first bytes) and
 * what to check. `firstBytes` must already be free of secrets.
 */
export function unexpectedBodyMessage(
  baseUrl: string,
  expected: 'an event stream' | 'a JSON chat completion',
  contentType: string,
  firstBytes: string,
): string {
  const excerpt = bodyExcerpt(firstBytes);
  const began = excerpt === '' ? 'it was empty' : `it began "${excerpt}"`;
  return (
    `The server at ${baseUrl} answered with ${describeContentType(contentType)} instead of ${expected} (${began}). ` +
    'Check that the base URL is the API itself and ends in /v1 (e.g. http://localhost:11434/v1, not the web page), ' +
    'that no proxy or login page answers in its place, and that the server allows requests from this page (CORS).'
  );
}
