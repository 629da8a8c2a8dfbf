import { describe, expect, it } from 'vitest';
import { applyFieldMapping, explainNoGuess, guessFieldMapping, readField, recordFieldPaths, withoutField } from './field-mapping.ts';

describe('guessFieldMapping', () => {
  it('prefers the fields in guess order', () => {
    expect(guessFieldMapping(['text', 'title', '_id', 'id'])).toEqual({ id: '_id', title: 'title', text: 'text' });
    expect(guessFieldMapping(['docid', 'contents'])).toEqual({ id: 'docid', text: 'contents' });
    expect(guessFieldMapping(['doc_id', 'passage', 'body'])).toEqual({ id: 'doc_id', text: 'body' });
  });

  it('matches case-insensitively and returns the real field name', () => {
    expect(guessFieldMapping(['ID', 'Title', 'Text'])).toEqual({ id: 'ID', title: 'Title', text: 'Text' });
  });

  it('gives null without an id or a text field, and says which is missing', () => {
    expect(guessFieldMapping(['id', 'content'])).toBeNull();
    expect(guessFieldMapping(['key', 'text'])).toBeNull();
    expect(explainNoGuess(['key', 'text'])).toBe(
      'cannot guess the field mapping: found no id field (_id, id, docid, doc_id) among the fields key, text; choose a field mapping',
    );
    expect(explainNoGuess(['key', 'text'])).not.toContain('text field (');
    expect(explainNoGuess(['id', 'content'])).toContain('found no text field (text, contents, body, passage)');
    expect(explainNoGuess([])).toContain('found no id field (_id, id, docid, doc_id) and no text field');
  });
});

describe('field paths', () => {
  it('flattens nested objects into dotted paths; arrays are leaves', () => {
    expect(recordFieldPaths({ id: 1, meta: { title: 't', tags: ['a'], deep: { x: 1 } }, empty: {} })).toEqual([
      'id',
      'meta.title',
      'meta.tags',
      'meta.deep.x',
      'empty',
    ]);
  });

  it('reads a dotted path, preferring a key that contains the dot literally', () => {
    expect(readField({ meta: { title: 'nested' } }, 'meta.title')).toBe('nested');
    expect(readField({ 'meta.title': 'literal', meta: { title: 'nested' } }, 'meta.title')).toBe('literal');
    expect(readField({ meta: 'x' }, 'meta.title')).toBeUndefined();
  });

  it('removes a nested field and parents it leaves empty, without touching the input', () => {
    const record = { a: 1, meta: { title: 't', lang: 'en' }, only: { x: 1 } };
    expect(withoutField(record, 'meta.title')).toEqual({ a: 1, meta: { lang: 'en' }, only: { x: 1 } });
    expect(withoutField(record, 'only.x')).toEqual({ a: 1, meta: { title: 't', lang: 'en' } });
    expect(record.meta).toEqual({ title: 't', lang: 'en' });
  });
});

describe('applyFieldMapping', () => {
  const mapping = { id: 'doc.id', title: 'meta.title', text: 'body' };

  it('maps id, title and text and keeps every other field as metadata', () => {
    const result = applyFieldMapping({ doc: { id: 7 }, meta: { title: 'T', year: 2020 }, body: 'words', url: 'u' }, mapping);
    expect(result).toEqual({ ok: true, value: { id: '7', title: 'T', text: 'words', metadata: { meta: { year: 2020 }, url: 'u' } } });
  });

  it('leaves metadata out when nothing else is left, and title defaults to empty', () => {
    expect(applyFieldMapping({ id: 'a', text: 't' }, { id: 'id', text: 'text' })).toEqual({ ok: true, value: { id: 'a', title: '', text: 't' } });
  });

  it('rejects a missing or blank id', () => {
    expect(applyFieldMapping({ text: 't' }, { id: 'id', text: 'text' })).toMatchObject({ ok: false, field: 'id' });
    expect(applyFieldMapping({ id: '  ', text: 't' }, { id: 'id', text: 'text' })).toMatchObject({ ok: false, field: 'id' });
  });

  it('rejects empty text, also when only a title is present', () => {
    const r = applyFieldMapping({ id: 'a', title: 'only a title', text: ' ' }, { id: 'id', title: 'title', text: 'text' });
    expect(r).toMatchObject({ ok: false, field: 'text' });
    expect(!r.ok && r.reason).toContain('empty text');
    expect(applyFieldMapping({ id: 'a', title: 'x' }, { id: 'id', title: 'title', text: 'text' })).toMatchObject({ ok: false, field: 'text' });
  });

  it('rejects values that cannot be text', () => {
    expect(applyFieldMapping({ id: { x: 1 }, text: 't' }, { id: 'id', text: 'text' })).toMatchObject({ ok: false, field: 'id' });
    expect(applyFieldMapping({ id: 'a', text: ['t'] }, { id: 'id', text: 'text' })).toMatchObject({ ok: false, field: 'text' });
  });
});
