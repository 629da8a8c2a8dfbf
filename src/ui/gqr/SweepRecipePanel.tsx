import { useState } from 'react';
import { describePipeline, describeSettings, expandGrid, parseRecipe, sweepRequestOfRecipe, type CorpusRecord, type Recipe, type SweepRecipeRequest } from '../../core/index.ts';
import { errorMessage } from '../shared/format.ts';
import { recipeDifferences } from '../shared/recipes.ts';
import { isActive } from '../shared/job-store.ts';
import { startSweep, useSweepJob } from './sweep-store.ts';

type Checked = { fileName: string; recipe: Recipe; request: SweepRecipeRequest; differences: string[] } | { fileName: string; error: string };

/** "Re-run a recipe" in the lab: reads a sweep recipe, lists every way this corpus and its models differ, and runs the sweep. */
export function SweepRecipePanel({ corpus }: { corpus: CorpusRecord }) {
  const [checked, setChecked] = useState<Checked | null>(null);
  const busy = useSweepJob((s) => isActive(s.state));

  const read = async (file: File) => {
    try {
      const recipe = parseRecipe(await file.text());
      if (recipe.experiment.kind === 'run') throw new Error('This is a run recipe; re-run it on the Runs page (Re-run a recipe).');
      const request = sweepRequestOfRecipe(recipe);
      setChecked({ fileName: file.name, recipe, request, differences: await recipeDifferences(recipe, corpus.id) });
    } catch (error) {
      setChecked({ fileName: file.name, error: errorMessage(error) });
    }
  };

  return (
    <section className="panel" aria-label="Re-run a sweep recipe">
      <h2>Re-run a recipe</h2>
      <p className="hint">
        A sweep recipe (Recipe button of a sweep) holds the GQR pipeline, the grid, top k, measures, the models with their file hashes and the corpus’s
        checksums. It is checked against “{corpus.name}” and its embedding sets before the sweep starts.
      </p>
      <label>
        Recipe file{' '}
        <input
          type="file"
          accept=".json,application/json"
          aria-label="Import a sweep recipe"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void read(file);
          }}
        />
      </label>
      {checked && 'error' in checked && (
        <p className="error" role="alert" data-testid="sweep-recipe-check">
          Could not use {checked.fileName}: {checked.error}
        </p>
      )}
      {checked && 'recipe' in checked && (
        <div data-testid="sweep-recipe-check">
          <p>
            “{checked.recipe.name}”: {describePipeline(checked.request.spec.primary)} ← {describePipeline(checked.request.spec.complementary)}, grid{' '}
            {expandGrid(checked.request.axes, checked.request.spec.config)
              .map((p) => describeSettings(p.settings))
              .join('; ')}
            , top {checked.request.topK}, made on “{checked.recipe.corpus.name}”
            {checked.recipe.environment ? ` with workbench ${checked.recipe.environment.workbench}` : ''}.
          </p>
          {checked.differences.length === 0 ? (
            <p className="ok">The corpus, its queries and judgements, the analyzer and the model files match the recipe.</p>
          ) : (
            <>
              <p className="error">This corpus does not match the recipe:</p>
              <ul className="error" data-testid="sweep-recipe-differences">
                {checked.differences.map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ul>
            </>
          )}
          <button
            type="button"
            className="primary"
            disabled={busy || corpus.queryCount === 0}
            onClick={() => {
              const { spec, axes, topK, measures } = checked.request;
              void startSweep({ corpus, name: `${checked.recipe.name} (re-run)`, spec, axes, topK, measures });
            }}
          >
            {checked.differences.length === 0 ? 'Run this sweep recipe' : 'Run it anyway'}
          </button>
        </div>
      )}
    </section>
  );
}
