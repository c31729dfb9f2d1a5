/**
 * Helpers of the fleet tests and bench: a bare Git repository served by `git daemon`, graphsvc
 * primaries and replicas started as real processes, and Debian's haproxy in front, all on
 * loopback with free ports.
 */
import { type ServeProcess, spawnServe } from "../cli/_cli.ts";

/** A free loopback TCP port (the listener is closed again at once). */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Runs git; throws with its stderr on failure. */
export async function git(args: string[], cwd?: string): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/** Whether a command exists on PATH. */
export async function has(command: string): Promise<boolean> {
  try {
    const out = await new Deno.Command("sh", {
      args: ["-c", `command -v ${command}`],
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success;
  } catch {
    return false;
  }
}

/** A bare repository `repo.git` seeded with `files` on branch `main`, served by `git daemon`. */
export interface GitRemote {
  /** `git://127.0.0.1:<port>/repo.git`. */
  url: string;
  /** The bare repository's directory. */
  bare: string;
  /** A file's text at the tip of `main`. */
  show(path: string): Promise<string>;
  /** Stops the daemon. */
  stop(): Promise<void>;
}

/** Creates and serves the remote. */
export async function startRemote(files: Record<string, string>): Promise<GitRemote> {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-fleet-remote-" });
  const seed = `${root}/seed`;
  await Deno.mkdir(`${seed}`, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    const full = `${seed}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  await git(["init", "-q", "-b", "main"], seed);
  await git(["add", "-A"], seed);
  await git(["-c", "user.name=seed", "-c", "user.email=seed@x", "commit", "-qm", "seed"], seed);
  const bare = `${root}/repo.git`;
  await git(["clone", "-q", "--bare", seed, bare]);
  const port = freePort();
  const daemon = new Deno.Command("git", {
    args: [
      "daemon",
      "--reuseaddr",
      "--export-all",
      "--enable=receive-pack",
      `--base-path=${root}`,
      "--listen=127.0.0.1",
      `--port=${port}`,
      root,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `git://127.0.0.1:${port}/repo.git`;
  for (let i = 0; i < 100; i++) {
    try {
      await git(["ls-remote", url]);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    bare,
    show: (path) => git(["--git-dir", bare, "show", `main:${path}`]),
    async stop() {
      try {
        daemon.kill("SIGTERM");
      } catch { /* gone */ }
      await daemon.status;
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
}

/** The environment of every fleet server: no token or remote from whoever runs the tests. */
export const QUIET_ENV = { GRAPHSVC_API_TOKEN: "", GIT_SYNC_URL: "" };

/** Starts one fleet member on `port` with a (possibly existing) data directory. */
export function startMember(
  dir: string,
  port: number,
  args: string[],
  balancerPort?: number,
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const hosts = [`127.0.0.1:${port}`, ...(balancerPort ? [`127.0.0.1:${balancerPort}`] : [])];
  return spawnServe(dir, [...hosts.flatMap((h) => ["--allowed-host", h]), ...args], {
    port,
    env: { ...QUIET_ENV, ...env },
    waitForBuild: true,
  });
}

/** A running haproxy. */
export interface Balancer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Stops it. */
  stop(): Promise<void>;
}

/** The haproxy configuration balancing `servers` (name → port) with /readyz health checks. */
export function haproxyConfig(port: number, servers: Record<string, number>): string {
  return [
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode http",
    "  timeout connect 1s",
    "  timeout client 30s",
    "  timeout server 30s",
    "  retries 2",
    "  option redispatch",
    "frontend graph",
    `  bind 127.0.0.1:${port}`,
    "  default_backend fleet",
    "backend fleet",
    "  balance roundrobin",
    "  option httpchk",
    `  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host 127.0.0.1:${port}`,
    "  http-check expect status 200",
    ...Object.entries(servers).map(([name, p]) =>
      `  server ${name} 127.0.0.1:${p} check inter 200 fall 2 rise 1`
    ),
    "",
  ].join("\n");
}

/** Starts haproxy in the foreground with {@link haproxyConfig}. */
export async function startBalancer(
  port: number,
  servers: Record<string, number>,
): Promise<Balancer> {
  const dir = await Deno.makeTempDir({ prefix: "graphsvc-fleet-haproxy-" });
  await Deno.writeTextFile(`${dir}/haproxy.cfg`, haproxyConfig(port, servers));
  const child = new Deno.Command("haproxy", {
    args: ["-db", "-f", `${dir}/haproxy.cfg`],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      const r = await fetch(`${url}/readyz`);
      await r.body?.cancel();
      if (r.status === 200) break;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** `{ host { name rev } }` on `base`, optionally with `Graphsvc-Min-Commit`. */
export async function readHosts(
  base: string,
  minCommit?: string,
): Promise<{ status: number; commit: string | null; rows: Record<string, string> }> {
  const res = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(minCommit ? { "graphsvc-min-commit": minCommit } : {}),
    },
    body: JSON.stringify({ query: "{ host { name rev } }" }),
  });
  const body = await res.json();
  const rows: Record<string, string> = {};
  for (const h of body?.data?.host ?? []) rows[h.name] = h.rev;
  return { status: res.status, commit: res.headers.get("graphsvc-commit"), rows };
}

/** `PUT /api/mutations/host/<name>` with `{ rev }`. */
export async function writeRev(
  base: string,
  name: string,
  rev: string,
): Promise<{ status: number; commit: string | null; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/api/mutations/host/${name}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rev }),
  });
  let body: Record<string, unknown> = {};
  try {
    body = await res.json();
  } catch { /* no JSON (a balancer's page) */ }
  return { status: res.status, commit: res.headers.get("graphsvc-commit"), body };
}

/** `host.csv` with `rows` hosts `h0`…, every `rev` 0. */
export function seedHosts(rows: number): Record<string, string> {
  let text = "name,os,rev\n";
  for (let i = 0; i < rows; i++) text += `h${i},linux,0\n`;
  return { "assets/host.csv": text };
}
