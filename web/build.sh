#!/usr/bin/env bash
# Builds the web app's WebAssembly module into web/pkg/ (ignored by git):
#   bash web/build.sh            # release build, size-optimised (profile `wasm`)
# Needs the wasm32-unknown-unknown target and wasm-bindgen-cli at the version of the
# wasm-bindgen crate in Cargo.lock; both are installed here when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'; then
  rustup target add wasm32-unknown-unknown
fi
want="$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)"
have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" || true
if [ "$have" != "$want" ]; then
  echo "installing wasm-bindgen-cli $want (have: ${have:-none})"
  # Not --locked: its lock file names a webpki-roots release crates.io no longer serves.
  cargo install -q wasm-bindgen-cli --version "$want"
fi
cargo build -q -p retromodel-web --target wasm32-unknown-unknown --profile wasm
rm -rf web/pkg
wasm-bindgen --target web --no-typescript --out-dir web/pkg \
  "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/wasm/retromodel_web.wasm"
raw=$(stat -c %s web/pkg/retromodel_web_bg.wasm)
gz=$(gzip -9 -c web/pkg/retromodel_web_bg.wasm | wc -c)
echo "web/pkg/retromodel_web_bg.wasm: $raw bytes ($gz gzipped)"
