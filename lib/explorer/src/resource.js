// The resource page: properties (editable for asset rows), relations grouped by label with edge
// properties, artifacts, compliance entries, rule issues, sources and the files (asset, rules)
// that created or changed it.
import { get, resourcePath, rowPath, write } from "./api.js";
import { h, link, notice, resourceLink, text } from "./dom.js";

function groupByLabel(list) {
  const groups = new Map();
  for (const rel of list) {
    if (!groups.has(rel.label)) groups.set(rel.label, []);
    groups.get(rel.label).push(rel);
  }
  return groups;
}

function edgeProps(props) {
  const entries = Object.entries(props || {});
  if (entries.length === 0) return null;
  return h(
    "dl",
    { class: "edge-props" },
    entries.map(([k, v]) => [h("dt", {}, k), h("dd", {}, text(v))]),
  );
}

function relations(title, id, list, total) {
  const groups = groupByLabel(list);
  return h(
    "section",
    { class: "panel", id, "aria-labelledby": `${id}-h` },
    h("h2", { id: `${id}-h` }, `${title} (${total})`),
    total > list.length ? notice("info", `Showing the first ${list.length}.`) : null,
    groups.size === 0 ? h("p", { class: "muted" }, "None.") : null,
    [...groups].map(([label, rels]) =>
      h(
        "div",
        { class: "rel-group" },
        h("h3", {}, label, h("span", { class: "muted" }, ` ${rels.length}`)),
        h(
          "ul",
          { class: "plain" },
          rels.map((r) =>
            h(
              "li",
              {},
              h("span", { class: "tag" }, r.type),
              " ",
              resourceLink(r.type, r.name),
              edgeProps(r.properties),
            )
          ),
        ),
      )
    ),
  );
}

function propertyRow(detail, key, value, editable, reload) {
  const cell = h("td", { class: "value" }, text(value));
  const row = h("tr", { "data-key": key }, h("th", { scope: "row" }, key), cell);
  if (!editable || key === "name") {
    row.append(h("td", { class: "actions" }));
    return row;
  }
  const button = h(
    "button",
    { type: "button", class: "small", "aria-label": `edit ${key}` },
    "Edit",
  );
  button.addEventListener("click", () => {
    const input = h("input", { name: key, value: text(value), "aria-label": key });
    const error = h("span", { class: "field-error", role: "alert", id: `err-${key}` });
    const form = h(
      "form",
      {
        class: "edit",
        onsubmit: async (ev) => {
          ev.preventDefault();
          form.querySelector("button[type=submit]").disabled = true;
          try {
            await write("PUT", rowPath(detail.editable.asset, detail.name), { [key]: input.value });
            await reload();
          } catch (e) {
            error.textContent = e.message;
            input.setAttribute("aria-invalid", "true");
            input.setAttribute("aria-describedby", error.id);
            form.querySelector("button[type=submit]").disabled = false;
            input.focus();
          }
        },
        onkeydown: (ev) => {
          if (ev.key === "Escape") reload();
        },
      },
      input,
      h("button", { type: "submit", class: "small" }, "Save"),
      h("button", { type: "button", class: "small", onclick: () => reload() }, "Cancel"),
      error,
    );
    cell.replaceChildren(form);
    input.focus();
    input.select();
  });
  row.append(h("td", { class: "actions" }, button));
  return row;
}

function properties(detail, ctx, reload) {
  const canWrite = detail.editable && ctx.state.features.includes("admin_assets");
  const columns = new Set(detail.editable?.columns || []);
  const keys = Object.keys(detail.properties);
  if (canWrite) { for (const c of columns) if (!keys.includes(c)) keys.push(c); }
  return h(
    "section",
    { class: "panel props-panel", "aria-labelledby": "props-h" },
    h("h2", { id: "props-h" }, "Properties"),
    h(
      "table",
      { class: "data props", id: "properties" },
      h(
        "tbody",
        {},
        keys.map((k) =>
          propertyRow(detail, k, detail.properties[k], canWrite && columns.has(k), reload)
        ),
      ),
    ),
    canWrite
      ? h(
        "p",
        {},
        h("button", {
          type: "button",
          class: "danger",
          onclick: async (ev) => {
            if (!confirm(`Delete the ${detail.type} row '${detail.name}'?`)) return;
            try {
              await write("DELETE", rowPath(detail.editable.asset, detail.name));
              location.hash = link("type", detail.type);
            } catch (e) {
              ev.target.after(notice("error", e.message));
            }
          },
        }, "Delete row"),
      )
      : null,
  );
}

function artifacts(list) {
  return h(
    "section",
    { class: "panel", id: "artifacts", "aria-labelledby": "art-h" },
    h("h2", { id: "art-h" }, `Output artifacts (${list.length})`),
    list.length === 0 ? h("p", { class: "muted" }, "None.") : h(
      "ul",
      { class: "plain" },
      list.map((a) =>
        h(
          "li",
          {},
          h("a", { href: a.download_url }, a.filename),
          " ",
          h("a", { href: `${a.download_url}/download`, download: a.filename }, "download"),
          h("span", { class: "muted" }, ` ${a.type}/${a.name} · ${a.mimetype}`),
        )
      ),
    ),
  );
}

function controls(list) {
  return h(
    "section",
    { class: "panel", id: "controls", "aria-labelledby": "ctl-h" },
    h("h2", { id: "ctl-h" }, `Compliance (${list.length})`),
    list.length === 0 ? h("p", { class: "muted" }, "No control applies.") : h(
      "ul",
      { class: "plain" },
      list.map((c) => {
        const e = typeof c.entry === "object" && c.entry ? c.entry : { control_id: text(c.entry) };
        return h(
          "li",
          {},
          h("strong", {}, e.control_id || "control"),
          ` ${e.control_name || ""}`,
          e.audit_id ? h("span", { class: "tag" }, e.audit_id) : null,
          h("div", { class: "muted" }, `${e.evidence_summary || ""} (on ${c.on})`),
        );
      }),
    ),
  );
}

const KIND_TEXT = {
  created: "created it",
  changed: "set properties",
  linked: "related it",
  compliance: "compliance",
};

function provenance(detail) {
  const rules = detail.provenance || [];
  if (detail.sources.length === 0 && detail.issues.length === 0 && rules.length === 0) {
    return null;
  }
  return h(
    "section",
    { class: "panel", id: "provenance", "aria-labelledby": "prov-h" },
    h("h2", { id: "prov-h" }, "Build"),
    detail.sources.length ? h("p", {}, "From ", detail.sources.join(", ")) : null,
    rules.length
      ? h(
        "ul",
        { class: "plain", id: "rules", "aria-label": "Files that created or changed it" },
        rules.map((p) =>
          h(
            "li",
            { "data-kind": p.kind },
            h("code", {}, p.rule),
            " ",
            h("span", { class: "tag" }, KIND_TEXT[p.kind] || p.kind),
          )
        ),
      )
      : null,
    detail.issues.length
      ? h("ul", { class: "issues" }, detail.issues.map((i) => h("li", {}, i)))
      : null,
  );
}

export async function resourceView(ctx, type, name) {
  const detail = await get(resourcePath(type, name));
  const root = h("div", { class: "resource" });
  const draw = (d) => {
    root.replaceChildren(
      h(
        "div",
        { class: "title-row" },
        h("h1", {}, h("span", { class: "tag type" }, d.type), " ", d.name),
        h(
          "a",
          { class: "button", href: link("graph", d.type, d.name), accesskey: "n" },
          "Neighbourhood",
        ),
        h("a", { class: "button", href: link("type", d.type) }, `All ${d.type}`),
      ),
      h(
        "div",
        { class: "grid" },
        properties(d, ctx, reload),
        relations("Outgoing", "outgoing", d.outgoing, d.outgoing_total),
        relations("Incoming", "incoming", d.incoming, d.incoming_total),
        controls(d.controls),
        artifacts(d.artifacts),
        provenance(d),
      ),
    );
  };
  const reload = async () => {
    try {
      draw(await get(resourcePath(type, name)));
    } catch (e) {
      root.replaceChildren(notice("error", e.message));
    }
  };
  draw(detail);
  return root;
}
