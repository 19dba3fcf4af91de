// 64-bit FNV-1a over a stream of integers, for state and book hashes (pure JS, deterministic).

export class Fnv64 {
  private hi = 0xcbf29ce4;
  private lo = 0x84222325;

  /** Mixes a non-negative integer below 2^53 (or any finite double's integer part) into the hash. */
  addNumber(value: number): this {
    const v = Math.trunc(value);
    const low = v >>> 0;
    const high = Math.floor(v / 4294967296) >>> 0;
    this.addWord(low);
    this.addWord(high);
    return this;
  }

  /** Mixes a non-negative integer: a number as addNumber does, a bigint (past 2^53) word by word. */
  addInteger(value: number | bigint): this {
    if (typeof value === 'number') return this.addNumber(value);
    let rest = value;
    do {
      this.addWord(Number(rest & 0xffffffffn));
      rest >>= 32n;
    } while (rest > 0n);
    return this;
  }

  addString(value: string): this {
    for (let i = 0; i < value.length; i++) this.addWord(value.charCodeAt(i));
    return this.addWord(0xffff);
  }

  private addWord(word: number): this {
    for (let shift = 0; shift < 32; shift += 8) {
      this.lo ^= (word >>> shift) & 0xff;
      // multiply (hi, lo) by the FNV prime 0x100000001b3 modulo 2^64
      const lo = this.lo;
      const hi = this.hi;
      const loMul = lo * 0x1b3;
      const carry = Math.floor(loMul / 4294967296);
      this.lo = loMul >>> 0;
      this.hi = (Math.imul(hi, 0x1b3) + (lo << 8) + carry) >>> 0;
    }
    return this;
  }

  hex(): string {
    return this.hi.toString(16).padStart(8, '0') + this.lo.toString(16).padStart(8, '0');
  }
}
