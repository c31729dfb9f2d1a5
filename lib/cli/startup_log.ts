/**
 * Log lines written before the engine's first build (reference CL20): module resolution and
 * fetching, data-directory checks and persisted parameters. They are printed at once through the
 * CLI's logger and kept, so that builds can replay them into their log — the one
 * `/api/build/stream` serves — without the CLI printing them a second time. The first build gets
 * every line; later builds get the warnings and errors again, since they hold for every build
 * (a dependency left out offline stays out), while progress lines happened once.
 *
 * @module
 */

/** A log level of the CLI. */
export type LogLevel = "error" | "warn" | "info" | "debug";

/** Writes one log line (the CLI's edition- and format-aware logger). */
export type LogSink = (level: LogLevel, text: string) => void;

/**
 * Records the lines logged before the first build and replays them into builds.
 *
 * @example
 * ```ts
 * import { StartupLog } from "./startup_log.ts";
 * const printed: string[] = [];
 * const startup = new StartupLog((level, text) => {
 *   if (!startup.replaying) printed.push(`${level} ${text}`);
 * });
 * startup.log("warn", "module: dependency_unavailable: 'net'");
 * startup.log("info", "module: cloning file:///srv/net.git");
 * const stream: string[] = [];
 * startup.replay((level, text) => startup.replaying && stream.push(text));
 * startup.replay((level, text) => startup.replaying && stream.push(text));
 * console.log(printed.length, stream.length); // 2 3 (the info line is replayed once)
 * ```
 */
export class StartupLog {
  #lines: { level: LogLevel; text: string }[] = [];
  #replaying = false;
  #setup = true;
  #print: LogSink;

  /**
   * A log that prints through `print`.
   *
   * @param print the CLI's logger: every line is printed when it is logged.
   */
  constructor(print: LogSink) {
    this.#print = print;
  }

  /**
   * Prints a line now and, until the first {@link StartupLog.replay} (the end of the setup),
   * keeps it for replays. Later lines (e.g. a vault warning during a build) are only printed.
   */
  log: LogSink = (level, text) => {
    if (this.#setup) this.#lines.push({ level, text });
    this.#print(level, text);
  };

  /**
   * Writes the kept lines into `into` (a build's log), then keeps only the warnings and errors
   * for the next build. While it runs, {@link StartupLog.replaying} is true: subscribers that
   * print build lines skip them then.
   */
  replay(into: LogSink): void {
    this.#setup = false;
    const lines = this.#lines;
    this.#lines = lines.filter((l) => l.level === "warn" || l.level === "error");
    this.#replaying = true;
    try {
      for (const l of lines) into(l.level, l.text);
    } finally {
      this.#replaying = false;
    }
  }

  /** Whether {@link StartupLog.replay} is writing lines that were already printed. */
  get replaying(): boolean {
    return this.#replaying;
  }
}
