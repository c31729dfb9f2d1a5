/** Engine version, reported by `--version`, `/api/engine-info` and the http runner's user agent. */
export const VERSION = "0.1.0";
