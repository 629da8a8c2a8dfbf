import { describePipeline, type CorpusRecord, type Recipe } from '../../core/index.ts';
import { isActive } from '../shared/job-store.ts';
import { RecipeCheck } from '../shared/RecipeCheck.tsx';
import { startRun, useRunJobStore } from './run-job-store.ts';

type RunExperiment = Extract<Recipe['experiment'], { kind: 'run' }>;

function runExperimentOf(recipe: Recipe): RunExperiment {
  const { experiment } = recipe;
  if (experiment.kind === 'run') return experiment;
  const where = experiment.kind === 'sweep' ? 'sweep recipe; re-run it in the GQR lab (Re-run a recipe)' : 'deep-search batch recipe; re-run it on Deep search → Batch (Re-run a batch recipe)';
  throw new Error(`This is a ${where}. The Runs page re-runs run recipes (a run or one sweep point).`);
}

/** "Re-run this recipe": reads a recipe file, says exactly what differs from this corpus and its models, and runs it. */
export function RecipePanel({ corpus }: { corpus: CorpusRecord }) {
  const busy = useRunJobStore((s) => isActive(s.state));
  return (
    <section className="panel" aria-label="Re-run a recipe">
      <h2>Re-run a recipe</h2>
      <p className="hint">
        A recipe (Recipe button of a saved run) holds the pipeline, analyzer, model and file hashes, k, measures and the corpus’s checksums. It is
        checked against “{corpus.name}” and its embedding sets before it runs.
      </p>
      <RecipeCheck
        corpusId={corpus.id}
        inputLabel="Import a recipe"
        testId="recipe"
        toRequest={runExperimentOf}
        describe={(recipe, experiment) => (
          <>
            “{recipe.name}”: {describePipeline(experiment.pipeline)}, k = {experiment.k}, made on “{recipe.corpus.name}”
            {recipe.environment ? ` with workbench ${recipe.environment.workbench}` : ''}.
          </>
        )}
        matchText="The corpus, its queries and judgements, the analyzer and the model files match the recipe."
        runText="Run this recipe"
        disabled={busy || corpus.queryCount === 0}
        onRun={(recipe, experiment) =>
          void startRun({ corpus, spec: experiment.pipeline, k: experiment.k, name: `${recipe.name} (re-run)`, measures: experiment.measures })
        }
      />
    </section>
  );
}
