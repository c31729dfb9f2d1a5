// Overview: resource types with counts, relation labels, the build, links to the API and apps.
import { get } from "./api.js";
import { h, link } from "./dom.js";

export async function overview() {
  const [summary, info, apps] = await Promise.all([
    get("/api/resources"),
    get("/api/engine-info"),
    get("/api/apps").catch(() => []),
  ]);
  const last = info.last_build;
  const errors = last?.errors || [];
  return [
    h("h1", {}, "Overview"),
    h(
      "p",
      { class: "lead" },
      `Generation ${summary.generation}: ${summary.resources} resources, `,
      `${summary.relations} relations, ${summary.artifacts} artifacts, `,
      `${summary.findings} findings. Built ${summary.built_at || "never"}.`,
    ),
    last && last.status !== "ok"
      ? h(
        "section",
        {
          class: `panel status-${last.status}`,
          id: "build-problems",
          "aria-label": "Build problems",
        },
        h("h2", {}, `Build ${last.generation}: ${last.status}`),
        h("p", {}, last.error || ""),
        errors.length
          ? h(
            "ul",
            {},
            errors.slice(0, 20).map((e) =>
              h("li", {}, `${e.file || ""}${e.line ? `:${e.line}` : ""} ${e.message}`)
            ),
          )
          : null,
      )
      : null,
    h(
      "div",
      { class: "grid" },
      h(
        "section",
        { class: "panel", "aria-labelledby": "types-h" },
        h("h2", { id: "types-h" }, "Resource types"),
        h(
          "table",
          { class: "data", id: "types" },
          h("thead", {}, h("tr", {}, h("th", {}, "type"), h("th", { class: "num" }, "count"))),
          h(
            "tbody",
            {},
            summary.types.map((t) =>
              h(
                "tr",
                {},
                h(
                  "td",
                  {},
                  h("a", { href: link("type", t.type) }, t.type),
                  t.editable ? h("span", { class: "tag", title: "asset type" }, "asset") : null,
                ),
                h("td", { class: "num" }, t.count),
              )
            ),
          ),
        ),
      ),
      h(
        "section",
        { class: "panel", "aria-labelledby": "rels-h" },
        h("h2", { id: "rels-h" }, "Relation types"),
        h(
          "table",
          { class: "data", id: "relation-types" },
          h("thead", {}, h("tr", {}, h("th", {}, "label"), h("th", { class: "num" }, "count"))),
          h(
            "tbody",
            {},
            summary.relation_types.map((t) =>
              h("tr", {}, h("td", {}, t.type), h("td", { class: "num" }, t.count))
            ),
          ),
        ),
      ),
      h(
        "section",
        { class: "panel", "aria-labelledby": "more-h" },
        h("h2", { id: "more-h" }, "Service"),
        h(
          "ul",
          { class: "plain" },
          h("li", {}, `${info.name} ${info.edition} ${info.version}`),
          info.modules.map((m) => h("li", {}, `module ${m.name} ${m.version || ""}`)),
          h("li", {}, h("a", { href: "/graphiql" }, "GraphiQL"), " (POST /graphql)"),
          h("li", {}, h("a", { href: "/api/docs" }, "API description")),
          h("li", {}, h("a", { href: "/api/outputs/index" }, "Output index")),
        ),
        h("h3", {}, "Apps"),
        apps.length
          ? h(
            "ul",
            { class: "plain" },
            apps.map((a) => h("li", {}, h("a", { href: a.path }, a.name))),
          )
          : h("p", { class: "muted" }, "No module serves an app."),
      ),
    ),
  ];
}
