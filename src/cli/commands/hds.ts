import fs from 'node:fs';
import path from 'node:path';
import {
  AGENT_METHOD_LABELS,
  aggregateBatch,
  datasetQuestions,
  FINAL_ANSWER_MODES,
  samplingSettingsOf,
  formatAgentRunsFile,
  isValidAnswerList,
  MemoryAgentRunStore,
  NUMERIC_RULES,
  REPEATED_BLOCK_POLICIES,
  PLAN_GUARDS,
  OpenAiCompatibleProvider,
  runBatch,
  runQuestion,
  type AgentMethod,
  type AgentSettings,
  type BatchAggregate,
  type BatchItem,
  type BatchQuestion,
  type BatchVariant,
  type HdsConfig,
  type SamplingSettings,
  type SavedAgentRun,
} from '../../core/index.ts';
import { writableTarget, writeOutput } from '../output-file.ts';
import { encodingHelp, encodingOption, ENCODING_OPTIONS } from '../encoding-option.ts';
import { keepEmptyHelp, KEEP_EMPTY_OPTIONS } from '../keep-empty-option.ts';
import { CliError, type CliCommand } from '../io.ts';
import { loadDataset } from '../load-dataset.ts';
import { analyzerFromParams, buildPipelineFromOptions } from '../pipeline-options.ts';
import { buildClusterPipeline, openClusterCorpus, OPENSEARCH_OPTIONS } from '../cluster-corpus.ts';
import { numberOption, parseParams } from '../params.ts';
import { formatTable } from '../table.ts';
import { parseCommandArgs } from './eval.ts';

export const hdsHelp = `Usage: dsw hds --dataset <beir-dir> (--question "<text>" | --questions-from-dataset)
               --base-url <url> --model <name> [--api-key-env VAR] --out <file.json> [options]

Runs the Hybrid Deep Searcher (and optionally its baselines) with an OpenAI-compatible chat model over a
dataset's retriever, and writes the runs as a JSON file the browser app can import (Deep search → Saved runs).
When the questions have gold answers (queries.jsonl "answers") and qrels, prints EM, token F1 and evidence recall.

  --dataset                 BEIR folder (corpus.jsonl, queries.jsonl, qrels/)
  --question                one question; if it is a query of the dataset, its answers and qrels are used
  --questions-from-dataset  every query with answers (see --limit, --question-ids)
  --question-ids            comma-separated query ids (with --questions-from-dataset)
  --limit                   at most this many questions
  --base-url                the server's base URL, e.g. http://localhost:11434/v1
  --model                   model name
  --api-key-env             name of the environment variable holding the API key (the key is never written)
  --temperature, --top-p, --max-tokens, --frequency-penalty, --presence-penalty, --repeat-penalty, --seed
                            sampling settings, each sent as given and saved with the runs (default: not sent,
                            so the server's own; the HDS authors use temperature 0.7, max_tokens 4096)
  --assistant-prefill       the server continues a pre-filled assistant message (llama.cpp, vLLM): lets
                            --final-answer boxed-prefix pre-fill it (without it, boxed is applied and recorded)
  --system-prompt-file      a text file sent as the system message before every HDS plan prompt, never the final
                            prompt or the baselines' (default: none, as the reference); recorded in the saved runs
                            (llm.systemPrompt, llm.systemPromptScope "hds-plan", and on each call that got it)
  --prompt-variant          HDS plan prompt: reference (default) or dsw-1 (the project's own)
  --plan-stop               query-block (default: plan calls stop at the end of the query block) or none
  --plan-guard              off (default) or loops: a plan reply that repeats one span (or misspells the end
                            marker) is ended there, not at max_tokens
  --question-search-k       before turn 1, search the question itself for this many results and open the log with
                            them (one search call; default 0, none, as the reference)
  --final-context           what the final prompt reads: log (default, the interaction log) or passages (the
                            distinct passages the search showed, with the baselines' reading prompt)
  --repeated-block          after a block of only repeated queries: log (default, go on), notice (tell the model to
                            search anew or answer) or answer (end the search, ask the final prompt)
  --final-answer            how every method's final call asks for the answer: reference (default), boxed
                            (a concise answer in \boxed{}) or boxed-prefix (boxed, with the authors' forced
                            "\boxed{" pre-fill where --assistant-prefill allows)
  --max-response-chars      end a streamed reply longer than this many characters with an error, for a server that
                            does not stop at --max-tokens (default 16000000); saved with the runs (llm.streamLimits)
  --idle-timeout            end a streamed reply that brings no new text for this many seconds, keep-alives or not
                            (default 120); saved with the runs
  --max-turns, --max-parallel-queries, --k-per-query, --evidence-budget, --max-search-calls,
  --retrieval-concurrency   HDS settings (defaults 3, 4, 3, 12, 8, 4)
  --baselines               also run: comma-separated single-shot, ircot, decomposition, oracle-context
                            (the gold passages given directly: the reader's upper bound)
  --baselines-only          run only the --baselines, not HDS
  --passage-chars           cut every passage text the methods see to at most this many characters (default:
                            whole texts; the ranking is unchanged); recorded as retriever.passageChars
  --pipeline                retrieval pipeline: bm25 (default), dense, rrf or cc (see dsw run --help)
  --param                   pipeline setting, repeatable (see dsw run --help), e.g. k1=0.9
  --embedding-model         embedding model folder or id for dense, rrf and cc (dsw run's --model)
  --models-dir, --model-host  where --embedding-model ids are looked up (as in dsw run)
  --out                     JSON file to write
  --json                    print the per-question results as JSON instead of a table
${encodingHelp(24)}
${keepEmptyHelp(24)}
`;

const HDS_OPTIONS: Array<[string, keyof HdsConfig & keyof typeof NUMERIC_RULES]> = [
  ['max-turns', 'maxTurns'],
  ['max-parallel-queries', 'maxParallelQueries'],
  ['k-per-query', 'kPerQuery'],
  ['evidence-budget', 'evidenceBudget'],
  ['max-search-calls', 'maxSearchCalls'],
  ['retrieval-concurrency', 'retrievalConcurrency'],
  ['question-search-k', 'questionSearchK'],
];
const BASELINES: readonly AgentMethod[] = ['single-shot', 'ircot', 'decomposition', 'oracle-context'];

export const hdsCommand: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      ...ENCODING_OPTIONS,
      ...KEEP_EMPTY_OPTIONS,
      question: { type: 'string' },
      'questions-from-dataset': { type: 'boolean', default: false },
      'question-ids': { type: 'string' },
      limit: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key-env': { type: 'string' },
      temperature: { type: 'string' },
      'top-p': { type: 'string' },
      'max-tokens': { type: 'string' },
      'frequency-penalty': { type: 'string' },
      'presence-penalty': { type: 'string' },
      'repeat-penalty': { type: 'string' },
      seed: { type: 'string' },
      'assistant-prefill': { type: 'boolean', default: false },
      'prompt-variant': { type: 'string' },
      'plan-stop': { type: 'string' },
      'plan-guard': { type: 'string' },
      'repeated-block': { type: 'string' },
      'final-context': { type: 'string' },
      'final-answer': { type: 'string' },
      'max-response-chars': { type: 'string' },
      'idle-timeout': { type: 'string' },
      'system-prompt-file': { type: 'string' },
      ...Object.fromEntries(HDS_OPTIONS.map(([flag]) => [flag, { type: 'string' as const }])),
      baselines: { type: 'string' },
      'baselines-only': { type: 'boolean', default: false },
      'passage-chars': { type: 'string' },
      pipeline: { type: 'string', default: 'bm25' },
      param: { type: 'string', multiple: true },
      'embedding-model': { type: 'string' },
      'models-dir': { type: 'string' },
      'model-host': { type: 'string' },
      out: { type: 'string' },
      json: { type: 'boolean', default: false },
      ...OPENSEARCH_OPTIONS,
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.out(hdsHelp);
    return 0;
  }
  const cluster = await openClusterCorpus(values);
  if (!values.dataset && !cluster) throw new CliError('dsw hds needs --dataset <dir> (or --opensearch <url> --index <name>)');
  const single = values.question !== undefined;
  if (single === values['questions-from-dataset']) throw new CliError('dsw hds needs either --question "<text>" or --questions-from-dataset');
  if (single && !values.question!.trim()) throw new CliError('--question is empty');
  if (!values['base-url']) throw new CliError('dsw hds needs --base-url <url> (e.g. http://localhost:11434/v1)');
  if (!values.model) throw new CliError('dsw hds needs --model <name>');
  if (!values.out) throw new CliError('dsw hds needs --out <file.json>');
  const out = writableTarget(io.cwd, values.out);

  let apiKey: string | undefined;
  if (values['api-key-env']) {
    apiKey = io.env[values['api-key-env']];
    if (!apiKey) throw new CliError(`The environment variable ${values['api-key-env']} (--api-key-env) is not set`);
    io.addSecret?.(apiKey);
  }
  const temperature = numberOption('--temperature', values.temperature, NUMERIC_RULES.temperature, undefined);
  const maxTokens = numberOption('--max-tokens', values['max-tokens'], NUMERIC_RULES.maxTokens, undefined);
  const sampling: SamplingSettings = samplingSettingsOf({
    temperature,
    maxTokens,
    topP: numberOption('--top-p', values['top-p'], NUMERIC_RULES.topP, undefined),
    frequencyPenalty: numberOption('--frequency-penalty', values['frequency-penalty'], NUMERIC_RULES.penalty, undefined),
    presencePenalty: numberOption('--presence-penalty', values['presence-penalty'], NUMERIC_RULES.penalty, undefined),
    repeatPenalty: numberOption('--repeat-penalty', values['repeat-penalty'], NUMERIC_RULES.repeatPenalty, undefined),
    seed: numberOption('--seed', values.seed, NUMERIC_RULES.seed, undefined),
  });
  const finalAnswer = choiceOption('--final-answer', values['final-answer'], FINAL_ANSWER_MODES);
  const maxResponseChars = numberOption('--max-response-chars', values['max-response-chars'], NUMERIC_RULES.maxResponseChars, undefined);
  const idleSeconds = numberOption('--idle-timeout', values['idle-timeout'], NUMERIC_RULES.idleTimeoutSeconds, undefined);
  const systemPrompt = values['system-prompt-file'] === undefined ? undefined : readSystemPrompt(io.cwd, values['system-prompt-file']);
  const hds: Partial<HdsConfig> = {};
  for (const [flag, key] of HDS_OPTIONS) {
    const raw = (values as Record<string, unknown>)[flag] as string | undefined;
    if (raw !== undefined) (hds as Record<string, number>)[key] = numberOption(`--${flag}`, raw, NUMERIC_RULES[key], 0);
  }
  const baselines = parseBaselines(values.baselines);
  if (values['baselines-only'] && baselines.length === 0) throw new CliError('--baselines-only needs --baselines <names>');
  const methods: AgentMethod[] = [...(values['baselines-only'] ? [] : ['hds' as const]), ...baselines];
  if (values['prompt-variant'] !== undefined) hds.promptVariant = choiceOption('--prompt-variant', values['prompt-variant'], ['reference', 'dsw-1'] as const);
  if (values['plan-stop'] !== undefined) hds.planStop = choiceOption('--plan-stop', values['plan-stop'], ['query-block', 'none'] as const);
  if (values['plan-guard'] !== undefined) hds.planGuard = choiceOption('--plan-guard', values['plan-guard'], PLAN_GUARDS);
  if (values['final-context'] !== undefined) hds.finalContext = choiceOption('--final-context', values['final-context'], ['log', 'passages'] as const);
  if (values['repeated-block'] !== undefined) hds.repeatedBlock = choiceOption('--repeated-block', values['repeated-block'], REPEATED_BLOCK_POLICIES);
  if (finalAnswer !== undefined) hds.finalAnswer = finalAnswer;
  // The same answer demand for every method (H12).
  const answerMode = finalAnswer === undefined ? {} : { finalAnswer };
  const settings: AgentSettings = { hds, singleShot: answerMode, ircot: answerMode, decomposition: answerMode, oracleContext: answerMode };

  const params = parseParams(values.param);
  const dataset = cluster ?? (await loadDataset(values.dataset!, io, { analyzer: analyzerFromParams(params), encoding: encodingOption(values.encoding), keepEmptyDocuments: values['keep-empty-documents'] }));
  const models = { model: values['embedding-model'], modelsDir: values['models-dir'], modelHost: values['model-host'] };
  const { spec, resources, environment } = cluster
    ? await buildClusterPipeline(values.pipeline!, params, cluster, io, models)
    : await buildPipelineFromOptions(values.pipeline!, params, dataset as Awaited<ReturnType<typeof loadDataset>>, io, models);
  const corpusId = dataset.corpus.id;
  let llm: OpenAiCompatibleProvider;
  try {
    llm = new OpenAiCompatibleProvider({
      baseUrl: values['base-url'],
      model: values.model,
      apiKey,
      ...sampling,
      ...(values['assistant-prefill'] ? { assistantPrefill: true } : {}),
      maxResponseChars,
      idleTimeoutMs: idleSeconds === undefined ? undefined : idleSeconds * 1000,
    });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const store = new MemoryAgentRunStore(async () => (apiKey ? [apiKey] : []));
  const passageChars = numberOption('--passage-chars', values['passage-chars'], NUMERIC_RULES.passageChars, undefined);
  const deps = { corpora: dataset.store, runs: store, resources, llm, sampling: { ...sampling, systemPrompt }, environment, ...(passageChars === undefined ? {} : { passageChars }) };
  const variants: BatchVariant[] = methods.map((method) => ({ id: method, label: AGENT_METHOD_LABELS[method], method, settings }));

  // Ctrl-C stops the running question; what is finished is still written.
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  const runs: SavedAgentRun[] = [];
  let items: BatchItem[] = [];
  let status: SavedAgentRun['status'] = 'completed';
  try {
    if (single) {
      const text = values.question!.trim();
      const gold = (await datasetQuestions(dataset.store, corpusId, false)).find((q) => q.text.trim() === text);
      for (const method of methods) {
        io.err(`${AGENT_METHOD_LABELS[method]}…\n`);
        const saved = await runQuestion({ corpusId, spec, method, settings, question: text, ...(gold ? { questionId: gold.id } : {}) }, deps, { signal: controller.signal });
        runs.push(saved);
        const { run, metrics } = saved;
        if (run.status === 'cancelled') {
          status = 'cancelled';
          break;
        }
        items.push({ questionId: gold?.id ?? 'question', variantId: method, status: run.status, answer: run.answer, ...(run.error !== undefined ? { error: run.error } : {}), ...metrics, run });
      }
    } else {
      const questions = selectQuestions(await datasetQuestions(dataset.store, corpusId), values['question-ids'], values.limit);
      if (questions.length === 0) throw new CliError(`${values.dataset ? `Dataset ${values.dataset}` : `The OpenSearch corpus ${values.index}`} has no questions with gold answers (queries.jsonl "answers")`);
      const total = questions.length * variants.length;
      const batch = await runBatch({ corpusId, spec, variants, questionIds: questions.map((q) => q.id), name: `${values.model}: ${questions.length} questions` }, deps, {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.current) io.err(`[${p.done + 1}/${total}] ${p.current.questionId} ${p.current.variantId}\n`);
        },
      });
      if (batch.error) io.err(`${batch.error}\n`);
      runs.push(batch);
      items = batch.items;
      status = batch.status;
    }
  } finally {
    process.off('SIGINT', onSigint);
  }

  writeOutput(out, values.out, formatAgentRunsFile(runs, apiKey ? [apiKey] : []));
  const aggregates = variants.map((v) => aggregateBatch(items, v.id));
  if (values.json) {
    io.out(`${JSON.stringify({ items: items.map(({ run: _run, ...rest }) => rest), aggregates }, null, 1)}\n`);
  } else {
    io.out(formatTable(
      ['question', 'method', 'EM', 'F1', 'EvR', 'turns', 'searches', 'seconds', 'answer'],
      items.map((i) => [i.questionId, i.variantId, score(i.em), score(i.f1), score(i.evidenceRecall), String(i.turns), String(i.searchCalls), (i.latencyMs / 1000).toFixed(2), i.status === 'failed' ? `FAILED: ${i.error ?? ''}` : oneLine(i.answer)]),
    ));
    io.out('\n');
    io.out(formatTable(
      ['method', 'questions', 'failed', 'EM', 'F1', 'EvR', 'turns', 'searches', 'seconds', 'tokens'],
      aggregates.map((a: BatchAggregate) => [a.variantId, String(a.questions), String(a.failed), score(a.em), score(a.f1), score(a.evidenceRecall), a.turns.toFixed(2), a.searchCalls.toFixed(2), (a.latencyMs / 1000).toFixed(2), a.tokens.toFixed(0)]),
    ));
  }
  io.err(`${status === 'cancelled' ? 'Cancelled; the finished runs were' : 'Runs'} written to ${values.out}\n`);
  if (status === 'cancelled') return 130;
  return items.some((i) => i.status === 'failed') ? 1 : 0;
};

function selectQuestions(all: BatchQuestion[], ids: string | undefined, limit: string | undefined): BatchQuestion[] {
  let chosen = all.filter((q) => isValidAnswerList(q.answers));
  if (ids !== undefined) {
    const wanted = ids.split(',').map((s) => s.trim()).filter(Boolean);
    const known = new Set(chosen.map((q) => q.id));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0) throw new CliError(`--question-ids: no question with answers has the id ${unknown.join(', ')}`);
    chosen = wanted.map((id) => chosen.find((q) => q.id === id)!);
  }
  const n = numberOption('--limit', limit, NUMERIC_RULES.questionLimit, chosen.length || 1);
  return chosen.slice(0, n);
}

function parseBaselines(raw: string | undefined): AgentMethod[] {
  if (raw === undefined) return [];
  const names = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of names) {
    if (!BASELINES.includes(name as AgentMethod)) throw new CliError(`Unknown baseline "${name}"; known: ${BASELINES.join(', ')}`);
  }
  return [...new Set(names)] as AgentMethod[];
}

function choiceOption<T extends string>(flag: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!allowed.includes(raw as T)) throw new CliError(`${flag} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

function score(value: number | null): string {
  return value === null ? '—' : value.toFixed(3);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
}

/** The system message of --system-prompt-file: the file's text, trimmed; an unreadable or empty file is an error. */
function readSystemPrompt(cwd: string, file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new CliError(`--system-prompt-file ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (!text.trim()) throw new CliError(`--system-prompt-file ${file}: the file is empty`);
  return text.trim();
}
