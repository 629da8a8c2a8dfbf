/**
 * Finds the first heading of a Markdown file, line by line: ATX (`# Title`, closing #s removed) or setext (a line
 * underlined with `===` or `---`). Lines in fenced code blocks and a leading YAML front matter are ignored.
 */
export class MarkdownTitleFinder {
  private fence: string | null = null;
  private inFrontMatter = false;
  private lineCount = 0;
  private previous = '';

  /** Feeds the next line; returns the title once the first heading is complete. */
  push(line: string): string | undefined {
    this.lineCount++;
    const previous = this.previous;
    this.previous = '';
    if (this.lineCount === 1 && line.trim() === '---') {
      this.inFrontMatter = true;
      return undefined;
    }
    if (this.inFrontMatter) {
      if (line.trim() === '---' || line.trim() === '...') this.inFrontMatter = false;
      return undefined;
    }
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (this.fence !== null) {
      if (fence && fence[1][0] === this.fence[0] && fence[1].length >= this.fence.length && line.trim() === fence[1]) this.fence = null;
      return undefined;
    }
    if (fence) {
      this.fence = fence[1];
      return undefined;
    }
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) return atx[1]?.trim() || undefined;
    if (previous !== '' && /^ {0,3}(=+|-+)[ \t]*$/.test(line)) return previous;
    if (!/^ {4}|^\t/.test(line)) this.previous = line.trim();
    return undefined;
  }
}
