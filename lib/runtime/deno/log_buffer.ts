/**
 * Buffered log lines on a file descriptor (stderr): lines are gathered and written together once
 * per timer tick, so a request log costs no system call per request. Warnings and errors, a full
 * buffer and the end of the program write at once, in order.
 *
 * @module
 */

/** A writable descriptor, as `Deno.stderr`. */
export interface SyncWriter {
  /** Writes some of `bytes`; returns how many. */
  writeSync(bytes: Uint8Array): number;
}

/** Lines gathered past this many characters are written at once. */
const MAX_PENDING = 64 * 1024;

/**
 * Gathers lines for `out` and writes them together.
 *
 * @example
 * ```ts ignore
 * const buffer = new LogBuffer(Deno.stderr);
 * buffer.line("INFO GET /healthz 200 0.1ms"); // written on the next tick
 * buffer.line("ERROR boom", true); // written now, after the line above
 * ```
 */
export class LogBuffer {
  #pending: string[] = [];
  #size = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #encoder = new TextEncoder();

  /** Where lines go. */
  readonly out: SyncWriter;
  /** How long a line may wait, in ms. */
  readonly delayMs: number;

  /** Lines for `out`, each written at most `delayMs` (default 20) after it was added. */
  constructor(out: SyncWriter, delayMs = 20) {
    this.out = out;
    this.delayMs = delayMs;
    globalThis.addEventListener("unload", () => this.flush());
  }

  /** Adds one line (without its newline); `now` writes it and everything before it at once. */
  line(text: string, now = false): void {
    this.#pending.push(text);
    this.#size += text.length + 1;
    if (now || this.#size >= MAX_PENDING) {
      this.flush();
    } else if (this.#timer === undefined) {
      const timer = setTimeout(() => this.flush(), this.delayMs);
      Deno.unrefTimer(timer);
      this.#timer = timer;
    }
  }

  /** Writes every gathered line. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length === 0) return;
    const bytes = this.#encoder.encode(this.#pending.join("\n") + "\n");
    this.#pending = [];
    this.#size = 0;
    try {
      for (let off = 0; off < bytes.length;) off += this.out.writeSync(bytes.subarray(off));
    } catch { /* stderr closed: nothing to tell */ }
  }
}
