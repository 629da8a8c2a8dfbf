import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { Analyzer } from '../../core/index.ts';
import { errorMessage } from '../shared/format.ts';
import { DocumentViewer } from '../shared/DocumentViewer.tsx';
import { useCorpora } from '../shared/corpora.ts';
import { getCorpusStore } from '../services/stores.ts';

/** Opens a document of a stored corpus in the document viewer, the query's words marked. */
export function OpenDocument(props: { corpusId: string; docId: string; query: string; onClose(): void }) {
  const { corpusId, docId, query, onClose } = props;
  const corpora = useCorpora();
  const corpus = corpora.data?.find((c) => c.id === corpusId);
  const doc = useQuery({
    queryKey: ['hds-document', corpusId, docId],
    queryFn: async () => (await (await getCorpusStore()).getDocuments(corpusId, [docId]))[0] ?? null,
  });
  const analyzer = useMemo(() => (corpus ? new Analyzer(corpus.analyzer) : null), [corpus]);
  const terms = useMemo(() => (analyzer ? analyzer.queryTerms(query) : []), [analyzer, query]);
  if (doc.data && analyzer) return <DocumentViewer document={doc.data} terms={terms} analyzer={analyzer} onClose={onClose} />;
  const message = doc.isError
    ? `Could not read the document: ${errorMessage(doc.error)}`
    : (doc.isSuccess && !doc.data) || (corpora.isSuccess && !corpus)
      ? `Document ${docId} is not in this browser's corpora (the run may have been imported from elsewhere).`
      : null;
  return message ? <Notice message={message} onClose={onClose} /> : null;
}

function Notice({ message, onClose }: { message: string; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
  }, []);
  return (
    <dialog ref={dialog} className="document-viewer" onClose={onClose} aria-label="Document">
      <p>{message}</p>
      <button type="button" onClick={() => dialog.current?.close()}>
        Close
      </button>
    </dialog>
  );
}
