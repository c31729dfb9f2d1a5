/**
 * Reading a child process's output line by line (action runs, exec generators).
 *
 * @module
 */

/**
 * Calls `onLine` with each line of `stream` (UTF-8; `\n` or `\r\n` endings, without them), the
 * last unterminated line included. With `ignoreErrors`, a stream that fails (a cancelled run)
 * ends the reading quietly, after the line read so far; otherwise the error is thrown.
 *
 * @example
 * ```ts
 * import { readLines } from "./lines.ts";
 * const lines: string[] = [];
 * await readLines(new Blob(["a\r\nb\nc"]).stream(), (l) => lines.push(l));
 * console.log(lines); // ["a", "b", "c"]
 * ```
 */
export async function readLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
  options: { ignoreErrors?: boolean } = {},
): Promise<void> {
  let buffer = "";
  try {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        onLine(buffer.slice(0, nl).replace(/\r$/, ""));
        buffer = buffer.slice(nl + 1);
      }
    }
  } catch (e) {
    if (!options.ignoreErrors) throw e;
  }
  if (buffer !== "") onLine(buffer);
}
