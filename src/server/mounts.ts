// Mounts: the planes of other database files served beside the main one, now, without a
// restart — one process for many repositories, each database keeping its own file, lock,
// writer, plane names and watchers. Confined to $DRSG_MOUNT_ROOT.
import { realpathSync } from "node:fs";
import { basename, resolve } from "node:path";
import { log } from "../log.js";
import { DrsgError } from "../model/errors.js";
import type { PluginSet } from "../plugin/host.js";
import type { RoutedStore } from "../store/routed.js";
import { openStore } from "../store/store.js";
import { PlaneSync } from "../sync/fold.js";
import { Watcher, followerMode } from "../sync/watch.js";
import { isInside } from "../tools/files.js";

interface Running {
  sync: PlaneSync;
  watcher: Watcher;
}

export class MountManager {
  private readonly watchers = new Map<string, Running[]>();
  constructor(
    readonly routed: RoutedStore,
    private readonly plugins: () => PluginSet,
    private readonly root: string | undefined = process.env.DRSG_MOUNT_ROOT,
  ) {}

  private confine(path: string): string {
    if (!this.root)
      throw new DrsgError("FORBIDDEN", "mount: no mount root is set — start the server with DRSG_MOUNT_ROOT=<dir> to allow mounts under it");
    let root: string;
    try {
      root = realpathSync(this.root);
    } catch {
      throw new DrsgError("FORBIDDEN", `mount: the mount root ${this.root} does not exist`);
    }
    if (path.includes("\0")) throw new DrsgError("PATH_OUTSIDE_TREE", "mount: the path holds a NUL byte");
    const abs = resolve(root, path);
    let canon: string;
    try {
      canon = realpathSync(abs);
    } catch {
      if (!isInside(root, abs)) throw new DrsgError("PATH_OUTSIDE_TREE", `mount '${path}': outside the mount root ${root}`);
      throw new DrsgError("DB_MISSING", `mount '${path}': no database file there — build one with drsg digest <dir> --apply --db ${abs}`);
    }
    if (!isInside(root, canon)) throw new DrsgError("PATH_OUTSIDE_TREE", `mount '${path}': resolves outside the mount root ${root}`);
    return canon;
  }

  async mount(path: string, name?: string, watch = true): Promise<{ name: string; path: string; planes: string[]; watching: string[] }> {
    const canon = this.confine(path);
    const mname = name ?? basename(canon).replace(/\.drsg$/, "");
    if (this.routed.listMounts().some((m) => m.path === canon))
      throw new DrsgError("BAD_INPUT", `mount: ${canon} is mounted already`);
    if (canon === realpathSync(this.routed.main.path)) throw new DrsgError("BAD_INPUT", "mount: that is this server's own database");
    const store = openStore(canon);
    const clash = store.listPlanes().map((p) => p.name).filter((p) => this.routed.getPlane(p));
    if (clash.length > 0) {
      store.close();
      throw new DrsgError("BAD_INPUT", `mount: plane name(s) ${clash.join(", ")} are served already — rename them in one of the databases first`);
    }
    this.routed.addMount({ name: mname, path: canon, store });
    const running: Running[] = [];
    if (watch) {
      for (const p of store.listPlanes()) {
        const root = typeof p.props.synced_root === "string" ? p.props.synced_root : undefined;
        if (!root || /_(git|ops)$/.test(p.name) || typeof p.props.synced_commit !== "string") continue;
        try {
          const sync = await PlaneSync.open({ store, dir: root, plugins: this.plugins(), pluginsNow: this.plugins, plane: p.name });
          // Follower bounds before the first sync starts this sync's workers (as drsg watch does).
          followerMode(sync);
          await sync.syncToHead();
          const watcher = new Watcher(sync, { onError: (e) => log("error", `mount ${mname} watcher: ${String(e)}`) });
          await watcher.start();
          running.push({ sync, watcher });
        } catch (e) {
          log("warn", `mount ${mname}: plane ${p.name} not watched: ${(e as Error).message}`);
        }
      }
    }
    this.watchers.set(mname, running);
    return { name: mname, path: canon, planes: store.listPlanes().map((p) => p.name), watching: running.map((r) => r.sync.plane) };
  }

  async unmount(name: string): Promise<{ name: string; path: string; lockFree: boolean }> {
    const m = this.routed.listMounts().find((x) => x.name === name || x.path === name);
    if (!m)
      throw new DrsgError(
        "BAD_INPUT",
        `unmount '${name}': nothing of that name is mounted (mounted: ${this.routed.listMounts().map((x) => x.name).join(", ") || "none"})`,
      );
    for (const r of this.watchers.get(m.name) ?? []) {
      await r.watcher.stop().catch(() => undefined);
      await r.sync.close().catch(() => undefined);
    }
    this.watchers.delete(m.name);
    this.routed.removeMount(m.name);
    m.store.close();
    let lockFree = false;
    try {
      openStore(m.path).close();
      lockFree = true;
    } catch {
      lockFree = false;
    }
    return { name: m.name, path: m.path, lockFree };
  }

  watching(name: string): string[] {
    return (this.watchers.get(name) ?? []).map((r) => r.sync.plane);
  }

  async closeAll(): Promise<void> {
    for (const m of this.routed.listMounts()) await this.unmount(m.name).catch(() => undefined);
  }
}
