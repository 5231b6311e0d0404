#!/usr/bin/env bash
# Other tools' meshopt-compressed glTF (issue 43, criterion 3): corpus models converted to
# .glb, packed by gltfpack (npm) plain and with -cc (EXT_meshopt_compression: vertex,
# triangle codecs, octahedral, quaternion and exponential filters). `info` of the -cc file
# must give the counts of the plain one, and every sampled frame read through our decoder
# must match the same file decoded by meshoptimizer's own decoder (.ci/meshopt_reference.js):
# exactly for keyframe models, within the filters' specified 1/32767 (times the model's
# size) for skeletal ones, whose animation goes through the quaternion filter.
# Usage: .ci/meshopt_read.sh RETROMODEL_BINARY CORPUS_DIR (node modules in target/npm)
set -euo pipefail
bin=$(realpath "$1") corpus=$2
npm_dir=$(realpath target/npm/node_modules)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in quake_mdl/github-Ademan-LibreQuake/lq1/progs/zombie.mdl \
  md2/debian-ufoai-data/ufoai/base/0models.pk3/models/aliens/bloodspider/bloodspider.md2 \
  assimp/test/models-nonbsd/MD5/Bob.md5mesh \
  "assimp/test/models/MDL/MDL (HL1)/man.mdl" \
  iqm/github-raysan5-raylib/examples/models/resources/models/iqm/guy.iqm; do
  n=$(basename "$f")
  "$bin" convert "$corpus/$f" "$out/$n.glb" >/dev/null 2>&1
  node "$npm_dir/gltfpack/cli.js" -i "$out/$n.glb" -o "$out/$n.plain.glb" >/dev/null
  node "$npm_dir/gltfpack/cli.js" -i "$out/$n.glb" -o "$out/$n.cc.glb" -cc >/dev/null
  NODE_PATH="$npm_dir" node .ci/meshopt_reference.js "$out/$n.cc.glb" "$out/$n.ref.glb"
  python3 - "$bin" "$out" "$n" <<'PY'
import json, subprocess, sys
bin, out, n = sys.argv[1:]
def info(g):
    r = subprocess.run([bin, "info", "--json", f"{out}/{g}"], capture_output=True, text=True, check=True)
    d = json.loads(r.stdout.splitlines()[0])
    return {k: d.get(k) for k in ("vertices", "triangles", "poses", "joints")} | {"animations": len(d.get("animations") or [])}
plain, cc = info(f"{n}.plain.glb"), info(f"{n}.cc.glb")
if plain != cc:
    sys.exit(f"{n}: gltfpack -cc gives {cc}, the plain file {plain}")
def positions(g, frame):
    o = f"{out}/{g}.{frame}.obj"
    subprocess.run([bin, "convert", f"{out}/{g}", o, "--frame", str(frame), "--force"], capture_output=True, check=True)
    return [list(map(float, l.split()[1:4])) for l in open(o) if l.startswith("v ")]
poses = cc["poses"] or 1
worst, size = 0.0, 0.0
for frame in sorted({0, poses // 3, poses // 2, poses - 1}):
    a, b = positions(f"{n}.cc.glb", frame), positions(f"{n}.ref.glb", frame)
    if len(a) != len(b):
        sys.exit(f"{n} frame {frame}: {len(a)} vertices, the reference {len(b)}")
    size = max(size, max(max(p[k] for p in b) - min(p[k] for p in b) for k in range(3)))
    worst = max([worst] + [abs(x - y) for p, q in zip(a, b) for x, y in zip(p, q)])
tolerance = 0.0 if not cc["joints"] else size * 2 / 32767
print(f"meshopt: {n}: gltfpack -cc opens with the plain file's counts {cc}; frames within {worst:.6f} of meshoptimizer's decoding (tolerance {tolerance:.6f})")
if worst > tolerance:
    sys.exit(f"{n}: frames {worst} from the reference decoding")
PY
done
