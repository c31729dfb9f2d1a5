/**
 * Composition checks of manifests merged across layers (reference MP25, MP33, MP43; issue 11):
 * - `param_conflict` (error): the `allowed_values` of one parameter, declared by several layers,
 *   have an empty intersection;
 * - `module_conflict` (error): two layers declare the same asset file (or two files of the same
 *   type) with a column whose `type` or `required` differs, or two modules give one asset file
 *   a different `resource_type`, `name_template` or `match_on`; the other columns are merged
 *   (union, manifest.ts);
 * - `declaration_overridden` (warning): the data directory declares an asset, input or parameter
 *   default that a module, loaded first, already declared differently, so the module's wins.
 *
 * Errors are configuration errors: the command line exits 2 before any phase runs (CL21); a
 * build reports them as structural errors.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { AssetDeclaration, ModuleManifest, ParamDeclaration } from "./manifest.ts";

/** One composition problem (see `ModuleManifest.composition`). */
export type CompositionIssue = ModuleManifest["composition"][number];

function who(layer: string): string {
  return layer === "data" ? "the data directory" : `module '${layer}'`;
}

const same = (a: JsonValue | undefined, b: JsonValue | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

/** Collects composition issues while mergeManifests walks the layers in load order. */
export class DeclarationTracker {
  readonly #out: CompositionIssue[];
  readonly #files = new Map<string, string>();
  /** Layers that declared `allowed_values` of a parameter. */
  readonly #allowedBy = new Map<string, string[]>();

  /** @param out where issues are appended */
  constructor(out: CompositionIssue[]) {
    this.#out = out;
  }

  /** Notes the manifest file of layer `id`. */
  layer(id: string, file: string): void {
    this.#files.set(id, file);
  }

  /**
   * A second declaration `decl` of a parameter already declared as `prev` (not merged yet).
   * Reports an empty `allowed_values` intersection (MP25) and a data directory default that
   * the module's default overrides.
   */
  param(prev: ParamDeclaration, decl: ParamDeclaration, file: string): void {
    const by = this.#allowedBy.get(prev.name) ?? (prev.allowedValues ? [prev.layer] : []);
    if (prev.allowedValues && decl.allowedValues) {
      const common = prev.allowedValues.filter((v) => decl.allowedValues!.some((w) => same(v, w)));
      if (common.length === 0) {
        this.#out.push({
          code: "param_conflict",
          severity: "error",
          file,
          message: `parameter '${prev.name}': allowed_values ${
            JSON.stringify(decl.allowedValues)
          } of ${who(decl.layer)} and ${JSON.stringify(prev.allowedValues)} of ${
            by.map(who).join(" and ")
          } have no value in common`,
        });
      }
    }
    if (decl.allowedValues) this.#allowedBy.set(prev.name, [...by, decl.layer]);
    if (
      decl.layer === "data" && decl.default !== undefined && prev.default !== undefined &&
      !same(decl.default, prev.default)
    ) {
      this.#out.push({
        code: "declaration_overridden",
        severity: "warning",
        file,
        message: `parameter '${prev.name}': the default ${
          JSON.stringify(decl.default)
        } of the data directory is overridden by ${JSON.stringify(prev.default)} of ${
          who(prev.layer)
        } (loaded first); pass the value with --module-params instead`,
      });
    }
  }

  /**
   * An asset declaration `decl`; `prev` is the one already merged for the same file (MP33).
   * Columns are merged (manifest.ts), so only a column declared differently conflicts. A
   * differing `resource_type`, `name_template` or `match_on` is a `module_conflict` between two
   * modules; declared by the data directory it is `declaration_overridden` (the module, loaded
   * first, wins).
   */
  asset(prev: AssetDeclaration | undefined, decl: AssetDeclaration, file: string): void {
    if (!prev) return;
    this.#compareColumns(prev, decl, file, `asset '${decl.file}'`);
    const stem = (d: AssetDeclaration) => d.file.replace(/\.csv$/i, "").split("/").pop()!;
    const differs = [
      (prev.resourceType ?? stem(prev)) !== (decl.resourceType ?? stem(decl)) && "resource_type",
      prev.nameTemplate !== decl.nameTemplate && "name_template",
      !same(prev.matchOn, decl.matchOn) && "match_on",
    ].filter((k): k is string => k !== false);
    if (differs.length === 0) return;
    const keys = differs.map((k) => `'${k}'`).join(", ");
    if (decl.layer === "data") {
      this.#out.push({
        code: "declaration_overridden",
        severity: "warning",
        file,
        message: `asset '${decl.file}': ${keys} of the data directory's declaration ` +
          `overridden by the one of ${who(prev.layer)} (loaded first)`,
      });
      return;
    }
    this.#out.push({
      code: "module_conflict",
      severity: "error",
      file,
      message:
        `asset '${decl.file}': ${who(prev.layer)} and ${
          who(decl.layer)
        } declare ${keys} differently; declare shared assets once, or state expectations ` +
        `with [requirements.<type>]`,
    });
  }

  /** An input declaration of `fileName` by layer `layerId`; `prev` the one already merged. */
  input(
    fileName: string,
    prev: Record<string, JsonValue> | undefined,
    spec: Record<string, JsonValue>,
    layerId: string,
    file: string,
  ): void {
    if (prev && layerId === "data" && !same(prev, spec)) {
      this.#out.push({
        code: "declaration_overridden",
        severity: "warning",
        file,
        message: `input '${fileName}': the declaration of the data directory is overridden by ` +
          `a module's declaration (loaded first)`,
      });
    }
  }

  /** After every layer: different files that map to one type must agree on columns (MP33). */
  finish(assets: ReadonlyMap<string, AssetDeclaration>): void {
    const byType = new Map<string, AssetDeclaration>();
    for (const decl of assets.values()) {
      const type = decl.resourceType ?? decl.file.replace(/\.csv$/i, "").split("/").pop()!;
      const first = byType.get(type);
      if (!first) byType.set(type, decl);
      else if (first.layer !== decl.layer) {
        this.#compareColumns(
          first,
          decl,
          this.#files.get(decl.layer) ?? "module.toml",
          `type '${type}' (assets '${first.file}' and '${decl.file}')`,
        );
      }
    }
  }

  #compareColumns(a: AssetDeclaration, b: AssetDeclaration, file: string, what: string): void {
    for (const [col, spec] of b.columns) {
      const other = a.columns.get(col);
      if (!other) continue;
      const diff = other.type !== spec.type
        ? `type '${other.type}' vs '${spec.type}'`
        : other.required !== spec.required
        ? `required ${other.required} vs ${spec.required}`
        : undefined;
      if (diff === undefined) continue;
      this.#out.push({
        code: "module_conflict",
        severity: "error",
        file,
        message:
          `${what}, column '${col}': ${who(a.layer)} and ${
            who(b.layer)
          } declare it differently (${diff}); declare shared types once, or state expectations ` +
          `with [requirements.<type>]`,
      });
    }
  }
}
