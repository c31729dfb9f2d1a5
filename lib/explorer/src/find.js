// Find: the server-side search over all types, and the sortable, filterable table of one type.
import { get, rowPath, write } from "./api.js";
import { h, link, notice, resourceLink, text } from "./dom.js";

const PAGE = 50;

function pager(total, offset, limit, go) {
  const last = Math.max(0, total - 1);
  return h(
    "nav",
    { class: "pager", "aria-label": "Pages" },
    h("button", {
      type: "button",
      disabled: offset <= 0,
      onclick: () => go(Math.max(0, offset - limit)),
    }, "← Previous"),
    h("span", {}, total ? `${offset + 1}–${Math.min(total, offset + limit)} of ${total}` : "none"),
    h("button", {
      type: "button",
      disabled: offset + limit > last,
      onclick: () => go(offset + limit),
    }, "Next →"),
  );
}

export async function findView(ctx) {
  const q = ctx.query.get("q") || "";
  const type = ctx.query.get("type") || "";
  const offset = Number(ctx.query.get("offset") || 0);
  const input = document.getElementById("q");
  if (input && document.activeElement !== input) input.value = q;
  const [page, summary] = await Promise.all([
    get("/api/search", { q, type, offset, limit: PAGE }),
    get("/api/resources"),
  ]);
  const go = (o) => location.hash = link("find", { q, type, offset: o || undefined });
  return [
    h("h1", {}, q ? `Search: ${q}` : "All resources"),
    h(
      "form",
      {
        class: "filters",
        onsubmit: (ev) => {
          ev.preventDefault();
          const f = new FormData(ev.target);
          location.hash = link("find", { q: f.get("q"), type: f.get("type") });
        },
      },
      h("label", {}, "Text ", h("input", { name: "q", type: "search", value: q })),
      h(
        "label",
        {},
        "Type ",
        h(
          "select",
          { name: "type" },
          h("option", { value: "" }, "all types"),
          summary.types.map((t) =>
            h("option", { value: t.type, selected: t.type === type }, t.type)
          ),
        ),
      ),
      h("button", { type: "submit" }, "Search"),
    ),
    h(
      "p",
      { class: "muted", id: "result-count" },
      `${page.total}${page.total_exact ? "" : "+"} matches`,
    ),
    h(
      "table",
      { class: "data", id: "results" },
      h("thead", {}, h("tr", {}, ["type", "name", "matched", "value"].map((c) => h("th", {}, c)))),
      h(
        "tbody",
        {},
        page.items.map((hit) =>
          h(
            "tr",
            {},
            h("td", {}, h("a", { href: link("type", hit.type) }, hit.type)),
            h("td", {}, resourceLink(hit.type, hit.name)),
            h("td", {}, hit.field),
            h("td", { class: "value" }, hit.value),
          )
        ),
      ),
    ),
    pager(page.total, offset, PAGE, go),
  ];
}

function addRowForm(type, columns) {
  const error = h("p", { class: "field-error", role: "alert" });
  const inputs = columns.map((c) => h("input", { name: c, "aria-label": c, placeholder: c }));
  return h(
    "details",
    { class: "panel" },
    h("summary", {}, `Add a ${type} row`),
    h(
      "form",
      {
        class: "edit add-row",
        onsubmit: async (ev) => {
          ev.preventDefault();
          const fields = {};
          for (const i of inputs) if (i.value !== "") fields[i.name] = i.value;
          try {
            const r = await write("POST", rowPath(type), fields);
            location.hash = link("r", type, r.name || fields.name);
          } catch (e) {
            error.textContent = e.message;
            const bad = inputs.find((i) => i.name === e.problem?.field);
            if (bad) {
              bad.setAttribute("aria-invalid", "true");
              bad.focus();
            }
          }
        },
      },
      h("div", { class: "row-fields" }, inputs.map((i) => h("label", {}, i.name, i))),
      h("button", { type: "submit" }, "Add row"),
      error,
    ),
  );
}

export async function tableView(ctx, type) {
  const q = ctx.query;
  const sort = q.get("sort") || "name";
  const desc = q.get("desc") === "1";
  const offset = Number(q.get("offset") || 0);
  const filters = {};
  for (const [k, v] of q) if (k.startsWith("f.")) filters[k] = v;
  const page = await get(`/api/resources/${encodeURIComponent(type)}`, {
    sort,
    desc: desc ? 1 : undefined,
    offset,
    limit: PAGE,
    ...filters,
  });
  const state = (extra) =>
    link("type", type, {
      sort: sort === "name" ? undefined : sort,
      desc: desc ? 1 : undefined,
      ...filters,
      ...extra,
    });
  const summary = await get("/api/resources");
  const editable = summary.types.find((t) => t.type === type)?.editable &&
    ctx.state.features.includes("admin_assets");
  const filterRow = h(
    "tr",
    { class: "filter-row" },
    page.columns.map((c) =>
      h(
        "td",
        {},
        h("input", {
          type: "search",
          "aria-label": `filter ${c}`,
          placeholder: "filter",
          value: filters[`f.${c}`] || "",
          "data-column": c,
          onkeydown: (ev) => {
            if (ev.key !== "Enter") return;
            ev.preventDefault();
            const f = { ...filters, [`f.${c}`]: ev.target.value || undefined };
            location.hash = link("type", type, {
              sort: sort === "name" ? undefined : sort,
              desc: desc ? 1 : undefined,
              ...f,
            });
          },
        }),
      )
    ),
  );
  return [
    h("h1", {}, type),
    h(
      "p",
      { class: "muted" },
      `${page.total} resources. Click a column to sort; type in a filter and press Enter.`,
    ),
    editable ? addRowForm(type, page.columns) : null,
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "data", id: "type-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            page.columns.map((c) =>
              h(
                "th",
                { "aria-sort": c === sort ? (desc ? "descending" : "ascending") : undefined },
                h(
                  "a",
                  {
                    href: state({
                      sort: c === "name" ? undefined : c,
                      desc: c === sort && !desc ? 1 : undefined,
                    }),
                  },
                  c,
                  c === sort ? (desc ? " ▼" : " ▲") : "",
                ),
              )
            ),
          ),
          filterRow,
        ),
        h(
          "tbody",
          {},
          page.rows.map((row) =>
            h(
              "tr",
              {},
              page.columns.map((c) =>
                h("td", {}, c === "name" ? resourceLink(type, row.name) : text(row[c]))
              ),
            )
          ),
        ),
      ),
    ),
    page.total === 0 ? notice("info", "No resource matches the filters.") : null,
    pager(page.total, offset, PAGE, (o) => location.hash = state({ offset: o || undefined })),
  ];
}
