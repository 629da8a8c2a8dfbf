import { formatCsv, type BatchAggregate, type BatchVariant, type BudgetParam } from '../../core/index.ts';

/** One measured budget of a scaling sweep: the means over the questions run so far at that value. */
export interface ScalingPoint {
  value: number;
  f1: number | null;
  em: number | null;
  evidence: number | null;
  questions: number;
}

/** The points of a budget sweep: one per variant value, in ascending budget order. */
export function scalingPoints(variants: readonly BatchVariant[], aggregates: readonly BatchAggregate[]): ScalingPoint[] {
  return variants
    .filter((v) => v.sweep)
    .map((v) => {
      const a = aggregates.find((x) => x.variantId === v.id);
      return { value: v.sweep!.value, f1: a?.f1 ?? null, em: a?.em ?? null, evidence: a?.evidenceRecall ?? null, questions: a?.questions ?? 0 };
    })
    .sort((a, b) => a.value - b.value);
}

/** The x-axis ticks: exactly the budgets measured (each once, ascending), never values in between. */
export function measuredTicks(points: readonly Pick<ScalingPoint, 'value'>[]): number[] {
  return [...new Set(points.map((p) => p.value).filter(Number.isFinite))].sort((a, b) => a - b);
}

/** The wire name of the varied budget, as the chart's axis and the CSV header call it. */
export function budgetLabel(param: BudgetParam): string {
  return param === 'maxTurns' ? 'max_turns' : 'max_search_calls';
}

/** The scaling points as CSV, values at full precision (empty cells where nothing was scored). */
export function scalingCsv(points: readonly ScalingPoint[], param: BudgetParam): string {
  return formatCsv([[budgetLabel(param), 'questions', 'EM', 'F1', 'evidence recall'], ...points.map((p) => [p.value, p.questions, p.em, p.f1, p.evidence])]);
}
