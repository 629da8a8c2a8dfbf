// Collects the raw model replies of the HDS runs the real-LLM bench saved (bench/real/hds-real-runs/<settings>/<configuration>/
// <question id>.json) into a fixture file: every plan turn and final call with its question, prompt, system message,
// reply, finish reason and how the loop read it. Used to make src/core/hds/fixtures/real-llm-responses-*.json.
//   node bench/real/collect-replies.mjs <configuration dir> > replies.json
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node bench/real/collect-replies.mjs <configuration dir>');
  process.exit(2);
}
const replies = [];
for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
  const file = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  for (const saved of file.runs) {
    for (const item of saved.items ?? []) {
      const run = item.run;
      if (run?.kind !== 'hds') continue;
      const calls = [...run.turns.map((t) => ({ phase: 'plan', turn: t.turn, call: t.llm, action: t.action, marker: t.marker, headingList: t.headingList === true })),
        ...(run.fallback ? [{ phase: 'final', turn: run.turns.length + 1, call: run.fallback, action: run.fallback.action, marker: run.fallback.marker, headingList: false }] : [])];
      for (const c of calls) {
        replies.push({
          questionId: item.questionId,
          question: run.question,
          answers: saved.questions?.find((q) => q.id === item.questionId)?.answers ?? [],
          phase: c.phase,
          turn: c.turn,
          systemPrompt: c.call.systemPrompt ?? null,
          prompt: c.call.prompt,
          response: c.call.response,
          finishReason: c.call.finishReason ?? null,
          read: { marker: c.marker ?? null, action: c.action ?? null, headingList: c.headingList },
        });
      }
    }
  }
}
console.log(JSON.stringify({ model: process.env.DSW_LLM_MODEL ?? 'qwen2.5-coder-1.5b-instruct-q4_k_m', replies }, null, 1));
