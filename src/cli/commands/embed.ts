import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { encodeSafetensorsMatrix } from '../../core/index.ts';
import { CliError, type CliCommand } from '../io.ts';
import { loadDataset } from '../load-dataset.ts';
import { embedDataset } from '../pipeline-options.ts';
import { parseParams } from '../params.ts';
import { encodingHelp, encodingOption, ENCODING_OPTIONS } from '../encoding-option.ts';
import { keepEmptyHelp, KEEP_EMPTY_OPTIONS } from '../keep-empty-option.ts';
import { writableTarget } from '../output-file.ts';

export const embedHelp = `Usage: dsw embed --dataset <dir> --model <folder or id> --out <vectors.safetensors|vectors.npy|vectors.jsonl> [--param name=value ...]
                 [--models-dir <dir>] [--model-host <url>] [--vector-cache <dir>] [--encoding utf-8|latin1]

Embeds every document of a dataset with a model (onnxruntime-node, all cores) and writes the vectors for the app's
Embeddings → Import vectors, with the same model and settings chosen there (a sample is re-embedded in the tab
and must match to cosine 0.999).
  --out       by its extension: vectors.safetensors: one F32 tensor "embeddings" [documents, dims], the ids
              as a JSON array in the header's __metadata__.ids and the model in __metadata__.model (one file;
              safetensors.numpy.load_file reads it); vectors.npy: float32 rows (numpy.load reads it) and
              vectors.ids.txt beside it, one id per line; vectors.jsonl: one {"id": …, "vector": […]} line per
              document
  --param     dtype (fp32), pooling (mean|cls), queryPrefix, passagePrefix, maxTokens, batchSize
  --model, --models-dir, --model-host, --vector-cache: as for dsw run
${encodingHelp(11)}
${keepEmptyHelp(11)}
`;

const EMBED_KEYS = ['dtype', 'pooling', 'queryPrefix', 'passagePrefix', 'maxTokens', 'batchSize'];

export const embedCommand: CliCommand = async (argv, io) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      model: { type: 'string' },
      'models-dir': { type: 'string' },
      'model-host': { type: 'string' },
      'vector-cache': { type: 'string' },
      param: { type: 'string', multiple: true },
      out: { type: 'string' },
      ...ENCODING_OPTIONS,
      ...KEEP_EMPTY_OPTIONS,
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.out(embedHelp);
    return 0;
  }
  if (!values.dataset) throw new CliError('dsw embed needs --dataset <dir>');
  if (!values.model) throw new CliError('dsw embed needs --model <model folder or model id>, e.g. --model public/models/tiny-bert');
  if (!values.out) throw new CliError('dsw embed needs --out <vectors.safetensors, vectors.npy or vectors.jsonl>');
  const format = path.extname(values.out).toLowerCase();
  if (format !== '.jsonl' && format !== '.npy' && format !== '.safetensors') throw new CliError(`--out ${values.out}: write .safetensors, .npy or .jsonl`);
  const out = writableTarget(io.cwd, values.out);
  const params = parseParams(values.param);
  const unknown = Object.keys(params).filter((k) => !EMBED_KEYS.includes(k));
  if (unknown.length > 0) throw new CliError(`Unknown --param ${unknown.join(', ')} for dsw embed; known: ${EMBED_KEYS.join(', ')}`);
  const dataset = await loadDataset(values.dataset, io, { encoding: encodingOption(values.encoding), documents: 'memory', keepEmptyDocuments: values['keep-empty-documents'] });
  const { index, set } = await embedDataset(dataset, params, io, {
    model: values.model,
    modelsDir: values['models-dir'],
    modelHost: values['model-host'],
    vectorCache: values['vector-cache'],
  });
  const matrix = index.matrix;
  if (!matrix) throw new CliError(`No vectors were made for ${values.dataset}`);
  const dims = matrix.dimensions;
  const ids = matrix.ids;
  try {
    if (format === '.jsonl') {
      const fd = fs.openSync(out, 'w');
      try {
        ids.forEach((id) => fs.writeSync(fd, `${JSON.stringify({ id, vector: Array.from(matrix.vectorOf(id)!) })}\n`));
      } finally {
        fs.closeSync(fd);
      }
    } else if (format === '.safetensors') {
      const rows = new Float32Array(ids.length * dims);
      ids.forEach((id, r) => rows.set(matrix.vectorOf(id)!, r * dims));
      const metadata = { ids: JSON.stringify(ids), model: JSON.stringify(set.model), maxTokens: String(set.maxTokens), format: 'dsw-vectors-1' };
      fs.writeFileSync(out, encodeSafetensorsMatrix('embeddings', rows, ids.length, dims, metadata));
    } else {
      let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${ids.length}, ${dims}), }`;
      header += `${' '.repeat(63 - ((10 + header.length) % 64))}\n`;
      const prefix = Buffer.alloc(10);
      prefix.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
      prefix.writeUInt16LE(header.length, 8);
      const rows = new Float32Array(ids.length * dims);
      ids.forEach((id, r) => rows.set(matrix.vectorOf(id)!, r * dims));
      fs.writeFileSync(out, Buffer.concat([prefix, Buffer.from(header, 'latin1'), Buffer.from(rows.buffer)]));
      fs.writeFileSync(out.replace(/\.npy$/i, '.ids.txt'), `${ids.join('\n')}\n`);
    }
  } catch (error) {
    throw new CliError(`Cannot write ${values.out}: ${(error as Error).message}`);
  }
  const model = set.model;
  io.err(
    `Wrote ${ids.length} vectors of ${dims} dimensions to ${values.out}${format === '.npy' ? ` and ${values.out.replace(/\.npy$/i, '.ids.txt')}` : ''} ` +
      `(${model.modelId}, ${model.dtype}, ${model.pooling} pooling). Import them on the Embeddings page with this model and these settings chosen.\n`,
  );
  return 0;
};
