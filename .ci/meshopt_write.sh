#!/usr/bin/env bash
# Our meshopt-compressed glTF (issue 43, criterion 3): corpus models converted with
# --compress, each file decoded by meshoptimizer's own decoder (npm `meshoptimizer`,
# .ci/meshopt_reference.js) into a plain .glb; `info` of both must agree, and every sampled
# frame's positions read through our decoder must equal the reference decoding's exactly
# (positions and animation go through the lossless vertex codec; only base normals are
# filtered). Khronos' validator is run on the files by .ci/validate_gltf.mjs separately.
# Usage: .ci/meshopt_write.sh RETROMODEL_BINARY CORPUS_DIR (node modules in target/npm)
set -euo pipefail
bin=$(realpath "$1") corpus=$2
npm_dir=$(realpath "${NPM_DIR:-target/npm/node_modules}")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in quake_mdl/github-Ademan-LibreQuake/lq1/progs/zombie.mdl \
  md2/debian-ufoai-data/ufoai/base/0models.pk3/models/aliens/bloodspider/bloodspider.md2 \
  assimp/test/models-nonbsd/MD5/Bob.md5mesh \
  "assimp/test/models/MDL/MDL (HL1)/man.mdl" \
  iqm/github-raysan5-raylib/examples/models/resources/models/iqm/guy.iqm; do
  n=$(basename "$f")
  "$bin" convert "$corpus/$f" "$out/$n.c.glb" --compress >/dev/null 2>&1
  NODE_PATH="$npm_dir" node .ci/meshopt_reference.js "$out/$n.c.glb" "$out/$n.ref.glb"
  python3 - "$bin" "$out" "$n" <<'PY'
import json, subprocess, sys
bin, out, n = sys.argv[1:]
def info(g):
    r = subprocess.run([bin, "info", "--json", f"{out}/{g}"], capture_output=True, text=True, check=True)
    d = json.loads(r.stdout.splitlines()[0])
    return {k: d.get(k) for k in ("vertices", "triangles", "poses", "joints")} | {"animations": len(d.get("animations") or [])}
ours, ref = info(f"{n}.c.glb"), info(f"{n}.ref.glb")
if ours != ref:
    sys.exit(f"{n}: our decoding gives {ours}, meshoptimizer's {ref}")
def positions(g, frame):
    o = f"{out}/{g}.{frame}.obj"
    subprocess.run([bin, "convert", f"{out}/{g}", o, "--frame", str(frame), "--force"], capture_output=True, check=True)
    return [l for l in open(o) if l.startswith("v ")]
poses = ours["poses"] or 1
frames = sorted({0, poses // 3, poses // 2, poses - 1})
for frame in frames:
    if positions(f"{n}.c.glb", frame) != positions(f"{n}.ref.glb", frame):
        sys.exit(f"{n} frame {frame}: positions differ from meshoptimizer's decoding")
print(f"meshopt write: {n}: {ours}; frames {frames} equal to meshoptimizer's decoding")
PY
done
