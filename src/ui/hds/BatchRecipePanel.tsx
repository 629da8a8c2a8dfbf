import { useState } from 'react';
import { batchRequestOfRecipe, describePipeline, llmDifferences, parseRecipe, type BatchRequest, type Recipe, type RecipeLlm } from '../../core/index.ts';
import { errorMessage } from '../shared/format.ts';
import { recipeDifferences } from '../shared/recipes.ts';
import { useActiveHdsJob, useHdsRun } from './run-state.ts';
import { useHdsSettings } from './settings-state.ts';

type Checked = { fileName: string; recipe: Recipe; request: BatchRequest & { llm: RecipeLlm }; corpusDifferences: string[] } | { fileName: string; error: string };

/** Re-runs a deep-search batch recipe with the model configured here (recipes hold no keys), after listing every difference. */
export function BatchRecipePanel({ corpusId }: { corpusId: string }) {
  const [checked, setChecked] = useState<Checked | null>(null);
  const settings = useHdsSettings();
  const run = useHdsRun();
  const active = useActiveHdsJob();

  const read = async (file: File) => {
    try {
      const recipe = parseRecipe(await file.text());
      const request = batchRequestOfRecipe(recipe, corpusId);
      setChecked({ fileName: file.name, recipe, request, corpusDifferences: await recipeDifferences(recipe, corpusId) });
    } catch (error) {
      setChecked({ fileName: file.name, error: errorMessage(error) });
    }
  };
  const llm = checked && 'request' in checked ? llmDifferences(checked.request.llm, settings.provider) : [];

  return (
    <details className="batch-recipe">
      <summary>Re-run a batch recipe</summary>
      <p className="hint">
        A batch recipe (Saved runs → Recipe) holds the retriever, the methods and their settings, the questions and the LLM’s name and sampling, never
        its key: it runs with the model configured in Model settings, after the corpus, its embedding sets and the LLM are compared with the recipe.
      </p>
      <label>
        Recipe file{' '}
        <input
          type="file"
          accept=".json,application/json"
          aria-label="Import a batch recipe"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void read(file);
          }}
        />
      </label>
      {checked && 'error' in checked && (
        <p className="error" role="alert" data-testid="batch-recipe-check">
          Could not use {checked.fileName}: {checked.error}
        </p>
      )}
      {checked && 'request' in checked && (
        <div data-testid="batch-recipe-check">
          <p>
            “{checked.recipe.name}”: {checked.request.variants.map((v) => v.label).join(', ')} on {checked.request.questionIds!.length} question(s), retriever{' '}
            {describePipeline(checked.request.spec)}, LLM {checked.request.llm.model}, made on “{checked.recipe.corpus.name}”.
          </p>
          {checked.corpusDifferences.length === 0 && llm.length === 0 ? (
            <p className="ok">The corpus, its questions and judgements, the models and the LLM settings match the recipe.</p>
          ) : (
            <>
              <p className="error">This does not match the recipe:</p>
              <ul className="error" data-testid="batch-recipe-differences">
                {[...checked.corpusDifferences, ...llm].map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ul>
            </>
          )}
          <button
            type="button"
            className="primary"
            disabled={!!active}
            onClick={() => {
              const { llm: _llm, ...request } = checked.request;
              void settings.flush().then(() => run.runBatch({ ...request, provider: settings.provider }));
            }}
          >
            {checked.corpusDifferences.length === 0 && llm.length === 0 ? 'Run this batch recipe' : 'Run it anyway'}
          </button>
        </div>
      )}
    </details>
  );
}
