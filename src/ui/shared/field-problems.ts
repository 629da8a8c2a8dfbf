import { useCallback, useMemo, useState } from 'react';

/**
 * The typed fields of a form that do not hold a valid value, by label: a form disables its run button while any is
 * listed and says which (`NumberField`'s `onProblem`).
 */
export function useFieldProblems() {
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({});
  const report = useCallback(
    (field: string) => (problem: string | null) =>
      setProblems((current) => {
        if ((current[field] ?? null) === problem) return current;
        const next = { ...current };
        if (problem === null) delete next[field];
        else next[field] = problem;
        return next;
      }),
    [],
  );
  const summary = useMemo(
    () =>
      Object.entries(problems)
        .map(([field, problem]) => `${field}: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`)
        .join('; '),
    [problems],
  );
  return { report, blocked: summary !== '', summary };
}
