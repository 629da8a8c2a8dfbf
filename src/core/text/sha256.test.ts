import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Sha256, sha256Sync, toHex } from './sha256.ts';

describe('Sha256', () => {
  it('agrees with node:crypto on every length around the block and padding boundaries, fed in two pieces', () => {
    for (let n = 0; n < 300; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n * 17) & 255);
      const cut = (n * 7) % (n + 1);
      const ours = toHex(new Sha256().update(bytes.subarray(0, cut)).update(bytes.subarray(cut)).digest());
      expect(ours, `length ${n}`).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });

  it('hashes text as UTF-8 (the FIPS 180-4 example and a non-ASCII string)', () => {
    expect(sha256Sync('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Sync('Zürich – 東京')).toBe(createHash('sha256').update('Zürich – 東京', 'utf8').digest('hex'));
  });
});
