import { useMemo, useState } from 'react';
import { AGENT_METHOD_LABELS, FAILURE_CLASSES, failureClassesOf, type BatchItem, type FailureClass, type SavedBatchRun } from '../../core/index.ts';
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
  const questions = new Map(batch.questions.map((q) => [q.id, q]));
  const variants = new Map(batch.variants.map((v) => [v.id, v]));
  const sweep = batch.variants.some((v) => v.sweep);
  const openQuestion = open ? questions.get(open.questionId) : undefined;
  const reveal = useReveal<HTMLElement>(open ? `${open.questionId}\n${open.variantId}` : null);
  const [filter, setFilter] = useState<FailureClass | null>(null);
  const classes = useMemo(() => new Map(batch.items.map((item) => [item, failureClassesOf(item.run)])), [batch.items]);
  const shown = filter ? batch.items.filter((item) => classes.get(item)?.includes(filter)) : batch.items;
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
              <td>{a.questions}</td>
              <td>{a.failed}</td>
              <td>{fmt(a.em)}</td>
              <td>{fmt(a.f1)}</td>
              <td>{fmt(a.strictEm ?? null)}</td>
              <td>{fmt(a.strictF1 ?? null)}</td>
              <td>{a.extracted ?? '—'}</td>
              <td>{fmt(a.evidenceRecall)}</td>
              <td>{a.turns.toFixed(2)}</td>
              <td>{a.searchCalls.toFixed(2)}</td>
              <td>{ms(a.latencyMs)}</td>
              <td>{Math.round(a.tokens)}</td>
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
        <div className="table-scroll">
          <table className="compact per-question" aria-label="Per-question results">
            <thead>
              <tr>
                <th>question</th>
                <th>method</th>
                <th>answer</th>
                <th>gold</th>
                <th>EM</th>
                <th>F1</th>
                <th>evidence recall</th>
                <th>turns</th>
                <th>search calls</th>
                <th>latency</th>
                <th>tokens</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {shown.map((item) => {
                const q = questions.get(item.questionId);
                return (
                  <tr key={`${item.questionId}-${item.variantId}`} className={item.status === 'failed' ? 'failed' : undefined}>
                    <td className="question" title={q?.text}>
                      <span className="clamp">{q?.text ?? item.questionId}</span>
                      <span className="meta">{item.questionId}</span>
                    </td>
                    <td>{variants.get(item.variantId)?.label ?? AGENT_METHOD_LABELS[item.run.kind]}</td>
                    <td className="answer">
                      {item.status === 'failed' ? <span className="error clamp">failed: {item.error}</span> : <span className="clamp">{item.answer || '(none)'}</span>}
                      {item.scoredAnswer !== undefined && item.answerSource === 'extracted' && (
                        <span className="meta" title="No answer marker: this short span was scored (H12)">
                          scored as “{item.scoredAnswer}”
                        </span>
                      )}
                    </td>
                    <td className="answer">
                      <span className="clamp">{q?.answers[0] ?? ''}</span>
                    </td>
                    <td>{fmt(item.em, 0)}</td>
                    <td>{fmt(item.f1, 2)}</td>
                    <td>{fmt(item.evidenceRecall, 2)}</td>
                    <td>{item.turns}</td>
                    <td>{item.searchCalls}</td>
                    <td>{ms(item.latencyMs)}</td>
                    <td>{item.tokens.totalTokens}</td>
                    <td>
                      <button type="button" className="link" onClick={() => setOpen(item)} aria-label={`View ${item.questionId} ${item.variantId}`}>
                        View
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
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
