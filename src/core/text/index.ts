// The door of text: the analyzer (tokens, stop words, stemming), highlighting and SHA-256.
export { Analyzer, type AnalyzerOptions, DEFAULT_ANALYZER_OPTIONS } from './analyzer.ts';
export { highlightSegments, type TextSegment } from './highlight.ts';
export { Sha256, toHex } from './sha256.ts';
