// npm run test:real: the workbench's vectors (transformers.js in Node) against sentence-transformers' encode,
// for 300 texts of each shared collection: cosine ≥ 0.9999 with fp32 weights, ≥ 0.99 quantised, for every text.
import { describe, expect, test } from 'vitest';
import { sharedDataset } from '../harness.ts';
import { fidelityTexts, realModelMissing, referenceVectors, selectedEncoders, rowCosines, workbenchVectors, worstCosine } from './reference-encoder.ts';

// REAL_COLLECTIONS=adi,cranfield narrows the check, REAL_ENCODERS=mpnet the encoders.
const COLLECTIONS = process.env.REAL_COLLECTIONS?.split(',') ?? ['adi', 'cranfield', 'npl', 'hotpotqa-500'];
const FLOORS = { fp32: 0.9999, q8: 0.99 } as const;

for (const encoder of selectedEncoders()) {
  const missing = realModelMissing(encoder);
  describe(`${encoder.presetId} against sentence-transformers`, () => {
    for (const name of COLLECTIONS) {
      const dir = sharedDataset(name);
      const reason = missing ?? (dir ? null : `../shared/data/${name} not found`);
      for (const [dtype, floor] of Object.entries(FLOORS) as Array<[keyof typeof FLOORS, number]>) {
        const title = `${name}, ${dtype}: every text at cosine ≥ ${floor}`;
        if (reason) {
          test.skip(`${title} — skipped: ${reason}`, () => {});
          continue;
        }
        test(title, { timeout: 3_600_000 }, async () => {
          const texts = fidelityTexts(dir!);
          const reference = referenceVectors(encoder, texts);
          const ours = await workbenchVectors(encoder, dtype, texts);
          const cosines = rowCosines(ours, reference, texts.length);
          const worst = worstCosine(cosines, texts);
          console.log(`${encoder.presetId} ${name} ${dtype}: ${texts.length} texts, worst cosine ${worst.cosine.toFixed(6)} ("${worst.text.slice(0, 60)}…")`);
          expect(texts.length).toBeGreaterThan(100);
          expect(worst.cosine).toBeGreaterThanOrEqual(floor);
        });
      }
    }
  });
}
