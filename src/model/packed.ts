// How the partial cache stores a partial: its JSON text, raw-deflated at level 1 (about a
// seventh of the text, at a few milliseconds per megabyte). Extraction workers pack what they
// extract, so the main thread only stores it; the store unpacks on a hit.
import { deflateRawSync, inflateRawSync } from "node:zlib";

export function packPartial(json: string): Uint8Array {
  return deflateRawSync(json, { level: 1 });
}

export function unpackPartial(packed: Uint8Array): string {
  return inflateRawSync(packed).toString("utf8");
}

/** The JSON text as UTF-8 bytes, undecoded (for a reader that decodes only part of it). */
export function unpackPartialBytes(packed: Uint8Array): Buffer {
  return inflateRawSync(packed);
}
