/**
 * The error name of `err` without its message: `<ErrorName>: retrieval failed` (the reference, docs/decisions.md#hds-reference), so that secrets in
 * backend messages (connection strings, keys) never reach a record.
 */
export function sanitizedRetrievalError(err: unknown): string {
  return `${errorName(err)}: retrieval failed`;
}

function errorName(err: unknown): string {
  let name = 'Error';
  if (typeof err === 'object' && err !== null) {
    const own = (err as { name?: unknown }).name;
    const ctor = (err as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof own === 'string' && own !== '' && own !== 'Error') name = own;
    else if (typeof ctor === 'string' && ctor !== '' && ctor !== 'Object') name = ctor;
  }
  // A name is an identifier; anything else could smuggle message text.
  return /^[A-Za-z_$][\w$]{0,63}$/.test(name) ? name : 'Error';
}
