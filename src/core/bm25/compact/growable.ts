/** An append-only Uint32 array that doubles its buffer when full. */
export class GrowableUint32 {
  private data: Uint32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Uint32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  get(i: number): number {
    return this.data[i]!;
  }

  set(i: number, value: number): void {
    this.data[i] = value;
  }

  /** The values pushed so far, copied into an exactly sized array. */
  toArray(): Uint32Array {
    return this.data.slice(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }

  private grow(min: number): void {
    const next = new Uint32Array(Math.max(min, this.data.length * 2));
    next.set(this.data);
    this.data = next;
  }
}
