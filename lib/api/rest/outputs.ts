/**
 * Output artifacts over REST (reference OU20–OU34): `GET /api/outputs/index` and
 * `GET /api/outputs/{type}/{name}/{filename}[/download]`, served from the current snapshot.
 *
 * @module
 */
import type { Hono } from "hono";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { GraphEngine, Snapshot } from "../../engine.ts";
import type { Artifact } from "../../pipeline/context.ts";
import { compareStrings } from "../../graph/graph.ts";
import { problem } from "../problem.ts";
import { ARTIFACT_CSP } from "../security.ts";

/** Media types a browser displays without running anything: the only ones served inline. */
const INLINE_SAFE = new Set([
  "text/plain",
  "text/csv",
  "text/markdown",
  "text/x-markdown",
  "application/json",
  "application/yaml",
  "application/x-yaml",
  "text/yaml",
  "application/toml",
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
]);

/** One entry of the output index (spec §2.3). */
export interface OutputIndexEntry {
  /** Download path, each segment percent-encoded. */
  download_url: string;
  /** Output resource type. */
  type: string;
  /** Output resource name (primary key). */
  name: string;
  /** Download file name. */
  filename: string;
  /** MIME type. */
  mimetype: string;
  /** `sha256-` + lowercase hex SHA-256 of the body bytes. */
  hash: string;
  /** Origin resource, or `null` for global outputs. */
  origin: { type: string; name: string } | null;
}

const encoder = new TextEncoder();
const indexes = new WeakMap<Snapshot, OutputIndexEntry[]>();

/** Downloadable artifacts of a snapshot: both `filename` and `mimetype` present. */
function downloadable(snapshot: Snapshot): Artifact[] {
  return snapshot.artifacts.filter((a) => a.filename && a.mimetype);
}

/** The output index of a snapshot, ordered by type then name (computed once per snapshot). */
export function outputIndex(snapshot: Snapshot): OutputIndexEntry[] {
  let index = indexes.get(snapshot);
  if (index) return index;
  index = downloadable(snapshot)
    .map((a) => ({
      download_url: `/api/outputs/${
        [a.type, a.name, a.filename!].map(encodeURIComponent).join("/")
      }`,
      type: a.type,
      name: a.name,
      filename: a.filename!,
      mimetype: a.mimetype!,
      hash: `sha256-${bytesToHex(sha256(encoder.encode(a.body)))}`,
      origin: a.origin ? { type: a.origin.type, name: a.origin.name } : null,
    }))
    .sort((x, y) => compareStrings(x.type, y.type) || compareStrings(x.name, y.name));
  indexes.set(snapshot, index);
  return index;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Registers the output index and download routes. */
export function registerOutputRoutes(app: Hono, engine: GraphEngine): void {
  app.get("/api/outputs/index", (c) => {
    const originType = c.req.query("origin_type");
    const originName = c.req.query("origin_name");
    const type = c.req.query("type");
    const entries = outputIndex(engine.current).filter((e) =>
      (originType === undefined || e.origin?.type === originType) &&
      (originName === undefined || e.origin?.name === originName) &&
      (type === undefined || e.type === type)
    );
    return Response.json(entries);
  });
  app.get("/api/outputs/*", (c) => {
    // Split the raw path so that `%2F` inside a segment stays part of that segment (OU32).
    const raw = c.req.path.slice("/api/outputs/".length).split("/");
    let attachment = false;
    if (raw.length === 4 && raw[3] === "download") {
      attachment = true;
      raw.pop();
    }
    if (raw.length !== 3) {
      return problem(404, "not-found", "expected /api/outputs/{type}/{name}/{filename}");
    }
    const [type, name, filename] = raw.map(decodeSegment);
    if (type === undefined || name === undefined || filename === undefined) {
      return problem(400, "bad-request", "path segments are not valid percent-encoding");
    }
    const artifact = downloadable(engine.current).find((a) => a.type === type && a.name === name);
    if (!artifact) return problem(404, "not-found", `no downloadable output ${type} '${name}'`);
    if (artifact.filename !== filename) {
      return problem(404, "not-found", `output ${type} '${name}' has no file '${filename}'`);
    }
    const mimetype = artifact.mimetype!;
    const contentType = mimetype.startsWith("text/") && !mimetype.includes("charset")
      ? `${mimetype}; charset=utf-8`
      : mimetype;
    const safeName = filename.replace(/["\\\r\n]/g, "_");
    // Artifacts are user-templated: anything a browser could execute on the API origin (HTML,
    // SVG, XML, JavaScript, unknown types) is an attachment, and every artifact is sandboxed.
    const inline = !attachment && INLINE_SAFE.has(mimetype.split(";")[0].trim().toLowerCase());
    return new Response(artifact.body, {
      headers: {
        "content-type": contentType,
        "content-disposition": `${inline ? "inline" : "attachment"}; filename="${safeName}"`,
        "content-security-policy": ARTIFACT_CSP,
        "x-content-type-options": "nosniff",
      },
    });
  });
}
