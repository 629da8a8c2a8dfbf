import { FAMILY_ALPHA, holmAdjust, holmSignificant, type RunComparison } from '../../core/index.ts';
import { formatP } from './number-format.ts';

/**
 * Holm–Bonferroni correction over every test of the comparison (each compared run × each measure against the one
 * baseline): the raw and adjusted p-values side by side, and which stay significant at the family-wise α.
 */
export function HolmPanel({ comparison, names }: { comparison: RunComparison; names: Record<string, string> }) {
  const rows = comparison.rows;
  if (rows.length < 2) return null;
  const adjusted = holmAdjust(rows.map((r) => r.pValue));
  const significant = holmSignificant(adjusted, FAMILY_ALPHA);
  const kept = significant.filter(Boolean).length;
  return (
    <section className="panel" aria-label="Multiple-testing correction">
      <h2>Corrected for {rows.length} tests (Holm–Bonferroni)</h2>
      <p className="hint" data-testid="holm-summary">
        {kept === 0 ? 'None' : `${kept} of ${rows.length}`} {kept === 1 ? 'difference stays' : 'differences stay'} significant at α = {FAMILY_ALPHA} after
        the correction. Holm’s step-down method sorts the {rows.length} p-values, multiplies the i-th smallest by {rows.length} − i + 1 and keeps the
        running maximum (capped at 1), so the chance of any false “significant” among them stays below α.
      </p>
      <div className="table-scroll">
        <table className="compact holm-table" aria-label="Holm-adjusted p-values">
          <thead>
            <tr>
              <th>Run</th>
              <th>Measure</th>
              <th className="num">p</th>
              <th className="num">Holm p</th>
              <th>at α = {FAMILY_ALPHA}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={`${row.run}/${row.measure}`} data-testid="holm-row">
                <td>{names[row.run] ?? row.run}</td>
                <td>{row.measure}</td>
                <td className="num" data-testid="raw-p">
                  {formatP(row.pValue)}
                </td>
                <td className="num" data-testid="holm-p">
                  {formatP(adjusted[i]!)}
                </td>
                <td data-testid="holm-verdict">{significant[i] ? 'significant' : 'not significant'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
