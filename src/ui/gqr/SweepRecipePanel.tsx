import { describePipeline, describeSettings, expandGrid, sweepRequestOfRecipe, type CorpusRecord, type Recipe } from '../../core/index.ts';
import { isActive } from '../shared/job-store.ts';
import { RecipeCheck } from '../shared/RecipeCheck.tsx';
import { startSweep, useSweepJob } from './sweep-store.ts';

function sweepRequestOf(recipe: Recipe) {
  if (recipe.experiment.kind === 'run') throw new Error('This is a run recipe; re-run it on the Runs page (Re-run a recipe).');
  return sweepRequestOfRecipe(recipe);
}

/** "Re-run a recipe" in the lab: reads a sweep recipe, lists every way this corpus and its models differ, and runs the sweep. */
export function SweepRecipePanel({ corpus }: { corpus: CorpusRecord }) {
  const busy = useSweepJob((s) => isActive(s.state));
  return (
    <section className="panel" aria-label="Re-run a sweep recipe">
      <h2>Re-run a recipe</h2>
      <p className="hint">
        A sweep recipe (Recipe button of a sweep) holds the GQR pipeline, the grid, top k, measures, the models with their file hashes and the corpus’s
        checksums. It is checked against “{corpus.name}” and its embedding sets before the sweep starts.
      </p>
      <RecipeCheck
        corpusId={corpus.id}
        inputLabel="Import a sweep recipe"
        testId="sweep-recipe"
        toRequest={sweepRequestOf}
        describe={(recipe, request) => (
          <>
            “{recipe.name}”: {describePipeline(request.spec.primary)} ← {describePipeline(request.spec.complementary)}, grid{' '}
            {expandGrid(request.axes, request.spec.config)
              .map((p) => describeSettings(p.settings))
              .join('; ')}
            , top {request.topK}, made on “{recipe.corpus.name}”
            {recipe.environment ? ` with workbench ${recipe.environment.workbench}` : ''}.
          </>
        )}
        matchText="The corpus, its queries and judgements, the analyzer and the model files match the recipe."
        runText="Run this sweep recipe"
        disabled={busy || corpus.queryCount === 0}
        onRun={(recipe, { spec, axes, topK, measures }) => void startSweep({ corpus, name: `${recipe.name} (re-run)`, spec, axes, topK, measures })}
      />
    </section>
  );
}
