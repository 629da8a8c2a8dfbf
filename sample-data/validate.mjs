// Validates a BEIR-layout sample corpus (default: ./meridian next to this script).
// Usage: node sample-data/validate.mjs [folder]
// Plain Node ESM, no dependencies. Prints counts; exits 1 if any check fails.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dir = resolve(process.argv[2] ?? join(here, 'meridian'));
const errors = [];
const fail = (msg) => errors.push(msg);

/** Reads a file as UTF-8 lines; rejects a BOM and invalid UTF-8. Drops one trailing empty line. */
function readLines(name) {
  const path = join(dir, name);
  if (!existsSync(path)) {
    fail(`${name}: missing`);
    return [];
  }
  const bytes = readFileSync(path);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) fail(`${name}: starts with a BOM`);
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    fail(`${name}: not valid UTF-8`);
    return [];
  }
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Parses JSON lines into objects with unique string `_id`s and non-empty `text`. */
function readJsonl(name, extraCheck) {
  const records = new Map();
  readLines(name).forEach((line, i) => {
    const where = `${name}:${i + 1}`;
    let rec;
    try {
      rec = JSON.parse(line);
    } catch (e) {
      fail(`${where}: invalid JSON (${e.message})`);
      return;
    }
    if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return fail(`${where}: not a JSON object`);
    if (typeof rec._id !== 'string' || rec._id.trim() === '') return fail(`${where}: missing or empty _id`);
    if (records.has(rec._id)) return fail(`${where}: duplicate _id ${rec._id}`);
    if (typeof rec.text !== 'string' || rec.text.trim() === '') fail(`${where}: missing or empty text`);
    extraCheck?.(rec, where);
    records.set(rec._id, rec);
  });
  return records;
}

const corpus = readJsonl('corpus.jsonl', (rec, where) => {
  if (typeof rec.title !== 'string' || rec.title.trim() === '') fail(`${where}: missing or empty title`);
});
const isMultiHop = (q) => q._id.startsWith('mh') || 'answers' in q;
const queries = readJsonl('queries.jsonl', (rec, where) => {
  if (!isMultiHop(rec)) return;
  const ok = Array.isArray(rec.answers) && rec.answers.length > 0 &&
    rec.answers.every((a) => typeof a === 'string' && a.trim() !== '');
  if (!ok) fail(`${where}: multi-hop question ${rec._id} needs a non-empty "answers" array of strings`);
});

// qrels: header, three tab-separated fields, known ids, integer scores, no duplicate pairs.
const relevant = new Map(); // query id -> passage ids with score > 0
let qrelCount = 0;
const qrelLines = readLines('qrels/test.tsv');
if (qrelLines[0] !== 'query-id\tcorpus-id\tscore') fail(`qrels/test.tsv: header must be "query-id<TAB>corpus-id<TAB>score"`);
const seenPairs = new Set();
qrelLines.slice(1).forEach((line, i) => {
  const where = `qrels/test.tsv:${i + 2}`;
  const fields = line.split('\t');
  if (fields.length !== 3) return fail(`${where}: expected 3 tab-separated fields, got ${fields.length}`);
  const [qid, did, score] = fields;
  if (!queries.has(qid)) fail(`${where}: unknown query ${qid}`);
  if (!corpus.has(did)) fail(`${where}: unknown passage ${did}`);
  if (!/^-?\d+$/.test(score)) fail(`${where}: score "${score}" is not an integer`);
  const pair = `${qid}\t${did}`;
  if (seenPairs.has(pair)) fail(`${where}: duplicate judgement ${qid} ${did}`);
  seenPairs.add(pair);
  qrelCount++;
  if (Number(score) > 0) {
    if (!relevant.has(qid)) relevant.set(qid, new Set());
    relevant.get(qid).add(did);
  }
});

let multiHopCount = 0;
for (const q of queries.values()) {
  const rel = relevant.get(q._id) ?? new Set();
  if (rel.size === 0) fail(`query ${q._id}: no relevant passage`);
  if (!isMultiHop(q)) continue;
  multiHopCount++;
  if (rel.size < 2) fail(`multi-hop ${q._id}: needs at least 2 supporting passages, has ${rel.size}`);
  for (const answer of Array.isArray(q.answers) ? q.answers : []) {
    const needle = String(answer).toLowerCase();
    const found = [...rel].some((id) => corpus.get(id)?.text.toLowerCase().includes(needle));
    if (!found) fail(`multi-hop ${q._id}: answer "${answer}" not found in any supporting passage`);
  }
}

console.log(`folder: ${dir}`);
console.log(`passages: ${corpus.size}`);
console.log(`queries: ${queries.size} (${queries.size - multiHopCount} retrieval, ${multiHopCount} multi-hop)`);
console.log(`qrels: ${qrelCount}`);
if (errors.length > 0) {
  for (const e of errors) console.error(`FAIL ${e}`);
  console.error(`${errors.length} problem(s) found`);
  process.exit(1);
}
console.log('OK');
