/**
 * JSON Schemas (built with TypeBox) of the bodies the REST API takes and answers, shared by the
 * route table (routes.ts) and, where a body's shape is checked at run time, by the handlers.
 * Object schemas allow further properties: they describe what a client can rely on.
 *
 * @module
 */
import Type from "typebox";

const open = { additionalProperties: true } as const;

/** A problem document (RFC 9457; reference R90). */
export const Problem = Type.Object({
  type: Type.String({ description: "urn:graphsvc:problem:<slug>" }),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
}, { ...open, description: "application/problem+json error body (R90)" });

/** A scalar cell or parameter value. */
export const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

/** `{"<param>": value, …}`: a module parameter update (R21). */
export const ModuleParamsUpdate = Type.Record(Type.String(), Scalar, {
  description: 'parameter name → new value (null or "" resets an optional one)',
});

/** One module parameter with its declaration (R20). */
export const ModuleParam = Type.Object({
  value: Scalar,
  default: Type.Optional(Scalar),
  allowed_values: Type.Optional(Type.Array(Scalar)),
  required: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String()),
  module: Type.Optional(Type.String()),
}, open);

/** `GET /api/module-params` (R20) and the answer to an update (R21, plus `generation`). */
export const ModuleParams = Type.Record(Type.String(), ModuleParam);

/** A JSON object of field values for a row (R10–R13). */
export const RowFields = Type.Record(
  Type.String(),
  Type.Union([Scalar, Type.Array(Scalar)]),
  { description: "column → value; arrays of scalars become comma-separated cells (R13)" },
);

/** The answer of a write: what was written and the generation that will contain it. */
export const WriteResult = Type.Object({
  generation: Type.Integer({ description: "the build generation that will contain the write" }),
}, open);

/** `multipart/form-data` of an asset file write (R3–R4). */
export const AssetForm = Type.Object({
  data: Type.Optional(Type.String({ description: "the whole CSV file (alone)" })),
  update: Type.Optional(Type.String({ description: "CSV rows to upsert by primary key" })),
  remove: Type.Optional(Type.String({ description: "CSV of primary keys to delete" })),
});

/** The validation report (R30). */
export const ValidationReport = Type.Object({
  error_count: Type.Integer(),
  warning_count: Type.Integer(),
  info_count: Type.Integer(),
  issues: Type.Array(Type.Object({
    severity: Type.Union([
      Type.Literal("error"),
      Type.Literal("warning"),
      Type.Literal("info"),
    ]),
    code: Type.String(),
    message: Type.String(),
  }, open)),
}, open);

/** `GET /api/engine-info` (R61). */
export const EngineInfo = Type.Object({
  name: Type.Literal("graphsvc"),
  edition: Type.Union([Type.Literal("ce"), Type.Literal("ee")]),
  version: Type.String(),
  is_publishing: Type.Boolean(),
  building: Type.Boolean(),
  generation: Type.Integer(),
  last_error: Type.Union([Type.String(), Type.Null()]),
  last_build: Type.Union([Type.Object({}, open), Type.Null()]),
  modules: Type.Array(Type.Object({
    name: Type.String(),
    version: Type.Optional(Type.String()),
    source: Type.Optional(Type.String()),
  }, open)),
}, open);

/** One downloadable output artifact (OU20). */
export const OutputEntry = Type.Object({
  download_url: Type.String(),
  type: Type.String(),
  name: Type.String(),
  filename: Type.String(),
  mimetype: Type.String(),
  hash: Type.String({ description: "sha256-<hex> of the file" }),
  origin: Type.Union([Type.Object({ type: Type.String(), name: Type.String() }), Type.Null()]),
});

/** A JSON array of strings. */
export const StringList = Type.Array(Type.String());

/** Any JSON object (bodies described in prose). */
export const AnyObject = Type.Object({}, open);

/** Any JSON array of objects. */
export const ObjectList = Type.Array(AnyObject);

/** Liveness and readiness answers. */
export const ProbeStatus = Type.Object({
  status: Type.String(),
  generation: Type.Optional(Type.Integer()),
});
