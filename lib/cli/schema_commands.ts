/**
 * The schema commands of the command line (reference CL12, CL13, CL15, SV41–SV43, SV50–SV52):
 * `validate`, `mod check-schema` and (CE only) `generate-schema`. Input and output go through a
 * {@link SchemaCommandIO} port, so this module stays free of runtime APIs; `cli.ts` wires it with
 * one call of {@link registerSchemaCommands}.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { envOption } from "./env_options.ts";
import type { GraphEngine } from "../engine.ts";
import { buildGraph } from "../pipeline/build.ts";
import { defaultPhases } from "../pipeline/phases.ts";
import { type LayerSource, loadSourceSet, type SourceSet } from "../workspace/sources.ts";
import { prepareSchemaTexts, validateWorkspace } from "../schema/validate.ts";
import { formatReportSyslog, formatReportText } from "../schema/report.ts";
import { generateSchema } from "../schema/generate.ts";
import type { SchemaFetcher } from "../schema/sources.ts";
import type { BuildResult } from "../pipeline/build.ts";

/** Files, streams and process facts the commands need. */
export interface SchemaCommandIO {
  /** Reads a file (`--schema`); rejects when it cannot. */
  readFile(path: string): Promise<string>;
  /** Writes a file (`--output`). */
  writeFile(path: string, text: string): Promise<void>;
  /** Writes command results. */
  stdout(text: string): void;
  /** Writes diagnostics. */
  stderr(text: string): void;
  /** Reads remote schema locations (Git, HTTP, files outside the module folders). */
  fetcher?: SchemaFetcher;
  /** Host name for EE syslog lines. */
  hostname(): string;
  /** Process id for EE syslog lines. */
  pid: number;
  /** The current time. */
  now(): Date;
}

/** What the commands need from the CLI around them. */
export interface SchemaCommandDeps {
  /** `ce` or `ee`: `generate-schema` exists in CE only; EE prints syslog lines. */
  edition: "ce" | "ee";
  /** The process exit code (set by the commands: 0, 1 or 2, SV41). */
  exit: { code: number };
  /** Creates the engine from the global options (usage errors are thrown as the CLI's own). */
  engine(): Promise<GraphEngine>;
  /** Runtime IO. */
  io: SchemaCommandIO;
  /**
   * Log lines (the CLI's edition- and `--log-format`-aware logger, CL20); default: `LEVEL text`
   * lines on {@link SchemaCommandIO.stderr}.
   */
  log?: (level: "error" | "warn" | "info" | "debug", text: string) => void;
}

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

interface GlobalOpts {
  module?: string[];
  maxLoop?: number;
  removeOrphanedAssets?: boolean;
}

/**
 * Builds the workspace in memory without generators or write-back (SV30) and returns the
 * sources with the build result.
 */
async function buildInMemory(
  engine: GraphEngine,
  opts: GlobalOpts,
): Promise<{ sources: SourceSet; result: BuildResult }> {
  const modules = (engine as unknown as { modules?: readonly LayerSource[] }).modules ?? [];
  const sources = await loadSourceSet(engine.workspace, [...modules]);
  const result = buildGraph(sources, {
    params: { ...engine.params },
    maxLoop: opts.maxLoop,
    removeOrphanedAssets: opts.removeOrphanedAssets ?? false,
    createTemplates: (p) => engine.createTemplates(p),
    phases: defaultPhases,
  });
  return { sources, result };
}

/**
 * Registers `validate`, `mod check-schema` and (CE) `generate-schema` on `program`.
 *
 * @example
 * ```ts ignore
 * registerSchemaCommands(program, { edition, exit, engine: () => createEngine(opts), io });
 * ```
 */
export function registerSchemaCommands(program: Command, deps: SchemaCommandDeps): void {
  const { io } = deps;
  const addValidate = (cmd: Command) =>
    cmd
      .addOption(envOption("--schema <file>", "use only this schema (ignore every declared one)"))
      .addOption(
        envOption("--strict-schemas", "check CSV cells and edge values; warnings become errors"),
      )
      .addOption(
        envOption("--format <format>", "report format").choices(["text", "json"]).default("text"),
      )
      .action(async (cmdOpts: { schema?: string; strictSchemas?: boolean; format?: string }) => {
        await runValidate(program, deps, cmdOpts);
      });

  addValidate(
    program.command("validate").description(
      "build in memory and validate module footprints against schemas (exit 1 on errors)",
    ) as unknown as Command,
  );
  const mod = (program.commands.find((c) => c.name() === "mod") as Command | undefined) ??
    (program.command("mod").description("module sub-commands") as unknown as Command);
  addValidate(
    mod.command("check-schema").description(
      "same as validate, from the module sub-command",
    ) as unknown as Command,
  );

  if (deps.edition !== "ce") return;
  program
    .command("generate-schema")
    .description("write a starter schema for the given (comma-separated) resource types")
    .argument("[types]", "comma-separated resource types (default: all inferred)")
    .addOption(envOption("--output <file>", "write the schema to this file (default: stdout)"))
    .addOption(envOption("--schema-id <id>", "schema_id (default: the module name)"))
    .addOption(envOption("--schema-version <version>", "version (default: the module version)"))
    .action(async (types, cmdOpts) => {
      const opts = program.opts() as GlobalOpts;
      const engine = await deps.engine();
      const { sources, result } = await buildInMemory(engine, opts);
      const single = (opts.module ?? []).length === 1 ? sources.modules[0]?.id : undefined;
      const wanted = (types ?? "").split(",").map((t) => t.trim()).filter((t) => t !== "");
      const today = io.now().toISOString().slice(0, 10).replaceAll("-", "");
      const g = generateSchema(
        { sources, graph: result.graph, manifest: result.manifest, assets: result.assets },
        {
          types: wanted,
          schemaId: cmdOpts.schemaId,
          version: cmdOpts.schemaVersion,
          module: single,
          today,
        },
      );
      const log = deps.log ??
        ((level: string, text: string) => io.stderr(`${level.toUpperCase()} ${text}\n`));
      for (const t of g.unknownTypes) {
        log("warn", `generate-schema: unknown resource type '${t}' (not inferred)`);
      }
      if (cmdOpts.output) {
        await io.writeFile(cmdOpts.output, g.text);
        log("info", `wrote ${cmdOpts.output}`);
      } else io.stdout(g.text);
    });
}

async function runValidate(
  program: Command,
  deps: SchemaCommandDeps,
  cmdOpts: { schema?: string; strictSchemas?: boolean; format?: string },
): Promise<void> {
  const { io } = deps;
  let override: { origin: string; text: string } | undefined;
  if (cmdOpts.schema !== undefined) {
    try {
      override = { origin: cmdOpts.schema, text: await io.readFile(cmdOpts.schema) };
    } catch (e) {
      io.stderr(`error: --schema '${cmdOpts.schema}' cannot be read: ${(e as Error).message}\n`);
      deps.exit.code = EXIT_USAGE;
      return;
    }
  }
  const engine = await deps.engine();
  const { sources, result } = await buildInMemory(engine, program.opts() as GlobalOpts);
  const texts = override
    ? undefined
    : await prepareSchemaTexts(sources, result.manifest, io.fetcher);
  const report = validateWorkspace(
    {
      sources,
      graph: result.graph,
      manifest: result.manifest,
      assets: result.assets,
      buildIssues: result.issues,
      buildFailed: result.outcome === "failed",
    },
    { strict: cmdOpts.strictSchemas === true, override, texts },
  );
  if (cmdOpts.format === "json") io.stdout(JSON.stringify(report, null, 2) + "\n");
  else if (deps.edition === "ee") {
    io.stdout(formatReportSyslog(report, { host: io.hostname(), pid: io.pid, now: io.now() }));
  } else io.stdout(formatReportText(report));
  deps.exit.code = report.error_count > 0 ? EXIT_FAILED : 0;
}
