// Tiny DOM helpers: elements are built with h(), never from HTML strings (no injection).

/** Creates an element: h("a", { href: "#/" }, "text", child, [more]). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "value") el.value = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces the children of `el`. */
export function render(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** Display text of a JSON value. */
export function text(value) {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The hash link of a view: link("r", type, name, { depth: 2 }) → "#/r/type/name?depth=2". */
export function link(...parts) {
  const path = parts.filter((p) => typeof p === "string").map(encodeURIComponent).join("/");
  const query = parts.find((p) => typeof p === "object");
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query || {})) {
    // An array is one parameter per value: ?x=a&x=b (values may hold commas).
    for (const one of Array.isArray(v) ? v : [v]) {
      if (one !== undefined && one !== "" && one !== null) params.append(k, String(one));
    }
  }
  const qs = params.toString();
  return `#/${path}${qs ? `?${qs}` : ""}`;
}

/** A link to a resource page. */
export function resourceLink(type, name) {
  return h("a", { href: link("r", type, name) }, name);
}

/** A message box (errors and notices). */
export function notice(kind, message) {
  return h("p", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status" }, message);
}
