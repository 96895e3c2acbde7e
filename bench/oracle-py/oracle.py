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
                             [--import-path DIR[:DIR...]] [--no-runtime]

Where jedi is not the interpreter, the oracle corrects it by principled rules (each applies to
every site alike; none names a site or a project):

  alias    goto stopping at an assignment of a name or attribute path (`and_ = X.and_`,
           `meth = C.f(self).g`) is followed to what the path names, as jedi follows an import
           (when that is no function or class, or the value is any other expression, the site
           is left unjudged: a variable is no definition a call runs)
  runtime  a member called on `self` / `cls` (the class the method is written in), `super()`
           (that class's MRO after it), a class named in the tree, or a receiver jedi infers to
           be (an instance of) a class of the tree, is looked up as Python looks it up: along the
           class's `__mro__`, in the `__dict__`s of the imported module's classes — so `if
           TYPE_CHECKING:` stubs, `if not TYPE_CHECKING:` overrides and `super()` are judged by
           what runs. A receiver `self.x` whose attribute a class annotation declares
           (`x: FromClause`) is that type, as a type checker reads it. Only modules whose
           imported file is byte-identical to the tree's are used (--import-path lets a tree
           that cannot import on its own, a copy of a package's part, import from the full
           package); otherwise, and when the member is no function of the tree (an instance
           attribute, a property, a C function), jedi's answer stands.

  stub     a function jedi reaches that is defined only under `if TYPE_CHECKING:` (Python never
           defines it) is reported with type "stub": no definition a call runs, so the site is
           no recall site, and drsg binding anything there is judged wrong.

  none     goto stopping at `f = None` (a reference dropped) reaches the functions and classes
           named f defined in that scope: calling None runs nothing.

Each declaration also carries `full_name`, its qualified name (module + `__qualname__`), so two
definitions of one qualified name (the branches of an if / else) are known as one symbol.

Needs only the standard library and jedi (Debian: python3-jedi).
"""
import argparse
import ast
import contextlib
import importlib
import inspect
import json
import os
import sys
import time
import types
from multiprocessing import Pool

import jedi

SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv", "venv", ".tox", "build", "dist"}

STOPS = {"param", "statement", "instance"}

# How many alias assignments are followed in a row.
ALIAS_DEPTH = 4

_project = None
_root = None
_deadline = None
_runtime = None
_scripts = {}
_asts = {}


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


class FileAst:
    """One file's syntax tree, with parents, and what the rules look up in it by position."""

    def __init__(self, code):
        self.tree = ast.parse(code)
        self.lines = code.splitlines()
        self.assigns = {}  # (line, char col) of a name assigned alone → the value's node
        self.defs = {}  # (name, first line of its code, decorators included) → the def node
        self.classes = {}  # qualified name of a class not inside a function → its node
        self.stubs = set()  # lines of the functions defined under `if TYPE_CHECKING:` only
        for n in ast.walk(self.tree):
            for c in ast.iter_child_nodes(n):
                c._parent = n
        for n in ast.walk(self.tree):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                self.assigns[self.pos(n.targets[0])] = n.value
            elif isinstance(n, ast.AnnAssign) and n.value is not None and isinstance(n.target, ast.Name):
                self.assigns[self.pos(n.target)] = n.value
            elif isinstance(n, ast.If) and self.type_checking(n.test) is not None:
                for b in n.body if self.type_checking(n.test) else n.orelse:
                    for x in ast.walk(b):
                        if isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef)):
                            self.stubs.add(x.lineno)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = min([n.lineno] + [d.lineno for d in n.decorator_list])
                self.defs[(n.name, first)] = n
                if isinstance(n, ast.ClassDef):
                    q = self.qualname(n)
                    if q is not None:
                        self.classes[q] = n

    @staticmethod
    def type_checking(test):
        """True for `TYPE_CHECKING` (typing.TYPE_CHECKING), False for `not TYPE_CHECKING`, else None."""
        neg = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        t = test.operand if neg else test
        name = t.id if isinstance(t, ast.Name) else t.attr if isinstance(t, ast.Attribute) else None
        return None if name != "TYPE_CHECKING" else not neg

    def col(self, line, byte_col):
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return char_col(text, byte_col)

    def pos(self, node):
        return node.lineno, self.col(node.lineno, node.col_offset)

    def last_token(self, node):
        """(line, char col) of an expression's last name token: `a.b` → b, `a` → a; else None."""
        if isinstance(node, ast.Name):
            return self.pos(node)
        if isinstance(node, ast.Attribute):
            end = node.end_col_offset - len(node.attr.encode("utf-8"))
            return node.end_lineno, self.col(node.end_lineno, end)
        return None

    def other_definitions(self, value, name, rel):
        """The none rule: `f = None` (dropping a reference) — calling None runs nothing, so a call
        through f runs one of the functions or classes named f defined in that same scope."""
        scope = getattr(value, "_parent", None)
        while scope is not None and not isinstance(scope, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope = getattr(scope, "_parent", None)
        out = []
        todo = list(ast.iter_child_nodes(scope)) if scope is not None else []
        while todo:
            x = todo.pop()
            if isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                if getattr(x, "name", None) == name:
                    kind = "class" if isinstance(x, ast.ClassDef) else "function"
                    out.append({"file": rel, "module": None, "line": x.lineno, "end_line": x.end_lineno, "name": name, "type": kind, "in_tree": True, "full_name": None})
                continue
            todo.extend(ast.iter_child_nodes(x))
        return out

    @staticmethod
    def qualname(cls):
        """`Outer.Inner` for a class nested only in classes; None inside a function."""
        parts = []
        n = cls
        while n is not None and not isinstance(n, ast.Module):
            if isinstance(n, ast.ClassDef):
                parts.append(n.name)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return None
            n = getattr(n, "_parent", None)
        return ".".join(reversed(parts))


def file_ast(rel):
    if rel not in _asts:
        try:
            with open(os.path.join(_root, rel), encoding="utf-8") as fh:
                _asts[rel] = FileAst(fh.read())
        except Exception:
            _asts[rel] = None
    return _asts[rel]


def script_for(rel):
    if rel not in _scripts:
        path = os.path.join(_root, rel)
        with open(path, encoding="utf-8") as fh:
            _scripts[rel] = jedi.Script(fh.read(), path=path, project=_project)
    return _scripts[rel]


def sites_of(fa):
    for node in ast.walk(fa.tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name):
            name = f.id
        elif isinstance(f, ast.Attribute):
            name = f.attr
        else:
            continue
        line, col = fa.last_token(f)
        yield line, col + 1, name, f


def rel_of(n):
    """Tree-relative path of a jedi name's module, or None outside the tree."""
    path = n.module_path
    if path is None or n.in_builtin_module():
        return None
    rel = os.path.relpath(os.path.realpath(str(path)), _root)
    return None if rel.startswith("..") else rel


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
    try:
        full_name = n.full_name
    except Exception:
        full_name = None
    return {
        "file": file,
        "module": n.module_name,
        "line": n.line,
        "end_line": end_line,
        "name": n.name,
        "type": n.type,
        "in_tree": in_tree,
        "full_name": full_name,
    }


def goto(script, rel, line, col0):
    """jedi's goto (an empty answer retried on a fresh Script: its caches can leave it empty), and
    what the name holds when goto stops at a parameter, an assignment or nothing."""
    names = script.goto(line, col0, follow_imports=True)
    if not names:
        names = jedi.Script(script._code, path=script.path, project=_project).goto(line, col0, follow_imports=True)
    if not names or all(n.type in STOPS for n in names):
        seen = {(str(n.module_path), n.line, n.column) for n in names}
        held = script.infer(line, col0)
        if not held:
            held = jedi.Script(script._code, path=script.path, project=_project).infer(line, col0)
        for n in held:
            if (str(n.module_path), n.line, n.column) not in seen:
                names.append(n)
    return names


def resolve(rel, fa, script, line, col0, func, depth=0):
    """The declarations a callee's name token reaches, by jedi and the rules (module docstring)."""
    decls = []
    names = goto(script, rel, line, col0)
    for n in names:
        followed = follow_alias(n, depth) if n.type == "statement" else None
        # An alias whose value jedi cannot resolve says nothing of what the call runs.
        decls.extend(followed if followed is not None else [decl_of(n)])
    if _runtime is not None and isinstance(func, ast.Attribute):
        rt = runtime_member(rel, fa, script, func)
        if rt:
            decls = rt
        elif names and all(n.type == "function" for n in names):
            # The receiver's class unknown: the member jedi found, looked up by Python from the
            # class jedi found it in (a stub under `if TYPE_CHECKING:` there is not what runs).
            owners = [owner_lookup(n, func.attr) for n in names]
            if all(owners):
                decls = owners
    out, seen = [], set()
    for d in decls:
        if d["in_tree"] and d["type"] == "function" and d.get("by") != "runtime":
            # The stub rule: a function defined only under `if TYPE_CHECKING:` never runs.
            dfa = file_ast(d["file"])
            if dfa is not None and d["line"] in dfa.stubs:
                d = {**d, "type": "stub"}
        k = (d["file"], d["line"], d["name"], d["type"])
        if k not in seen:
            seen.add(k)
            out.append(d)
    return out


def follow_alias(n, depth):
    """The alias rule: an assignment `x = a.b` goto stopped at reaches what `a.b` reaches."""
    if depth >= ALIAS_DEPTH:
        return None
    rel = rel_of(n)
    fa = file_ast(rel) if rel else None
    if fa is None or n.line is None:
        return None
    value = fa.assigns.get((n.line, n.column))
    if value is None:
        return None
    if isinstance(value, ast.Constant) and value.value is None:
        return fa.other_definitions(value, n.name, rel) or None
    if not isinstance(value, (ast.Name, ast.Attribute)):
        return []  # a variable holding what jedi does not follow: no definition to judge by
    line, col = fa.last_token(value)
    try:
        got = resolve(rel, fa, script_for(rel), line, col, value, depth + 1)
    except Exception:
        return None
    return [d for d in got if d["type"] in ("function", "class", "stub")]


def owner_lookup(n, attr):
    """Python's lookup of `attr` from the class a jedi name (a method) is defined in."""
    try:
        parent = n.parent()
    except Exception:
        return None
    if parent is None or parent.type != "class":
        return None
    k = _runtime.class_named(parent)
    return _runtime.lookup(k, attr, 0) if k is not None else None


def enclosing_method(node, param):
    """The class a method is written in, when `param` is that method's first parameter (self / cls)
    and no function nearer the node binds it; with whether the method is a staticmethod."""
    n = getattr(node, "_parent", None)
    while n is not None:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = n.args
            params = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
            if param not in params and param != "super":
                n = getattr(n, "_parent", None)
                continue
            if isinstance(n, ast.Lambda):
                return None
            cls = getattr(n, "_parent", None)
            if not isinstance(cls, ast.ClassDef):
                return None
            static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in n.decorator_list)
            if static or (param != "super" and (not params or params[0] != param)):
                return None
            return cls
        n = getattr(n, "_parent", None)
    return None


def runtime_member(rel, fa, script, func):
    """The runtime rule: the member `func.attr` as Python finds it on the receiver's class(es), or
    None when the receiver's class or the member is not known that way."""
    recv = func.value
    classes, skip = receiver_classes(rel, fa, script, recv)
    if not classes:
        return None
    out = []
    for k in classes:
        d = _runtime.lookup(k, func.attr, skip)
        if d is None:
            return None
        out.append(d)
    return out


def receiver_classes(rel, fa, script, recv):
    """(classes, MRO entries to skip) the receiver is, or is an instance of; (None, 0) unknown."""
    if isinstance(recv, ast.Name):
        cls = enclosing_method(recv, recv.id)
        if cls is not None:
            k = _runtime.class_of(rel, fa, cls)
            return ([k], 0) if k is not None else (None, 0)
    if isinstance(recv, ast.Call) and isinstance(recv.func, ast.Name) and recv.func.id == "super" and not recv.args:
        cls = enclosing_method(recv, "super")
        k = _runtime.class_of(rel, fa, cls) if cls is not None else None
        return ([k], 1) if k is not None else (None, 0)
    if isinstance(recv, ast.Attribute) and isinstance(recv.value, ast.Name):
        # `self.x` declared by a class annotation: the annotation's type.
        cls = enclosing_method(recv.value, recv.value.id)
        k = _runtime.class_of(rel, fa, cls) if cls is not None else None
        if k is not None:
            declared = _runtime.declared_type(k, recv.attr)
            if declared:
                return declared, 0
    # `C(...)`: an instance of the class C names.
    made = isinstance(recv, ast.Call)
    tok = fa.last_token(recv.func if made else recv)
    if tok is None:
        return None, 0
    line, col = tok
    try:
        names = script.goto(line, col, follow_imports=True)
        if names and all(n.type == "class" for n in names):
            held = names
        elif made:
            return None, 0
        else:
            held = script.infer(line, col)
    except Exception:
        return None, 0
    out = []
    for n in held:
        if n.type == "instance" and n.full_name == "builtins.NoneType":
            continue  # an Optional's None has no members to call
        if n.type not in ("class", "instance"):
            return None, 0
        k = _runtime.class_named(n)
        if k is None:
            return None, 0
        out.append(k)
    return out, 0


class Runtime:
    """The tree's modules imported, for Python's own member lookup. A module counts only when the
    file Python loaded is byte-identical to the tree's."""

    def __init__(self, root, files, import_path):
        self.root = root
        self.modname = {}
        self.relof = {}
        roots = []
        for rel in files:
            name, base = self.module_of(rel)
            if name is None:
                continue
            self.modname[rel] = name
            self.relof.setdefault(name, rel)
            if base not in roots:
                roots.append(base)
        self.path = [os.path.realpath(p) for p in import_path] + roots
        self.mods = {}
        self.files = {}

    def module_of(self, rel):
        parts = rel[:-3].split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        d = os.path.dirname(rel)
        base = d
        while d and os.path.exists(os.path.join(self.root, d, "__init__.py")):
            base = os.path.dirname(d)
            d = base
        skip = len([x for x in base.split("/") if x]) if base else 0
        names = parts[skip:]
        if not names or not all(x.isidentifier() for x in names):
            return None, None
        return ".".join(names), os.path.join(self.root, base)

    def module(self, rel):
        if rel in self.mods:
            return self.mods[rel]
        mod = None
        name = self.modname.get(rel)
        if name is not None:
            saved = sys.path[:]
            try:
                # The import path only while importing: jedi reads sys.path too.
                sys.path[:0] = self.path
                with contextlib.redirect_stdout(sys.stderr):
                    m = importlib.import_module(name)
                loaded = os.path.realpath(m.__file__)
                with open(loaded, "rb") as a, open(os.path.join(self.root, rel), "rb") as b:
                    if a.read() == b.read():
                        mod = m
                        self.files[loaded] = rel
            except BaseException:
                mod = None
            finally:
                sys.path[:] = saved
        self.mods[rel] = mod
        return mod

    def tree_file(self, filename):
        """The tree file a code object's file is, when its module was imported identical."""
        p = os.path.realpath(filename)
        if p in self.files:
            return self.files[p]
        for base in self.path:
            r = os.path.relpath(p, base)
            if r.startswith("..") or not r.endswith(".py"):
                continue
            parts = r[:-3].split(os.sep)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            rel = self.relof.get(".".join(parts))
            if rel is not None and self.module(rel) is not None and self.files.get(p) == rel:
                return rel
        return None

    def resolve_qual(self, mod, qual):
        v = mod
        for part in qual.split("."):
            v = getattr(v, part, None)
            if v is None:
                return None
        return v if isinstance(v, type) else None

    def class_of(self, rel, fa, node):
        q = fa.qualname(node)
        mod = self.module(rel) if q else None
        return self.resolve_qual(mod, q) if mod is not None else None

    def class_named(self, n):
        rel = rel_of(n)
        if rel is None:
            return None
        try:
            full, modname = n.full_name, n.module_name
        except Exception:
            return None
        if not full or not modname or not full.startswith(modname + "."):
            return None
        mod = self.module(rel)
        return self.resolve_qual(mod, full[len(modname) + 1 :]) if mod is not None else None

    def declared_type(self, k, attr):
        """The classes a class annotation of `attr` (first along k's MRO) names: X, Optional[X],
        Union[X, Y], X[...]; None when there is none or it does not evaluate."""
        for c in k.__mro__:
            ann = c.__dict__.get("__annotations__", {})
            if attr not in ann:
                continue
            a = ann[attr]
            if isinstance(a, str):
                mod = sys.modules.get(c.__module__)
                try:
                    a = eval(a, dict(vars(mod)) if mod else {})
                except Exception:
                    return None
            out = []
            for x in self.alternatives(a):
                if x is type(None):
                    continue
                try:
                    if not isinstance(x, type) or self.tree_file(inspect.getfile(x)) is None:
                        return None
                except TypeError:  # a builtin class
                    return None
                out.append(x)
            return out or None
        return None

    @staticmethod
    def alternatives(a):
        import typing

        origin = typing.get_origin(a)
        if origin is typing.Union or (hasattr(types, "UnionType") and origin is types.UnionType):
            return [y for x in typing.get_args(a) for y in Runtime.alternatives(x)]
        if origin is typing.ClassVar:
            args = typing.get_args(a)
            return Runtime.alternatives(args[0]) if args else [a]
        return [origin] if origin is not None else [a]

    def lookup(self, k, name, skip):
        try:
            mro = k.__mro__[skip:]
        except Exception:
            return None
        for c in mro:
            if name in c.__dict__:
                return self.decl_of_value(c.__dict__[name])
        return None

    def decl_of_value(self, v):
        if isinstance(v, (staticmethod, classmethod)):
            v = v.__func__
        if isinstance(v, types.MethodType):
            v = v.__func__
        # A wrapper stands for the function it wraps (`__wrapped__`, functools.wraps): the call
        # names the decorated definition. The innermost one in the tree is taken.
        chain = []
        while isinstance(v, types.FunctionType) and len(chain) < 8:
            chain.append(v)
            v = getattr(v, "__wrapped__", None)
        for fn in reversed(chain):
            rel = self.tree_file(fn.__code__.co_filename)
            if rel is not None:
                return self.function_decl(rel, fn)
        return None

    def function_decl(self, rel, fn):
        fa = file_ast(rel)
        code = fn.__code__
        node = fa.defs.get((code.co_name, code.co_firstlineno)) if fa else None
        if node is None:
            return None
        return {
            "file": rel,
            "module": self.modname.get(rel),
            "line": node.lineno,
            "end_line": node.end_lineno,
            "name": code.co_name,
            "type": "function",
            "in_tree": True,
            "full_name": f"{fn.__module__}.{getattr(code, 'co_qualname', fn.__qualname__)}",
            "by": "runtime",
        }


def package_roots(root, files):
    """The directories the tree's packages are imported from (`src/` in a src layout): on jedi's
    path as installing the project puts them, so `import click` in tests / examples resolves."""
    out = []
    for rel in files:
        d = os.path.dirname(rel)
        if not d or not os.path.exists(os.path.join(root, d, "__init__.py")):
            continue
        while d and os.path.exists(os.path.join(root, d, "__init__.py")):
            d = os.path.dirname(d)
        p = os.path.join(root, d) if d else root
        if p not in out:
            out.append(p)
    return out


def init(root, deadline, runtime_args, roots=()):
    global _project, _root, _deadline, _runtime
    _root = root
    _deadline = deadline
    extra = [p for p in roots if p != root]
    _project = jedi.Project(root, added_sys_path=extra) if extra else jedi.Project(root)
    if runtime_args is not None:
        files, import_path = runtime_args
        _runtime = Runtime(root, files, import_path)


def one_file(rel):
    """(rel, [site dicts], skipped, errors)."""
    try:
        fa = file_ast(rel)
        if fa is None:
            return rel, [], 0, 1
    except Exception:
        return rel, [], 0, 1
    sites = {}
    for line, col, name, func in sites_of(fa):
        sites.setdefault((line, col, name), func)
    if not sites:
        return rel, [], 0, 0
    if time.time() > _deadline:
        return rel, [], len(sites), 0
    out = []
    errors = 0
    try:
        script = script_for(rel)
    except Exception:
        return rel, [], 0, len(sites)
    for i, (line, col, name) in enumerate(sorted(sites)):
        if time.time() > _deadline:
            return rel, out, len(sites) - i, errors
        try:
            decls = resolve(rel, fa, script, line, col - 1, sites[(line, col, name)])
        except Exception as e:
            if os.environ.get("DRSG_ORACLE_DEBUG"):
                import traceback

                traceback.print_exc()
                print(rel, line, col, name, e, file=sys.stderr)
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
    ap.add_argument("--import-path", default="", help="directories to import the tree's packages from first (os.pathsep-separated)")
    ap.add_argument("--no-runtime", action="store_true", help="jedi's member lookup only (no import of the tree)")
    a = ap.parse_args()
    root = os.path.realpath(a.dir)
    if a.files:
        with open(a.files, encoding="utf-8") as fh:
            files = [x.strip() for x in fh if x.strip().endswith(".py")]
    else:
        files = py_files(root)
    runtime_args = None if a.no_runtime else (list(files), [p for p in a.import_path.split(os.pathsep) if p])
    t0 = time.time()
    deadline = t0 + a.seconds
    n_sites = skipped = errors = 0
    w = sys.stdout
    roots = package_roots(root, files)
    if a.jobs <= 1:
        init(root, deadline, runtime_args, roots)
        results = map(one_file, files)
        pool = None
    else:
        pool = Pool(a.jobs, initializer=init, initargs=(root, deadline, runtime_args, roots))
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
