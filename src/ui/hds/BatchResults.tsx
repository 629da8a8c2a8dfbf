import { useMemo, useState } from 'react';
import { AGENT_METHOD_LABELS, FAILURE_CLASSES, failureClassesOf, type BatchItem, type FailureClass, type SavedBatchRun } from '../../core/index.ts';
import { DataTable, type DataColumn } from '../shared/DataTable.tsx';
import { useReveal } from '../shared/use-reveal.ts';
import { BaselineTimeline } from './BaselineTimeline.tsx';
import { OpenDocument } from './OpenDocument.tsx';
import { fmt, ScalingChart } from './ScalingChart.tsx';
import { Timeline } from './Timeline.tsx';
import { timelineFromRun } from './timeline-model.ts';
import { ms } from './TimingBars.tsx';

/** A batch: the comparison of its methods, the scaling chart of a budget sweep, and every question's result. */
export function BatchResults({ batch }: { batch: SavedBatchRun }) {
  const [open, setOpen] = useState<BatchItem | null>(null);
  const [doc, setDoc] = useState<{ docId: string; query: string } | null>(null);
  const questions = useMemo(() => new Map(batch.questions.map((q) => [q.id, q])), [batch.questions]);
  const variants = useMemo(() => new Map(batch.variants.map((v) => [v.id, v])), [batch.variants]);
  const sweep = batch.variants.some((v) => v.sweep);
  const openQuestion = open ? questions.get(open.questionId) : undefined;
  const reveal = useReveal<HTMLElement>(open ? `${open.questionId}\n${open.variantId}` : null);
  const [filter, setFilter] = useState<FailureClass | null>(null);
  const classes = useMemo(() => new Map(batch.items.map((item) => [item, failureClassesOf(item.run)])), [batch.items]);
  const shown = useMemo(() => (filter ? batch.items.filter((item) => classes.get(item)?.includes(filter)) : batch.items), [batch.items, classes, filter]);
  const columns = useMemo((): DataColumn<BatchItem>[] => {
    const questionOf = (item: BatchItem) => questions.get(item.questionId);
    const methodOf = (item: BatchItem) => variants.get(item.variantId)?.label ?? AGENT_METHOD_LABELS[item.run.kind];
    return [
      {
        id: 'question',
        header: 'question',
        value: (item) => questionOf(item)?.text ?? item.questionId,
        cellProps: (item) => ({ className: 'question', title: questionOf(item)?.text }),
        render: (item) => (
          <>
            <span className="clamp">{questionOf(item)?.text ?? item.questionId}</span>
            <span className="meta">{item.questionId}</span>
          </>
        ),
      },
      { id: 'method', header: 'method', value: methodOf, maxWidth: '14rem' },
      {
        id: 'answer',
        header: 'answer',
        maxWidth: '16rem',
        value: (item) => (item.status === 'failed' ? `failed: ${item.error}` : item.answer || '(none)'),
        cellProps: () => ({ className: 'answer' }),
        render: (item) => (
          <>
            {item.status === 'failed' ? <span className="error clamp">failed: {item.error}</span> : <span className="clamp">{item.answer || '(none)'}</span>}
            {item.scoredAnswer !== undefined && item.answerSource === 'extracted' && (
              <span className="meta" title="No answer marker: this short span was scored (H12)">
                scored as “{item.scoredAnswer}”
              </span>
            )}
          </>
        ),
      },
      {
        id: 'gold',
        header: 'gold',
        maxWidth: '14rem',
        value: (item) => questionOf(item)?.answers[0] ?? '',
        cellProps: () => ({ className: 'answer' }),
        render: (item) => <span className="clamp">{questionOf(item)?.answers[0] ?? ''}</span>,
      },
      { id: 'em', header: 'EM', kind: 'number', value: (item) => item.em, render: (item) => fmt(item.em, 0) },
      { id: 'f1', header: 'F1', kind: 'number', value: (item) => item.f1, render: (item) => fmt(item.f1, 2) },
      { id: 'evidence', header: 'evidence recall', kind: 'number', value: (item) => item.evidenceRecall, render: (item) => fmt(item.evidenceRecall, 2) },
      { id: 'turns', header: 'turns', kind: 'number', value: (item) => item.turns },
      { id: 'searches', header: 'search calls', kind: 'number', value: (item) => item.searchCalls },
      { id: 'latency', header: 'latency', kind: 'number', value: (item) => item.latencyMs, render: (item) => ms(item.latencyMs) },
      { id: 'tokens', header: 'tokens', kind: 'number', value: (item) => item.tokens.totalTokens },
      {
        id: 'view',
        header: '',
        kind: 'actions',
        render: (item) => (
          <button type="button" className="link" onClick={() => setOpen(item)} aria-label={`View ${item.questionId} ${item.variantId}`}>
            View
          </button>
        ),
      },
    ];
  }, [questions, variants]);
  return (
    <div className="batch-results">
      <table className="compact comparison" aria-label="Comparison">
        <caption>
          Means over the questions run ({batch.retriever.label}, {batch.llm.model})
        </caption>
        <thead>
          <tr>
            <th>method</th>
            <th>questions</th>
            <th>failed</th>
            <th>EM</th>
            <th>F1</th>
            <th title="Marked answers only (\boxed{} or <answer>); an unmarked reply scores 0">strict EM</th>
            <th title="Marked answers only">strict F1</th>
            <th title="Answers extracted from an unmarked reply (H12)">extracted</th>
            <th>evidence recall</th>
            <th>turns</th>
            <th>search calls</th>
            <th>latency</th>
            <th>tokens</th>
          </tr>
        </thead>
        <tbody>
          {batch.aggregates.map((a) => (
            <tr key={a.variantId}>
              <th scope="row">{variants.get(a.variantId)?.label ?? a.variantId}</th>
              <td className="num">{a.questions}</td>
              <td className="num">{a.failed}</td>
              <td className="num">{fmt(a.em)}</td>
              <td className="num">{fmt(a.f1)}</td>
              <td className="num">{fmt(a.strictEm ?? null)}</td>
              <td className="num">{fmt(a.strictF1 ?? null)}</td>
              <td className="num">{a.extracted ?? '—'}</td>
              <td className="num">{fmt(a.evidenceRecall)}</td>
              <td className="num">{a.turns.toFixed(2)}</td>
              <td className="num">{a.searchCalls.toFixed(2)}</td>
              <td className="num">{ms(a.latencyMs)}</td>
              <td className="num">{Math.round(a.tokens)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        EM and F1 score the marked answer, or else a short span extracted from the reply by one documented rule for every method (H12); strict scores count
        marked answers only. Turns = LLM calls (HDS: plan turns plus the fallback call). Evidence recall = share of the question's gold supporting passages among the retrieved documents.
      </p>
      {sweep && <ScalingChart variants={batch.variants} aggregates={batch.aggregates} title={batch.name} />}

      <div className="chips failure-classes" role="group" aria-label="Failure classes">
        {FAILURE_CLASSES.map((c) => {
          const n = batch.items.filter((item) => classes.get(item)?.includes(c.id)).length;
          return (
            <button key={c.id} type="button" className={`chip${filter === c.id ? ' active' : ''}`} aria-pressed={filter === c.id} title={c.title} disabled={n === 0 && filter !== c.id} onClick={() => setFilter(filter === c.id ? null : c.id)}>
              {c.label}: {n}
            </button>
          );
        })}
      </div>
      <details open={batch.items.length <= 60 || filter !== null}>
        <summary>
          Per question ({filter ? `${shown.length} of ${batch.items.length}, ${FAILURE_CLASSES.find((c) => c.id === filter)?.label}` : batch.items.length})
        </summary>
        <DataTable
          label="Per-question results"
          className="per-question"
          columns={columns}
          rows={shown}
          rowKey={(item) => `${item.questionId}-${item.variantId}`}
          rowProps={(item) => ({ className: item.status === 'failed' ? 'failed' : undefined })}
          filterLabel="Filter questions"
          scrollClassName="tall"
        />
      </details>

      {open && (
        <section ref={reveal} tabIndex={-1} className="batch-item-view" aria-label="Question run">
          <div className="row spread">
            <h3>
              {open.questionId} · {variants.get(open.variantId)?.label}
            </h3>
            <button type="button" onClick={() => setOpen(null)}>
              Close
            </button>
          </div>
          {open.run.kind === 'hds' ? (
            <Timeline key={`${open.questionId}-${open.variantId}`} view={timelineFromRun(open.run)} answers={openQuestion?.answers} startAtFirst onOpenDocument={(docId, query) => setDoc({ docId, query })} />
          ) : (
            <BaselineTimeline run={open.run} answers={openQuestion?.answers} onOpenDocument={(docId, query) => setDoc({ docId, query })} />
          )}
        </section>
      )}
      {doc && <OpenDocument corpusId={batch.corpusId} docId={doc.docId} query={doc.query} onClose={() => setDoc(null)} />}
    </div>
  );
}
