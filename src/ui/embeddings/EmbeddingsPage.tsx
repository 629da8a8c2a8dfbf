import { CorpusPicker } from '../shared/CorpusPicker.tsx';
import { useAppStore } from '../shared/app-store.ts';
import { useCorpora } from '../shared/corpora.ts';
import { useModelFolders } from '../shared/embeddings.ts';
import { EmbeddingSetList } from './EmbeddingSetList.tsx';
import { EmbedStatus } from './EmbedStatus.tsx';
import { ImportVectorsPanel } from './ImportVectorsPanel.tsx';
import { startEmbedding, useEmbedChoice, useEmbedJob } from './embed-store.ts';
import { isActive } from '../shared/job-store.ts';
import { ModelPicker } from './ModelPicker.tsx';
import { NoCorpusYet } from '../shared/NoCorpusYet.tsx';

/** Embeds corpora with a transformer model in a worker; lists, resumes and deletes the stored vectors. */
export function EmbeddingsPage() {
  const corpusId = useAppStore((s) => s.corpusId);
  const corpora = useCorpora();
  const busy = useEmbedJob((s) => isActive(s.state));
  const choice = useEmbedChoice((s) => s.choice);
  const modelId = choice.modelId.trim();
  const folders = useModelFolders();
  const folderMissing = choice.location === 'folder' && !folders.data?.some((f) => f.name === modelId);
  const corpus = corpora.data?.find((c) => c.id === corpusId);

  if (corpora.data && corpora.data.length === 0) {
    return <NoCorpusYet action="embed" />;
  }

  return (
    <>
      <section className="panel" aria-label="Embed a corpus">
        <h2>Embed a corpus</h2>
        <p className="hint">
          Each document (title and text) becomes one normalised vector, stored in this browser in chunks as it is made. Dense search, RRF and
          convex fusion on the Search and Runs pages use these vectors, and embed each query with the same model.
        </p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (corpusId) void startEmbedding(corpusId);
          }}
        >
          <div className="row">
            <CorpusPicker />
            {corpus && <span className="meta">{corpus.documentCount.toLocaleString('en-US')} documents</span>}
          </div>
          <ModelPicker disabled={busy} />
          <button type="submit" className="primary" disabled={busy || !corpusId || modelId === '' || folderMissing}>
            Embed
          </button>
          {folderMissing && <span className="hint"> Choose a model folder first.</span>}
        </form>
      </section>
      <EmbedStatus />
      {corpusId && <ImportVectorsPanel corpusId={corpusId} disabled={busy || !!corpus?.remote} />}
      {corpusId && <EmbeddingSetList corpusId={corpusId} />}
    </>
  );
}
