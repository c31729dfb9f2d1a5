/**
 * Static checks run once per parsed program, like the reference implementation: unknown
 * variables and duplicate local/parameter names are STATIC ERRORs even in dead code.
 *
 * @module
 */
import type { CompSpec, Loc, Node } from "./ast.ts";
import { JsonnetError } from "./errors.ts";

class Scope {
  constructor(readonly names: Set<string>, readonly parent: Scope | null) {}
  has(n: string): boolean {
    if (this.names.has(n)) return true;
    for (let s = this.parent; s; s = s.parent) if (s.names.has(n)) return true;
    return false;
  }
}

function fail(loc: Loc, msg: string): never {
  throw new JsonnetError("STATIC ERROR", msg, loc);
}

function declare(names: { name: string; loc: Loc }[], parent: Scope, what: string): Scope {
  const set = new Set<string>();
  for (const { name, loc } of names) {
    if (set.has(name)) fail(loc, `duplicate ${what}: ${name}`);
    set.add(name);
  }
  return new Scope(set, parent);
}

/** Checks `root` against the given top-level names (normally just `std`). */
export function analyze(root: Node, globals: string[] = ["std"]): void {
  visit(root, new Scope(new Set(globals), null));
}

function specs(ss: CompSpec[], scope: Scope, inner: (s: Scope) => void): void {
  let s = scope;
  for (const sp of ss) {
    if (sp.k === "for") {
      visit(sp.arr, s);
      s = new Scope(new Set([sp.name]), s);
    } else visit(sp.cond, s);
  }
  inner(s);
}

function visit(n: Node, scope: Scope): void {
  switch (n.k) {
    case "lit":
    case "self":
    case "dollar":
    case "import":
      return;
    case "var":
      if (!scope.has(n.name)) fail(n.loc, `Unknown variable: ${n.name}`);
      return;
    case "arr":
      for (const e of n.elems) visit(e, scope);
      return;
    case "arrcomp":
      specs(n.specs, scope, (s) => visit(n.body, s));
      return;
    case "obj": {
      for (const f of n.fields) if (f.name.k !== "lit") visit(f.name, scope);
      const s = declare(n.locals.map((b) => ({ name: b.name, loc: b.loc })), scope, "local var");
      for (const b of n.locals) visit(b.body, s);
      for (const f of n.fields) visit(f.value, s);
      for (const a of n.asserts) {
        visit(a.cond, s);
        if (a.msg) visit(a.msg, s);
      }
      return;
    }
    case "objcomp":
      specs(n.specs, scope, (sc) => {
        visit(n.field.name, sc);
        const s = declare(n.locals.map((b) => ({ name: b.name, loc: b.loc })), sc, "local var");
        for (const b of n.locals) visit(b.body, s);
        visit(n.field.value, s);
      });
      return;
    case "index":
      visit(n.target, scope);
      visit(n.index, scope);
      return;
    case "superidx":
      visit(n.index, scope);
      return;
    case "insuper":
      visit(n.key, scope);
      return;
    case "slice":
      visit(n.target, scope);
      for (const e of [n.start, n.end, n.step]) if (e) visit(e, scope);
      return;
    case "apply":
      visit(n.fn, scope);
      for (const a of n.args) visit(a, scope);
      for (const [, a] of n.named) visit(a, scope);
      return;
    case "bin": {
      // Walk left-nested chains iteratively (a + b + c + ... can be very long).
      let cur: Node = n;
      while (cur.k === "bin") {
        visit(cur.r, scope);
        cur = cur.l;
      }
      visit(cur, scope);
      return;
    }
    case "un":
      visit(n.e, scope);
      return;
    case "local": {
      const s = declare(n.binds.map((b) => ({ name: b.name, loc: b.loc })), scope, "local var");
      for (const b of n.binds) visit(b.body, s);
      visit(n.body, s);
      return;
    }
    case "if":
      visit(n.cond, scope);
      visit(n.then, scope);
      if (n.else) visit(n.else, scope);
      return;
    case "func": {
      const s = declare(
        n.params.map((p) => ({ name: p.name, loc: n.loc })),
        scope,
        "function parameter",
      );
      for (const p of n.params) if (p.def) visit(p.def, s);
      visit(n.body, s);
      return;
    }
    case "assert":
      visit(n.cond, scope);
      if (n.msg) visit(n.msg, scope);
      visit(n.body, scope);
      return;
    case "error":
      visit(n.e, scope);
      return;
  }
}
