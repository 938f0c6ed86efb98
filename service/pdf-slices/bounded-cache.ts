/** A least-recently-used map bounded by entry count and by the summed size of its values. */

export interface CacheBounds {
  maxEntries: number;
  maxBytes: number;
}

export class BoundedCache<Value> {
  private readonly entries = new Map<string, { value: Value; bytes: number }>();
  private totalBytes = 0;
  private readonly bounds: CacheBounds;
  private readonly onEvict: (key: string) => void;

  constructor(bounds: CacheBounds, onEvict: (key: string) => void = () => undefined) {
    this.bounds = bounds;
    this.onEvict = onEvict;
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get(key: string): Value | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** A value larger than `maxBytes` on its own is not kept. */
  set(key: string, value: Value, bytes: number): void {
    this.delete(key);
    if (bytes > this.bounds.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.totalBytes += bytes;
    while (this.entries.size > this.bounds.maxEntries || this.totalBytes > this.bounds.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.delete(oldest);
      this.onEvict(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.totalBytes = 0;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }
}
