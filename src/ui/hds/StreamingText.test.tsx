// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PIECE_CHARS, SHOWN_TAIL_CHARS, StreamingText } from './StreamingText.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let host: HTMLDivElement;
let root: Root;
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

const render = (text: string) => act(() => root.render(<StreamingText text={text} empty="…" testId="out" label="Model output" />));
const pre = () => host.querySelector('[data-testid="out"]')!;

describe('StreamingText', () => {
  it('keeps the DOM bounded while the text grows to megabytes, and pieces already shown are not rendered again', () => {
    const line = 'the harbour lights <b>and</b> the railway\n';
    let text = '';
    render(text);
    expect(pre().textContent).toBe('…');
    text = line.repeat(200); // 8.4 KB: two complete pieces and a growing one
    render(text);
    const firstPiece = pre().firstChild!.firstChild;
    for (let i = 0; i < 20; i++) {
      text += line;
      render(text);
      expect(pre().firstChild!.firstChild).toBe(firstPiece); // the same text node: a complete piece is not rendered again
    }
    for (let i = 0; i < 300; i++) {
      text += line.repeat(400); // ~17 KB a step, to ~5 MB
      render(text);
      expect(pre().textContent!.length).toBeLessThanOrEqual(SHOWN_TAIL_CHARS + PIECE_CHARS);
      expect(text.endsWith(pre().textContent!)).toBe(true);
    }
    expect(text.length).toBeGreaterThan(5_000_000);
    expect(pre().querySelectorAll('span').length).toBeLessThanOrEqual(SHOWN_TAIL_CHARS / PIECE_CHARS + 1);
    expect(pre().querySelector('b')).toBeNull(); // text, never HTML
    const note = host.querySelector('.hidden-text')!;
    expect(note.textContent).toContain(`${(text.length - pre().textContent!.length).toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters are hidden`);

    act(() => (note.querySelector('button') as HTMLButtonElement).click());
    expect(pre().textContent).toBe(text);
    expect(host.querySelector('.hidden-text')).toBeNull();
  });

  it('shows a short text whole, without a note', () => {
    render('short reply');
    expect(pre().textContent).toBe('short reply');
    expect(host.querySelector('.hidden-text')).toBeNull();
  });
});
