// Container image references as written in manifests: `registry/repo:tag@digest`, parsed by the
// distribution reference grammar's rules of thumb, and what the tag says about a revision.

export interface ImageRef {
  /** The reference exactly as written. */
  reference: string;
  registry?: string;
  /** Repository path without registry (`acme/api`). */
  repository: string;
  tag?: string;
  digest?: string;
}

/** References longer than this are refused (the distribution spec caps names at 255 chars). */
export const MAX_REFERENCE = 512;

export function parseImage(raw: string): ImageRef | undefined {
  const reference = raw.trim().replace(/^["']|["']$/g, "");
  if (reference === "" || reference.length > MAX_REFERENCE || /\s/.test(reference)) return undefined;
  let rest = reference;
  let digest: string | undefined;
  const at = rest.indexOf("@");
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!/^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[A-Fa-f0-9]{32,}$/.test(digest)) return undefined;
  }
  let tag: string | undefined;
  const slash = rest.lastIndexOf("/");
  const colon = rest.lastIndexOf(":");
  if (colon > slash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!/^[\w][\w.-]{0,127}$/.test(tag)) return undefined;
  }
  let registry: string | undefined;
  const first = rest.split("/")[0]!;
  if (rest.includes("/") && (first.includes(".") || first.includes(":") || first === "localhost")) {
    registry = first;
    rest = rest.slice(first.length + 1);
  }
  if (!/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/.test(rest)) return undefined;
  const out: ImageRef = { reference, repository: rest };
  if (registry) out.registry = registry;
  if (tag) out.tag = tag;
  if (digest) out.digest = digest;
  return out;
}

export const FLOATING_TAGS = new Set(["latest", "main", "master", "dev", "develop", "stable", "edge", "nightly", "canary", "head", "trunk"]);

/** What a tag says about the commit an image was built from. */
export type TagMeaning =
  | { kind: "revision"; hex: string }
  | { kind: "version"; version: string }
  | { kind: "floating"; tag: string }
  | { kind: "digest-only" }
  | { kind: "none" };

export function tagMeaning(img: ImageRef): TagMeaning {
  if (!img.tag) return img.digest ? { kind: "digest-only" } : { kind: "floating", tag: "latest (implicit)" };
  const t = img.tag;
  if (FLOATING_TAGS.has(t.toLowerCase())) return { kind: "floating", tag: t };
  // a sha, or a sha inside the tag: main-3f2a1bc, 3f2a1bc-dirty, build-12-3f2a1bcd
  const hex = /(?:^|[-_.])([0-9a-f]{7,40})(?=$|[-_.])/.exec(t);
  if (hex && /[a-f]/.test(hex[1]!) && /\d/.test(hex[1]!)) return { kind: "revision", hex: hex[1]! };
  if (/^v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?$/.test(t)) return { kind: "version", version: t };
  return { kind: "none" };
}
