#!/usr/bin/env bash
# Installs the differential-test oracles (idempotent): Debian's reference jsonnet binary, Debian's
# chromium for the browser tests, and the
# real Tera engine built from ../shared/tools/tera-oracle. Prints `TERA_ORACLE=<path>` on success.
# Without ../shared (a checkout outside the workplace) the Tera oracle is skipped; the oracle
# tests then skip too, except under CI=true, where they fail.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared="$root/../shared"
need_apt=()
command -v jsonnet >/dev/null 2>&1 || need_apt+=(jsonnet)
command -v git >/dev/null 2>&1 || need_apt+=(git) # Git reload, schema and module tests
command -v haproxy >/dev/null 2>&1 || need_apt+=(haproxy) # fleet test and bench (balancer)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium) # explorer browser tests (no download)
command -v haproxy >/dev/null 2>&1 || need_apt+=(haproxy) # reverse proxy in front of serve (slow clients)
/usr/bin/python3 -c 'import nacl.public' >/dev/null 2>&1 || need_apt+=(python3-nacl) # sealed-box differential test
if [ -d "$shared/tools/tera-oracle" ]; then
  dpkg -s librust-tera-dev >/dev/null 2>&1 || need_apt+=(librust-tera-dev)
  command -v cargo >/dev/null 2>&1 || need_apt+=(cargo)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "setup-oracles: please install: ${need_apt[*]} (apt-get)" >&2
  fi
fi
if [ -d "$shared/tools/tera-oracle" ]; then
  out="${GRAPHSVC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/graphsvc}/tera-oracle"
  bin="$out/target/release/tera-oracle"
  if [ ! -x "$bin" ]; then
    bin=$(bash "$shared/tools/tera-oracle/build.sh" "$out" | tail -n 1)
  fi
  echo "TERA_ORACLE=$bin"
fi
