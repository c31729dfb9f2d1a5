/**
 * Whitespace control (`{%-`, `-%}`, `{{-`, `-}}`, `{#-`, `-#}`), applied to the parsed nodes
 * exactly as Tera's `remove_whitespace` does (including its quirks: the `else` body of a `for`
 * loop is not trimmed, leading comments have no effect).
 * @module
 */

import type { Node, WS } from "./ast.ts";
import { trimEnd, trimStart } from "./value.ts";

function trimRightPrevious(nodes: Node[]): void {
  const last = nodes[nodes.length - 1];
  if (last && last.t === "text") {
    const s = trimEnd(last.s);
    if (s === "") nodes.pop();
    else nodes[nodes.length - 1] = { t: "text", s };
  }
}

/** Applies whitespace control to a body; `bodyWs` are the flags of the enclosing tags. */
export function removeWhitespace(nodes: Node[], bodyWs: WS | null): Node[] {
  const res: Node[] = [];
  let previousWasText = false;
  let trimLeftNext = bodyWs ? bodyWs.left : false;
  for (const n of nodes) {
    switch (n.t) {
      case "text": {
        previousWasText = true;
        if (!trimLeftNext) {
          res.push(n);
          continue;
        }
        trimLeftNext = false;
        const s = trimStart(n.s);
        if (s !== "") res.push({ t: "text", s });
        continue;
      }
      case "var":
      case "include":
      case "set":
      case "break":
      case "comment":
      case "continue":
        if (previousWasText && n.ws.left) trimRightPrevious(res);
        trimLeftNext = n.ws.right;
        break;
      case "raw": {
        if (previousWasText && n.start.left) trimRightPrevious(res);
        previousWasText = false;
        trimLeftNext = n.end.right;
        if (n.start.right || n.end.left) {
          let s = n.s;
          if (n.start.right) s = trimStart(s);
          if (n.end.left) s = trimEnd(s);
          res.push({ ...n, s });
          continue;
        }
        break;
      }
      case "for":
      case "macro":
      case "filter":
      case "block": {
        if (previousWasText && n.start.left) trimRightPrevious(res);
        previousWasText = false;
        trimLeftNext = n.end.right;
        const ws = { left: n.start.right, right: n.end.left };
        res.push({ ...n, body: removeWhitespace(n.body, ws) } as Node);
        continue;
      }
      case "if": {
        trimLeftNext = n.end.right;
        const conds: { ws: WS; expr: typeof n.conds[0]["expr"]; body: Node[] }[] = [];
        for (const cond of n.conds) {
          if (cond.ws.left) {
            if (conds.length === 0 && previousWasText) trimRightPrevious(res);
            else if (conds.length > 0) trimRightPrevious(conds[conds.length - 1].body);
          }
          conds.push({
            ws: cond.ws,
            expr: cond.expr,
            body: removeWhitespace(cond.body, { left: cond.ws.right, right: false }),
          });
        }
        previousWasText = false;
        if (n.otherwise) {
          if (n.otherwise.ws.left && conds.length > 0) {
            trimRightPrevious(conds[conds.length - 1].body);
          }
          const elseBody = removeWhitespace(n.otherwise.body, {
            left: n.otherwise.ws.right,
            right: false,
          });
          if (n.end.left) trimRightPrevious(elseBody);
          res.push({
            t: "if",
            conds,
            otherwise: { ws: n.otherwise.ws, body: elseBody },
            end: n.end,
          });
          continue;
        }
        if (n.end.left && conds.length > 0) trimRightPrevious(conds[conds.length - 1].body);
        res.push({ t: "if", conds, otherwise: null, end: n.end });
        continue;
      }
      case "super":
        break;
    }
    previousWasText = false;
    res.push(n);
  }
  if (bodyWs && bodyWs.right) trimRightPrevious(res);
  return res;
}
