#!/usr/bin/env bash
# The web app in a real browser: builds the WebAssembly module (web/build.sh), serves the app
# with `retromodel web`, runs .ci/web_test.mjs in Debian's headless Chromium (WebGL2 through
# SwiftShader, then WebGPU on SwiftShader's Vulkan; a .pk3 whose skin panics the module among
# the cases, issue 44), checks `retromodel web MODEL` (the page and the module fetched from
# it, the folder listed, the model opened), and validates the exported .glb files with the
# Khronos validator.
#   bash .ci/web.sh target/release/retromodel CORPUS
set -euo pipefail
bin="$1"
corpus="$2"
cd "$(dirname "$0")/.."
out=target/web-test
rm -rf "$out" && mkdir -p "$out"

bash web/build.sh
# After build.sh, which installs the wasm32 target when missing.
cargo clippy -q -p retromodel-web --target wasm32-unknown-unknown -- -D warnings

# The page just built, wherever the binary was built (with CARGO_TARGET_DIR outside the tree
# it would serve the copy embedded when it was compiled).
export RETROMODEL_WEB_DIR="$PWD/web"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# Starts `retromodel web ARGS --port 0` logging to NAME.log, in this shell so cleanup stops it.
start() {
  local name="$1"
  shift
  "$bin" web "$@" --port 0 > "$out/$name.log" 2>&1 &
  pids+=($!)
}
# The URL that the server logging to NAME.log serves (its log, and failure, after 10 s).
url_of() {
  for _ in $(seq 100); do
    grep -q 'serving http' "$out/$1.log" 2>/dev/null && break
    sleep 0.1
  done
  grep -o 'http://[^ ]*' "$out/$1.log" | head -1 || true
}

start app
start served "$corpus/3dgs_mdl/github-ikskuh-libgamestudio/data/mdl/mdl4-golem.mdl"
base="$(url_of app)"
served="$(url_of served)"
[ -n "$base" ] && [ -n "$served" ] || { cat "$out"/*.log; exit 1; }
echo "app: $base  served model: $served"
page="$(curl -fsS "$base")"
grep -q '<title>retromodel</title>' <<< "$page"
curl -fsS -o /dev/null -w 'pkg/retromodel_web_bg.wasm: %{http_code} %{content_type} %{size_download} bytes\n' "${base}pkg/retromodel_web_bg.wasm"

# A .glb and an .obj (with its .mtl and PNG skin) for the page to open like any model.
mkdir -p "$out/interchange"
"$bin" convert "$corpus/quake_mdl/github-pnahratow-LibreQuake/lq1/progs/ogre.mdl" "$out/interchange/ogre.glb"
"$bin" convert "$corpus/quake_mdl/github-pnahratow-LibreQuake/lq1/progs/ogre.mdl" "$out/interchange/ogre.obj"
# Issue 43: gltfpack's files of the same glb, uncompressed and with -cc (meshopt): the page
# opens the compressed one with the uncompressed one's counts, and draws it.
node target/npm/node_modules/gltfpack/cli.js -i "$out/interchange/ogre.glb" -o "$out/interchange/ogre.plain.glb" > /dev/null
node target/npm/node_modules/gltfpack/cli.js -i "$out/interchange/ogre.glb" -o "$out/interchange/ogre.cc.glb" -cc > /dev/null
grep -q EXT_meshopt_compression "$out/interchange/ogre.cc.glb"
export INTERCHANGE_DIR="$out/interchange"
# A glTF in metres (the ogre at 1/40: under 2 m tall) and the CLI's Quake MDL of it: the
# page's export must equal it (issue 39).
"$bin" convert "$corpus/quake_mdl/github-pnahratow-LibreQuake/lq1/progs/ogre.mdl" "$out/interchange/ogre_m.glb" --scale 0.025
"$bin" convert "$out/interchange/ogre_m.glb" "$out/interchange/ogre_m.mdl"
export METRES_GLB="$out/interchange/ogre_m.glb" METRES_MDL="$out/interchange/ogre_m.mdl"
# Issue 44: a .pk3 whose MD2 (a UFO:AI head, its skin found by name) has for skin a fuzzed JPEG
# on which zune-jpeg panics (caught natively, an abort in the browser module): the page reports
# the file and goes on.
mkdir -p "$out/panic"
python3 - "$corpus" "$out/panic/panic.pk3" <<'PY'
import sys, zipfile
corpus, out = sys.argv[1:]
d = "models/civilians/female/"
src = corpus + "/md2/debian-ufoai-data/ufoai/base/0models.pk3/" + d
with zipfile.ZipFile(out, "w") as z:
    z.write(src + "head04c.md2", d + "head04c.md2")
    z.write("crates/retromodel/tests/regressions/jpeg_zune_scalar_idct_panic.jpg", d + "head04c.jpg")
PY
export PANIC_PK3="$out/panic/panic.pk3" PANIC_MODEL=models/civilians/female/head04c.md2
READ_EXTS="$("$bin" formats --json | python3 -c 'import json,sys; print(",".join(e for l in sys.stdin for e in json.loads(l)["extensions"]))')"
export READ_EXTS

export NODE_PATH=target/npm/node_modules
echo "-- WebGL2"
SERVED_URL="$served" node .ci/web_test.mjs "$base" "$corpus" "$out/webgl" --bench
echo "-- WebGPU"
SERVED_URL="$served" node .ci/web_test.mjs "$base" "$corpus" "$out/webgpu" --webgpu --bench
node .ci/validate_gltf.mjs "$out/webgl"
node .ci/validate_gltf.mjs "$out/webgpu"
