// Object sizes (and existence) straight from the object store, without inflating whole objects:
// the walk needs every blob's size to apply the 2 MiB limit, and inflating every blob just to
// measure it would undo the per-blob partial cache (unchanged files are never read at all).
// Loose objects: inflate only the "<type> <size>\0" header. Packed objects: binary-search the
// .idx (v2), read the entry header at its offset; a delta's result size is the second varint of
// the delta data, so only its first bytes are inflated. Anything unexpected returns undefined and
// the caller falls back to reading the object through isomorphic-git.
import { constants as zc, inflateSync } from "node:zlib";
import { closeSync, openSync, readSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

interface PackIndex {
  pack: string;
  idx: Buffer;
  count: number;
}

const HEX40 = /^[0-9a-f]{40}$/;
const IDX_MAGIC = 0xff744f63;

export class ObjectSizer {
  private packs: Promise<PackIndex[]> | undefined;

  constructor(private readonly objectsDir: string) {}

  /** Size in bytes of object `oid`, or undefined when it cannot be measured cheaply (or is missing). */
  async size(oid: string): Promise<number | undefined> {
    if (!HEX40.test(oid)) return undefined;
    try {
      const packed = await this.packedSize(oid, false);
      if (packed !== undefined) return packed;
      const loose = this.looseSize(oid);
      if (loose !== undefined) return loose;
      // A pack written after our scan (git gc, fetch): rescan once.
      return await this.packedSize(oid, true);
    } catch {
      return undefined;
    }
  }

  /** Whether the object exists, loose or in a pack (alternates are not consulted). */
  async has(oid: string): Promise<boolean> {
    if (!HEX40.test(oid)) return false;
    try {
      if ((await this.locate(oid, false)) !== undefined) return true;
      try {
        closeSync(openSync(join(this.objectsDir, oid.slice(0, 2), oid.slice(2)), "r"));
        return true;
      } catch {
        // not loose
      }
      return (await this.locate(oid, true)) !== undefined;
    } catch {
      return false;
    }
  }

  // Synchronous reads: a few hundred bytes each, where a promise round trip per call costs more
  // than the read (a walk measures every blob of the tree).
  private looseSize(oid: string): number | undefined {
    let fd: number;
    try {
      fd = openSync(join(this.objectsDir, oid.slice(0, 2), oid.slice(2)), "r");
    } catch {
      return undefined;
    }
    try {
      for (const want of [512, 8192]) {
        const buf = Buffer.alloc(want);
        const bytesRead = readSync(fd, buf, 0, want, 0);
        const head = partialInflate(buf.subarray(0, bytesRead));
        const nul = head.indexOf(0);
        if (nul >= 0) {
          const m = /^(?:blob|tree|commit|tag) (\d+)$/.exec(head.subarray(0, nul).toString("latin1"));
          return m ? Number(m[1]) : undefined;
        }
        if (bytesRead < want) return undefined;
      }
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  private async packedSize(oid: string, rescan: boolean): Promise<number | undefined> {
    const hit = await this.locate(oid, rescan);
    if (!hit) return undefined;
    const fd = openSync(hit.pack, "r");
    try {
      const buf = Buffer.alloc(64);
      const bytesRead = readSync(fd, buf, 0, 64, hit.offset);
      let i = 0;
      let c = buf[i++] ?? 0;
      const type = (c >> 4) & 7;
      let size = c & 15;
      let shift = 4;
      while (c & 0x80) {
        if (i >= bytesRead) return undefined;
        c = buf[i++] ?? 0;
        size += (c & 0x7f) * 2 ** shift;
        shift += 7;
      }
      if (type >= 1 && type <= 4) return size;
      if (type === 6) {
        // OFS_DELTA: skip the base-offset varint.
        do {
          if (i >= bytesRead) return undefined;
          c = buf[i++] ?? 0;
        } while (c & 0x80);
      } else if (type === 7) {
        i += 20; // REF_DELTA: skip the base oid
      } else {
        return undefined;
      }
      for (const want of [512, 8192]) {
        const data = Buffer.alloc(want);
        const got = readSync(fd, data, 0, want, hit.offset + i);
        const delta = partialInflate(data.subarray(0, got));
        // The delta starts with two little-endian base-128 varints: base size, result size.
        const sizes = readVarints(delta, 2);
        if (sizes) return sizes[1];
        if (got < want) return undefined;
      }
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /** Pack file and offset of `oid` among the packs scanned so far (undefined: not packed there). */
  packed(oid: string): Promise<{ pack: string; offset: number } | undefined> {
    return this.locate(oid, false);
  }

  private async locate(oid: string, rescan: boolean): Promise<{ pack: string; offset: number } | undefined> {
    if (rescan || !this.packs) this.packs = this.loadPacks();
    const key = Buffer.from(oid, "hex");
    for (const p of await this.packs) {
      const offset = findOffset(p, key);
      if (offset !== undefined) return { pack: p.pack, offset };
    }
    return undefined;
  }

  private async loadPacks(): Promise<PackIndex[]> {
    const dir = join(this.objectsDir, "pack");
    const names = await readdir(dir).catch(() => [] as string[]);
    const out: PackIndex[] = [];
    for (const name of names.filter((n) => n.endsWith(".idx")).sort()) {
      const idx = await readFile(join(dir, name)).catch(() => undefined);
      if (!idx || idx.length < 8 + 1024 || idx.readUInt32BE(0) !== IDX_MAGIC || idx.readUInt32BE(4) !== 2) continue;
      out.push({ pack: join(dir, name.replace(/\.idx$/, ".pack")), idx, count: idx.readUInt32BE(8 + 255 * 4) });
    }
    return out;
  }
}

/** Offset of `key` in a v2 pack index, by binary search within its fan-out bucket. */
function findOffset(p: PackIndex, key: Buffer): number | undefined {
  const { idx, count } = p;
  const first = key[0] ?? 0;
  let lo = first === 0 ? 0 : idx.readUInt32BE(8 + (first - 1) * 4);
  let hi = idx.readUInt32BE(8 + first * 4);
  const shas = 8 + 1024;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const cmp = idx.compare(key, 0, 20, shas + mid * 20, shas + mid * 20 + 20);
    if (cmp === 0) {
      const offsets = shas + count * 24; // after the sha table and the crc table
      const off = idx.readUInt32BE(offsets + mid * 4);
      if (!(off & 0x80000000)) return off;
      const large = offsets + count * 4 + (off & 0x7fffffff) * 8;
      return idx.readUInt32BE(large) * 2 ** 32 + idx.readUInt32BE(large + 4);
    }
    if (cmp > 0) hi = mid;
    else lo = mid + 1;
  }
  return undefined;
}

/** Inflate as much of a (possibly truncated) zlib stream as the bytes allow. */
function partialInflate(bytes: Buffer): Buffer {
  try {
    return inflateSync(bytes, { finishFlush: zc.Z_SYNC_FLUSH });
  } catch {
    return Buffer.alloc(0);
  }
}

function readVarints(buf: Buffer, n: number): number[] | undefined {
  const out: number[] = [];
  let i = 0;
  while (out.length < n) {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (i >= buf.length) return undefined;
      const c = buf[i++] ?? 0;
      value += (c & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(c & 0x80)) break;
    }
    out.push(value);
  }
  return out;
}
