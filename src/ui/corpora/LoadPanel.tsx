import { useEffect, useRef, useState, type DragEvent } from 'react';
import { DEFAULT_ANALYZER_OPTIONS, NUMERIC_RULES, sniffFields, type AnalyzerOptions, type CorpusRecord, type FieldMapping, type LoadCorpusOptions, type TextEncodingChoice } from '../../core/index.ts';
import { NumberField } from '../shared/NumberField.tsx';
import type { PickedFile } from '../../workers/corpus-worker-api.ts';
import { errorMessage, formatBytes } from '../shared/format.ts';
import { loadRefusedAsCopy, startLoad, useLoadStore, useRefusedDuplicate } from '../shared/load-store.ts';
import { isActive } from '../shared/job-store.ts';
import { useAppStore } from '../shared/app-store.ts';
import { describeSelection, filesFromDrop, filesFromInput } from '../shared/picked-files.ts';
import { loadSampleCorpus } from './sample-corpus.ts';

interface MappingChoice {
  fields: string[];
  mapping: FieldMapping;
}

/** Pick or drop files, set the options that apply to them, and load them as a corpus. */
export function LoadPanel() {
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [dragging, setDragging] = useState(false);
  const [pickError, setPickError] = useState<string | null>(null);
  const running = useLoadStore((s) => isActive(s.state));
  const setCorpusId = useAppStore((s) => s.setCorpusId);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    filesFromDrop(event.dataTransfer).then(setFiles, (error) => setPickError(errorMessage(error)));
  };

  const loadSample = () => {
    setPickError(null);
    loadSampleCorpus().catch((error) => setPickError(errorMessage(error)));
  };

  return (
    <section className="panel" aria-labelledby="load-heading">
      <h2 id="load-heading">Load a corpus</h2>
      <div
        className={`drop-zone${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="drop-zone"
      >
        <p>Drop a BEIR folder, a zip, JSONL, CSV/TSV, or .txt/.md files here, or</p>
        <div className="row">
          <label className="button">
            Choose files…
            <input type="file" multiple hidden aria-label="Choose files" onChange={(e) => setFiles(filesFromInput(e.target.files))} />
          </label>
          <label className="button">
            Choose a folder…
            <input
              type="file"
              hidden
              aria-label="Choose a folder"
              ref={(input) => input?.setAttribute('webkitdirectory', '')}
              onChange={(e) => setFiles(filesFromInput(e.target.files))}
            />
          </label>
          <button onClick={loadSample} disabled={running}>
            Load the sample corpus
          </button>
        </div>
      </div>
      {pickError && <p role="alert" className="error">{pickError}</p>}
      <DuplicateQuestion
        onLoaded={(corpus) => {
          setCorpusId(corpus.id);
          setFiles([]);
        }}
      />
      {files.length > 0 && (
        <LoadForm
          key={files.map((f) => f.path).join('|')}
          files={files}
          disabled={running}
          onCancel={() => setFiles([])}
          onLoad={async (options) => {
            const corpus = await startLoad(files, options);
            if (corpus) {
              setCorpusId(corpus.id);
              setFiles([]);
            }
          }}
        />
      )}
    </section>
  );
}

/** Asks what to do with a load refused because its documents are stored already. */
function DuplicateQuestion({ onLoaded }: { onLoaded(corpus: CorpusRecord): void }) {
  const refused = useRefusedDuplicate((s) => s.refused);
  const setCorpusId = useAppStore((s) => s.setCorpusId);
  if (!refused) return null;
  const forget = () => useRefusedDuplicate.setState({ refused: null });
  return (
    <div className="notice" role="alert" data-testid="duplicate-load">
      <p>
        {refused.message} Nothing new was stored. Load again as a copy (“{refused.options.name} (copy)”)?
      </p>
      <div className="row">
        <button
          onClick={() =>
            void loadRefusedAsCopy().then((corpus) => {
              if (corpus) onLoaded(corpus);
            })
          }
        >
          Load as a copy
        </button>
        <button
          onClick={() => {
            setCorpusId(refused.existing.id);
            forget();
          }}
        >
          Use “{refused.existing.name}”
        </button>
        <button onClick={forget}>Cancel</button>
      </div>
    </div>
  );
}

function LoadForm(props: { files: PickedFile[]; disabled: boolean; onLoad(options: LoadCorpusOptions): void; onCancel(): void }) {
  const kind = describeSelection(props.files);
  const [name, setName] = useState(kind.suggestedName);
  const [analyzer, setAnalyzer] = useState<AnalyzerOptions>({ ...DEFAULT_ANALYZER_OPTIONS });
  const [mapping, setMapping] = useState<MappingChoice | null>(null);
  const [mappingError, setMappingError] = useState<string | null>(null);
  const [passages, setPassages] = useState({ mode: 'whole' as 'whole' | 'split', size: 200, overlap: 50 });
  const [encoding, setEncoding] = useState<TextEncodingChoice>('utf-8');
  const [keepEmpty, setKeepEmpty] = useState(false);
  const sniffed = useRef(false);

  useEffect(() => {
    if (!kind.mappable || sniffed.current) return;
    sniffed.current = true;
    const { file, path } = kind.mappable;
    sniffFields({ name: file.name, path, size: file.size, stream: () => file.stream() })
      .then((result) => {
        const fallback = result.fields[0] ?? 'id';
        setMapping({ fields: result.fields, mapping: result.suggested ?? { id: fallback, text: result.fields[1] ?? fallback } });
      })
      .catch((error) => setMappingError(`${path}: ${errorMessage(error)}`));
  }, [kind.mappable]);

  const totalBytes = props.files.reduce((sum, f) => sum + f.file.size, 0);
  const submit = () =>
    props.onLoad({
      name: name.trim() || kind.suggestedName,
      analyzer,
      mapping: mapping?.mapping,
      passages: kind.hasText ? passages : undefined,
      encoding,
      ...(keepEmpty ? { keepEmptyDocuments: true } : {}),
    });

  return (
    <div className="load-form" aria-label="Load options">
      <p>
        {props.files.length} file(s), {formatBytes(totalBytes)}
        {kind.beir ? ' — a BEIR collection (corpus, queries, qrels)' : ''}
      </p>
      <ul className="file-list">
        {props.files.slice(0, 8).map((f) => (
          <li key={f.path}>{f.path}</li>
        ))}
        {props.files.length > 8 && <li>… and {props.files.length - 8} more</li>}
      </ul>
      <label>
        Name <input value={name} onChange={(e) => setName(e.target.value)} aria-label="Corpus name" />
      </label>
      <label title="How files without a byte-order mark are read; a byte-order mark picks UTF-8 or UTF-16">
        Text encoding{' '}
        <select aria-label="Text encoding" value={encoding} onChange={(e) => setEncoding(e.target.value as TextEncodingChoice)}>
          <option value="utf-8">UTF-8</option>
          <option value="latin1">Latin-1 (Windows-1252)</option>
        </select>
      </label>
      <label title="Official qrels can judge documents with no text (Cranfield judges 471 and 995): kept, their judgements stay and the judged set matches the official files; skipped, each is listed with its line">
        <input type="checkbox" checked={keepEmpty} onChange={(e) => setKeepEmpty(e.target.checked)} /> Keep documents with empty text (so the
        qrels match the official files)
      </label>
      {kind.mappable && (
        <fieldset>
          <legend>Fields of {kind.mappable.path}</legend>
          {mappingError && <p className="error">{mappingError}</p>}
          {!mapping && !mappingError && <p>Reading the first records…</p>}
          {mapping &&
            (['id', 'title', 'text'] as const).map((role) => (
              <label key={role}>
                {role}{' '}
                <select
                  aria-label={`${role} field`}
                  value={mapping.mapping[role] ?? ''}
                  onChange={(e) =>
                    setMapping({ ...mapping, mapping: { ...mapping.mapping, [role]: e.target.value || undefined } as FieldMapping })
                  }
                >
                  {role === 'title' && <option value="">(none)</option>}
                  {mapping.fields.map((f) => (
                    <option key={f}>{f}</option>
                  ))}
                </select>
              </label>
            ))}
          <p className="hint">Other fields are kept as metadata.</p>
        </fieldset>
      )}
      {kind.hasText && (
        <fieldset>
          <legend>Text files</legend>
          <label>
            <input type="radio" checked={passages.mode === 'whole'} onChange={() => setPassages({ ...passages, mode: 'whole' })} /> one document
            per file
          </label>
          <label>
            <input type="radio" checked={passages.mode === 'split'} onChange={() => setPassages({ ...passages, mode: 'split' })} /> split into
            passages of
          </label>
          <NumberField rule={NUMERIC_RULES.passageSize} value={passages.size} aria-label="Passage size in words" onChange={(size) => setPassages({ ...passages, size })} /> words,
          overlap{' '}
          <NumberField rule={NUMERIC_RULES.passageOverlap} value={passages.overlap} aria-label="Passage overlap in words" onChange={(overlap) => setPassages({ ...passages, overlap })} />
        </fieldset>
      )}
      <fieldset>
        <legend>BM25 tokenizer</legend>
        <label>
          <input type="checkbox" checked={analyzer.lowercase} onChange={(e) => setAnalyzer({ ...analyzer, lowercase: e.target.checked })} /> lower-case
        </label>
        <label>
          <input
            type="checkbox"
            checked={analyzer.stopWords === 'english'}
            onChange={(e) => setAnalyzer({ ...analyzer, stopWords: e.target.checked ? 'english' : 'none' })}
          />{' '}
          English stop words
        </label>
        <label>
          <input
            type="checkbox"
            checked={analyzer.stemming === 'porter'}
            onChange={(e) => setAnalyzer({ ...analyzer, stemming: e.target.checked ? 'porter' : 'none' })}
          />{' '}
          Porter stemming
        </label>
      </fieldset>
      <div className="row">
        <button className="primary" onClick={submit} disabled={props.disabled || (!!kind.mappable && !mapping)}>
          Load
        </button>
        <button onClick={props.onCancel} disabled={props.disabled}>
          Clear
        </button>
      </div>
    </div>
  );
}
