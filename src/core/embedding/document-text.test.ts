import { describe, expect, it } from 'vitest';
import { documentText } from './document-text.ts';

describe('documentText', () => {
  it('joins title and text with ". "', () => {
    expect(documentText({ title: 'Aspirin', text: 'A drug.' })).toBe('Aspirin. A drug.');
    expect(documentText({ title: '  Aspirin ', text: 'A drug.' })).toBe('Aspirin. A drug.');
  });
  it('uses the text alone when the title is empty or blank', () => {
    expect(documentText({ title: '', text: 'A drug.' })).toBe('A drug.');
    expect(documentText({ title: '   ', text: 'A drug.' })).toBe('A drug.');
  });
});
