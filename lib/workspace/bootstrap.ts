/**
 * Bootstrap (reference MP34–MP36, CL16): starter data of the data directory's own manifest and of
 * every module is copied into the authoritative data directory, never overwriting a file that is
 * there. Sources, first in load order winning: `[assets."f.csv"].bootstrap` → `assets/f.csv`,
 * `[inputs."x.json"].bootstrap` (or `[input.…]`) → `input/x.json`, and a module's own files
 * under `assets/` and `input/` → the same path. An asset counts as present when any CSV below
 * `assets/` has its base name (declarations address files by base name: public_dns declares
 * `a.csv` and keeps it in `assets/inventx/a.csv`).
 *
 * @module
 */
import { ParseError } from "../formats/errors.ts";
import { listAssetFiles } from "./asset_files.ts";
import { parseTomlDocument } from "./manifest.ts";
import { type LayerSource, loadLayer } from "./sources.ts";
import type { Workspace } from "./workspace.ts";

/** What bootstrap did for one target file. */
export interface BootstrapLine {
  /** Data-directory path, e.g. `assets/auth.csv`. */
  path: string;
  /** `created` (written now) or `kept` (the data directory already has it). */
  action: "created" | "kept";
  /** The layer whose data it is (`data` for the data directory's own manifest). */
  from: string;
}

/** Result of {@link bootstrapDataDir}. */
export interface BootstrapResult {
  /** One line per target file, in load order. */
  lines: BootstrapLine[];
  /** A file bootstrapped by two layers: the first wins, the others are named here (MP36). */
  warnings: string[];
}

interface Candidate {
  path: string;
  text: string;
  from: string;
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Strips the one leading newline of a TOML multi-line string (MP36). */
function bootstrapText(text: string): string {
  return text.startsWith("\r\n") ? text.slice(2) : text.startsWith("\n") ? text.slice(1) : text;
}

/** Bootstrap entries of one manifest text (unparseable manifests are the build's to report). */
function manifestCandidates(text: string | undefined, file: string, from: string): Candidate[] {
  if (text === undefined) return [];
  let doc: Record<string, unknown>;
  try {
    doc = parseTomlDocument(text, file);
  } catch (e) {
    if (e instanceof ParseError) return [];
    throw e;
  }
  const out: Candidate[] = [];
  const add = (folder: string, table: unknown) => {
    if (!isTable(table)) return;
    for (const [name, spec] of Object.entries(table)) {
      if (!isTable(spec) || typeof spec.bootstrap !== "string") continue;
      if (name.includes("/") || name.includes("\\") || name === ".." || name === "") continue;
      out.push({ path: `${folder}/${name}`, text: bootstrapText(spec.bootstrap), from });
    }
  };
  add("assets", doc.assets);
  add("input", doc.inputs);
  add("input", doc.input);
  return out;
}

/**
 * Writes the starter data that is missing from the data directory; returns what it did.
 *
 * @example
 * ```ts
 * import { MemoryWorkspace } from "./memory.ts";
 * import { bootstrapDataDir } from "./bootstrap.ts";
 * const data = new MemoryWorkspace({
 *   "module.toml": "[assets.\"site.csv\"]\nbootstrap = '''\nname\nzrh\n'''\n",
 * });
 * const { lines } = await bootstrapDataDir(data);
 * console.log(lines); // [{ path: "assets/site.csv", action: "created", from: "data" }]
 * ```
 */
export async function bootstrapDataDir(
  dataDir: Workspace,
  modules: readonly LayerSource[] = [],
): Promise<BootstrapResult> {
  const candidates: Candidate[] = [];
  for (const m of modules) {
    const layer = await loadLayer(m.id, m.workspace, false);
    candidates.push(...manifestCandidates(layer.manifestText, `${m.id}/module.toml`, m.id));
    for (const [path, text] of layer.files) {
      if (path.startsWith("assets/") || path.startsWith("input/")) {
        candidates.push({ path, text, from: m.id });
      }
    }
  }
  candidates.push(
    ...manifestCandidates(await dataDir.readText("module.toml"), "module.toml", "data"),
  );

  const assetBaseNames = new Set(
    (await listAssetFiles(dataDir)).map((f) => f.slice(f.lastIndexOf("/") + 1)),
  );
  const lines: BootstrapLine[] = [];
  const warnings: string[] = [];
  const decided = new Map<string, string>();
  for (const c of candidates) {
    const first = decided.get(c.path);
    if (first !== undefined) {
      if (first !== c.from) {
        warnings.push(`${c.path}: bootstrap data of '${c.from}' ignored; '${first}' comes first`);
      }
      continue;
    }
    decided.set(c.path, c.from);
    const base = c.path.slice(c.path.lastIndexOf("/") + 1);
    const present = (await dataDir.readText(c.path)) !== undefined ||
      (c.path.startsWith("assets/") && c.path.endsWith(".csv") && assetBaseNames.has(base));
    if (present) {
      lines.push({ path: c.path, action: "kept", from: c.from });
      continue;
    }
    await dataDir.writeTextAtomic(c.path, c.text);
    lines.push({ path: c.path, action: "created", from: c.from });
  }
  return { lines, warnings };
}
