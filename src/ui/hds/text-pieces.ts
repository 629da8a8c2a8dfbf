/** Characters per piece: a piece that is complete never changes, so React never renders it again. */
export const PIECE_CHARS = 4_096;

/**
 * A streamed text kept as pieces of `PIECE_CHARS` (the last one may be shorter). Appending never builds the whole
 * text: a 5 MB string rebuilt (flattened) once per frame was most of the main thread's time and garbage.
 * Immutable: `append` returns a new value sharing the complete pieces.
 */
export class TextPieces {
  static readonly EMPTY = new TextPieces([], 0);

  private constructor(
    readonly pieces: readonly string[],
    readonly length: number,
  ) {}

  append(text: string): TextPieces {
    if (text === '') return this;
    const pieces = this.pieces.slice();
    let last = pieces.length > 0 && pieces[pieces.length - 1]!.length < PIECE_CHARS ? pieces.pop()! : '';
    for (let at = 0; at < text.length; ) {
      const take = Math.min(PIECE_CHARS - last.length, text.length - at);
      last += text.slice(at, at + take);
      at += take;
      if (last.length === PIECE_CHARS) {
        pieces.push(last);
        last = '';
      }
    }
    if (last !== '') pieces.push(last);
    return new TextPieces(pieces, this.length + text.length);
  }

  toString(): string {
    return this.pieces.join('');
  }
}
