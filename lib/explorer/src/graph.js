// The neighbourhood view: an interactive graph (cytoscape) of a resource and its neighbours to
// depth 1–3; a click on a node (or its Expand button in the list) expands it, a double click (or
// its link in the list) opens it; labels can be filtered. The URL holds the depth, the labels and
// the expanded nodes, so a deep link shows the same graph.
import cytoscape from "./cytoscape.js";
import { get } from "./api.js";
import { h, link, notice } from "./dom.js";

const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
];

const LAYOUT = {
  name: "cose",
  animate: false,
  nodeDimensionsIncludeLabels: true,
  randomize: false,
};

function colourOf(type, types) {
  if (!types.has(type)) types.set(type, PALETTE[types.size % PALETTE.length]);
  return types.get(type);
}

function elementsOf(view, types, centre) {
  return [
    ...view.nodes.map((n) => ({
      group: "nodes",
      data: { id: n.id, label: n.name, type: n.type, colour: colourOf(n.type, types) },
      classes: n.id === centre ? "centre" : "",
    })),
    ...view.edges.map((e) => ({ group: "edges", data: { ...e } })),
  ];
}

/** "type/name" → [type, name] (types have no "/", names may). */
function splitId(id) {
  const i = id.indexOf("/");
  return i > 0 ? [id.slice(0, i), id.slice(i + 1)] : [id, ""];
}

/** The neighbours of one node along `labels` (["-"]: none; []: all). */
function around(type, name, labels) {
  return get("/api/neighbourhood", { type, name, depth: 1, label: labels });
}

/** Adds the nodes, edges and labels of `more` that `into` lacks. */
function merge(into, more) {
  const nodes = new Set(into.nodes.map((n) => n.id));
  const edges = new Set(into.edges.map((e) => e.id));
  into.nodes.push(...more.nodes.filter((n) => !nodes.has(n.id)));
  into.edges.push(...more.edges.filter((e) => !edges.has(e.id)));
  into.labels = [...new Set([...into.labels, ...more.labels])].sort();
  into.truncated ||= more.truncated;
}

export async function graphView(ctx, type, name) {
  const depth = Math.min(3, Math.max(1, Number(ctx.query.get("depth") || 1)));
  // "-": every label unchecked (follow none); no label parameter: follow all.
  const labels = ctx.query.getAll("label").flatMap((l) => l.split(",")).filter((l) => l);
  const centre = `${type}/${name}`;
  const expanded = new Set(ctx.query.getAll("expand").filter((id) => id.includes("/")));
  const view = await get("/api/neighbourhood", { type, name, depth, label: labels });
  // The nodes expanded before (deep link), in the order they were expanded: the neighbours of
  // each one the graph shows join it before it is drawn (one hidden by the label filter stays
  // in the URL, for when the filter allows it again).
  for (const id of expanded) {
    if (!view.nodes.some((n) => n.id === id)) continue;
    const more = await around(...splitId(id), labels).catch(() => undefined);
    if (more) merge(view, more);
  }
  const dark = matchMedia("(prefers-color-scheme: dark)").matches;
  const types = new Map();
  const box = h("div", {
    id: "cy",
    class: "cy",
    role: "img",
    "aria-label": `Graph of ${view.nodes.length} resources around ${type} ${name}`,
  });
  const status = h("p", { class: "muted", id: "graph-status", "aria-live": "polite" });
  const state = (q) => ({
    depth: q.depth ?? depth,
    label: (q.labels ?? labels).join(",") || undefined,
    expand: [...expanded],
  });
  const go = (q) => location.hash = link("graph", type, name, state(q));
  const controls = h(
    "form",
    { class: "filters", onsubmit: (ev) => ev.preventDefault() },
    h(
      "label",
      {},
      "Depth ",
      h(
        "select",
        { name: "depth", onchange: (ev) => go({ depth: Number(ev.target.value) }) },
        [1, 2, 3].map((d) => h("option", { value: d, selected: d === depth }, d)),
      ),
    ),
    h(
      "fieldset",
      { class: "labels" },
      h("legend", {}, "Relation labels"),
      view.labels.map((l) =>
        h(
          "label",
          {},
          h("input", {
            type: "checkbox",
            value: l,
            checked: labels.length === 0 || labels.includes(l),
            onchange: (ev) => {
              const boxes = [...ev.target.form.querySelectorAll(".labels input")];
              const on = boxes.filter((b) => b.checked).map((b) => b.value);
              go({ labels: on.length === boxes.length ? [] : on.length ? on : ["-"] });
            },
          }),
          ` ${l}`,
        )
      ),
    ),
  );
  const legend = h("ul", { class: "legend" });
  const list = h("ul", { class: "plain node-list", "aria-label": "Resources in the graph" });
  const page = [
    h(
      "div",
      { class: "title-row" },
      h("h1", {}, `Neighbourhood of ${name}`),
      h("a", { class: "button", href: link("r", type, name) }, "Resource page"),
    ),
    controls,
    view.truncated ? notice("info", `Showing the first ${view.nodes.length} resources.`) : null,
    box,
    status,
    legend,
    h(
      "details",
      { id: "node-list" },
      h("summary", {}, "Resources as a list (expand or open with the keyboard)"),
      list,
    ),
  ];
  const graph = { ctx, box, view, types, dark, status, legend, list, labels, centre, expanded };
  graph.saveState = () => ctx.replaceQuery(state({}));
  // cytoscape measures its container: draw once the view is in the document.
  requestAnimationFrame(() => {
    if (!ctx.stale()) draw(graph);
  });
  return page;
}

function styles(dark) {
  return [
    {
      selector: "node",
      style: {
        "background-color": "data(colour)",
        label: "data(label)",
        color: dark ? "#e8e8e8" : "#222",
        "font-size": 12,
        "text-valign": "bottom",
        "text-margin-y": 3,
        width: 18,
        height: 18,
      },
    },
    {
      selector: "node.expanded",
      style: { "border-width": 2, "border-color": dark ? "#ccc" : "#444" },
    },
    {
      selector: "node.centre",
      style: { width: 28, height: 28, "border-width": 3, "border-color": dark ? "#fff" : "#000" },
    },
    { selector: "node:selected", style: { "border-width": 3, "border-color": "#ff0" } },
    {
      selector: "edge",
      style: {
        width: 1.2,
        "line-color": dark ? "#777" : "#aaa",
        "target-arrow-color": dark ? "#777" : "#aaa",
        "target-arrow-shape": "triangle",
        "curve-style": "bezier",
        label: "data(label)",
        "font-size": 9,
        color: dark ? "#bbb" : "#555",
        "text-rotation": "autorotate",
      },
    },
  ];
}

function draw(graph) {
  const { ctx, box, view, types, dark, status, legend, list, labels, centre, expanded } = graph;
  const cy = cytoscape({
    container: box,
    elements: elementsOf(view, types, centre),
    style: styles(dark),
    layout: LAYOUT,
    // A graph of a few nodes is not blown up to fill the box.
    maxZoom: 2.5,
  });
  // The instance, for tests and the browser console: document.getElementById("cy").cy.
  box.cy = cy;
  cy.nodes().forEach((n) => {
    if (expanded.has(n.id())) n.addClass("expanded");
  });
  const isExpanded = (n) => n.id() === centre || n.hasClass("expanded");
  const refreshSide = () => {
    status.textContent = `${cy.nodes().length} resources, ${cy.edges().length} relations.`;
    box.setAttribute(
      "aria-label",
      `Graph of ${cy.nodes().length} resources around ${centre}`,
    );
    legend.replaceChildren(
      ...[...types].map(([t, c]) =>
        h("li", {}, h("span", { class: "swatch", style: `background:${c}` }), ` ${t}`)
      ),
    );
    list.replaceChildren(
      ...cy.nodes().map((n) =>
        h(
          "li",
          { "data-id": n.id() },
          h("a", { href: link("r", n.data("type"), n.data("label")) }, n.id()),
          h("button", {
            type: "button",
            class: "small",
            disabled: isExpanded(n),
            "aria-label": `expand ${n.id()}`,
            onclick: () => expand(n),
          }, isExpanded(n) ? "Expanded" : "Expand"),
        )
      ),
    );
  };
  const expand = async (node) => {
    if (isExpanded(node) || node.data("expanding")) return;
    node.data("expanding", true);
    const hadFocus = list.contains(document.activeElement);
    try {
      const more = await around(node.data("type"), node.data("label"), labels);
      if (ctx.stale()) return;
      const fresh = elementsOf(more, types, centre).filter((el) =>
        cy.getElementById(el.data.id).empty()
      );
      cy.add(fresh);
      node.addClass("expanded");
      expanded.add(node.id());
      cy.layout(LAYOUT).run();
      refreshSide();
      graph.saveState();
      if (hadFocus) list.querySelector(`li[data-id="${CSS.escape(node.id())}"] a`)?.focus();
    } catch (e) {
      status.textContent = e.message;
    } finally {
      node.data("expanding", false);
    }
  };
  cy.on("tap", "node", (ev) => expand(ev.target));
  cy.on(
    "dbltap",
    "node",
    (ev) => location.hash = link("r", ev.target.data("type"), ev.target.data("label")),
  );
  refreshSide();
  box.dataset.ready = "true";
}
