import { useState } from 'react';
import { describePipeline, parseRecipe, type CorpusRecord, type Recipe } from '../../core/index.ts';
import { errorMessage } from '../shared/format.ts';
import { recipeDifferences } from '../shared/recipes.ts';
import { isActive } from '../shared/job-store.ts';
import { startRun, useRunJobStore } from './run-job-store.ts';

type Checked = { fileName: string; recipe: Recipe; differences: string[] } | { fileName: string; error: string };

/** "Re-run this recipe": reads a recipe file, says exactly what differs from this corpus and its models, and runs it. */
export function RecipePanel({ corpus }: { corpus: CorpusRecord }) {
  const [checked, setChecked] = useState<Checked | null>(null);
  const busy = useRunJobStore((s) => isActive(s.state));

  const read = async (file: File) => {
    try {
      const recipe = parseRecipe(await file.text());
      if (recipe.experiment.kind !== 'run') {
        const where = recipe.experiment.kind === 'sweep' ? 'sweep recipe; re-run it in the GQR lab (Re-run a recipe)' : 'deep-search batch recipe; re-run it on Deep search → Batch (Re-run a batch recipe)';
        throw new Error(`This is a ${where}. The Runs page re-runs run recipes (a run or one sweep point).`);
      }
      setChecked({ fileName: file.name, recipe, differences: await recipeDifferences(recipe, corpus.id) });
    } catch (error) {
      setChecked({ fileName: file.name, error: errorMessage(error) });
    }
  };

  return (
    <section className="panel" aria-label="Re-run a recipe">
      <h2>Re-run a recipe</h2>
      <p className="hint">
        A recipe (Recipe button of a saved run) holds the pipeline, analyzer, model and file hashes, k, measures and the corpus’s checksums. It is
        checked against “{corpus.name}” and its embedding sets before it runs.
      </p>
      <label>
        Recipe file{' '}
        <input
          type="file"
          accept=".json,application/json"
          aria-label="Import a recipe"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void read(file);
          }}
        />
      </label>
      {checked && 'error' in checked && (
        <p className="error" role="alert" data-testid="recipe-check">
          Could not use {checked.fileName}: {checked.error}
        </p>
      )}
      {checked && 'recipe' in checked && checked.recipe.experiment.kind === 'run' && (
        <div data-testid="recipe-check">
          <p>
            “{checked.recipe.name}”: {describePipeline(checked.recipe.experiment.pipeline)}, k = {checked.recipe.experiment.k}, made on “{checked.recipe.corpus.name}”
            {checked.recipe.environment ? ` with workbench ${checked.recipe.environment.workbench}` : ''}.
          </p>
          {checked.differences.length === 0 ? (
            <p className="ok">The corpus, its queries and judgements, the analyzer and the model files match the recipe.</p>
          ) : (
            <>
              <p className="error">This corpus does not match the recipe:</p>
              <ul className="error" data-testid="recipe-differences">
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
              const { experiment } = checked.recipe;
              if (experiment.kind !== 'run') return;
              void startRun({ corpus, spec: experiment.pipeline, k: experiment.k, name: `${checked.recipe.name} (re-run)`, measures: experiment.measures });
            }}
          >
            {checked.differences.length === 0 ? 'Run this recipe' : 'Run it anyway'}
          </button>
        </div>
      )}
    </section>
  );
}
