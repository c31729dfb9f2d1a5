/**
 * Helpers of the explorer's browser tests: a real `cli.ts serve` process on a temporary copy of
 * a workspace, and Debian's headless Chromium driven by puppeteer-core (no browser download).
 */
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { ROOT, spawnServe } from "../cli/_cli.ts";

/** Where setup (scripts/setup-oracles.sh) installs Chromium. */
export const CHROMIUM = Deno.env.get("GRAPHSVC_CHROMIUM") ?? "/usr/bin/chromium";

/** Why the browser tests cannot run here, or `undefined` when they can. */
export function missingBrowser(): string | undefined {
  try {
    Deno.statSync(CHROMIUM);
    return undefined;
  } catch {
    return `no Chromium at ${CHROMIUM} (install Debian's chromium: scripts/setup-oracles.sh)`;
  }
}

/** A running `cli.ts serve`. */
export interface Server {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The copied data directory. */
  dataDir: string;
  /** Stops the process and removes the copy. */
  close(): Promise<void>;
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(`${from}/${e.name}`, `${to}/${e.name}`);
    else if (e.isFile) await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}

/** Extra options of {@link serve}. */
export interface ServeExtras {
  /** Arguments after `serve` (e.g. `--protect-writes`). */
  args?: string[];
  /** Environment variables added for the server (e.g. `GRAPHSVC_API_TOKEN`). */
  env?: Record<string, string>;
  /**
   * Rebuild when a file of the copy changes (default false). Off, a write through the API builds
   * once; on, the watcher also sees the written file and publishes a second generation, which
   * re-renders the page at a moment the test does not control.
   */
  watch?: boolean;
}

/**
 * Copies `source` to a temporary directory, lets `prepare` adjust the copy, then serves it with
 * `cli.ts --data-dir <copy> serve` on a free loopback port and waits until it is ready.
 */
export async function serve(
  source: string,
  prepare?: (dir: string) => Promise<void>,
  extras: ServeExtras = {},
): Promise<Server> {
  const dataDir = await Deno.makeTempDir({ prefix: "explorer-" });
  await copyDir(source, dataDir);
  await prepare?.(dataDir);
  const server = await spawnServe(dataDir, extras.args ?? [], {
    watch: extras.watch ?? false,
    env: { NO_COLOR: "1", ...extras.env },
  });
  let exited = false;
  server.child.status.then(() => (exited = true));
  for (let i = 0;; i++) {
    try {
      const res = await fetch(`${server.url}/readyz`);
      await res.body?.cancel();
      if (res.ok) break;
    } catch { /* not ready yet */ }
    if (exited || i > 300) {
      await server.stop();
      throw new Error(`the server did not become ready:\n${server.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: server.url,
    dataDir,
    async close() {
      await server.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** A browser page that records console errors, page errors and every requested URL. */
export interface Session {
  /** The browser. */
  browser: Browser;
  /** The page. */
  page: Page;
  /** Console messages of type error and uncaught page errors. */
  errors: string[];
  /** Every URL the page requested. */
  requests: string[];
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** Launches headless Chromium with a fresh profile and nothing that phones home. */
export async function launch(): Promise<Session> {
  const profile = await Deno.makeTempDir({ prefix: "explorer-chromium-" });
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
    ],
  });
  const page = await browser.newPage();
  // Generous bounds: the tests also run while the whole suite loads a small machine.
  page.setDefaultTimeout(60_000);
  page.setDefaultNavigationTimeout(60_000);
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()} ${m.location()?.url ?? ""}`);
  });
  page.on("pageerror", (e) => errors.push(`page: ${e instanceof Error ? e.message : e}`));
  page.on("request", (r) => requests.push(r.url()));
  return {
    browser,
    page,
    errors,
    requests,
    async close() {
      await browser.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/** Hosts of requested URLs other than 127.0.0.1 (data: and about: URLs are local). */
export function foreignHosts(requests: readonly string[]): string[] {
  return requests
    .filter((u) => !u.startsWith("data:") && !u.startsWith("about:"))
    .map((u) => new URL(u).hostname)
    .filter((h) => h !== "127.0.0.1");
}

/**
 * Saves a screenshot to docs/explorer-<name>.png when GRAPHSVC_SCREENSHOTS=1 (`fullPage`: the
 * whole page, not only the window).
 */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  if (Deno.env.get("GRAPHSVC_SCREENSHOTS") !== "1") return;
  await page.screenshot({ path: `${ROOT}docs/explorer-${name}.png`, fullPage });
}

/** The rendered text of the first element matching `selector`, once there is one. */
export async function textOf(page: Page, selector: string): Promise<string> {
  await page.waitForSelector(selector, { timeout: 60_000 });
  return await page.$eval(selector, (e) => (e as unknown as { innerText: string }).innerText);
}

/** Waits until the view of `hash` is rendered and no rendering is under way. */
export async function settled(page: Page, hash: string): Promise<void> {
  const h = JSON.stringify(hash);
  await page.waitForFunction(
    `(() => { const m = document.getElementById("main");
      return m.dataset.route === ${h} && !m.hasAttribute("aria-busy"); })()`,
    { timeout: 90_000 },
  );
}

/** Opens a deep link, waits until the explorer rendered that view, returns the text of `selector`. */
export async function open(page: Page, url: string, selector: string): Promise<string> {
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await settled(page, new URL(url).hash || "#/");
  return await textOf(page, selector);
}

/** Waits for text in an element; generous: a rebuild on a busy machine may take a while. */
export async function waitText(page: Page, selector: string, text: string): Promise<void> {
  const s = JSON.stringify(selector), t = JSON.stringify(text);
  await page.waitForFunction(`document.querySelector(${s})?.textContent?.includes(${t})`, {
    timeout: 90_000,
  });
}

/** Whether `path` exists. */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
