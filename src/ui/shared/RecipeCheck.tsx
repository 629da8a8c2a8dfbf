import { useState, type ReactNode } from 'react';
import { parseRecipe, type Recipe } from '../../core/index.ts';
import { errorMessage } from './format.ts';
import { recipeDifferences } from './recipes.ts';

type Checked<T> = { fileName: string; recipe: Recipe; request: T; differences: string[] } | { fileName: string; error: string };

/**
 * What every "re-run a recipe" panel shares: the file picker, the recipe read and checked against the corpus and its
 * models, every difference in words, and the run button ("Run it anyway" when something differs).
 */
export function RecipeCheck<T>({
  corpusId,
  inputLabel,
  testId,
  toRequest,
  describe,
  moreDifferences,
  matchText,
  mismatchText = 'This corpus does not match the recipe:',
  runText,
  disabled,
  onRun,
}: {
  corpusId: string;
  /** The file input's accessible name. */
  inputLabel: string;
  /** Prefix of the check's test ids (`<testId>-check`, `<testId>-differences`). */
  testId: string;
  /** What this panel runs, read from the recipe; throws words for a recipe of another kind or a bad field. */
  toRequest: (recipe: Recipe) => T;
  describe: (recipe: Recipe, request: T) => ReactNode;
  /** Differences beyond the corpus and its models (e.g. the LLM configured here), recomputed on every render. */
  moreDifferences?: (request: T) => string[];
  matchText: string;
  mismatchText?: string;
  runText: string;
  disabled: boolean;
  onRun: (recipe: Recipe, request: T) => void;
}) {
  const [checked, setChecked] = useState<Checked<T> | null>(null);

  const read = async (file: File) => {
    try {
      const recipe = parseRecipe(await file.text());
      const request = toRequest(recipe);
      setChecked({ fileName: file.name, recipe, request, differences: await recipeDifferences(recipe, corpusId) });
    } catch (error) {
      setChecked({ fileName: file.name, error: errorMessage(error) });
    }
  };
  const differences = checked && 'request' in checked ? [...checked.differences, ...(moreDifferences?.(checked.request) ?? [])] : [];

  return (
    <>
      <label>
        Recipe file{' '}
        <input
          type="file"
          accept=".json,application/json"
          aria-label={inputLabel}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void read(file);
          }}
        />
      </label>
      {checked && 'error' in checked && (
        <p className="error" role="alert" data-testid={`${testId}-check`}>
          Could not use {checked.fileName}: {checked.error}
        </p>
      )}
      {checked && 'request' in checked && (
        <div data-testid={`${testId}-check`}>
          <p>{describe(checked.recipe, checked.request)}</p>
          {differences.length === 0 ? (
            <p className="ok">{matchText}</p>
          ) : (
            <>
              <p className="error">{mismatchText}</p>
              <ul className="error" data-testid={`${testId}-differences`}>
                {differences.map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ul>
            </>
          )}
          <button type="button" className="primary" disabled={disabled} onClick={() => onRun(checked.recipe, checked.request)}>
            {differences.length === 0 ? runText : 'Run it anyway'}
          </button>
        </div>
      )}
    </>
  );
}
