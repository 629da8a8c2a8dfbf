// The door of text: the analyzer (tokens, stop words, stemming, the word classes of characters), highlighting and SHA-256.
export { Analyzer, type AnalyzerOptions, charKind, DEFAULT_ANALYZER_OPTIONS, SINGLE_WORD, SURROGATE, WORD_PART, SEPARATOR } from './analyzer.ts';
export { highlightSegments, type TextSegment } from './highlight.ts';
export { Sha256, toHex } from './sha256.ts';
