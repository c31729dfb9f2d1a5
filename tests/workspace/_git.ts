/**
 * Local Git repositories for module tests: a work tree with commits and tags, published as a
 * bare repository (`git init --bare`) that tests reach by path or `file://` URL.
 */

/** Runs git in `dir`; returns trimmed stdout, throws with stderr on failure. */
export async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, "-c", "user.email=t@example.org", "-c", "user.name=t", ...args],
    stdout: "piped",
    stderr: "piped",
    env: { LC_ALL: "C", GIT_TERMINAL_PROMPT: "0" },
  }).output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout).trim();
}

/** A module repository: a work tree `work` pushing to the bare repository `bare`. */
export interface TestRepo {
  /** The work tree. */
  work: string;
  /** The bare repository. */
  bare: string;
  /** Writes `files`, commits them, pushes `main` (and `tag`, if given); returns the commit. */
  commit(files: Record<string, string>, tag?: string): Promise<string>;
}

/** A new bare repository (default branch `main`) with a work tree to commit from. */
export async function testRepo(root: string, name: string): Promise<TestRepo> {
  const bare = `${root}/${name}.git`;
  const work = `${root}/${name}-work`;
  await Deno.mkdir(bare, { recursive: true });
  await git(bare, "init", "-q", "--bare", "-b", "main");
  await Deno.mkdir(work, { recursive: true });
  await git(work, "init", "-q", "-b", "main");
  await git(work, "remote", "add", "origin", bare);
  return {
    work,
    bare,
    async commit(files, tag) {
      for (const [path, text] of Object.entries(files)) {
        const full = `${work}/${path}`;
        await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
        await Deno.writeTextFile(full, text);
      }
      await git(work, "add", "-A");
      await git(work, "commit", "-q", "-m", `commit ${tag ?? ""}`);
      await git(work, "push", "-q", "origin", "main");
      if (tag) {
        await git(work, "tag", tag);
        await git(work, "push", "-q", "origin", tag);
      }
      return await git(work, "rev-parse", "HEAD");
    },
  };
}

/** `[module]` manifest text. */
export function moduleToml(name: string, version = "1.0.0", extra = ""): string {
  return `[module]\nname = "${name}"\nversion = "${version}"\n${extra}`;
}
