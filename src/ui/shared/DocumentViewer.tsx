import { useEffect, useMemo, useRef } from 'react';
import { highlightSegments, type Analyzer, type CorpusDocument } from '../../core/index.ts';
import { ClippedText } from './ClippedText.tsx';
import { Highlighted } from './Highlighted.tsx';

/** A whole document, with query matches marked and its metadata listed. */
export function DocumentViewer(props: { document: CorpusDocument; terms: string[]; analyzer: Analyzer; onClose(): void }) {
  const { document: doc, terms, analyzer } = props;
  const segments = useMemo(() => highlightSegments(doc.text, terms, analyzer), [doc.text, terms, analyzer]);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
  }, []);
  return (
    <dialog ref={dialog} className="document-viewer" onClose={props.onClose} aria-label={`Document ${doc.id}`}>
      <header>
        <h3>
          <ClippedText text={doc.title || doc.id} expandable />
        </h3>
        <button onClick={() => dialog.current?.close()} aria-label="Close document">
          ✕
        </button>
      </header>
      <p className="meta">id: {doc.id}</p>
      <p className="doc-text">
        <Highlighted segments={segments} />
      </p>
      {doc.metadata && Object.keys(doc.metadata).length > 0 && (
        <dl className="metadata">
          {Object.entries(doc.metadata).map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </dialog>
  );
}
