import { describe, expect, it } from 'vitest';
import { MarkdownTitleFinder } from './markdown-title.ts';

function title(markdown: string): string | undefined {
  const finder = new MarkdownTitleFinder();
  for (const line of markdown.split('\n')) {
    const found = finder.push(line);
    if (found !== undefined) return found;
  }
  return undefined;
}

describe('MarkdownTitleFinder', () => {
  it('reads ATX headings of any level, without closing hashes', () => {
    expect(title('intro text\n\n## Second level ##\n# Later')).toBe('Second level');
    expect(title('#   Spaced   ')).toBe('Spaced');
    expect(title('# C#')).toBe('C#');
  });

  it('ignores #tags and empty headings', () => {
    expect(title('#hashtag\n#\n# Real')).toBe('Real');
  });

  it('reads setext headings', () => {
    expect(title('My Title\n========\nbody')).toBe('My Title');
    expect(title('\nSub title\n---')).toBe('Sub title');
  });

  it('skips fenced code and front matter', () => {
    expect(title('```python\n# a comment\n```\n# Heading')).toBe('Heading');
    expect(title('---\ntitle: x\n---\nText')).toBeUndefined();
    expect(title('---\ntitle: x\n---\n# After')).toBe('After');
  });
});
