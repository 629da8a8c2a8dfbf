import { useState } from 'react';
import {
  findUnknownDocuments,
  importTrecRun,
  parseRunsJson,
  prepareRunImport,
  rescoreRunRecord,
  type CorpusRecord,
  type LineIssue,
  type QrelsMap,
  type RunAlreadyHere,
  type RunRecord,
  type UnknownDocuments,
} from '../../core/index.ts';
import { errorMessage, formatCount } from '../shared/format.ts';
import { saveRun } from '../shared/runs.ts';
import { getCorpusStore, getRunStore } from '../services/stores.ts';
import { useQueries } from '../shared/corpus-data.ts';

const SHOWN_ISSUES = 50;
const SHOWN_UNKNOWN = 20;

type ImportReport =
  | {
      status: 'done';
      fileName: string;
      record: RunRecord;
      runCount?: number;
      issues: LineIssue[];
      unknownQueryIds: string[];
      missingQueryCount: number;
      unknownDocuments: UnknownDocuments;
      note?: string;
      /** Runs of the file that were here already; they were imported again as marked copies. */
      alreadyHere: RunAlreadyHere[];
      /** A TREC file of the same name imported before. */
      sameFileBefore?: number;
    }
  | { status: 'failed'; fileName: string; message: string; issues: LineIssue[] };

/** Imports a TREC run file from any system, or a run exported as JSON; both are scored against this corpus's qrels. */
export function ImportRunPanel({ corpus, qrels, measures }: { corpus: CorpusRecord; qrels: QrelsMap | null; measures: string[] }) {
  const queries = useQueries(corpus.id);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [busy, setBusy] = useState(false);

  const unknownDocumentsOf = async (record: RunRecord) => {
    const store = await getCorpusStore();
    return findUnknownDocuments(record, async (ids) => (await store.getDocuments(corpus.id, ids)).map((doc) => doc !== undefined));
  };

  const importFile = async (file: File, kind: 'trec' | 'json') => {
    setBusy(true);
    setReport(null);
    try {
      const at = Date.now();
      const existing = await (await getRunStore()).listRuns(corpus.id);
      if (kind === 'trec') {
        const result = importTrecRun(new Uint8Array(await file.arrayBuffer()), {
          fileName: file.name,
          corpusId: corpus.id,
          corpusName: corpus.name,
          queryIds: [...(queries.data?.keys() ?? [])],
          qrels,
          measures,
        });
        const record: RunRecord = { ...result.record, imported: { fileName: file.name, at } };
        const unknownDocuments = await unknownDocumentsOf(record);
        await saveRun(record);
        const before = existing.find((r) => r.imported?.fileName === file.name && r.pipeline.kind === 'imported');
        setReport({ status: 'done', fileName: file.name, ...result, record, unknownDocuments, alreadyHere: [], sameFileBefore: before?.imported?.at });
      } else {
        // One run, or several (a sweep written by `dsw sweep --save-json`: it then opens in the GQR lab).
        const parsedRuns = parseRunsJson(await file.text());
        const moved = parsedRuns.some((parsed) => parsed.corpusId !== corpus.id);
        // Each run becomes a marked copy; one already here is imported again and said to be (see the report).
        const prepared = prepareRunImport(parsedRuns, { corpusId: corpus.id, corpusName: corpus.name, fileName: file.name, at, existing });
        const records = prepared.records.map((record) => rescoreRunRecord(record, qrels));
        const record = records[0]!;
        const unknownDocuments = await unknownDocumentsOf(record);
        for (const saved of records) await saveRun(saved);
        const parsed = parsedRuns[0]!;
        const corpusQueries = [...(queries.data?.keys() ?? [])];
        const known = new Set([...corpusQueries, ...(qrels?.keys() ?? [])]);
        const ranked = new Set(record.rankings.map((r) => r.queryId));
        setReport({
          status: 'done',
          fileName: file.name,
          record,
          issues: [],
          unknownQueryIds: record.rankings.map((r) => r.queryId).filter((q) => !known.has(q)),
          missingQueryCount: corpusQueries.filter((q) => !ranked.has(q)).length,
          runCount: records.length,
          unknownDocuments,
          alreadyHere: prepared.alreadyHere,
          note: moved ? `The run was made on corpus “${parsed.corpusName}”; it was scored against this corpus’s judgements.` : undefined,
        });
      }
    } catch (error) {
      setReport({ status: 'failed', fileName: file.name, message: errorMessage(error), issues: (error as { issues?: LineIssue[] }).issues ?? [] });
    } finally {
      setBusy(false);
    }
  };

  const picker = (label: string, accept: string, kind: 'trec' | 'json') => (
    <label className="button">
      {label}
      <input
        type="file"
        accept={accept}
        aria-label={label}
        hidden
        disabled={busy || !queries.data}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void importFile(file, kind);
        }}
      />
    </label>
  );

  return (
    <section className="panel" aria-label="Import a run">
      <h2>Import a run</h2>
      <p className="hint">
        A TREC run file (<code>qid Q0 docid rank score tag</code>) from any system, or a run exported from this workbench as JSON. It is
        scored against the judgements of “{corpus.name}”.
      </p>
      <div className="row">
        {picker('Import a TREC run file', '.trec,.run,.txt,.tsv,text/plain', 'trec')}
        {picker('Import a JSON run', '.json,application/json', 'json')}
        {busy && <span>Importing…</span>}
      </div>
      {report && <ImportReportView report={report} />}
    </section>
  );
}

function importedWhen(at: number | null): string {
  return at === null ? ' (made here)' : ` (imported ${new Date(at).toLocaleString()})`;
}

function ImportReportView({ report }: { report: ImportReport }) {
  const issues = report.issues;
  return (
    <div className="import-report" data-testid="import-report">
      {report.status === 'done' ? (
        <p role="status">
          Imported “{report.record.name}”{(report.runCount ?? 1) > 1 ? ` and ${formatCount(report.runCount! - 1)} more runs` : ''} from {report.fileName}: rankings for {formatCount(report.record.rankings.length)} queries
          {report.missingQueryCount > 0 ? `; ${formatCount(report.missingQueryCount)} queries of the corpus have none (they score 0 where judged)` : ''}.
          {report.note ? ` ${report.note}` : ''} Marked “imported from {report.fileName} at {new Date(report.record.imported?.at ?? Date.now()).toLocaleString()}”.
        </p>
      ) : (
        <p className="error" role="alert">
          Could not import {report.fileName}: {report.message}
        </p>
      )}
      {report.status === 'done' && report.alreadyHere.length > 0 && (
        <p className="notice" data-testid="already-here">
          {report.alreadyHere.length === 1
            ? `“${report.alreadyHere[0]!.name}” is already here as “${report.alreadyHere[0]!.existingName}”${importedWhen(report.alreadyHere[0]!.importedAt)}`
            : `${formatCount(report.alreadyHere.length)} of these runs are already here${importedWhen(report.alreadyHere[0]!.importedAt)}`}
          ; imported again as a marked copy (delete either in the list below).
        </p>
      )}
      {report.status === 'done' && report.sameFileBefore !== undefined && (
        <p className="notice" data-testid="already-here">
          A run from a file named {report.fileName} was imported before ({new Date(report.sameFileBefore).toLocaleString()}); this one was imported as a
          marked copy.
        </p>
      )}
      {report.status === 'done' && report.unknownQueryIds.length > 0 && (
        <p className="error">
          {formatCount(report.unknownQueryIds.length)} query id(s) of the file are not queries of this corpus and are not scored:{' '}
          {report.unknownQueryIds.slice(0, SHOWN_UNKNOWN).join(', ')}
          {report.unknownQueryIds.length > SHOWN_UNKNOWN ? ', …' : ''}
        </p>
      )}
      {report.status === 'done' && report.unknownDocuments.count > 0 && (
        <p className="error" data-testid="unknown-documents">
          {formatCount(report.unknownDocuments.count)} document id(s) of the file ({formatCount(report.unknownDocuments.results)} result(s)) are not
          documents of this corpus; they count as not relevant: {report.unknownDocuments.examples.join(', ')}
          {report.unknownDocuments.count > report.unknownDocuments.examples.length ? ', …' : ''}
        </p>
      )}
      {issues.length > 0 && (
        <details open={issues.length <= 10}>
          <summary>
            {formatCount(issues.length)} line(s) skipped
          </summary>
          <ul className="issue-list" aria-label="Skipped lines">
            {issues.slice(0, SHOWN_ISSUES).map((issue) => (
              <li key={issue.line}>
                line {issue.line}: {issue.reason}
              </li>
            ))}
            {issues.length > SHOWN_ISSUES && <li>… and {formatCount(issues.length - SHOWN_ISSUES)} more</li>}
          </ul>
        </details>
      )}
    </div>
  );
}
