// The door of hds: the deep-search agent, its baselines, batches and saved agent runs.
export {
  type AgentRunStore, type AgentRunSummary, checkAgentRunName, exportAgentRuns, importAgentRuns, summarizeAgentRun,
} from './agent-run-store.ts';
export { AGENT_METHOD_LABELS, AGENT_METHODS, type AgentMethod, type AgentSettings, runAgent } from './agent-run.ts';
export { type BaselineRun } from './baselines/baseline-run.ts';
export { DEFAULT_DECOMPOSITION_CONFIG } from './baselines/decomposition.ts';
export { DEFAULT_IRCOT_CONFIG } from './baselines/ircot.ts';
export { DEFAULT_SINGLE_SHOT_CONFIG } from './baselines/single-shot.ts';
export {
  aggregateBatch, type BatchAggregate, type BatchItem, type BatchProgress, type BatchQuestion, type BatchVariant,
  type BudgetParam, budgetSweepVariants, runBatchItems,
} from './batch.ts';
export { DEFAULT_HDS_CONFIG, REPEATED_BLOCK_POLICIES, type HdsConfig, type RepeatedBlockPolicy } from './config.ts';
export { FAILURE_CLASSES, type FailureClass, failureClassesOf } from './failure-classes.ts';
export { FINAL_ANSWER_MODES, type FinalAnswerMode } from './final-answer.ts';
export { newLlmCallRecord, recordedLlmCall } from './llm-call.ts';
export { MemoryAgentRunStore } from './memory-agent-run-store.ts';
export {
  extractFinalAnswer, type FinalAnswer, type HdsAction, type HdsActionMarker, parseHdsAction,
} from './parse-action.ts';
export { cutPassage, passageRetriever } from './passage-retriever.ts';
export { findPlanLoop, PLAN_GUARDS, type PlanGuard, type PlanGuardCut } from './plan-guard.ts';
export { PLAN_PROMPT_VARIANTS, type PlanPromptVariant } from './prompts.ts';
export { protocolBreakage, type ProtocolBreakage } from './protocol-breakage.ts';
export { goldDocumentIds, scoreAgentRun } from './question-metrics.ts';
export { runHds } from './run-hds.ts';
export {
  type AgentRunsFile, formatAgentRunsFile, newSavedRunId, type SavedAgentRun, type SavedBatchRun, type SavedLlm,
  type SavedQuestionRun, type SavedRetriever, stripSecrets,
} from './saved-run.ts';
export {
  HDS_PROTOCOL, type HdsEvent, type HdsFinalCallRecord, type HdsRepeatedQuery, type HdsResultRecord,
  type HdsRetrievalFailure, type HdsRetrievalRecord, type HdsRun, type HdsSearchStep, type HdsTerminatedBy, type HdsTurnRecord,
  type LlmCallRecord, type RetrievedPassage, type TextRetriever, type TimeSpan,
} from './types.ts';
