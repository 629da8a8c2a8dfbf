/**
 * Incremental decoder for a `text/event-stream` body: feed it text chunks as they arrive (split anywhere, even
 * inside a line) and it returns the `data` payloads of the events completed so far. Follows the SSE rules that
 * matter for chat completions: lines end in `\n`, `\r\n` or `\r`; `data:` lines of one event are joined with `\n`;
 * a blank line ends the event; comment lines (`:`) and other fields are ignored.
 */
export class SseDecoder {
  private buffer = '';
  private dataLines: string[] = [];
  private pendingCr = false;

  /** Decodes one chunk of text; returns the payloads of events that this chunk completed. */
  push(chunk: string): string[] {
    const events: string[] = [];
    let text = chunk;
    // A `\r` at the end of the previous chunk may be the first half of `\r\n`.
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      this.line(this.buffer.slice(start, i), events);
      if (c === '\r') {
        if (i + 1 < this.buffer.length) {
          if (this.buffer[i + 1] === '\n') i++;
        } else {
          this.pendingCr = true;
        }
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  /** Ends the stream: an unterminated last event is still delivered (servers often omit the final blank line). */
  end(): string[] {
    const events: string[] = [];
    if (this.buffer.length > 0) this.line(this.buffer, events);
    this.buffer = '';
    if (this.dataLines.length > 0) events.push(this.dataLines.join('\n'));
    this.dataLines = [];
    return events;
  }

  private line(line: string, events: string[]): void {
    if (line === '') {
      if (this.dataLines.length > 0) events.push(this.dataLines.join('\n'));
      this.dataLines = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.dataLines.push(value);
  }
}
