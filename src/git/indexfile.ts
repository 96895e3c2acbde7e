// The paths of a git index file (`.git/index`), read directly: versions 2, 3 and 4 (path prefix
// compression), SHA-1 object names. A CLI verb checks that `.drsg/` is not tracked before it
// trusts the server record there; reading the index here spares that process isomorphic-git's
// load (~60 ms), and `grep` its parse. What this reader does not know (another version, a split
// index, a SHA-256 repository) it says so by returning undefined, and the caller asks
// isomorphic-git. The trailing checksum is checked, so a file caught mid-write is declined too.
// Format: https://git-scm.com/docs/index-format

import { createHash } from "node:crypto";

const HEADER = 12;
/** The SHA-1 over everything before it (all zeros when git was told to skip it: index.skipHash). */
const CHECKSUM = 20;
/** ctime, mtime (8 each), dev, ino, mode, uid, gid, size (4 each), a SHA-1 name (20), flags (2). */
const FIXED = 62;
const EXTENDED = 0x4000;
const NAME_MASK = 0x0fff;

/**
 * Every path the index holds (a path with conflict stages once), in the index's order (sorted by
 * git); undefined when the file is not an index this reader knows or its checksum is wrong.
 */
export function indexPaths(buf: Buffer): string[] | undefined {
  if (buf.length < HEADER || buf.toString("latin1", 0, 4) !== "DIRC") return undefined;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = buf.readUInt32BE(8);
  const paths: string[] = [];
  let at = HEADER;
  let prev: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    if (at + FIXED > buf.length) return undefined;
    const flags = buf.readUInt16BE(at + FIXED - 2);
    let name = at + FIXED;
    if (version >= 3 && (flags & EXTENDED) !== 0) name += 2;
    let path: Buffer;
    if (version === 4) {
      // A varint: how many bytes of the previous path to drop; then the rest, NUL-terminated.
      let p = name;
      if (p >= buf.length) return undefined;
      let b = buf[p++]!;
      let drop = b & 0x7f;
      while (b & 0x80) {
        if (p >= buf.length) return undefined;
        b = buf[p++]!;
        drop = ((drop + 1) << 7) | (b & 0x7f);
      }
      const end = buf.indexOf(0, p);
      if (end < 0 || drop < 0 || drop > prev.length) return undefined;
      path = Buffer.concat([prev.subarray(0, prev.length - drop), buf.subarray(p, end)]);
      at = end + 1;
    } else {
      const len = flags & NAME_MASK;
      const end = len < NAME_MASK ? name + len : buf.indexOf(0, name);
      if (end < 0 || end > buf.length) return undefined;
      path = buf.subarray(name, end);
      // Padded with 1–8 NULs to a multiple of eight bytes from the entry's start.
      at += Math.ceil((end - at + 1) / 8) * 8;
    }
    const text = path.toString("utf8");
    if (paths[paths.length - 1] !== text) paths.push(text);
    prev = path;
  }
  // Extensions (a signature and a size each), then the checksum: an index read as this reader
  // reads it ends exactly there, and a split index (`link`) keeps its entries elsewhere.
  const sum = buf.length - CHECKSUM;
  while (at + 8 <= sum) {
    if (buf.toString("latin1", at, at + 4) === "link") return undefined;
    at += 8 + buf.readUInt32BE(at + 4);
  }
  if (at !== sum) return undefined;
  const stored = buf.subarray(sum);
  if (stored.some((x) => x !== 0) && !createHash("sha1").update(buf.subarray(0, sum)).digest().equals(stored)) return undefined;
  return paths;
}
