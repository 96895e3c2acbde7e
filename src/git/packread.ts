// Whole objects read straight from pack files: the entry header at the offset the .idx gives,
// zlib inflate, git's delta format applied over its base (by offset or by oid). Bases are kept
// in a small cache, as a digest reads many blobs delta'd against the same ones. Anything
// unexpected returns undefined and the caller falls back to isomorphic-git; the caller checks
// the SHA-1 of what it gets, so a mistake here can only cost time.
import { closeSync, openSync, readSync } from "node:fs";
import { inflateSync } from "node:zlib";

const TYPES = ["", "commit", "tree", "blob", "tag"] as const;
const OFS_DELTA = 6;
const REF_DELTA = 7;
/** Longest delta chain followed (git's default depth is 50). */
const MAX_DEPTH = 64;
/** Bytes of base objects kept between reads. */
const CACHE_BYTES = 32 << 20;

export interface RawObject {
  type: string;
  data: Buffer;
}

type Locate = (oid: string) => Promise<{ pack: string; offset: number } | undefined>;

export class PackReader {
  private readonly cache = new Map<string, RawObject>();
  private cached = 0;

  /** `locate` finds a packed oid; `loose` reads an unpacked one (for REF_DELTA bases). */
  constructor(
    private readonly locate: Locate,
    private readonly loose: (oid: string) => RawObject | undefined,
  ) {}

  async read(oid: string): Promise<RawObject | undefined> {
    return this.readDepth(oid, 0);
  }

  private async readDepth(oid: string, depth: number): Promise<RawObject | undefined> {
    const at = await this.locate(oid);
    if (!at) return depth > 0 ? this.loose(oid) : undefined;
    let fd: number;
    try {
      fd = openSync(at.pack, "r");
    } catch {
      return undefined;
    }
    try {
      return await this.readAt(fd, at.pack, at.offset, depth);
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  private async readAt(fd: number, pack: string, offset: number, depth: number): Promise<RawObject | undefined> {
    if (depth > MAX_DEPTH) return undefined;
    const key = `${pack}\u0000${offset}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      if (depth === 0) {
        // Asked for itself: handed over, not shared. The digest transfers a blob's buffer to a
        // worker; a cached base transferred that way was left empty, every delta on it failed,
        // and each such read went to isomorphic-git, which loads the whole pack into memory
        // (+240 MB on vite's clone). A later delta on it reads it again. (A copy instead cost
        // a follower's RSS 2 MB per 100 folds.)
        this.cached -= hit.data.length;
        return hit;
      }
      // Most recently used last.
      this.cache.set(key, hit);
      return hit;
    }
    const head = Buffer.alloc(32);
    const got = readSync(fd, head, 0, head.length, offset);
    let i = 0;
    let c = head[i++] ?? 0;
    const type = (c >> 4) & 7;
    let size = c & 15;
    let shift = 4;
    while (c & 0x80) {
      if (i >= got) return undefined;
      c = head[i++] ?? 0;
      size += (c & 0x7f) * 2 ** shift;
      shift += 7;
    }
    let base: RawObject | undefined;
    if (type === OFS_DELTA) {
      // Base offset: big-endian base-128 with the +1 per continuation git uses.
      if (i >= got) return undefined;
      c = head[i++] ?? 0;
      let back = c & 0x7f;
      while (c & 0x80) {
        if (i >= got) return undefined;
        c = head[i++] ?? 0;
        back = (back + 1) * 128 + (c & 0x7f);
      }
      if (back <= 0 || back > offset) return undefined;
      base = await this.readAt(fd, pack, offset - back, depth + 1);
    } else if (type === REF_DELTA) {
      if (i + 20 > got) return undefined;
      const baseOid = head.subarray(i, i + 20).toString("hex");
      i += 20;
      base = await this.readDepth(baseOid, depth + 1);
    } else if (type < 1 || type > 4) {
      return undefined;
    }
    // The zlib stream follows; deflate never grows data by more than this bound.
    const room = size + (size >>> 11) + 64;
    const body = Buffer.alloc(room);
    const n = readSync(fd, body, 0, room, offset + i);
    const inflated = inflateSync(body.subarray(0, n));
    if (inflated.length !== size) return undefined;
    let out: RawObject;
    if (type === OFS_DELTA || type === REF_DELTA) {
      if (!base) return undefined;
      const data = applyDelta(base.data, inflated);
      if (!data) return undefined;
      out = { type: base.type, data };
    } else {
      out = { type: TYPES[type]!, data: inflated };
    }
    // Only blobs' bases are kept: a digest reads thousands of blobs delta'd against a few, while
    // a follower reading each new commit's trees would fill the cache with bases it never reads again.
    if (depth > 0 && out.type === "blob") this.remember(key, out);
    return out;
  }

  private remember(key: string, obj: RawObject): void {
    if (obj.data.length > CACHE_BYTES / 4) return;
    this.cache.set(key, obj);
    this.cached += obj.data.length;
    for (const [k, v] of this.cache) {
      if (this.cached <= CACHE_BYTES) break;
      this.cache.delete(k);
      this.cached -= v.data.length;
    }
  }
}

/** git's delta: base size, result size, then copy (from the base) and insert (literal) ops. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer | undefined {
  let i = 0;
  const varint = (): number | undefined => {
    let v = 0;
    let shift = 0;
    for (;;) {
      if (i >= delta.length) return undefined;
      const c = delta[i++]!;
      v += (c & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(c & 0x80)) return v;
    }
  };
  const baseSize = varint();
  const size = varint();
  if (baseSize !== base.length || size === undefined) return undefined;
  const out = Buffer.alloc(size);
  let o = 0;
  while (i < delta.length) {
    const op = delta[i++]!;
    if (op & 0x80) {
      let off = 0;
      let len = 0;
      for (let b = 0; b < 4; b++) if (op & (1 << b)) off += (delta[i++] ?? 0) * 2 ** (8 * b);
      for (let b = 0; b < 3; b++) if (op & (1 << (4 + b))) len += (delta[i++] ?? 0) * 2 ** (8 * b);
      if (len === 0) len = 0x10000;
      if (off + len > base.length || o + len > size) return undefined;
      base.copy(out, o, off, off + len);
      o += len;
    } else if (op > 0) {
      if (i + op > delta.length || o + op > size) return undefined;
      delta.copy(out, o, i, i + op);
      i += op;
      o += op;
    } else {
      return undefined;
    }
  }
  return o === size ? out : undefined;
}
