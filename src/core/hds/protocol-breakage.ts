import { answerEchoesPrompt } from './prompt-echo.ts';
import type { HdsRun } from './types.ts';

/** How often a model broke the HDS output protocol, counted over the plan turns of runs (and their final-prompt replies). */
export interface ProtocolBreakage {
  /** Plan turns looked at. */
  turns: number;
  /** Turns with neither an answer marker nor a query block (H4). */
  noMarker: number;
  /** Query blocks without their closing token. */
  unterminatedBlock: number;
  /** Query blocks with no usable query in them. */
  emptyQueries: number;
  /** Answer markers with nothing in them (`\boxed{}`, or the prompt's `\boxed{...}` echoed). */
  emptyAnswer: number;
  /** Queries written as a list under a "Search queries:" heading without the block tokens (read as a block). */
  headingList: number;
  /** Replies cut by the completion-token limit (finish reason `length`). */
  cutByMaxTokens: number;
  /** Plan replies the plan guard ended (a loop or a misspelled end marker; extension plan-guard). */
  cutByGuard: number;
  /** Final-prompt replies that wrote a query block, which no turn was left to run (cut from the answer). */
  finalQueryBlock: number;
  /** Plan replies ended by a stop sequence (H9). */
  stoppedAtMarker: number;
  /** Plan replies in which the model began writing search results itself. */
  inventedResults: number;
  /** Plan turns whose every query had run before: nothing new was searched. */
  onlyRepeats: number;
  /** Queries re-issued after an earlier turn had run them (H5), over all turns. */
  repeatedQueries: number;
  /** Runs whose answer is a piece of the prompt or the system message. */
  echoedPrompt: number;
  /** Runs looked at. */
  runs: number;
}

export function emptyBreakage(): ProtocolBreakage {
  return {
    turns: 0, noMarker: 0, unterminatedBlock: 0, emptyQueries: 0, emptyAnswer: 0, headingList: 0, cutByMaxTokens: 0, cutByGuard: 0, finalQueryBlock: 0,
    stoppedAtMarker: 0, inventedResults: 0, onlyRepeats: 0, repeatedQueries: 0, echoedPrompt: 0, runs: 0,
  };
}

/** Protocol breakage of the plan turns of the given HDS runs, summed. */
export function protocolBreakage(runs: readonly HdsRun[]): ProtocolBreakage {
  const total = emptyBreakage();
  for (const run of runs) {
    for (const turn of run.turns) {
      if (!turn.action) continue; // the turn failed or was cancelled before the model answered
      total.turns++;
      if (turn.marker === 'none') total.noMarker++;
      if (turn.unterminatedQueryBlock) total.unterminatedBlock++;
      if (turn.headingList) total.headingList++;
      if (turn.llm.finishReason === 'length') total.cutByMaxTokens++;
      if (turn.llm.guard) total.cutByGuard++;
      if (turn.marker === 'query-block' && turn.action.kind === 'answer') total.emptyQueries++;
      if ((turn.marker === 'boxed' || turn.marker === 'answer-tag') && turn.action.kind === 'answer' && turn.action.text === '') total.emptyAnswer++;
      if (turn.llm.endedBy === 'stop-sequence') total.stoppedAtMarker++;
      if (turn.inventedResults) total.inventedResults++;
      if (turn.onlyRepeats) total.onlyRepeats++;
      total.repeatedQueries += turn.queriesRepeated.length;
    }
    total.runs++;
    if (run.fallback?.action?.unrunQueries) total.finalQueryBlock++;
    if (answerEchoesPrompt(run)) total.echoedPrompt++;
  }
  return total;
}
