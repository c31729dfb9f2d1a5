/** Engine version, reported by `--version`, `/api/engine-info` and the http runner's user agent. */
export const VERSION = "0.1.0";
/**
 * The version of the original engine whose modules graphsvc loads: `rescile_version`
 * constraints of module manifests are checked against it (reference MP4, MP6). At least the
 * highest that a published module requires (0.1.195).
 */
export const RESCILE_VERSION = "0.1.195";
