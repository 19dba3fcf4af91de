// Struct-of-arrays storage for resting orders: one slot per order, typed arrays, a free list.
// Slots are internal; orders are known outside only by their engine-assigned order id.

const NONE = -1;

export class OrderStore {
  capacity: number;
  id: Float64Array;
  market: Int32Array;
  /** Price in ticks of the market's first token. */
  price: Int32Array;
  /** 0 = bid, 1 = ask, in the first token's terms. */
  bookSide: Uint8Array;
  token: Uint8Array;
  orderType: Uint8Array;
  remaining: Float64Array;
  size: Float64Array;
  owner: Int32Array;
  expiresAt: Float64Array;
  acceptedAt: Float64Array;
  prev: Int32Array;
  next: Int32Array;
  ownerPrev: Int32Array;
  ownerNext: Int32Array;
  private freeHead = NONE;
  private used = 0;

  constructor(capacity = 1024) {
    this.capacity = capacity;
    this.id = new Float64Array(capacity);
    this.market = new Int32Array(capacity);
    this.price = new Int32Array(capacity);
    this.bookSide = new Uint8Array(capacity);
    this.token = new Uint8Array(capacity);
    this.orderType = new Uint8Array(capacity);
    this.remaining = new Float64Array(capacity);
    this.size = new Float64Array(capacity);
    this.owner = new Int32Array(capacity);
    this.expiresAt = new Float64Array(capacity);
    this.acceptedAt = new Float64Array(capacity);
    this.prev = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
    this.ownerPrev = new Int32Array(capacity);
    this.ownerNext = new Int32Array(capacity);
  }

  allocate(): number {
    if (this.freeHead !== NONE) {
      const slot = this.freeHead;
      this.freeHead = this.next[slot];
      return slot;
    }
    if (this.used === this.capacity) this.grow();
    return this.used++;
  }

  release(slot: number): void {
    this.remaining[slot] = 0;
    this.next[slot] = this.freeHead;
    this.freeHead = slot;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const copy = <T extends Float64Array | Int32Array | Uint8Array>(old: T, make: new (n: number) => T): T => {
      const fresh = new make(capacity);
      fresh.set(old);
      return fresh;
    };
    this.id = copy(this.id, Float64Array);
    this.market = copy(this.market, Int32Array);
    this.price = copy(this.price, Int32Array);
    this.bookSide = copy(this.bookSide, Uint8Array);
    this.token = copy(this.token, Uint8Array);
    this.orderType = copy(this.orderType, Uint8Array);
    this.remaining = copy(this.remaining, Float64Array);
    this.size = copy(this.size, Float64Array);
    this.owner = copy(this.owner, Int32Array);
    this.expiresAt = copy(this.expiresAt, Float64Array);
    this.acceptedAt = copy(this.acceptedAt, Float64Array);
    this.prev = copy(this.prev, Int32Array);
    this.next = copy(this.next, Int32Array);
    this.ownerPrev = copy(this.ownerPrev, Int32Array);
    this.ownerNext = copy(this.ownerNext, Int32Array);
    this.capacity = capacity;
  }
}
