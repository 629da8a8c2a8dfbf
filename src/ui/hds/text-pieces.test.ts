import { describe, expect, it } from 'vitest';
import { PIECE_CHARS, TextPieces } from './text-pieces.ts';

describe('TextPieces', () => {
  it('appending deltas of any size gives the text in fixed pieces; earlier values are not changed', () => {
    let text = '';
    let pieces = TextPieces.EMPTY;
    const snapshots: Array<[TextPieces, string]> = [];
    for (const size of [1, 4_095, 2, 10_000, 3, 4_096, 0, 777]) {
      const delta = String.fromCharCode(97 + (size % 26)).repeat(size);
      text += delta;
      pieces = pieces.append(delta);
      snapshots.push([pieces, text]);
    }
    for (const [value, expected] of snapshots) {
      expect(value.toString()).toBe(expected);
      expect(value.length).toBe(expected.length);
      value.pieces.forEach((piece, i) => expect(piece).toBe(expected.slice(i * PIECE_CHARS, (i + 1) * PIECE_CHARS)));
    }
  });
});
