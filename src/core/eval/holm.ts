/** The family-wise significance level the workbench reports corrected p-values against. */
export const FAMILY_ALPHA = 0.05;

/**
 * Holm–Bonferroni step-down adjustment of a family of p-values (the tests of several runs or measures against
 * one baseline), in the input order. With the p-values sorted ascending as p(1) ≤ … ≤ p(m), the adjusted value
 * of p(i) is min(1, max over j ≤ i of (m − j + 1)·p(j)): the same numbers as statsmodels'
 * `multipletests(method='holm')`. A hypothesis is rejected at family-wise level α when its adjusted p ≤ α.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  for (const p of pValues) {
    if (!(p >= 0 && p <= 1)) throw new Error(`a p-value must be a number from 0 to 1 (got ${p})`);
  }
  const m = pValues.length;
  // Ties keep their input order, so equal p-values get equal adjusted values either way.
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/** Whether each adjusted p-value is significant at family-wise level `alpha` (adjusted p ≤ alpha). */
export function holmSignificant(adjusted: readonly number[], alpha = FAMILY_ALPHA): boolean[] {
  return adjusted.map((p) => p <= alpha);
}
