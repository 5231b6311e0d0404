#!/usr/bin/env bash
# The README's install (issue 27): `cargo install --locked --path crates/retromodel-cli` into
# target/install, reusing the release build (CARGO_TARGET_DIR is this tree's target/), its
# size, and `retromodel web` from the installed binary run in an empty folder, where no app
# folder is found: the page and the module must come from the copy embedded in the binary
# (web/pkg is built before the release build).
#   bash .ci/install.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
[ -f web/pkg/retromodel_web_bg.wasm ] || { echo "web/pkg is not built: run bash web/build.sh first"; exit 1; }

start=$(date +%s)
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}" \
  cargo install --locked --path crates/retromodel-cli --root target/install --force -q
bin="$root/target/install/bin/retromodel"
echo "installed in $(($(date +%s) - start)) s: $bin, $(du -h "$bin" | cut -f1) ($(stat -c %s "$bin") bytes)"

tmp="$(mktemp -d)"
pid=
cleanup() { [ -z "$pid" ] || kill "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
# In an empty folder, without $RETROMODEL_WEB_DIR: nothing but the binary itself.
(cd "$tmp" && exec env -u RETROMODEL_WEB_DIR "$bin" web --port 0 > "$tmp/web.log" 2>&1) &
pid=$!
for _ in $(seq 100); do
  grep -q 'serving http' "$tmp/web.log" 2>/dev/null && break
  sleep 0.1
done
cat "$tmp/web.log"
grep -q 'app: embedded in the binary' "$tmp/web.log" || { echo "the installed binary does not serve its embedded app"; exit 1; }
base="$(grep -o 'http://[^ ]*' "$tmp/web.log" | head -1)"
curl -fsS "$base" | grep -q '<title>retromodel</title>' || { echo "no page at $base"; exit 1; }
wasm="$(curl -fsS -o "$tmp/module.wasm" -w '%{http_code} %{content_type}' "${base}pkg/retromodel_web_bg.wasm")"
echo "pkg/retromodel_web_bg.wasm: $wasm, $(stat -c %s "$tmp/module.wasm") bytes"
[ "$wasm" = "200 application/wasm" ] || { echo "expected 200 application/wasm"; exit 1; }
cmp -s "$tmp/module.wasm" web/pkg/retromodel_web_bg.wasm || { echo "the served module differs from web/pkg's"; exit 1; }
curl -fsS -o /dev/null "${base}pkg/retromodel_web.js"
