import { assert, assertEquals, assertThrows } from "../_assert.ts";
import {
  fromBase64,
  generateKeyPair,
  openSealed,
  seal,
  SealOpenError,
  toBase64,
} from "../../lib/actions/seal.ts";
import { ActionService } from "../../lib/actions/service.ts";
import { gunzip } from "../../lib/actions/tar.ts";
import { Graph } from "../../lib/graph/graph.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { denoActionRunner } from "../../lib/runtime/deno/action_runner.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
const PYTHON = "/usr/bin/python3";

function naclAvailable(): boolean {
  try {
    return new Deno.Command(PYTHON, { args: ["-c", "import nacl.public"], stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}
// The differential tests need python3-nacl (scripts/setup-oracles.sh); they must run in CI.
const SKIP_NACL = !naclAvailable() && Deno.env.get("CI") !== "true";

async function python(script: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command(PYTHON, {
    args: ["-c", script, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(dec.decode(out.stderr));
  return dec.decode(out.stdout).trim();
}

Deno.test("AC21 seal/open round trip; a wrong key or a tampered box is refused", () => {
  const kp = generateKeyPair();
  const box = seal(enc.encode("s3cret"), kp.publicKey);
  assertEquals(box.length, 6 + 48);
  assertEquals(dec.decode(openSealed(box, kp)), "s3cret");
  assertThrows(() => openSealed(box, generateKeyPair()), SealOpenError);
  const bad = box.slice();
  bad[40] ^= 1;
  assertThrows(() => openSealed(bad, kp), SealOpenError);
  assertThrows(() => openSealed(box.subarray(0, 20), kp), SealOpenError);
});

Deno.test("AC21 sealing twice gives different boxes (fresh ephemeral key)", () => {
  const kp = generateKeyPair();
  const a = seal(enc.encode("x"), kp.publicKey);
  const b = seal(enc.encode("x"), kp.publicKey);
  assert(toBase64(a) !== toBase64(b));
  assertEquals(fromBase64(toBase64(a)), a);
});

Deno.test({
  name: "AC21 libsodium (PyNaCl SealedBox) opens what we seal",
  ignore: SKIP_NACL,
  async fn() {
    const kp = generateKeyPair();
    for (const message of ["s3cret", "", "ünïcödé ✓ ".repeat(50)]) {
      const box = seal(enc.encode(message), kp.publicKey);
      const opened = await python(
        "import sys,base64\nfrom nacl.public import PrivateKey, SealedBox\n" +
          "sk = PrivateKey(base64.b64decode(sys.argv[1]))\n" +
          "sys.stdout.write(base64.b64encode(SealedBox(sk).decrypt(base64.b64decode(sys.argv[2]))).decode())",
        toBase64(kp.secretKey),
        toBase64(box),
      );
      assertEquals(dec.decode(fromBase64(opened)), message);
    }
  },
});

Deno.test({
  name: "AC21 we open what libsodium (PyNaCl SealedBox) seals",
  ignore: SKIP_NACL,
  async fn() {
    const kp = generateKeyPair();
    const box = await python(
      "import sys,base64\nfrom nacl.public import PublicKey, SealedBox\n" +
        "pk = PublicKey(base64.b64decode(sys.argv[1]))\n" +
        "sys.stdout.write(base64.b64encode(SealedBox(pk).encrypt(b'from libsodium')).decode())",
      toBase64(kp.publicKey),
    );
    assertEquals(dec.decode(openSealed(fromBase64(box), kp)), "from libsodium");
  },
});

Deno.test({
  name: "AC21 our public key derivation equals libsodium's",
  ignore: SKIP_NACL,
  async fn() {
    const kp = generateKeyPair();
    const pk = await python(
      "import sys,base64\nfrom nacl.public import PrivateKey\n" +
        "sys.stdout.write(base64.b64encode(bytes(PrivateKey(base64.b64decode(sys.argv[1])).public_key)).decode())",
      toBase64(kp.secretKey),
    );
    assertEquals(pk, toBase64(kp.publicKey));
  },
});

Deno.test({
  name:
    "AC20 AC21 AC23 libsodium (PyNaCl) and Python's tarfile open the secrets of a real bundle " +
    "built by the service, with the local runner's private key from its key file" +
    (SKIP_NACL ? " (skipped: python3-nacl is not installed)" : ""),
  ignore: SKIP_NACL,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "graphsvc-seal-" });
    try {
      const keyFile = `${dir}/runner.key`;
      const runner = denoActionRunner({ keyFile, log: () => {} });
      const vault: Record<string, string> = { "db/pw": "hunter2-secret", "acme/eab": "ünï ✓ key" };
      const service = new ActionService({
        runner,
        secrets: { read: (c, n) => Promise.resolve(vault[`${c}/${n}`]) },
      });
      const file = `name = "deploy"
exec = [["sh", "-c", "echo {{ secrets.PW }}"]]
[vault_secrets]
PW = { collection = "db", secret = "pw" }
EAB = { collection = "acme", secret = "eab" }
`;
      await service.refresh([{
        id: "data",
        version: "1.0.0",
        files: [{ path: "actions/deploy.toml", displayPath: "actions/deploy.toml", text: file }],
        readFile: () => Promise.resolve(undefined),
        runtimeFiles: () => Promise.resolve([]),
      }], {
        generation: 1,
        graph: new Graph(),
        params: {},
        artifacts: [],
        templates: createTemplateRenderer(),
      });
      const built = await service.bundle("data", "deploy", {});
      await Deno.writeFile(`${dir}/bundle.tar.gz`, built.bytes);
      // The key pair the runner created on first use, as stored on disk (AC23).
      const stored = JSON.parse(await Deno.readTextFile(keyFile));
      const opened = await python(
        "import sys,json,base64,tarfile\nfrom nacl.public import PrivateKey, SealedBox\n" +
          "box = SealedBox(PrivateKey(base64.b64decode(sys.argv[2])))\n" +
          "with tarfile.open(sys.argv[1], 'r:gz') as t:\n" +
          "  names = sorted(t.getnames())\n" +
          "  sealed = json.load(t.extractfile('secrets.sealed.json'))\n" +
          "out = {e['name']: box.decrypt(base64.b64decode(e['sealed'])).decode('utf-8') for e in sealed}\n" +
          "sys.stdout.write(json.dumps({'names': names, 'keys': [sorted(e) for e in sealed], 'secrets': out}))",
        `${dir}/bundle.tar.gz`,
        stored.secret,
      );
      const r = JSON.parse(opened);
      assert(r.names.includes("manifest.json") && r.names.includes("secrets.sealed.json"), opened);
      assertEquals(r.keys, [["name", "sealed"], ["name", "sealed"]]);
      assertEquals(r.secrets, { PW: "hunter2-secret", EAB: "ünï ✓ key" });
      // Only the sealed boxes hold the secret: no other entry of the archive has the plaintext.
      assert(!dec.decode(gunzip(built.bytes)).includes("hunter2"));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
