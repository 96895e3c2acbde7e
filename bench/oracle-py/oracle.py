#!/usr/bin/python3
"""jedi as an oracle for drsg's Python CALLS: for every call in a project whose callee is a name
(`f(...)`) or an attribute (`a.b.f(...)`), the declaration(s) jedi resolves the callee's name
token to. One JSON object per line on stdout:

  {"file": "pkg/m.py", "line": 12, "col": 9, "name": "f",
   "decls": [{"file": "pkg/n.py" | null, "module": "pkg.n", "line": 3, "end_line": 40,
              "name": "f", "type": "function", "in_tree": true}]}

line and col are 1-based, col in characters, of the callee's name token (the attribute for
`a.b.f`). A last line {"summary": {...}} gives the counts, and how many sites were skipped when
the time cap ran out. Usage:

  /usr/bin/python3 oracle.py PROJECT_DIR [--seconds N] [--jobs N] [--files LIST_FILE]

Needs only the standard library and jedi (Debian: python3-jedi).
"""
import argparse
import ast
import json
import os
import sys
import time
from multiprocessing import Pool

import jedi

SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv", "venv", ".tox", "build", "dist"}

STOPS = {"param", "statement", "instance"}

_project = None
_root = None
_deadline = None


def py_files(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("."))
        for f in sorted(files):
            if f.endswith(".py"):
                out.append(os.path.relpath(os.path.join(d, f), root))
    return out


def char_col(line_text, byte_col):
    """ast columns are UTF-8 byte offsets; jedi's (and the report's) are characters."""
    return len(line_text.encode("utf-8")[:byte_col].decode("utf-8", "replace"))


def sites_of(tree, lines):
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name):
            line, bcol, name = f.lineno, f.col_offset, f.id
        elif isinstance(f, ast.Attribute):
            # The attribute is the Attribute node's last token.
            line = f.end_lineno
            bcol = f.end_col_offset - len(f.attr.encode("utf-8"))
            name = f.attr
        else:
            continue
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        yield line, char_col(text, bcol) + 1, name


def decl_of(n):
    path = n.module_path
    file = None
    in_tree = False
    if path is not None:
        p = os.path.realpath(str(path))
        rel = os.path.relpath(p, _root)
        if not rel.startswith("..") and not n.in_builtin_module():
            file, in_tree = rel, True
        else:
            file = p
    end_line = None
    try:
        end = n.get_definition_end_position()
        if end is not None:
            end_line = end[0]
    except Exception:
        pass
    return {
        "file": file,
        "module": n.module_name,
        "line": n.line,
        "end_line": end_line,
        "name": n.name,
        "type": n.type,
        "in_tree": in_tree,
    }


def init(root, deadline):
    global _project, _root, _deadline
    _root = root
    _deadline = deadline
    _project = jedi.Project(root)


def one_file(rel):
    """(rel, [site dicts], skipped, errors)."""
    path = os.path.join(_root, rel)
    try:
        with open(path, encoding="utf-8") as fh:
            code = fh.read()
        tree = ast.parse(code, filename=path)
    except Exception:
        return rel, [], 0, 1
    lines = code.splitlines()
    sites = sorted(set(sites_of(tree, lines)))
    if not sites:
        return rel, [], 0, 0
    if time.time() > _deadline:
        return rel, [], len(sites), 0
    out = []
    errors = 0
    try:
        script = jedi.Script(code, path=path, project=_project)
    except Exception:
        return rel, [], 0, len(sites)
    def fresh():
        return jedi.Script(code, path=path, project=_project)

    for i, (line, col, name) in enumerate(sites):
        if time.time() > _deadline:
            return rel, out, len(sites) - i, errors
        try:
            names = script.goto(line, col - 1, follow_imports=True)
            if not names:
                # The Script's caches from earlier sites can leave goto / infer empty (jedi's
                # recursion guards): once more on a fresh Script.
                names = fresh().goto(line, col - 1, follow_imports=True)
            if not names or all(n.type in STOPS for n in names):
                # goto stopped at a parameter or an assignment: what it holds, too.
                seen = {(str(n.module_path), n.line, n.column) for n in names}
                held = script.infer(line, col - 1)
                if not held:
                    held = fresh().infer(line, col - 1)
                for n in held:
                    if (str(n.module_path), n.line, n.column) not in seen:
                        names.append(n)
            decls = [decl_of(n) for n in names]
        except Exception:
            errors += 1
            decls = []
        out.append({"file": rel, "line": line, "col": col, "name": name, "decls": decls})
    return rel, out, 0, errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--seconds", type=float, default=600.0, help="time cap for the whole project")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--files", help="a file listing the project-relative .py paths to visit")
    a = ap.parse_args()
    root = os.path.realpath(a.dir)
    if a.files:
        with open(a.files, encoding="utf-8") as fh:
            files = [x.strip() for x in fh if x.strip().endswith(".py")]
    else:
        files = py_files(root)
    t0 = time.time()
    deadline = t0 + a.seconds
    n_sites = skipped = errors = 0
    w = sys.stdout
    if a.jobs <= 1:
        init(root, deadline)
        results = map(one_file, files)
        pool = None
    else:
        pool = Pool(a.jobs, initializer=init, initargs=(root, deadline))
        # Bigger files first, so the pool's tail is short.
        files.sort(key=lambda f: -os.path.getsize(os.path.join(root, f)))
        results = pool.imap_unordered(one_file, files, chunksize=1)
    for _rel, out, sk, er in results:
        for s in out:
            w.write(json.dumps(s) + "\n")
        n_sites += len(out)
        skipped += sk
        errors += er
    if pool is not None:
        pool.close()
        pool.join()
    summary = {"files": len(files), "sites": n_sites, "skipped": skipped, "errors": errors, "seconds": round(time.time() - t0, 1), "jedi": jedi.__version__}
    w.write(json.dumps({"summary": summary}) + "\n")
    w.flush()


if __name__ == "__main__":
    main()
