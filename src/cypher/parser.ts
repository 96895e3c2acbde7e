// Recursive-descent parser for the openCypher subset drsg runs. Why hand-written: Neo4j's own
// grammar ships as Java (the JavaCC/ANTLR parser inside neo4j-cypher) and the openCypher
// project's grammar as ANTLR4/EBNF sources needing a code generator plus the antlr4 runtime —
// none installs here, and the subset is small (about 400 lines). Owning the parser also gives
// what the tool must say on an error: the line and column it stopped at and the grammar of
// the clauses the statement reached for.
import type { BinOp, Clause, Expr, NodePattern, PathPattern, ProjItem, Projection, RelPattern, RemoveItem, SetItem, SortItem, Statement } from "./ast.js";
import { grammarFor } from "./grammar.js";
import { lex, syntaxError, type Token } from "./lexer.js";

/**
 * Words that start or join clauses: never read as a variable (write `name` in backticks for
 * one), so a missing expression before RETURN is reported where it is missing.
 */
const RESERVED = new Set(
  "MATCH OPTIONAL WHERE RETURN WITH UNWIND CREATE MERGE SET REMOVE DELETE DETACH ORDER BY SKIP LIMIT AS ON AND OR XOR NOT IN IS STARTS ENDS CONTAINS DISTINCT WHEN THEN ELSE END UNION CALL".split(" "),
);

/** The most nested expressions / patterns a statement may hold (a guard against stack exhaustion). */
const MAX_DEPTH = 200;

class Parser {
  private i = 0;
  private depth = 0;
  /** Clause keywords reached, for the grammar hint. */
  readonly reached: string[] = [];

  constructor(
    private readonly src: string,
    private readonly toks: Token[],
  ) {}

  peek(o = 0): Token {
    return this.toks[Math.min(this.i + o, this.toks.length - 1)]!;
  }
  next(): Token {
    const t = this.peek();
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }
  isKw(word: string, o = 0): boolean {
    const t = this.peek(o);
    return t.kind === "ident" && t.text.toUpperCase() === word;
  }
  isP(p: string, o = 0): boolean {
    const t = this.peek(o);
    return t.kind === "punct" && t.text === p;
  }
  acceptKw(word: string): boolean {
    if (!this.isKw(word)) return false;
    this.next();
    return true;
  }
  acceptP(p: string): boolean {
    if (!this.isP(p)) return false;
    this.next();
    return true;
  }
  fail(msg: string, t: Token = this.peek()): never {
    const found = t.kind === "eof" ? "the end of the statement" : `'${this.src.slice(t.pos, t.end)}'`;
    const grammar = grammarFor(this.reached);
    throw syntaxError(`${msg}, found ${found}\n\n${grammar}`, t.line, t.col, { grammar });
  }
  expectKw(word: string): void {
    if (!this.acceptKw(word)) this.fail(`expected ${word}`);
  }
  expectP(p: string): void {
    if (!this.acceptP(p)) this.fail(`expected '${p}'`);
  }
  name(what: string): string {
    const t = this.peek();
    if (t.kind === "ident" || t.kind === "qident") {
      this.next();
      return t.text;
    }
    return this.fail(`expected ${what}`);
  }
  enter(): void {
    if (++this.depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH}`);
  }
  leave(): void {
    this.depth--;
  }

  // ---- statement ------------------------------------------------------------------------

  statement(): Statement {
    const clauses: Clause[] = [];
    let asOf: Statement["asOf"];
    while (this.peek().kind !== "eof" && !this.isP(";")) {
      if (this.isKw("AS") && this.isKw("OF", 1)) {
        asOf = this.asOf();
        break;
      }
      clauses.push(this.clause());
    }
    this.acceptP(";");
    if (this.peek().kind !== "eof") this.fail("expected the end of the statement");
    if (clauses.length === 0) this.fail("expected a clause (MATCH, UNWIND, WITH, CREATE, MERGE, RETURN …)");
    const last = clauses[clauses.length - 1]!;
    if (last.k === "match" || last.k === "unwind" || last.k === "with")
      this.fail(`a statement cannot end with ${last.k.toUpperCase()}: add RETURN (or a write clause)`);
    return { clauses, ...(asOf ? { asOf } : {}) };
  }

  asOf(): Statement["asOf"] {
    this.reached.push("AS OF");
    this.next();
    this.next();
    const t = this.peek();
    if (t.kind === "int") {
      this.next();
      return { seq: Number(t.text) };
    }
    if (t.kind === "string") {
      this.next();
      return { time: t.text };
    }
    if (t.kind === "ident" && t.text.toUpperCase() === "TIME") this.fail("AS OF TIME <ms> is not supported; write AS OF \"<RFC 3339 time>\"");
    return this.fail("expected a commit sequence or a quoted RFC 3339 time after AS OF");
  }

  clause(): Clause {
    const t = this.peek();
    if (this.isKw("OPTIONAL") || this.isKw("MATCH")) return this.match();
    if (this.acceptKw("UNWIND")) {
      this.reached.push("UNWIND");
      const expr = this.expr();
      this.expectKw("AS");
      return { k: "unwind", expr, as: this.name("a variable name after AS") };
    }
    if (this.acceptKw("WITH")) {
      this.reached.push("WITH");
      const p = this.projection(true);
      let where: Expr | undefined;
      if (this.acceptKw("WHERE")) {
        this.reached.push("WHERE");
        where = this.expr();
      }
      return { k: "with", ...p, ...(where ? { where } : {}) };
    }
    if (this.acceptKw("RETURN")) {
      this.reached.push("RETURN");
      return { k: "return", ...this.projection(false) };
    }
    if (this.acceptKw("CREATE")) {
      this.reached.push("CREATE");
      return { k: "create", patterns: this.patterns() };
    }
    if (this.acceptKw("MERGE")) {
      this.reached.push("MERGE");
      const pattern = this.pattern();
      const onCreate: SetItem[] = [];
      const onMatch: SetItem[] = [];
      while (this.isKw("ON")) {
        this.next();
        const which = this.acceptKw("CREATE") ? onCreate : this.acceptKw("MATCH") ? onMatch : this.fail("expected CREATE or MATCH after ON");
        this.expectKw("SET");
        this.reached.push("SET");
        which.push(...this.setItems());
      }
      return { k: "merge", pattern, onCreate, onMatch };
    }
    if (this.acceptKw("SET")) {
      this.reached.push("SET");
      return { k: "set", items: this.setItems() };
    }
    if (this.acceptKw("REMOVE")) {
      this.reached.push("REMOVE");
      return { k: "remove", items: this.removeItems() };
    }
    if (this.isKw("DETACH") || this.isKw("DELETE")) {
      const detach = this.acceptKw("DETACH");
      this.expectKw("DELETE");
      this.reached.push("DELETE");
      const exprs = [this.expr()];
      while (this.acceptP(",")) exprs.push(this.expr());
      return { k: "delete", detach, exprs };
    }
    if (this.isKw("WHERE")) {
      this.reached.push("MATCH", "WHERE");
      this.fail("WHERE belongs to a MATCH or WITH clause");
    }
    if (this.isKw("SKIP") || this.isKw("LIMIT") || this.isKw("ORDER"))
      this.fail("ORDER BY, SKIP and LIMIT follow RETURN or WITH, in that order (… ORDER BY x SKIP 1 LIMIT 2)");
    if (this.isKw("CALL") || this.isKw("FOREACH") || this.isKw("UNION") || this.isKw("LOAD"))
      this.fail(`${t.text.toUpperCase()} is not part of the subset drsg runs`);
    return this.fail("expected a clause (MATCH, OPTIONAL MATCH, UNWIND, WITH, CREATE, MERGE, SET, REMOVE, DELETE, RETURN)");
  }

  match(): Clause {
    const start = this.peek();
    const optional = this.acceptKw("OPTIONAL");
    this.expectKw("MATCH");
    this.reached.push("MATCH");
    const patterns = this.patterns();
    let where: Expr | undefined;
    if (this.acceptKw("WHERE")) {
      this.reached.push("WHERE");
      where = this.expr();
    }
    return { k: "match", optional, patterns, line: start.line, col: start.col, ...(where ? { where } : {}) };
  }

  projection(isWith: boolean): Projection {
    const distinct = this.acceptKw("DISTINCT");
    let star = false;
    const items: ProjItem[] = [];
    if (this.acceptP("*")) {
      star = true;
      if (this.acceptP(",")) items.push(...this.projItems(isWith));
    } else items.push(...this.projItems(isWith));
    const order: SortItem[] = [];
    if (this.isKw("ORDER")) {
      this.next();
      this.expectKw("BY");
      do {
        const expr = this.expr();
        let desc = false;
        if (this.acceptKw("DESC") || this.acceptKw("DESCENDING")) desc = true;
        else if (!this.acceptKw("ASC")) this.acceptKw("ASCENDING");
        order.push({ expr, desc });
      } while (this.acceptP(","));
    }
    let skip: Expr | undefined;
    let limit: Expr | undefined;
    if (this.acceptKw("SKIP")) skip = this.expr();
    if (this.acceptKw("LIMIT")) limit = this.expr();
    return { star, distinct, items, order, ...(skip ? { skip } : {}), ...(limit ? { limit } : {}) };
  }

  projItems(isWith: boolean): ProjItem[] {
    const items: ProjItem[] = [];
    do {
      const first = this.peek();
      const expr = this.expr();
      const text = this.src.slice(first.pos, this.toks[this.i - 1]!.end);
      // `AS OF …` at the very end is the time-travel suffix, not an alias named OF.
      if (this.isKw("AS") && !(this.isKw("OF", 1) && ["int", "string"].includes(this.peek(2).kind))) {
        this.next();
        items.push({ expr, alias: this.name("an alias after AS") });
      } else {
        if (isWith && expr.k !== "var") this.fail("WITH needs an alias (AS name) for every expression that is not a variable");
        items.push({ expr, alias: expr.k === "var" ? expr.name : text });
      }
    } while (this.acceptP(","));
    return items;
  }

  setItems(): SetItem[] {
    const items: SetItem[] = [];
    do {
      const v = this.name("a variable to SET");
      if (this.isP(":")) {
        items.push({ k: "labels", var: v, labels: this.labels() });
        continue;
      }
      if (this.acceptP("=")) {
        items.push({ k: "props", var: v, value: this.expr(), merge: false });
        continue;
      }
      if (this.acceptP("+=")) {
        items.push({ k: "props", var: v, value: this.expr(), merge: true });
        continue;
      }
      let target: Expr = { k: "var", name: v };
      this.expectP(".");
      let key = this.name("a property name");
      while (this.acceptP(".")) {
        target = { k: "prop", of: target, key };
        key = this.name("a property name");
      }
      if (target.k !== "var") this.fail("SET writes a property of a node or relationship (n.prop), not of a nested map");
      this.expectP("=");
      items.push({ k: "prop", target, key, value: this.expr() });
    } while (this.acceptP(","));
    return items;
  }

  removeItems(): RemoveItem[] {
    const items: RemoveItem[] = [];
    do {
      const v = this.name("a variable to REMOVE from");
      if (this.isP(":")) {
        items.push({ k: "labels", var: v, labels: this.labels() });
        continue;
      }
      this.expectP(".");
      items.push({ k: "prop", target: { k: "var", name: v }, key: this.name("a property name") });
    } while (this.acceptP(","));
    return items;
  }

  // ---- patterns -------------------------------------------------------------------------

  patterns(): PathPattern[] {
    const out = [this.pattern()];
    while (this.acceptP(",")) out.push(this.pattern());
    return out;
  }

  pattern(): PathPattern {
    if ((this.peek().kind === "ident" || this.peek().kind === "qident") && this.isP("=", 1))
      this.fail("named paths (p = …) are not supported; return the nodes and relationships instead");
    const nodes = [this.nodePattern()];
    const rels: RelPattern[] = [];
    while (this.isP("-") || this.isP("<-")) {
      rels.push(this.relPattern());
      nodes.push(this.nodePattern());
    }
    return { nodes, rels };
  }

  labels(): string[] {
    const out: string[] = [];
    while (this.acceptP(":")) {
      out.push(this.name("a label"));
      if (this.isP("|")) this.fail("label alternatives (:A|B) are not supported on nodes; use WHERE n:A OR n:B");
    }
    return out;
  }

  nodePattern(): NodePattern {
    this.expectP("(");
    const node: NodePattern = { labels: [] };
    const t = this.peek();
    if (t.kind === "ident" || t.kind === "qident") node.var = this.name("a variable");
    node.labels = this.labels();
    if (this.isP("{") || this.peek().kind === "param") node.props = this.propMap();
    this.expectP(")");
    return node;
  }

  propMap(): [string, Expr][] {
    if (this.peek().kind === "param") this.fail("a property map must be written out ({key: $value}), not a parameter");
    const m = this.mapLiteral();
    return m.entries;
  }

  relPattern(): RelPattern {
    const leftArrow = this.acceptP("<-");
    if (!leftArrow) this.expectP("-");
    const rel: RelPattern = { types: [], dir: "both" };
    if (this.acceptP("[")) {
      const t = this.peek();
      if (t.kind === "ident" || t.kind === "qident") rel.var = this.name("a variable");
      if (this.acceptP(":")) {
        rel.types.push(this.name("a relationship type"));
        while (this.acceptP("|")) {
          this.acceptP(":");
          rel.types.push(this.name("a relationship type"));
        }
      }
      if (this.acceptP("*")) {
        let min = 1;
        let max: number | undefined;
        if (this.peek().kind === "int") {
          min = Number(this.next().text);
          max = min;
        }
        if (this.acceptP("..")) {
          max = undefined;
          if (this.peek().kind === "int") max = Number(this.next().text);
        }
        rel.range = max === undefined ? { min } : { min, max };
      }
      if (this.isP("{")) rel.props = this.propMap();
      this.expectP("]");
    }
    const rightArrow = this.acceptP("->");
    if (!rightArrow) this.expectP("-");
    if (leftArrow && rightArrow) rel.dir = "both";
    else if (leftArrow) rel.dir = "in";
    else if (rightArrow) rel.dir = "out";
    return rel;
  }

  // ---- expressions ----------------------------------------------------------------------

  expr(): Expr {
    this.enter();
    try {
      return this.or();
    } finally {
      this.leave();
    }
  }

  or(): Expr {
    let l = this.xor();
    while (this.acceptKw("OR")) l = { k: "bin", op: "OR", l, r: this.xor() };
    return l;
  }
  xor(): Expr {
    let l = this.and();
    while (this.acceptKw("XOR")) l = { k: "bin", op: "XOR", l, r: this.and() };
    return l;
  }
  and(): Expr {
    let l = this.not();
    while (this.acceptKw("AND")) l = { k: "bin", op: "AND", l, r: this.not() };
    return l;
  }
  not(): Expr {
    if (this.acceptKw("NOT")) {
      this.enter();
      try {
        return { k: "not", e: this.not() };
      } finally {
        this.leave();
      }
    }
    return this.comparison();
  }
  comparison(): Expr {
    let l = this.additive();
    for (;;) {
      const t = this.peek();
      if (t.kind === "punct" && ["=", "<>", "<", ">", "<=", ">=", "=~"].includes(t.text)) {
        this.next();
        l = { k: "bin", op: t.text as BinOp, l, r: this.additive() };
      } else if (this.isKw("IN")) {
        this.next();
        l = { k: "bin", op: "IN", l, r: this.additive() };
      } else if (this.isKw("STARTS") || this.isKw("ENDS")) {
        const w = this.next().text.toUpperCase();
        this.expectKw("WITH");
        l = { k: "bin", op: `${w} WITH` as BinOp, l, r: this.additive() };
      } else if (this.isKw("CONTAINS")) {
        this.next();
        l = { k: "bin", op: "CONTAINS", l, r: this.additive() };
      } else if (this.isKw("IS")) {
        this.next();
        const not = this.acceptKw("NOT");
        this.expectKw("NULL");
        l = { k: "isnull", e: l, not };
      } else return l;
    }
  }
  additive(): Expr {
    let l = this.multiplicative();
    for (;;) {
      if (this.isP("+") || this.isP("-")) {
        const op = this.next().text as BinOp;
        l = { k: "bin", op, l, r: this.multiplicative() };
      } else return l;
    }
  }
  multiplicative(): Expr {
    let l = this.power();
    for (;;) {
      if (this.isP("*") || this.isP("/") || this.isP("%")) {
        const op = this.next().text as BinOp;
        l = { k: "bin", op, l, r: this.power() };
      } else return l;
    }
  }
  power(): Expr {
    let l = this.unary();
    while (this.acceptP("^")) l = { k: "bin", op: "^", l, r: this.unary() };
    return l;
  }
  unary(): Expr {
    if (this.acceptP("-")) {
      this.enter();
      try {
        const e = this.unary();
        if (e.k === "lit" && typeof e.v === "number") return { ...e, v: -e.v };
        return { k: "neg", e };
      } finally {
        this.leave();
      }
    }
    if (this.acceptP("+")) return this.unary();
    return this.postfix();
  }
  postfix(): Expr {
    let e = this.atom();
    for (;;) {
      if (this.acceptP(".")) e = { k: "prop", of: e, key: this.name("a property name") };
      else if (this.isP("[")) {
        this.next();
        const idx = this.expr();
        if (this.isP("..")) this.fail("list slices are not supported; use an index [i]");
        this.expectP("]");
        e = { k: "index", of: e, idx };
      } else if (this.isP(":") && e.k === "var") e = { k: "haslabel", e, labels: this.labels() };
      else return e;
    }
  }

  atom(): Expr {
    const t = this.peek();
    switch (t.kind) {
      case "int": {
        this.next();
        const v = Number(t.text);
        if (!Number.isSafeInteger(v)) this.fail("integer out of range", t);
        return { k: "lit", v };
      }
      case "float":
        this.next();
        return { k: "lit", v: Number(t.text), float: true };
      case "string":
        this.next();
        return { k: "lit", v: t.text };
      case "param":
        this.next();
        return { k: "param", name: t.text };
      case "qident":
        this.next();
        return { k: "var", name: t.text };
      case "eof":
        return this.fail("expected an expression");
      default:
    }
    if (this.isP("[")) {
      this.next();
      const items: Expr[] = [];
      if (!this.isP("]")) {
        do items.push(this.expr());
        while (this.acceptP(","));
      }
      this.expectP("]");
      return { k: "list", items };
    }
    if (this.isP("{")) return this.mapLiteral();
    if (this.isP("(")) {
      // A pattern used as a condition — `(a)-[:CALLS]->()` — else a parenthesised expression.
      const save = this.i;
      const reached = this.reached.length;
      try {
        const p = this.pattern();
        if (p.rels.length > 0) return { k: "exists", pattern: p };
      } catch {
        // not a pattern
      }
      this.i = save;
      this.reached.length = reached;
      this.next();
      const e = this.expr();
      this.expectP(")");
      return e;
    }
    if (t.kind === "ident") {
      const up = t.text.toUpperCase();
      if (up === "TRUE" || up === "FALSE") {
        this.next();
        return { k: "lit", v: up === "TRUE" };
      }
      if (up === "NULL") {
        this.next();
        return { k: "lit", v: null };
      }
      if (up === "CASE") return this.caseExpr();
      if (this.isP("(", 1) && up !== "NOT") return this.call();
      if (RESERVED.has(up)) return this.fail("expected an expression");
      this.next();
      return { k: "var", name: t.text };
    }
    return this.fail("expected an expression");
  }

  mapLiteral(): Expr & { k: "map" } {
    this.expectP("{");
    const entries: [string, Expr][] = [];
    if (!this.isP("}")) {
      do {
        const key = this.name("a property name");
        this.expectP(":");
        entries.push([key, this.expr()]);
      } while (this.acceptP(","));
    }
    this.expectP("}");
    return { k: "map", entries };
  }

  caseExpr(): Expr {
    this.next();
    const subject = this.isKw("WHEN") ? undefined : this.expr();
    const whens: [Expr, Expr][] = [];
    while (this.acceptKw("WHEN")) {
      const w = this.expr();
      this.expectKw("THEN");
      whens.push([w, this.expr()]);
    }
    if (whens.length === 0) this.fail("expected WHEN");
    const els = this.acceptKw("ELSE") ? this.expr() : undefined;
    this.expectKw("END");
    return { k: "case", ...(subject ? { subject } : {}), whens, ...(els ? { else: els } : {}) };
  }

  call(): Expr {
    const name = this.next().text.toLowerCase();
    this.expectP("(");
    if (name === "exists" && this.isP("(")) {
      const p = this.pattern();
      this.expectP(")");
      if (p.rels.length === 0) this.fail("exists() takes a property (exists(n.prop)) or a pattern with a relationship");
      return { k: "exists", pattern: p };
    }
    if (this.acceptP("*")) {
      if (name !== "count") this.fail("only count(*) takes *");
      this.expectP(")");
      return { k: "call", name, args: [], distinct: false, star: true };
    }
    const distinct = this.acceptKw("DISTINCT");
    const args: Expr[] = [];
    if (!this.isP(")")) {
      do args.push(this.expr());
      while (this.acceptP(","));
    }
    this.expectP(")");
    return { k: "call", name, args, distinct, star: false };
  }
}

/** Parse a statement; CYPHER_SYNTAX (line, column, grammar hint in `data.grammar`) on error. */
export function parse(src: string): Statement {
  const p = new Parser(src, lex(src));
  return p.statement();
}

/** Parse one expression (the `query` plan's steps carry expressions as text). */
export function parseExpr(src: string): Expr {
  const p = new Parser(src, lex(src));
  const e = p.expr();
  if (p.peek().kind !== "eof") p.fail("expected the end of the expression");
  return e;
}
