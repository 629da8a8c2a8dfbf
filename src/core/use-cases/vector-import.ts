// Document vectors made elsewhere (sentence-transformers `.npy`, `.safetensors`, `dsw embed`, a `dsw --vector-cache` folder),
// read, matched to a stored corpus and stored as an embedding set like one embedded here.
import type { EmbeddingSetRecord, VectorStore } from '../storage/index.ts';
import { defaultChunkRows } from './embed-corpus.ts';
import { type EmbeddingModelInfo, embeddingModelKey, type EmbeddingModelSource, parseSafetensorsMatrix, SafetensorsError } from '../embedding/index.ts';

/** One picked file, read whole. */
export interface VectorFile {
  /** Its path (inside a picked folder) or name. */
  path: string;
  bytes: Uint8Array;
}

/** A problem with one line or field of a vector file; the rest is kept. */
export interface VectorIssue {
  file: string;
  line?: number;
  field?: string;
  reason: string;
}

/** Vectors read from files: `rows × dims` values, with their ids (null: rows in the corpus's order). */
export interface ImportedVectors {
  /** What was read, in words (`vectors.npy with vectors.ids.txt`). */
  source: string;
  ids: string[] | null;
  values: Float32Array;
  rows: number;
  dims: number;
  issues: VectorIssue[];
  /** The model a vector-cache file names (modelId, dtype, pooling, prefixes), to compare with the chosen one. */
  model?: EmbeddingModelInfo;
}

/** Vector files that cannot be used; the message names the file and what is wrong. */
export class VectorImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VectorImportError';
  }
}

const base = (path: string) => path.split('/').pop() ?? path;
const ext = (path: string) => /\.([^./]+)$/.exec(base(path))?.[1]?.toLowerCase() ?? '';

/**
 * Reads picked vector files: a `.npy` (float32 or float64, 2-D) with an optional ids file (`.txt`, one id per
 * line, or a `.json` array), a `.safetensors` (one 2-D F32/F16/BF16/F64 tensor; ids in its header's
 * `__metadata__.ids`, a JSON array written as a string, or in an ids file beside it), a `.jsonl` of
 * `{"id": …, "vector": […]}` lines, or a `dsw --vector-cache` folder (a `<key>.json` header with its `<key>.f32`).
 */
export function readVectorFiles(files: readonly VectorFile[]): ImportedVectors {
  const cachePairs = files.filter((f) => ext(f.path) === 'f32').map((data) => ({ data, header: files.find((h) => h.path === data.path.replace(/\.f32$/i, '.json')) }));
  if (cachePairs.length > 0) {
    const usable = cachePairs.filter((p) => p.header);
    if (usable.length === 0) throw new VectorImportError(`${cachePairs[0]!.data.path}: the vector cache's header (${base(cachePairs[0]!.data.path).replace(/\.f32$/i, '.json')}) is not among the picked files.`);
    if (usable.length > 1) throw new VectorImportError(`The folder holds ${usable.length} cached sets (${usable.map((p) => base(p.data.path)).join(', ')}); pick one .json with its .f32.`);
    return readVectorCache(usable[0]!.header!, usable[0]!.data);
  }
  const matrices = files.filter((f) => ext(f.path) === 'npy' || ext(f.path) === 'safetensors');
  if (matrices.length > 1) throw new VectorImportError(`Pick one .npy or .safetensors file, not ${matrices.length} (${matrices.map((f) => base(f.path)).join(', ')}).`);
  if (matrices.length === 1) {
    const file = matrices[0]!;
    const idFiles = files.filter((f) => ['txt', 'json', 'tsv', 'ids'].includes(ext(f.path)));
    if (idFiles.length > 1) throw new VectorImportError(`Pick at most one ids file beside ${base(file.path)}, not ${idFiles.map((f) => base(f.path)).join(', ')}.`);
    const idFile = idFiles[0] ? { ids: parseIdList(idFiles[0]), name: base(idFiles[0].path) } : null;
    if (ext(file.path) === 'safetensors') return readSafetensorsVectors(file, idFile);
    const matrix = parseNpy(file);
    if (idFile && idFile.ids.length !== matrix.rows) {
      throw new VectorImportError(`${idFile.name} holds ${idFile.ids.length} ids but ${base(file.path)} holds ${matrix.rows} vectors: one id per row is needed.`);
    }
    return { ...matrix, ids: idFile?.ids ?? null, issues: [], source: idFile ? `${base(file.path)} with ${idFile.name}` : `${base(file.path)} (rows in the corpus's order)` };
  }
  const lines = files.filter((f) => ext(f.path) === 'jsonl');
  if (lines.length === 1) return parseVectorJsonl(lines[0]!);
  if (lines.length > 1) throw new VectorImportError(`Pick one .jsonl file, not ${lines.length}.`);
  throw new VectorImportError(
    `No vector file among ${files.map((f) => base(f.path)).join(', ') || 'the picked files'}: give a .npy (with an ids file), a .safetensors, a .jsonl of {"id", "vector"} lines, or a dsw --vector-cache folder.`,
  );
}

/** A 2-D little-endian float32/float64 `.npy` array in C order. */
export function parseNpy(file: VectorFile): { values: Float32Array; rows: number; dims: number } {
  const { bytes, path } = file;
  const name = base(path);
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (bytes.length < 10 || magic.some((b, i) => bytes[i] !== b)) throw new VectorImportError(`${name}: not a .npy file (no \\x93NUMPY header).`);
  const major = bytes[6]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  const header = new TextDecoder('latin1').decode(bytes.subarray(start, start + headerLength));
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)?.[1];
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (!descr || !fortran || shape === undefined) throw new VectorImportError(`${name}: its header cannot be read (${header.trim()}).`);
  if (fortran === 'True') throw new VectorImportError(`${name}: Fortran order is not read; save it with numpy.save(np.ascontiguousarray(vectors)).`);
  const dimsList = shape.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  if (dimsList.length !== 2) throw new VectorImportError(`${name}: shape (${shape}) is not rows × dimensions.`);
  const [rows, dims] = dimsList as [number, number];
  const size = descr === '<f4' ? 4 : descr === '<f8' ? 8 : 0;
  if (size === 0) throw new VectorImportError(`${name}: dtype ${descr} is not read; save float32 (<f4) or float64 (<f8) vectors.`);
  const dataStart = start + headerLength;
  if (bytes.length - dataStart !== rows * dims * size) {
    throw new VectorImportError(`${name}: ${bytes.length - dataStart} bytes of data for shape (${rows}, ${dims}) of ${descr}; the file is cut short or damaged.`);
  }
  const values = new Float32Array(rows * dims);
  for (let i = 0; i < values.length; i++) values[i] = size === 4 ? view.getFloat32(dataStart + i * 4, true) : view.getFloat64(dataStart + i * 8, true);
  return { values, rows, dims };
}

/**
 * A `.safetensors` of vectors. Ids come from an ids file picked beside it, else from `__metadata__.ids` (a JSON
 * array in a string, as `dsw embed` writes it); when both are there they must agree. Without either, rows follow the
 * corpus's order. `__metadata__.model` (JSON, written by `dsw embed`) names the model that made them.
 */
function readSafetensorsVectors(file: VectorFile, idFile: { ids: string[]; name: string } | null): ImportedVectors {
  const name = base(file.path);
  let matrix;
  try {
    matrix = parseSafetensorsMatrix(file.bytes, name);
  } catch (error) {
    if (error instanceof SafetensorsError) throw new VectorImportError(error.message);
    throw error;
  }
  const { values, rows, dims, metadata } = matrix;
  let headerIds: string[] | null = null;
  if (metadata.ids !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(metadata.ids);
    } catch (error) {
      throw new VectorImportError(`${name}: __metadata__.ids is not JSON (${(error as Error).message}); write json.dumps(ids) there.`);
    }
    if (!Array.isArray(parsed) || parsed.some((id) => typeof id !== 'string' && typeof id !== 'number')) throw new VectorImportError(`${name}: __metadata__.ids must be a JSON array of ids.`);
    headerIds = parsed.map(String);
    if (headerIds.length !== rows) throw new VectorImportError(`${name}: __metadata__.ids holds ${headerIds.length} ids for ${rows} vectors (tensor "${matrix.tensor}"): one id per row is needed.`);
  }
  if (idFile && idFile.ids.length !== rows) throw new VectorImportError(`${idFile.name} holds ${idFile.ids.length} ids but ${name} holds ${rows} vectors: one id per row is needed.`);
  if (idFile && headerIds) {
    const at = headerIds.findIndex((id, i) => id !== idFile.ids[i]);
    if (at >= 0) throw new VectorImportError(`${idFile.name} and ${name}'s __metadata__.ids differ at row ${at + 1} (${idFile.ids[at]} vs ${headerIds[at]}); pick only the file whose ids are right.`);
  }
  const ids = idFile?.ids ?? headerIds;
  const source = idFile ? `${name} with ${idFile.name}` : headerIds ? `${name} (ids in its header)` : `${name} (rows in the corpus's order)`;
  const model = modelOfMetadata(metadata.model);
  return { source, ids, values, rows, dims, issues: [], ...(model ? { model } : {}) };
}

function modelOfMetadata(text: string | undefined): EmbeddingModelInfo | undefined {
  if (text === undefined) return undefined;
  try {
    const model = JSON.parse(text) as EmbeddingModelInfo;
    return model && typeof model.modelId === 'string' && typeof model.dimensions === 'number' ? model : undefined;
  } catch {
    return undefined;
  }
}

/** Ids, one per line (blank lines skipped), or a JSON array of strings. */
export function parseIdList(file: VectorFile): string[] {
  const text = new TextDecoder().decode(file.bytes);
  if (ext(file.path) === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new VectorImportError(`${base(file.path)}: not JSON (${(error as Error).message}).`);
    }
    if (!Array.isArray(parsed) || parsed.some((id) => typeof id !== 'string' && typeof id !== 'number')) throw new VectorImportError(`${base(file.path)}: expected a JSON array of ids.`);
    return parsed.map(String);
  }
  return text.split(/\r?\n/).map((line) => line.split('\t')[0]!.trim()).filter(Boolean);
}

const ID_FIELDS = ['id', '_id', 'docid', 'doc_id'];
const VECTOR_FIELDS = ['vector', 'embedding', 'values'];

/** `{"id": "d1", "vector": [0.1, …]}` per line (also `_id`/`docid`, `embedding`); a bad line is listed and skipped. */
export function parseVectorJsonl(file: VectorFile): ImportedVectors {
  const name = base(file.path);
  const text = new TextDecoder().decode(file.bytes);
  const ids: string[] = [];
  const rows: number[][] = [];
  const issues: VectorIssue[] = [];
  let dims = 0;
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      issues.push({ file: name, line, reason: 'not a JSON object' });
      return;
    }
    const idField = ID_FIELDS.find((f) => typeof record?.[f] === 'string' || typeof record?.[f] === 'number');
    const vectorField = VECTOR_FIELDS.find((f) => Array.isArray(record?.[f]));
    if (!idField) return void issues.push({ file: name, line, field: 'id', reason: 'no id (id, _id or docid)' });
    if (!vectorField) return void issues.push({ file: name, line, field: 'vector', reason: 'no vector (a list of numbers under vector or embedding)' });
    const vector = record[vectorField] as unknown[];
    if (vector.length === 0 || vector.some((v) => typeof v !== 'number' || !Number.isFinite(v))) {
      return void issues.push({ file: name, line, field: vectorField, reason: 'not a list of finite numbers' });
    }
    if (dims === 0) dims = vector.length;
    if (vector.length !== dims) return void issues.push({ file: name, line, field: vectorField, reason: `${vector.length} numbers where the first vector has ${dims}` });
    ids.push(String(record[idField]));
    rows.push(vector as number[]);
  });
  if (rows.length === 0) throw new VectorImportError(`${name}: no vector could be read${issues[0] ? ` (line ${issues[0].line}: ${issues[0].reason})` : ''}.`);
  const values = new Float32Array(rows.length * dims);
  rows.forEach((row, r) => values.set(row, r * dims));
  return { source: name, ids, values, rows: rows.length, dims, issues };
}

/** A `dsw --vector-cache` pair: the header (set record and chunk ids) and the float32 rows. */
function readVectorCache(header: VectorFile, data: VectorFile): ImportedVectors {
  let parsed: { record?: { model?: EmbeddingModelInfo }; chunks?: Array<{ ids?: string[] }> };
  try {
    parsed = JSON.parse(new TextDecoder().decode(header.bytes));
  } catch (error) {
    throw new VectorImportError(`${base(header.path)}: not JSON (${(error as Error).message}).`);
  }
  const model = parsed.record?.model;
  if (!model || !Array.isArray(parsed.chunks) || typeof model.dimensions !== 'number') throw new VectorImportError(`${base(header.path)}: not a dsw vector-cache header.`);
  const ids = parsed.chunks.flatMap((c) => c.ids ?? []);
  const dims = model.dimensions;
  if (data.bytes.byteLength !== ids.length * dims * 4) {
    throw new VectorImportError(`${base(data.path)}: ${data.bytes.byteLength} bytes for ${ids.length} vectors of ${dims} dimensions; the file is cut short or damaged.`);
  }
  const values = new Float32Array(ids.length * dims);
  new Uint8Array(values.buffer).set(data.bytes);
  return { source: `${base(header.path)} (dsw vector cache)`, ids, values, rows: ids.length, dims, issues: [], model };
}

/**
 * The vectors in the corpus's document order (`corpusIds`), each L2-normalised. Ids not in the corpus and repeated
 * ids are listed and skipped; a corpus document without a vector, or rows without ids that do not number the
 * corpus's documents, refuse the import.
 */
export function alignToCorpus(imported: ImportedVectors, corpusIds: readonly string[]): { rows: Float32Array; issues: VectorIssue[] } {
  const { dims, values } = imported;
  const issues = [...imported.issues];
  const rows = new Float32Array(corpusIds.length * dims);
  if (imported.ids === null) {
    if (imported.rows !== corpusIds.length) {
      throw new VectorImportError(`${imported.source}: ${imported.rows} vectors for ${corpusIds.length} documents; without an ids file the rows must be the corpus's documents, in order.`);
    }
    rows.set(values.subarray(0, rows.length));
  } else {
    const position = new Map(corpusIds.map((id, i) => [id, i]));
    const filled = new Uint8Array(corpusIds.length);
    imported.ids.forEach((id, r) => {
      const at = position.get(id);
      if (at === undefined) return void issues.push({ file: imported.source, field: 'id', reason: `id ${id} is not a document of the corpus (row ${r + 1})` });
      if (filled[at]) return void issues.push({ file: imported.source, field: 'id', reason: `id ${id} given again (row ${r + 1}); the first is kept` });
      filled[at] = 1;
      rows.set(values.subarray(r * dims, (r + 1) * dims), at * dims);
    });
    const missing = corpusIds.filter((_, i) => !filled[i]);
    if (missing.length > 0) {
      throw new VectorImportError(
        `${imported.source}: ${missing.length} of the corpus's ${corpusIds.length} documents have no vector (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}).`,
      );
    }
  }
  for (let r = 0; r < corpusIds.length; r++) {
    const row = rows.subarray(r * dims, (r + 1) * dims);
    let norm = 0;
    for (const v of row) norm += v * v;
    if (!(norm > 0) || !Number.isFinite(norm)) throw new VectorImportError(`${imported.source}: the vector of ${corpusIds[r]} is all zeros or not finite.`);
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < dims; i++) row[i]! *= scale;
  }
  return { rows, issues };
}

/** Cosine of two vectors. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

/** Up to `count` row numbers spread evenly over `total` rows (the documents re-embedded to check an import). */
export function sampleRows(total: number, count: number): number[] {
  if (total <= count) return Array.from({ length: total }, (_, i) => i);
  return Array.from({ length: count }, (_, i) => Math.floor(((i + 0.5) * total) / count));
}

/** What storing imported vectors needs besides the rows. */
export interface ImportedSetInput {
  corpusId: string;
  /** The model that made them (as loaded here: queries are embedded with it). */
  model: EmbeddingModelInfo;
  source: EmbeddingModelSource;
  maxTokens: number;
  /** Where they were made, for the record (e.g. `imported: vectors.npy`). */
  device: string;
  modelFiles?: EmbeddingSetRecord['modelFiles'];
  corpusIds: readonly string[];
  /** `corpusIds.length × model.dimensions` L2-normalised values in corpus order. */
  rows: Float32Array;
}

/** Stores imported rows as a complete embedding set, in chunks, as embedding here would have. */
export async function storeImportedVectors(vectors: VectorStore, input: ImportedSetInput): Promise<EmbeddingSetRecord> {
  const { corpusId, model, corpusIds, rows } = input;
  const modelKey = embeddingModelKey(model);
  if (await vectors.getSet(corpusId, modelKey)) {
    throw new VectorImportError(`This corpus already has vectors of ${model.modelId} (${model.dtype}); delete that set first to replace it.`);
  }
  const dims = model.dimensions;
  const chunkRows = defaultChunkRows(dims);
  const now = Date.now();
  const set: EmbeddingSetRecord = {
    corpusId,
    modelKey,
    model,
    source: input.source,
    maxTokens: input.maxTokens,
    chunkRows,
    tokens: false,
    totalRows: corpusIds.length,
    rowsDone: 0,
    lastId: null,
    complete: corpusIds.length === 0,
    device: input.device,
    bytes: 0,
    createdAt: now,
    updatedAt: now,
    ...(input.modelFiles ? { modelFiles: input.modelFiles } : {}),
  };
  await vectors.createSet(set);
  for (let index = 0, start = 0; start < corpusIds.length; index++, start += chunkRows) {
    const end = Math.min(corpusIds.length, start + chunkRows);
    await vectors.writeChunk(corpusId, modelKey, { index, ids: corpusIds.slice(start, end), vectors: rows.slice(start * dims, end * dims) }, [], {
      rowsDone: end,
      lastId: corpusIds[end - 1]!,
      complete: end === corpusIds.length,
      bytesAdded: (end - start) * dims * 4,
    });
  }
  return (await vectors.getSet(corpusId, modelKey)) ?? set;
}
