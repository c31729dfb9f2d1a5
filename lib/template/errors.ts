/**
 * Errors of the template engine. Every failure (syntax or render) surfaces as a
 * {@link TemplateError} naming the template, the 1-based line and column and an excerpt of the
 * offending line with a caret.
 * @module
 */

/** A syntax or render error, located in the template source. */
export class TemplateError extends Error {
  /** Name of the template (`"template"` when the caller gave none). */
  readonly templateName: string;
  /** 1-based line of the offending construct. */
  readonly line: number;
  /** 1-based column (in UTF-16 code units) of the offending construct. */
  readonly column: number;
  /** The message without the location and excerpt. */
  readonly reason: string;
  /** `"syntax"` for parse errors, `"render"` for errors while rendering. */
  readonly kind: "syntax" | "render";
  /**
   * Stable code: `"budget_exceeded"` when a render ran out of its evaluation budget (steps,
   * output or value size), otherwise the same as {@link kind}.
   */
  readonly code: string;

  /** Creates the error with a caret excerpt of the offending line. */
  constructor(
    kind: "syntax" | "render",
    reason: string,
    templateName: string,
    source: string,
    offset: number,
    options?: { cause?: unknown; code?: string },
  ) {
    const { line, column, text } = locate(source, offset);
    const gutter = String(line).length;
    const excerpt = `${" ".repeat(gutter)} |\n${line} | ${text}\n${" ".repeat(gutter)} | ${
      " ".repeat(Math.max(0, column - 1))
    }^`;
    super(
      `${
        kind === "syntax" ? "Syntax error" : "Render error"
      } in '${templateName}' at ${line}:${column}: ${reason}\n${excerpt}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "TemplateError";
    this.code = options?.code ?? kind;
    this.templateName = templateName;
    this.line = line;
    this.column = column;
    this.reason = reason;
    this.kind = kind;
  }
}

function locate(source: string, offset: number): { line: number; column: number; text: string } {
  const at = Math.max(0, Math.min(offset, source.length));
  let line = 1;
  let start = 0;
  for (let i = 0; i < at; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  let end = source.indexOf("\n", start);
  if (end < 0) end = source.length;
  return { line, column: at - start + 1, text: source.slice(start, end).replace(/\r$/, "") };
}

/** Internal: a render failure not yet tied to a location. */
export class RenderFailure extends Error {
  /** Source offset, when known. */
  pos: number;
  constructor(message: string, pos = -1, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RenderFailure";
    this.pos = pos;
  }
}

/** Internal: a syntax failure at a source offset. */
export class SyntaxFailure extends Error {
  constructor(message: string, readonly pos: number) {
    super(message);
    this.name = "SyntaxFailure";
  }
}
