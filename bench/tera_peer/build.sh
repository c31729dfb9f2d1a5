#!/usr/bin/env bash
# Builds `tera-peer` (the real Tera engine as a benchmark peer) offline from Debian's packaged
# crate sources, the same way ../../../shared/tools/tera-oracle/build.sh builds the oracle.
# Usage: build.sh [OUT_DIR] (default bench/.work/tera_peer) → prints the path of the binary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../.work/tera_peer}
if ! dpkg -s librust-tera-dev >/dev/null 2>&1; then
  apt-get update -qq >/dev/null && apt-get install -y -qq librust-tera-dev >/dev/null
fi
command -v cargo >/dev/null || { apt-get install -y -qq cargo >/dev/null; }
mkdir -p "$out/src" "$out/.cargo"
cp "$here/Cargo.toml" "$out/" && cp "$here/src/main.rs" "$out/src/"
cat >"$out/.cargo/config.toml" <<'CFG'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
CFG
(cd "$out" && cargo build --release -q)
echo "$(cd "$out" && pwd)/target/release/tera-peer"
