// The explorer shell: hash routes (deep links), live build status (badge and banner), the API
// token prompt of protected writes, keyboard shortcuts.
import { get, onTokenNeeded } from "./api.js";
import { h, link, notice, render } from "./dom.js";
import { overview } from "./overview.js";
import { findView, tableView } from "./find.js";
import { resourceView } from "./resource.js";

const main = document.getElementById("main");
const buildEl = document.getElementById("build");
const banner = document.getElementById("build-banner");
const state = { generation: -1, build: "", features: [] };

/** Parses the hash: "#/r/host/web-1?x=1" → { parts: ["r","host","web-1"], query }. */
function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [path, qs] = hash.split("?", 2);
  const parts = path ? path.split("/").map(decodeURIComponent) : [];
  return { parts, query: new URLSearchParams(qs || "") };
}

/** Changes the URL state of the current view without a new history entry. */
export function replaceQuery(query) {
  const { parts } = route();
  const url = link(...parts, query);
  history.replaceState(null, "", url);
}

let renderId = 0;

async function show() {
  const id = ++renderId;
  const { parts, query } = route();
  const ctx = { query, state, stale: () => id !== renderId, rerender: show, replaceQuery };
  document.body.dataset.view = parts[0] || "overview";
  main.setAttribute("aria-busy", "true");
  try {
    let view;
    if (parts[0] === "find") view = await findView(ctx);
    else if (parts[0] === "type" && parts[1]) view = await tableView(ctx, parts[1]);
    else if (parts[0] === "r" && parts.length >= 3) {
      view = await resourceView(ctx, parts[1], parts.slice(2).join("/"));
    } else if (parts[0] === "graph" && parts.length >= 3) {
      const { graphView } = await import("./graph.js");
      view = await graphView(ctx, parts[1], parts.slice(2).join("/"));
    } else view = await overview(ctx);
    if (ctx.stale()) return;
    render(main, view);
    main.dataset.route = location.hash || "#/";
    document.title = `${main.querySelector("h1")?.textContent || "explorer"} · graphsvc`;
  } catch (e) {
    if (ctx.stale()) return;
    render(main, h("h1", {}, "Not available"), notice("error", e.message || String(e)));
    main.dataset.route = location.hash || "#/";
  } finally {
    if (!ctx.stale()) main.removeAttribute("aria-busy");
  }
}

function setBuild(kind, label, title) {
  buildEl.className = `build ${kind}`;
  buildEl.dataset.status = kind;
  buildEl.textContent = label;
  buildEl.title = title || label;
}

/** Shows the newest build's failure or degradation, with its error, above every view. */
function showBanner(info) {
  const last = info.last_build;
  // Unchanged: not rewritten, so a screen reader does not hear it again.
  const key = `${last?.generation}:${last?.status}:${info.generation}`;
  if (banner.dataset.key === key) return;
  banner.dataset.key = key;
  if (!last || last.status === "ok") {
    banner.hidden = true;
    banner.replaceChildren();
    banner.removeAttribute("data-status");
    return;
  }
  const errors = (last.errors || []).slice(0, 5);
  const title = last.status === "failed"
    ? `Build ${last.generation} failed: still serving generation ${info.generation}.`
    : `Build ${last.generation} is degraded: ${last.error_count} rule error(s) skipped.`;
  banner.dataset.status = last.status;
  banner.className = `banner status-${last.status}`;
  render(
    banner,
    h("strong", {}, title),
    " ",
    h("span", { class: "error-text" }, last.error || ""),
    errors.length
      ? h(
        "ul",
        {},
        errors.map((e) =>
          h(
            "li",
            {},
            h("code", {}, `${e.file || ""}${e.line ? `:${e.line}` : ""}`),
            ` ${e.message}`,
          )
        ),
      )
      : null,
    h("a", { href: "#/" }, "Overview"),
  );
  banner.hidden = false;
}

async function refreshStatus() {
  const info = await get("/api/engine-info");
  const last = info.last_build;
  const status = info.building ? "building" : last?.status || "ok";
  const err = last?.error ? `: ${last.error}` : "";
  setBuild(status, `${status} · gen ${info.generation}`, `${status}${err}`);
  showBanner(info);
  const build = `${last?.generation}:${last?.status}`;
  const first = state.generation === -1;
  const changed = !first && info.generation !== state.generation;
  // A failed build keeps the generation: the overview (its build panel) is shown again anyway.
  const statusChanged = !first && build !== state.build &&
    document.body.dataset.view === "overview";
  state.generation = info.generation;
  state.build = build;
  // A new graph was published: show the current view again (edits from elsewhere appear).
  if ((changed || statusChanged) && !document.activeElement?.closest("form.edit")) show();
}

/** The API token prompt: a modal dialog; resolves to the token, or null when cancelled. */
function askToken(message) {
  const dialog = document.getElementById("token-dialog");
  const form = document.getElementById("token-form");
  const input = document.getElementById("token");
  const cancel = document.getElementById("token-cancel");
  document.getElementById("token-why").textContent =
    `This server protects changes with an API token (${message}).`;
  input.value = "";
  return new Promise((resolve) => {
    const done = (value) => {
      form.onsubmit = cancel.onclick = dialog.oncancel = null;
      dialog.close();
      input.value = "";
      resolve(value);
    };
    form.onsubmit = (ev) => {
      ev.preventDefault();
      done(input.value.trim() || null);
    };
    cancel.onclick = () => done(null);
    dialog.oncancel = (ev) => {
      ev.preventDefault(); // Escape
      done(null);
    };
    dialog.showModal();
    input.focus();
  });
}

onTokenNeeded(askToken);

let events;

// Browsers allow 6 HTTP/1.1 connections per host: a stream left open by a page in the
// back-forward cache would hold one of them, so it is closed when the page is hidden.
addEventListener("pagehide", () => events?.close());
addEventListener("pageshow", (ev) => {
  if (ev.persisted) {
    watchBuilds();
    refreshStatus().catch(() => {});
  }
});

function watchBuilds() {
  events = new EventSource("/api/build/stream");
  events.onmessage = (ev) => {
    if (ev.data === "BUILD_COMPLETE" || ev.data.startsWith("BUILD_FAILED")) {
      refreshStatus().catch(() => {});
    } else setBuild("building", "building…", ev.data);
  };
  events.onerror = () => setBuild("offline", "reconnecting…");
}

document.getElementById("search").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const q = document.getElementById("q").value.trim();
  location.hash = link("find", { q });
});

document.addEventListener("keydown", (ev) => {
  const t = ev.target;
  const typing = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement ||
    t instanceof HTMLSelectElement;
  if (ev.key === "/" && !typing) {
    ev.preventDefault();
    document.getElementById("q").focus();
  } else if (ev.key === "Escape" && typing) t.blur();
  else if (ev.key === "g" && !typing) location.hash = "#/";
});

addEventListener("hashchange", () => {
  show().then(() => main.focus({ preventScroll: true }));
});

async function start() {
  state.features = await get("/api/features").catch(() => []);
  watchBuilds();
  await Promise.all([refreshStatus().catch(() => setBuild("offline", "unreachable")), show()]);
}

start();
