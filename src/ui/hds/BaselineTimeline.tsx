import { exactMatch, tokenF1, type BaselineRun, type HdsRetrievalRecord, type LlmCallRecord } from '../../core/index.ts';
import { ResultsList, type RelevanceWording } from './ResultsList.tsx';
import { ms } from './TimingBars.tsx';

type Step = { kind: 'llm'; call: LlmCallRecord; n: number } | { kind: 'retrieval'; record: HdsRetrievalRecord };

/** A baseline run (single-shot, IRCoT, decomposition) as its LLM calls and retrievals in time order. Text only. */
export function BaselineTimeline(props: { run: BaselineRun; answers?: readonly string[]; onOpenDocument?: (docId: string, query: string) => void }) {
  const { run, answers, onOpenDocument } = props;
  const wording: RelevanceWording = answers && answers.length > 0 ? 'supporting' : 'relevant';
  const steps: Step[] = [
    ...run.llmCalls.map((call, i) => ({ kind: 'llm' as const, call, n: i + 1 })),
    ...run.retrievals.map((record) => ({ kind: 'retrieval' as const, record })),
  ].sort((a, b) => (a.kind === 'llm' ? a.call.startMs : a.record.startMs) - (b.kind === 'llm' ? b.call.startMs : b.record.startMs));
  const em = answers && answers.length > 0 ? exactMatch(run.answer, answers) : null;
  const f1 = answers && answers.length > 0 ? tokenF1(run.answer, answers) : null;
  return (
    <section className="timeline" aria-label="Timeline">
      <p className="timeline-question">
        <strong>Question:</strong> <span>{run.question}</span>
      </p>
      <p className="meta">
        {run.llmCalls.length} LLM call(s) · {run.retrievals.length} retrieval(s) · tokens {run.tokenUsage.totalTokens} · {ms(run.durationMs)} ·{' '}
        <span className={`badge status-${run.status}`} data-testid="run-status">
          {run.status}
        </span>
      </p>
      {steps.map((step, i) =>
        step.kind === 'llm' ? (
          <article key={i} className="turn-card" aria-label={`LLM call ${step.n}`}>
            <header className="turn-header">
              <h4>LLM call {step.n}</h4>
              <span className="meta">
                {ms(step.call.endMs - step.call.startMs)}
                {step.call.usage ? ` · tokens ${step.call.usage.promptTokens} in / ${step.call.usage.completionTokens} out` : ''}
              </span>
            </header>
            <details>
              <summary>Prompt</summary>
              <pre className="model-text">{step.call.prompt}</pre>
            </details>
            {step.call.reasoning && (
              <details className="reasoning">
                <summary>Reasoning</summary>
                <pre className="model-text">{step.call.reasoning}</pre>
              </details>
            )}
            <pre className="model-text">{step.call.response || '(empty)'}</pre>
            {step.call.error && <p className="error">{step.call.error}</p>}
          </article>
        ) : (
          <article key={i} className="turn-card" aria-label={`Retrieval ${step.record.index + 1}`}>
            <header className="turn-header">
              <h4>
                Retrieval <span className="chip">{step.record.query}</span>
              </h4>
              <span className="meta">
                {step.record.status} · {ms(step.record.endMs - step.record.startMs)}
              </span>
            </header>
            {step.record.status === 'ok' && <ResultsList query={step.record.query} results={step.record.results} wording={wording} onOpenDocument={onOpenDocument} />}
            {step.record.error && <p className="error">{step.record.error}</p>}
          </article>
        ),
      )}
      <div className="final-answer" data-testid="final-answer">
        <h4>Final answer</h4>
        <p className="answer-text">{run.answer || '(no answer)'}</p>
        {answers && answers.length > 0 && <p className="meta">Gold: {answers.join(' | ')}.</p>}
        {em !== null && f1 !== null && (
          <p data-testid="answer-scores">
            <span className={`badge ${em === 1 ? 'relevant' : 'bad'}`}>EM {em}</span> <span className="badge">F1 {f1.toFixed(2)}</span>
          </p>
        )}
        {run.error && <p className="error">{run.error}</p>}
      </div>
    </section>
  );
}
