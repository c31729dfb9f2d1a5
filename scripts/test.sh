#!/usr/bin/env bash
# The project's test command: sets up the oracles, then runs every test (`deno task test`).
set -euo pipefail
cd "$(dirname "$0")/.."
oracle_line=$(bash scripts/setup-oracles.sh | grep '^TERA_ORACLE=' || true)
if [ -n "$oracle_line" ]; then export "${oracle_line?}"; fi
exec node_modules/.bin/deno task test "$@"
