/**
 * Shared fixture of the contract tests: a certificate-request workflow over a registry asset
 * (spec §2.8, §3), an in-memory data directory and the real write service.
 */
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { mergeManifests } from "../../lib/workspace/manifest.ts";
import { loadLayer } from "../../lib/workspace/sources.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { WriteService } from "../../lib/writes/service.ts";
import { ContractLoader } from "../../lib/contracts/load.ts";
import { callContract } from "../../lib/contracts/execute.ts";
import type { Workspace } from "../../lib/workspace/workspace.ts";

export const REQUEST = `
name = "RequestCertificate"
description = "Start (or resume) a certificate request for a registered host"

[[input]]
name = "host"
required = true

[[input]]
name = "key_type"
allowed_values = ["rsa", "ec"]
default = "ec"

[[require]]
target_asset = "host"
lookup_by = { name = "{{ input.host }}" }
message = "host '{{ input.host }}' is not registered"

[[write]]
target_asset = "cert_request"
action = "intake"
lookup_by = { host = "{{ input.host }}" }
record = { name = "req-{{ input.host }}", key_type = "{{ input.key_type }}" }
state = "status"
expires = "expires_at"
ttl = "24h"

# A new cycle clears the stale mirrors on the resource (spec §2.8 rule 3).
[[write]]
target_asset = "host"
action = "update"
lookup_by = { name = "{{ input.host }}" }
record = { csr = "", cert_status = "pending" }
`;

export const SUBMIT = `
name = "SubmitCsr"
[[input]]
name = "host"
required = true
[[input]]
name = "csr"
required = true

[[write]]
target_asset = "cert_request"
action = "update"
lookup_by = { name = "req-{{ input.host }}" }
record = { status = "ready", csr = "{{ input.csr }}" }
state = "status"
expires = "expires_at"

# The artifact is mirrored onto its resource (spec §2.8 rule 3).
[[write]]
target_asset = "host.csv"
action = "update"
lookup_by = { name = "{{ input.host }}" }
record = { csr = "{{ input.csr }}" }
`;

export const TRANSITION = `
name = "Transition"
[[input]]
name = "host"
required = true
[[input]]
name = "to"
required = true
allowed_values = ["processing", "valid", "invalid", "expired"]

[[write]]
target_asset = "cert_request"
action = "update"
lookup_by = { name = "req-{{ input.host }}" }
record = { status = "{{ input.to }}" }
state = "status"
expires = "expires_at"

[[write]]
target_asset = "host"
action = "update"
lookup_by = { name = "{{ input.host }}" }
record = { cert_status = "{{ input.to }}" }
`;

export const FILES: Record<string, string> = {
  "assets/host.csv": "name,os,csr,cert_status\nweb-1,linux,,\nweb-2,bsd,,\n",
  "assets/cert_request.csv": "name,host,key_type,status,expires_at,csr\n",
  "contracts/request.toml": REQUEST,
  "contracts/submit.toml": SUBMIT,
  "contracts/transition.toml": TRANSITION,
};

/** A data directory with the workflow, the write service and a `call(name, inputs)` helper. */
export async function setup(
  files: Record<string, string> = FILES,
  wrap: (w: MemoryWorkspace) => Workspace = (w) => w,
) {
  const memory = new MemoryWorkspace(files);
  const workspace = wrap(memory);
  const manifest = mergeManifests([await loadLayer("data", memory, true)]);
  let generation = 1;
  const writes = new WriteService({
    workspace,
    context: () => ({ manifest, params: {} }),
    createTemplates: createTemplateRenderer,
    scheduleRebuild: () => ++generation,
    currentGeneration: () => generation,
  });
  const loader = new ContractLoader(memory);
  let clock = new Date("2026-01-01T00:00:00Z");
  const call = async (name: string, inputs: unknown) => {
    const contract = (await loader.find(name))!;
    return await callContract(contract, inputs, {
      writes,
      templates: createTemplateRenderer({}),
      params: {},
      now: () => clock,
    });
  };
  const setClock = (iso: string) => (clock = new Date(iso));
  const text = async (path: string) => await memory.readText(path);
  return { memory, workspace, writes, loader, call, text, setClock };
}
