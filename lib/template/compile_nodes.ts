/**
 * Compiles template nodes into closures that append to the render state's output.
 * @module
 */

import type { Node } from "./ast.ts";
import { type Ev, ExprCompiler, type MacroCaller } from "./compile_expr.ts";
import { RenderFailure, SyntaxFailure } from "./errors.ts";
import { LOOP, type LoopState, MACRO, type MacroImpl, type State } from "./runtime.ts";
import { isObject, renderValue, sortedKeys } from "./value.ts";
import { graphemes } from "./builtins/text.ts";
import { checkOutput, checkValue, step } from "./budget.ts";

/** A compiled body. */
export type Body = (st: State) => void;

/** The result of compiling a template. */
export interface Compiled {
  body: Body;
  macros: Map<string, MacroImpl>;
}

/** Compiles parsed nodes; macro definitions are collected into the `self` namespace. */
export function compileNodes(nodes: Node[]): Compiled {
  const macros = new Map<string, MacroImpl>();
  const caller: MacroCaller = {
    call(ns, name, args, pos) {
      return (st) => callMacro(st, ns, name, args, pos);
    },
  };
  const c = new NodeCompiler(new ExprCompiler(caller), macros);
  for (const n of nodes) {
    if (n.t === "macro") {
      if (macros.has(n.name)) throw new SyntaxFailure(`Macro \`${n.name}\` is duplicated`, n.pos);
      macros.set(n.name, { params: [], body: () => {} });
    }
  }
  for (const n of nodes) {
    if (n.t === "macro") {
      const impl = macros.get(n.name)!;
      impl.params = n.params.map((p) => ({
        name: p.name,
        def: p.def ? c.ex.value(p.def) : null,
      }));
      impl.body = c.body(n.body);
    }
  }
  return { body: c.body(nodes), macros };
}

/**
 * Deepest stack of macro calls (with the loops around them) a render may build: runaway
 * recursion is a located render error at the call instead of a stack overflow (issue 16).
 */
const MAX_CALL_DEPTH = 600;

function callMacro(
  st: State,
  ns: string,
  name: string,
  args: Map<string, Ev>,
  pos: number,
): string {
  const impl = ns === "self" ? st.macros.get(name) : undefined;
  if (!impl) {
    throw new RenderFailure(`Macro \`${ns}::${name}\` not found`, pos);
  }
  if (st.frames.length > MAX_CALL_DEPTH) {
    throw new RenderFailure(
      `Macro \`${name}\`: calls nested deeper than ${MAX_CALL_DEPTH} (runaway recursion?)`,
      pos,
    );
  }
  const vars = new Map<string, unknown>();
  for (const p of impl.params) {
    const a = args.get(p.name);
    if (a) vars.set(p.name, a(st));
    else if (p.def) vars.set(p.name, p.def(st));
    else throw new RenderFailure(`Macro \`${name}\` is missing the argument \`${p.name}\``, pos);
  }
  const saved = st.out;
  st.out = "";
  st.push({ kind: MACRO, vars, loop: null });
  try {
    impl.body(st);
    return st.out;
  } finally {
    st.pop();
    st.out = saved;
  }
}

function locate<T>(pos: number, f: () => T): T {
  try {
    return f();
  } catch (e) {
    locateError(e, pos);
  }
}

/** Re-throws `e`, located at `pos` when it is a render failure without a location. */
function locateError(e: unknown, pos: number): never {
  if (e instanceof RenderFailure && e.pos < 0) e.pos = pos;
  throw e;
}

class NodeCompiler {
  constructor(readonly ex: ExprCompiler, readonly macros: Map<string, MacroImpl>) {}

  body(nodes: Node[]): Body {
    const parts = nodes.map((n) => this.node(n)).filter((f): f is Body => f !== null);
    if (parts.length === 1) {
      const only = parts[0];
      return only;
    }
    return (st) => {
      for (let i = 0; i < parts.length; i++) {
        parts[i](st);
        const loop = st.top.loop;
        if (loop !== null && loop.state !== 0) return;
      }
    };
  }

  node(n: Node): Body | null {
    switch (n.t) {
      case "text":
      case "raw": {
        const s = n.s;
        return s === "" ? null : (st) => {
          st.out += s;
        };
      }
      case "comment":
      case "macro":
        return null;
      case "var": {
        const v = this.ex.value(n.expr);
        const pos = n.pos;
        return (st) => {
          let x: unknown;
          try {
            x = v(st);
          } catch (e) {
            locateError(e, pos);
          }
          st.out += typeof x === "string" ? x : renderValue(x);
          checkOutput(st.out.length, pos);
        };
      }
      case "set": {
        const v = this.ex.value(n.value);
        const { key, global, pos } = n;
        const what = `\`${key}\``;
        return (st) => {
          const x = locate(pos, () => v(st));
          checkValue(x, what, pos); // e.g. a string doubled by `~` in a loop
          st.assign(key, x, global);
        };
      }
      case "if": {
        const conds = n.conds.map((c) => ({ test: this.ex.bool(c.expr), body: this.body(c.body) }));
        const other = n.otherwise ? this.body(n.otherwise.body) : null;
        const positions = n.conds.map((c) => c.expr.pos);
        return (st) => {
          for (let i = 0; i < conds.length; i++) {
            if (locate(positions[i], () => conds[i].test(st))) return conds[i].body(st);
          }
          if (other) other(st);
        };
      }
      case "for":
        return this.forLoop(n);
      case "break":
      case "continue": {
        const state = n.t === "break" ? 1 : 2;
        const pos = n.pos;
        return (st) => {
          const loop = st.top.loop;
          if (loop === null) {
            throw new RenderFailure(`Attempted \`${n.t}\` while not in \`for loop\``, pos);
          }
          loop.state = state;
        };
      }
      case "filter": {
        const body = this.body(n.body);
        const pos = n.pos;
        if (n.filter.name === "safe") return body;
        const f = this.ex.filter(n.filter);
        return (st) => {
          const saved = st.out;
          st.out = "";
          let inner: string;
          try {
            body(st);
            inner = st.out;
          } finally {
            st.out = saved;
          }
          st.out += renderValue(locate(pos, () => f(st, inner)));
          checkOutput(st.out.length, pos);
        };
      }
      case "block":
        return this.body(n.body);
      case "include": {
        if (n.ignoreMissing) return null;
        const names = n.names.join(", ");
        const pos = n.pos;
        return () => {
          throw new RenderFailure(`Template '[${names}]' not found`, pos);
        };
      }
      case "super": {
        const pos = n.pos;
        return () => {
          throw new RenderFailure("Tried to use super() in the top level block", pos);
        };
      }
    }
  }

  private forLoop(n: Extract<Node, { t: "for" }>): Body {
    const k = n.container.val.k;
    const pos = n.pos;
    if (k !== "ident" && k !== "fn" && k !== "array") {
      return () => {
        throw new RenderFailure(
          "Forloop containers have to be an ident or a function call",
          n.container.pos,
        );
      };
    }
    const container = this.ex.value(n.container);
    const body = this.body(n.body);
    const empty = n.empty ? this.body(n.empty) : null;
    const { key: keyName, value: valueName } = n;
    return (st) => {
      const c = locate(n.container.pos, () => container(st));
      let loop: LoopState;
      if (Array.isArray(c) || typeof c === "string") {
        if (keyName !== null) {
          throw new RenderFailure(
            "Tried to iterate using key value on a variable that isn't an object/map",
            pos,
          );
        }
        const items = typeof c === "string" ? graphemes(c) : c;
        loop = { keyName, valueName, keys: null, items, len: items.length, i: 0, state: 0 };
      } else if (isObject(c)) {
        if (keyName === null) {
          throw new RenderFailure(
            "Tried to iterate using key value on a variable, but it is missing a key",
            pos,
          );
        }
        const keys = sortedKeys(c);
        loop = { keyName, valueName, keys, items: c, len: keys.length, i: 0, state: 0 };
      } else {
        throw new RenderFailure(
          "Tried to iterate on a container that has a unsupported type",
          pos,
        );
      }
      if (loop.len === 0) {
        if (empty) empty(st);
        return;
      }
      const frame = { kind: LOOP, vars: null as Map<string, unknown> | null, loop };
      st.push(frame);
      try {
        for (; loop.i < loop.len;) {
          step(1, pos);
          body(st);
          checkOutput(st.out.length, pos);
          if (loop.state === 1) break;
          frame.vars = null;
          loop.i++;
          loop.state = 0;
        }
      } finally {
        st.pop();
      }
    };
  }
}
