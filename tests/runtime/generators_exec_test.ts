/** The exec runner through the Deno process adapter (GN30–GN35): real scripts, real files. */
import { assert, assertEquals } from "../_assert.ts";
import { GeneratorScheduler } from "../../lib/generators/mod.ts";
import { denoGeneratorHost } from "../../lib/runtime/deno/generators.ts";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";

async function setup(manifest: string, scripts: Record<string, string>) {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-gen-exec-" });
  const data = `${root}/data`;
  const mod = `${root}/mod`;
  await Deno.mkdir(`${data}/input`, { recursive: true });
  await Deno.mkdir(`${mod}/generators`, { recursive: true });
  await Deno.writeTextFile(`${mod}/module.toml`, manifest);
  for (const [name, text] of Object.entries(scripts)) {
    await Deno.writeTextFile(`${mod}/generators/${name}`, text);
    await Deno.chmod(`${mod}/generators/${name}`, 0o755);
  }
  const lines: string[] = [];
  const s = new GeneratorScheduler({
    workspace: new DenoFsWorkspace(data),
    modules: [{ id: "mod", workspace: new DenoFsWorkspace(mod) }],
    host: denoGeneratorHost(data),
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: "/tmp",
      SECRET_OF_SERVICE: "leak",
      STAGE_ENV: "x",
    },
    execTimeoutMs: 2000,
  });
  const run = async () => {
    try {
      return await s.run((level, text) => lines.push(`${level} ${text}`));
    } catch (e) {
      return e as Error;
    }
  };
  return { data, lines, run, s, cleanup: () => Deno.remove(root, { recursive: true }) };
}

Deno.test("GN30 GN31 GN33 from_stdout: a script found in the module's generators/ writes the target", async () => {
  const t = await setup(
    `[params.stage]\ndefault = "DEV"\n[generator.list]\ncommand = ["list.sh", "{{ stage }}"]\nenv = ["GREETING=hi-{{ params.stage }}"]\ntarget_input = "list.json"\nfrom_stdout = true\n`,
    {
      "list.sh":
        '#!/bin/sh\necho "progress on stderr" >&2\nprintf \'{"arg":"%s","greeting":"%s","cwd":"%s"}\' "$1" "$GREETING" "$(pwd)"\n',
    },
  );
  try {
    const summary = await t.run();
    assertEquals((summary as { run: number }).run, 1, t.lines.join("\n"));
    // A command may write anywhere: the build after it reads every file again.
    assertEquals((summary as { written?: string[] }).written, undefined);
    const out = JSON.parse(await Deno.readTextFile(`${t.data}/input/list.json`));
    assertEquals(out.arg, "DEV");
    assertEquals(out.greeting, "hi-DEV");
    assertEquals(
      out.cwd,
      await Deno.realPath(t.data),
      "GN34 the working directory is the data directory",
    );
    assert(t.lines.includes("info generator list: progress on stderr"), t.lines.join("\n"));
  } finally {
    await t.cleanup();
  }
});

Deno.test("GN32 the child sees only the standard variables and the declared env", async () => {
  const t = await setup(
    `[generator.env]\ncommand = ["env"]\ntarget_input = "env.txt"\nfrom_stdout = true\nenv = ["DECLARED=1"]\n`,
    {},
  );
  try {
    await t.run();
    const names = (await Deno.readTextFile(`${t.data}/input/env.txt`)).trim().split("\n").map((l) =>
      l.split("=")[0]
    ).sort();
    assertEquals(names, ["DECLARED", "HOME", "PATH"]);
  } finally {
    await t.cleanup();
  }
});

Deno.test("GN33 from_stdout = false: the command writes the file itself (path via env)", async () => {
  const t = await setup(
    `[generator.w]\ncommand = ["write.sh"]\nenv = ["OUT_FILE={{ target_input }}"]\ntarget_input = "w.json"\n` +
      `[generator.lazy]\ncommand = ["true"]\ntarget_input = "lazy.json"\n`,
    { "write.sh": '#!/bin/sh\necho "[42]" > "$OUT_FILE"\n' },
  );
  try {
    await t.run();
    assertEquals(await Deno.readTextFile(`${t.data}/input/w.json`), "[42]\n");
    assert(
      t.lines.some((l) =>
        l.startsWith("warn generator lazy: the command succeeded but did not write")
      ),
      t.lines.join("\n"),
    );
  } finally {
    await t.cleanup();
  }
});

Deno.test("GN34 GN6 non-zero exit and time-out are failures; the previous target stays", async () => {
  const t = await setup(
    `[generator.bad]\ncommand = ["fail.sh"]\ntarget_input = "bad.json"\nfrom_stdout = true\n` +
      `[generator.slow]\ncommand = ["sleep", "5"]\ntarget_input = "slow.json"\nfrom_stdout = true\nabort_on_failure = true\n`,
    { "fail.sh": "#!/bin/sh\necho partial\nexit 3\n" },
  );
  try {
    await Deno.writeTextFile(`${t.data}/input/bad.json`, "[0]");
    const r = await t.run();
    assert(r instanceof Error && r.message.includes("timed out after 2000 ms"), String(r));
    assertEquals(await Deno.readTextFile(`${t.data}/input/bad.json`), "[0]");
    assert(
      t.lines.some((l) =>
        l.includes("generator 'bad' (module mod, fail.sh): exited with status 3")
      ),
      t.lines.join("\n"),
    );
    assertEquals(t.s.lastSummary?.failed, 2);
  } finally {
    await t.cleanup();
  }
});

Deno.test("GN31 an unknown command is a failure naming it", async () => {
  const t = await setup(
    `[generator.x]\ncommand = ["no-such-tool-here"]\ntarget_input = "x.json"\n`,
    {},
  );
  try {
    await t.run();
    assert(
      t.lines.some((l) => l.includes("'no-such-tool-here' not found in PATH")),
      t.lines.join("\n"),
    );
  } finally {
    await t.cleanup();
  }
});
