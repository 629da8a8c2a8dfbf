import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { AGENT_METHOD_LABELS, AGENT_METHODS, isValidAnswerList, type AgentMethod } from '../../core/index.ts';
import { CorpusPicker } from '../shared/CorpusPicker.tsx';
import { usePageParam } from '../shared/page-links.ts';
import { useAppStore } from '../shared/app-store.ts';
import { getCorpusStore } from '../services/stores.ts';
import { BaselineTimeline } from './BaselineTimeline.tsx';
import { OpenDocument } from './OpenDocument.tsx';
import { useActiveHdsJob, useHdsCancelling, useHdsRun } from './run-state.ts';
import { CancelButton } from '../shared/CancelButton.tsx';
import { useSearchSettings } from '../shared/search-settings.ts';
import { agentSettingsOf, useHdsSettings } from './settings-state.ts';
import { Timeline } from './Timeline.tsx';

/** The corpus's questions with gold answers (multi-hop question sets). */
export function useCorpusQuestions(corpusId: string | null) {
  return useQuery({
    queryKey: ['hds-questions', corpusId],
    queryFn: async () => (await (await getCorpusStore()).getQueries(corpusId!)).filter((q) => isValidAnswerList(q.answers)),
    enabled: !!corpusId,
  });
}

/** One question: typed or picked from the corpus, run live on the timeline, or a saved run replayed. */
export function AskPanel() {
  const corpusId = useAppStore((s) => s.corpusId);
  const questions = useCorpusQuestions(corpusId);
  const [draft, setDraft] = useState('');
  const [pickedId, setPickedId] = useState('');
  const [method, setMethod] = useState<AgentMethod>('hds');
  const [openDoc, setOpenDoc] = useState<{ docId: string; query: string } | null>(null);
  const run = useHdsRun();
  const active = useActiveHdsJob();
  const cancelling = useHdsCancelling();
  const settings = useHdsSettings();
  const picked = useMemo(() => questions.data?.find((q) => q.id === pickedId), [questions.data, pickedId]);
  const questionId = picked && picked.text === draft.trim() ? picked.id : undefined;
  const running = active === 'question';
  // A link from another page (Search) brings its query as the question (`#/hds?question=…`).
  const linkedQuestion = usePageParam('question');
  useEffect(() => {
    if (linkedQuestion) setDraft(linkedQuestion);
  }, [linkedQuestion]);

  const start = async () => {
    if (!corpusId || !draft.trim()) return;
    await settings.flush();
    void run.runQuestion(
      {
        corpusId,
        spec: useSearchSettings.getState().deepSearch,
        provider: settings.provider,
        method,
        settings: agentSettingsOf(settings.budget, settings.baselines),
        question: draft.trim(),
        ...(questionId ? { questionId } : {}),
      },
      questionId ? picked?.answers : undefined,
    );
  };

  const shownCorpus = run.question?.corpusId ?? corpusId;
  return (
    <section className="panel" aria-label="Ask">
      <form
        className="ask-form"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <div className="row">
          <CorpusPicker />
          {questions.data && questions.data.length > 0 && (
            <label>
              Pick a question from the corpus{' '}
              <select
                aria-label="Pick a question from the corpus"
                value={pickedId}
                onChange={(e) => {
                  const q = questions.data?.find((x) => x.id === e.target.value);
                  setPickedId(e.target.value);
                  if (q) setDraft(q.text);
                }}
              >
                <option value="">—</option>
                {questions.data.map((q) => (
                  <option key={q.id} value={q.id}>
                    {q.id}: {q.text.length > 70 ? `${q.text.slice(0, 67)}…` : q.text}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        <textarea aria-label="Question" rows={2} value={draft} placeholder="Ask a question the corpus can answer…" onChange={(e) => setDraft(e.target.value)} />
        {questionId && picked?.answers && (
          <p className="meta" data-testid="gold-answer">
            Gold answer: {picked.answers.join(' | ')} — results in the qrels are marked, the answer gets EM and F1.
          </p>
        )}
        <div className="row">
          <label>
            Method{' '}
            <select aria-label="Method" value={method} onChange={(e) => setMethod(e.target.value as AgentMethod)}>
              {AGENT_METHODS.map((m) => (
                <option key={m} value={m}>
                  {AGENT_METHOD_LABELS[m]}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="primary" disabled={running || !!active || !corpusId || !draft.trim()}>
            Run
          </button>
          <CancelButton cancelling={running && cancelling} onCancel={run.cancel} disabled={!running} />
          {active === 'batch' && <span className="hint">A batch is running; wait for it or cancel it on the Batch tab.</span>}
        </div>
      </form>
      {run.questionError && (
        <p className="error" role="alert">
          The run could not start: {run.questionError}
        </p>
      )}
      {run.replay && run.question && (
        <p className="notice meta" data-testid="replay-note">
          Replaying the saved run “{run.question.name}” ({run.question.llm.model}, {new Date(run.question.createdAt).toLocaleString()}) — no model is called.
        </p>
      )}
      {run.question && run.question.status !== 'completed' && !running && (
        <p className="meta" role="status">
          {run.question.status === 'cancelled' ? 'The run was cancelled; what it did so far is saved.' : `The run failed: ${run.question.error ?? 'unknown error'}. What it did so far is saved.`}
        </p>
      )}
      {run.view && (
        <Timeline
          key={run.replay ? run.question?.id : `live-${run.liveRuns}`}
          view={run.view}
          answers={run.answers}
          startAtFirst={run.replay}
          onOpenDocument={(docId, query) => setOpenDoc({ docId, query })}
        />
      )}
      {running && !run.view && <p className="meta">Starting…</p>}
      {!run.view && run.question && run.question.run.kind !== 'hds' && (
        <BaselineTimeline run={run.question.run} answers={run.answers} onOpenDocument={(docId, query) => setOpenDoc({ docId, query })} />
      )}
      {running && method !== 'hds' && <p className="meta">The baselines report when they finish…</p>}
      {openDoc && shownCorpus && <OpenDocument corpusId={shownCorpus} docId={openDoc.docId} query={openDoc.query} onClose={() => setOpenDoc(null)} />}
    </section>
  );
}
