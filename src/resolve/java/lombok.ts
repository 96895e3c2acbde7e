// What Lombok annotations prove about members the source does not spell out: the logger field of
// `@Slf4j` & co. (named by the nearest `lombok.config`, default `log`) and the accessors of
// `@Data` / `@Getter` / `@Setter` / `@Value`. An annotation counts only when the file shows it is
// Lombok's: written qualified (`@lombok.Getter`) or imported from `lombok.*`.
import type { Def } from "../../model/partial.js";
import type { JFile } from "./model.js";

/** Logger annotations → the type of the field they generate. */
const LOGGERS: Record<string, { pkg: string; type: string }> = {
  Slf4j: { pkg: "lombok.extern.slf4j", type: "org.slf4j.Logger" },
  XSlf4j: { pkg: "lombok.extern.slf4j", type: "org.slf4j.ext.XLogger" },
  Log4j2: { pkg: "lombok.extern.log4j", type: "org.apache.logging.log4j.Logger" },
  Log4j: { pkg: "lombok.extern.log4j", type: "org.apache.log4j.Logger" },
  Log: { pkg: "lombok.extern.java", type: "java.util.logging.Logger" },
  CommonsLog: { pkg: "lombok.extern.apachecommons", type: "org.apache.commons.logging.Log" },
  JBossLog: { pkg: "lombok.extern.jbosslog", type: "org.jboss.logging.Logger" },
  Flogger: { pkg: "lombok.extern.flogger", type: "com.google.common.flogger.FluentLogger" },
};

/** `lombok.log.fieldName` per directory of a `lombok.config` ("" = the tree's root). */
export function lombokLogNames(manifests: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, text] of manifests) {
    const base = path.split("/").pop();
    if (base !== "lombok.config") continue;
    const m = /^\s*lombok\.log\.fieldName\s*=\s*([A-Za-z_$][\w$]*)\s*$/m.exec(text);
    if (m) out.set(path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "", m[1]!);
  }
  return out;
}

/** The logger field name for a file: the nearest `lombok.config` that sets one, else `log`. */
export function logFieldName(names: Map<string, string>, path: string): string {
  let dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  for (;;) {
    const n = names.get(dir);
    if (n) return n;
    if (dir === "") return "log";
    dir = dir.includes("/") ? dir.slice(0, dir.lastIndexOf("/")) : "";
  }
}

/** Whether annotation `text` (as written) is Lombok's `name` in package `pkg` for this file. */
function isLombok(f: JFile, text: string, name: string, pkg: string): boolean {
  const written = /^@([\w$.]+)/.exec(text)?.[1];
  if (!written) return false;
  if (written === `${pkg}.${name}`) return true;
  if (written !== name) return false;
  return f.single.get(name) === `${pkg}.${name}` || f.wild.includes(pkg);
}

/** The type of the logger field a Lombok logger annotation on `d` generates, if any. */
export function loggerType(f: JFile, d: Def): string | undefined {
  for (const a of d.decorators ?? []) {
    if (!a.startsWith("@")) continue;
    const simple = /^@(?:[\w$]+\.)*([\w$]+)/.exec(a)?.[1];
    const l = simple ? LOGGERS[simple] : undefined;
    if (l && simple && isLombok(f, a, simple, l.pkg)) return l.type;
  }
  return undefined;
}

/** Whether `d` carries Lombok `@Data`, `@Value`, `@Getter` (getters) or `@Data`, `@Setter` (setters). */
export function hasLombokAccessors(f: JFile, d: Def, setter: boolean): boolean {
  const names = setter ? ["Data", "Setter"] : ["Data", "Getter", "Value"];
  return (d.decorators ?? []).some((a) => names.some((n) => isLombok(f, a, n, "lombok")));
}
