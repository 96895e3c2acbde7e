// The marker a full read (rebuild) leaves on its plane while it runs: when it started and which
// process runs it. A database has one opener at a time, so a marker naming another process is
// one whose rebuild was interrupted (killed, crashed): answers say so, and the next sync redoes it.

/**
 * The plane props a full read carries while it runs: when, and which process (a marker whose
 * process is gone is an interrupted rebuild — src/tools/common.ts freshnessLine says so, and the
 * next sync of the plane redoes it).
 */
export function rebuildingMarker(since: string): { rebuilding_since: string; rebuilding_pid: number } {
  return { rebuilding_since: since, rebuilding_pid: process.pid };
}

/** The props that end a full read. */
export const REBUILT = { rebuilding_since: null, rebuilding_pid: null } as const;

/** A rebuild marker left by a process that is gone (or by an older drsg that recorded no pid). */
export function interruptedRebuild(props: Record<string, unknown>): string | undefined {
  const since = props.rebuilding_since;
  if (typeof since !== "string") return undefined;
  return props.rebuilding_pid === process.pid ? undefined : since;
}

