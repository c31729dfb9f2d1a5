/**
 * The apps a server hosts (reference AP1–AP2, AP13, R62): one per layer (module or data
 * directory) with an `app/` folder, with its `proxy.toml` routes. Recomputed once per published
 * generation: dynamic routes (`origin_resource`) are expanded over that generation's graph.
 *
 * @module
 */
import type { Graph, JsonValue } from "../graph/graph.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { LayerSource } from "../workspace/sources.ts";
import type { ModuleManifest } from "../workspace/manifest.ts";
import type { TemplateRenderer } from "../pipeline/context.ts";
import { evaluateCondition } from "../pipeline/rules/conditions.ts";
import { resourceView } from "../pipeline/rules/view.ts";
import { type AppSource, PROXY_FILE } from "./files.ts";
import { normalizeRoutePath, parseProxyToml, type RouteSpec } from "./proxy_config.ts";
import { type EnvReader, expandEnv } from "./substitute.ts";

/** What the registry needs from the engine (a `GraphEngine` fits). */
export interface AppHost {
  /** The published snapshot. */
  readonly current: {
    readonly generation: number;
    readonly graph: Graph;
    readonly manifest: ModuleManifest;
    readonly params: Readonly<Record<string, JsonValue>>;
  };
  /** The data directory. */
  readonly workspace: Workspace;
  /** Module layers in load order. */
  readonly modules: readonly LayerSource[];
  /** Creates a template renderer with the engine's filters (`hmac_sha256`, …). */
  createTemplates(params: Readonly<Record<string, JsonValue>>): TemplateRenderer;
}

/** A route ready to serve: path and target expanded (dynamic routes: one per origin). */
export interface ConcreteRoute {
  /** The declaration. */
  readonly spec: RouteSpec;
  /** Concrete path prefix below the mount (normalised). */
  readonly path: string;
  /** Target with build-time templates rendered; `${env.X}` is left for request time. */
  readonly target: string;
  /** The origin resource of a dynamic route. */
  readonly origin?: { readonly type: string; readonly name: string };
}

/** One hosted app. */
export interface AppMount {
  /** Files and identity. */
  readonly source: AppSource;
  /** Routes, best match first: longest path, then declaration order (AP11). */
  readonly routes: readonly ConcreteRoute[];
  /** Problems with `proxy.toml` (its routes are disabled, AP18). */
  readonly warnings: readonly string[];
}

/** Everything the apps of one generation need. */
export interface AppSet {
  /** Generation the set was computed for. */
  readonly generation: number;
  /** Apps in mount order: modules in load order, then the data directory. */
  readonly apps: readonly AppMount[];
  /** Parameter values of the generation (`params` of request-time templates). */
  readonly params: Readonly<Record<string, JsonValue>>;
  /** Template renderer for request-time templates. */
  readonly templates: TemplateRenderer;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

/** A module is rooted at `data/` when only `data/module.toml` exists (MP2). */
async function appFolder(ws: Workspace, isDataDir: boolean): Promise<string> {
  if (isDataDir) return "app";
  if ((await ws.readText("module.toml").catch(() => undefined)) !== undefined) return "app";
  if ((await ws.readText("data/module.toml").catch(() => undefined)) !== undefined) {
    return "data/app";
  }
  return "app";
}

/**
 * Computes and caches the {@link AppSet} of the host's current generation.
 *
 * @example
 * ```ts ignore
 * const registry = new AppRegistry(engine, { env: () => undefined });
 * const { apps } = await registry.current();
 * ```
 */
export class AppRegistry {
  readonly #host: AppHost;
  readonly #env: EnvReader;
  readonly #warn: (text: string) => void;
  #cached: { generation: number; set: Promise<AppSet> } | undefined;

  /** @param host the engine @param options environment reader and warning sink */
  constructor(
    host: AppHost,
    options: { env: EnvReader; warn?: (text: string) => void },
  ) {
    this.#host = host;
    this.#env = options.env;
    this.#warn = options.warn ?? ((t) => console.warn(`WARN ${t}`));
  }

  /** The app set of the current generation (computed once per generation). */
  current(): Promise<AppSet> {
    const generation = this.#host.current.generation;
    if (this.#cached?.generation !== generation) {
      const set = this.#compute();
      set.catch(() => {
        if (this.#cached?.set === set) this.#cached = undefined;
      });
      this.#cached = { generation, set };
    }
    return this.#cached.set;
  }

  async #compute(): Promise<AppSet> {
    const snapshot = this.#host.current;
    const templates = this.#host.createTemplates(snapshot.params);
    const used = new Set<string>();
    const apps: AppMount[] = [];
    const layers = [
      ...this.#host.modules.map((m) => ({ id: m.id, workspace: m.workspace, isDataDir: false })),
      { id: "data", workspace: this.#host.workspace, isDataDir: true },
    ];
    for (const layer of layers) {
      const folder = await appFolder(layer.workspace, layer.isDataDir);
      const files = await layer.workspace.listFiles(folder).catch(() => []);
      if (files.length === 0) continue;
      const declared = snapshot.manifest.modules.find((m) => m.layer === layer.id)?.name;
      let id = layer.isDataDir ? (declared ? slug(declared) : "") || "data" : layer.id;
      const base = id;
      for (let n = 2; used.has(id) || id === "runs"; n++) id = `${base}-${n}`;
      used.add(id);
      const source: AppSource = {
        id,
        name: declared ?? id,
        workspace: layer.workspace,
        folder,
        isDataDir: layer.isDataDir,
      };
      const { routes, warnings } = await this.#routes(source, snapshot, templates);
      for (const w of warnings) this.#warn(w);
      apps.push({ source, routes, warnings });
    }
    return { generation: snapshot.generation, apps, params: snapshot.params, templates };
  }

  async #routes(
    source: AppSource,
    snapshot: AppHost["current"],
    templates: TemplateRenderer,
  ): Promise<{ routes: ConcreteRoute[]; warnings: string[] }> {
    const file = `${source.folder}/${PROXY_FILE}`;
    const display = source.isDataDir ? file : `${source.id}/${file}`;
    let text: string | undefined;
    try {
      text = await source.workspace.readText(file);
    } catch (e) {
      return { routes: [], warnings: [`${display}: ${(e as Error).message}; routes disabled`] };
    }
    if (text === undefined) return { routes: [], warnings: [] };
    let specs: RouteSpec[];
    try {
      specs = parseProxyToml(text, display);
    } catch (e) {
      return {
        routes: [],
        warnings: [`${(e as Error).message}; the app's proxy routes are disabled`],
      };
    }
    const routes: ConcreteRoute[] = [];
    const warnings: string[] = [];
    const envWarn = (name: string) =>
      warnings.push(`${display}: environment variable ${name} is not set (expands to "")`);
    try {
      for (const spec of specs) {
        if (!spec.originResource) {
          routes.push({
            spec,
            path: normalizeRoutePath(expandEnv(spec.path, this.#env, envWarn)),
            target: spec.target,
          });
          continue;
        }
        const graph = snapshot.graph;
        for (const resource of graph.resourcesOfSorted(spec.originResource)) {
          const context = {
            ...snapshot.params,
            params: snapshot.params,
            origin_resource: resourceView(graph, resource),
          };
          const render = (s: string, key: string) =>
            templates.render(s, context, `${display}: route[${spec.index}].${key}`);
          if (spec.matchOn && !evaluateCondition(spec.matchOn, resource, { graph, render })) {
            continue;
          }
          routes.push({
            spec,
            path: normalizeRoutePath(expandEnv(render(spec.path, "path"), this.#env, envWarn)),
            target: render(spec.target, "target"),
            origin: { type: resource.type, name: resource.name },
          });
        }
      }
    } catch (e) {
      return {
        routes: [],
        warnings: [`${display}: ${(e as Error).message}; the app's proxy routes are disabled`],
      };
    }
    routes.sort((a, b) => b.path.length - a.path.length || a.spec.index - b.spec.index);
    return { routes, warnings };
  }
}
