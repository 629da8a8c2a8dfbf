// sha256 of a file, read in 4 MiB pieces (model files are hundreds of MB), for the models steps' checks.
import { createHash } from 'node:crypto';
import fs from 'node:fs';

export function fileSha256(file) {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.alloc(1 << 22);
  try {
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) hash.update(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}
