import { batchRequestOfRecipe, describePipeline, llmDifferences } from '../../core/index.ts';
import { RecipeCheck } from '../shared/RecipeCheck.tsx';
import { useActiveHdsJob, useHdsRun } from './run-state.ts';
import { useHdsSettings } from './settings-state.ts';

/** Re-runs a deep-search batch recipe with the model configured here (recipes hold no keys), after listing every difference. */
export function BatchRecipePanel({ corpusId }: { corpusId: string }) {
  const settings = useHdsSettings();
  const run = useHdsRun();
  const active = useActiveHdsJob();
  return (
    <details className="batch-recipe">
      <summary>Re-run a batch recipe</summary>
      <p className="hint">
        A batch recipe (Saved runs → Recipe) holds the retriever, the methods and their settings, the questions and the LLM’s name and sampling, never
        its key: it runs with the model configured in Model settings, after the corpus, its embedding sets and the LLM are compared with the recipe.
      </p>
      <RecipeCheck
        corpusId={corpusId}
        inputLabel="Import a batch recipe"
        testId="batch-recipe"
        toRequest={(recipe) => batchRequestOfRecipe(recipe, corpusId)}
        describe={(recipe, request) => (
          <>
            “{recipe.name}”: {request.variants.map((v) => v.label).join(', ')} on {request.questionIds!.length} question(s), retriever{' '}
            {describePipeline(request.spec)}, LLM {request.llm.model}, made on “{recipe.corpus.name}”.
          </>
        )}
        moreDifferences={(request) => llmDifferences(request.llm, settings.provider)}
        matchText="The corpus, its questions and judgements, the models and the LLM settings match the recipe."
        mismatchText="This does not match the recipe:"
        runText="Run this batch recipe"
        disabled={!!active}
        onRun={(_recipe, { llm: _llm, ...request }) => void settings.flush().then(() => run.runBatch({ ...request, provider: settings.provider }))}
      />
    </details>
  );
}
