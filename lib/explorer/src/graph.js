// The neighbourhood view: an interactive graph (cytoscape) of a resource and its neighbours to
// depth 1–3; a click on a node expands it, a double click opens it; labels can be filtered.
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

function colourOf(type, types) {
  if (!types.has(type)) types.set(type, PALETTE[types.size % PALETTE.length]);
  return types.get(type);
}

function elementsOf(view, types) {
  return [
    ...view.nodes.map((n) => ({
      group: "nodes",
      data: { id: n.id, label: n.name, type: n.type, colour: colourOf(n.type, types) },
      classes: n.depth === 0 ? "centre" : "",
    })),
    ...view.edges.map((e) => ({ group: "edges", data: { ...e } })),
  ];
}

export async function graphView(ctx, type, name) {
  const depth = Math.min(3, Math.max(1, Number(ctx.query.get("depth") || 1)));
  const labels = ctx.query.getAll("label").flatMap((l) => l.split(",")).filter((l) => l);
  const view = await get("/api/neighbourhood", { type, name, depth, label: labels });
  const dark = matchMedia("(prefers-color-scheme: dark)").matches;
  const types = new Map();
  const box = h("div", {
    id: "cy",
    class: "cy",
    role: "img",
    "aria-label": `Graph of ${view.nodes.length} resources around ${type} ${name}`,
  });
  const status = h("p", { class: "muted", id: "graph-status", "aria-live": "polite" });
  const go = (q) => location.hash = link("graph", type, name, q);
  const controls = h(
    "form",
    { class: "filters", onsubmit: (ev) => ev.preventDefault() },
    h(
      "label",
      {},
      "Depth ",
      h(
        "select",
        {
          name: "depth",
          onchange: (ev) => go({ depth: ev.target.value, label: labels.join(",") || undefined }),
        },
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
              go({ depth, label: on.length === boxes.length ? undefined : on.join(",") || "-" });
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
    h("details", {}, h("summary", {}, "Resources as a list"), list),
  ];
  // cytoscape measures its container: draw once the view is in the document.
  requestAnimationFrame(() => {
    if (!ctx.stale()) draw({ box, view, types, dark, status, legend, list, labels });
  });
  return page;
}

function draw({ box, view, types, dark, status, legend, list, labels }) {
  const cy = cytoscape({
    container: box,
    elements: elementsOf(view, types),
    style: [
      {
        selector: "node",
        style: {
          "background-color": "data(colour)",
          label: "data(label)",
          color: dark ? "#e8e8e8" : "#222",
          "font-size": 10,
          "text-valign": "bottom",
          "text-margin-y": 3,
          width: 18,
          height: 18,
        },
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
          "font-size": 8,
          color: dark ? "#bbb" : "#555",
          "text-rotation": "autorotate",
        },
      },
    ],
    layout: { name: "cose", animate: false, nodeDimensionsIncludeLabels: true, randomize: false },
  });
  const refreshSide = () => {
    status.textContent = `${cy.nodes().length} resources, ${cy.edges().length} relations.`;
    legend.replaceChildren(
      ...[...types].map(([t, c]) =>
        h("li", {}, h("span", { class: "swatch", style: `background:${c}` }), ` ${t}`)
      ),
    );
    list.replaceChildren(
      ...cy.nodes().map((n) =>
        h("li", {}, h("a", { href: link("r", n.data("type"), n.data("label")) }, n.id()))
      ),
    );
  };
  const follow = labels.filter((l) => l !== "-");
  cy.on("tap", "node", async (ev) => {
    const node = ev.target;
    if (node.data("expanded")) return;
    node.data("expanded", true);
    try {
      const more = await get("/api/neighbourhood", {
        type: node.data("type"),
        name: node.data("label"),
        depth: 1,
        label: follow,
      });
      const fresh = elementsOf(more, types).filter((el) => cy.getElementById(el.data.id).empty());
      fresh.forEach((el) => (el.classes = ""));
      cy.add(fresh);
      cy.layout({
        name: "cose",
        animate: false,
        nodeDimensionsIncludeLabels: true,
        randomize: false,
      }).run();
      refreshSide();
    } catch (e) {
      status.textContent = e.message;
    }
  });
  cy.on(
    "dbltap",
    "node",
    (ev) => location.hash = link("r", ev.target.data("type"), ev.target.data("label")),
  );
  refreshSide();
  box.dataset.ready = "true";
}
