#!/usr/bin/env bash
# The Quake II re-release layout on the command line (issue 28), from a corpus MD5:
# `convert --rerelease` writes NAME.md2 + md5/NAME.md5mesh/.md5anim (+ md5/ skin);
# an .md5scale hides a joint in two frames; `info` names the pair as valid for q2pro (text and
# JSON); `validate --engine q2pro` passes and a missing .md5anim fails it; `--prefer md5`
# converts the pair to MD2, MDL, MD3 (each compared with the pair converted without its
# .md5scale: the scaled frames differ, the others agree) and glTF, the glTF passing Khronos' validator with
# 0 errors and 0 warnings (zero scales in STEP samplers included).
# Usage: .ci/rerelease.sh RETROMODEL_BINARY CORPUS_DIR   (NODE_PATH: gltf-validator)
set -euo pipefail
bin=$1 corpus=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mesh="$corpus/md5/debian-redeclipse-data/redeclipse/data/props/flag/mesh.md5mesh"
"$bin" convert "$mesh" "$out/flag.md2" --rerelease > "$out/convert.log" 2>&1 || { cat "$out/convert.log"; exit 1; }
for f in flag.md2 md5/flag.md5mesh md5/flag.md5anim md5/flag_skin0.pcx; do
  [ -f "$out/$f" ] || { cat "$out/convert.log"; echo "rerelease: $f not written"; exit 1; }
done
printf '{ "Bone.003": { "3": 0, "4": 0 }, "Bone.002": { "6": 2, "scale_positions": true } }\n' > "$out/md5/flag.md5scale"
"$bin" info "$out/flag.md2" > "$out/info.txt"
grep -q "Quake II re-release replacement: md5/flag.md5mesh + md5/flag.md5anim + md5/flag.md5scale (4 joints, 23 frames): valid for q2pro, kex-quake2" "$out/info.txt" \
  || { cat "$out/info.txt"; echo "rerelease: info does not name the valid pair"; exit 1; }
"$bin" info --json "$out/flag.md2" | python3 -c '
import json, sys
r = json.load(sys.stdin)["rerelease"]
assert r["valid"] and r["scale"] == "md5/flag.md5scale" and r["frames"] == 23 and "q2pro" in r["engines"], r'
"$bin" validate --engine q2pro "$out/flag.md2"
mv "$out/md5/flag.md5anim" "$out/flag.md5anim.away"
if "$bin" validate --engine q2pro "$out/flag.md2" > "$out/refused.log" 2>&1; then
  cat "$out/refused.log"; echo "rerelease: a pair without its .md5anim passed"; exit 1
fi
grep -q "md5/flag.md5anim is missing" "$out/refused.log" || { cat "$out/refused.log"; exit 1; }
mv "$out/flag.md5anim.away" "$out/md5/flag.md5anim"
mkdir -p "$out/down" "$out/gltf"
for to in md2 mdl md3; do
  "$bin" convert "$out/flag.md2" "$out/down/flag.$to" --prefer md5 > "$out/down-$to.log" 2>&1 \
    || { cat "$out/down-$to.log"; exit 1; }
  frames=$("$bin" info --json "$out/down/flag.$to" | python3 -c 'import json,sys; print(json.load(sys.stdin)["poses"])')
  [ "$frames" = 23 ] || { echo "rerelease: $to has $frames frames, not 23"; exit 1; }
done
# The .md5scale changes each baked output (issue 45: the counts above pass without it): the
# same pair without it is converted too, and each target's poses compared as OBJ. Frame 0 is
# untouched by the scales (only quantisation differs); in frame 3 Bone.003 is at scale 0 and
# in frame 6 Bone.002 at scale 2, so vertices move by more than a unit and far more than the
# quantisation.
mkdir -p "$out/plain/md5" "$out/plain-down" "$out/obj"
cp "$out/flag.md2" "$out/plain/"
cp "$out/md5/flag.md5mesh" "$out/md5/flag.md5anim" "$out/md5/flag_skin0.pcx" "$out/plain/md5/"
for to in md2 mdl md3; do
  "$bin" convert "$out/plain/flag.md2" "$out/plain-down/flag.$to" --prefer md5 > "$out/plain-$to.log" 2>&1 \
    || { cat "$out/plain-$to.log"; echo "rerelease: the pair without .md5scale does not convert to $to"; exit 1; }
  for f in 0 3 6; do
    for kind in down plain-down; do
      "$bin" convert "$out/$kind/flag.$to" "$out/obj/$kind-$to-$f.obj" --frame "$f" > "$out/obj.log" 2>&1 \
        || { cat "$out/obj.log"; echo "rerelease: $kind/flag.$to frame $f to OBJ failed"; exit 1; }
    done
  done
done
python3 - "$out/obj" <<'PY'
import sys
d = sys.argv[1]
def verts(p):
    return [tuple(map(float, l.split()[1:4])) for l in open(p) if l.startswith("v ")]
def diff(to, f):
    a, b = verts(f"{d}/down-{to}-{f}.obj"), verts(f"{d}/plain-down-{to}-{f}.obj")
    assert len(a) == len(b) > 0, (to, f, len(a), len(b))
    worst = max(max(abs(x - y) for x, y in zip(p, q)) for p, q in zip(a, b))
    assert worst == worst, (to, f, "NaN")
    return worst
for to in ("md2", "mdl", "md3"):
    same, hidden, grown = diff(to, 0), diff(to, 3), diff(to, 6)
    print(f"rerelease: {to}: scaled vs plain, frame 0 {same:.4f}, frame 3 {hidden:.4f}, frame 6 {grown:.4f}")
    assert hidden > 1.0 and hidden > 10 * same, f"{to}: the .md5scale's scale 0 did not reach frame 3"
    assert grown > 1.0 and grown > 10 * same, f"{to}: the .md5scale's scale 2 did not reach frame 6"
PY
# The folder form: a folder with one MD2 and its md5/ pair, converted to one file.
"$bin" convert "$out" "$out/down/folder.md2" > "$out/folder.log" 2>&1 || { cat "$out/folder.log"; exit 1; }
grep -q "the re-release pair of" "$out/folder.log" || { cat "$out/folder.log"; exit 1; }
[ "$("$bin" info --json "$out/down/folder.md2" | python3 -c 'import json,sys; print(json.load(sys.stdin)["poses"])')" = 23 ] \
  || { echo "rerelease: the folder form did not bake the replacement's 23 frames"; exit 1; }
grep -q "position quantisation" "$out/down-md2.log" || { cat "$out/down-md2.log"; echo "rerelease: no requantisation error reported"; exit 1; }
"$bin" convert "$out/flag.md2" "$out/gltf/flag.glb" --prefer md5 > /dev/null 2>&1
"$bin" convert "$out/flag.md2" "$out/gltf/flag.gltf" --prefer md5 > /dev/null 2>&1
node "$(dirname "$0")/validate_gltf.mjs" "$out/gltf"
# A corpus MD2 (keyframes: one joint per vertex) to the layout and back through its MD5.
palm="$corpus/md2/debian-ufoai-data/ufoai/base/0models.pk3/models/objects/vegi/palm_a/palm1.md2"
mkdir -p "$out/palm"
"$bin" convert "$palm" "$out/palm/palm1.md2" --rerelease > /dev/null 2>&1
"$bin" info "$out/palm/palm1.md2" | grep -q "Quake II re-release replacement: md5/palm1.md5mesh + md5/palm1.md5anim (.*): valid for q2pro" \
  || { "$bin" info "$out/palm/palm1.md2"; echo "rerelease: palm1's layout is not valid for q2pro"; exit 1; }
"$bin" convert "$out/palm/palm1.md2" "$out/palm/back.md2" --prefer md5 > /dev/null 2>&1
python3 - "$bin" "$palm" "$out/palm/back.md2" <<'PY'
import json, subprocess, sys
bin, a, b = sys.argv[1:]
info = lambda p: json.loads(subprocess.run([bin, "info", "--json", p], capture_output=True, text=True, check=True).stdout)
assert info(a)["poses"] == info(b)["poses"], (info(a)["poses"], info(b)["poses"])
PY
echo "rerelease: layout written, pair valid for q2pro, refused without its anim, down-converted to MD2/MDL/MD3 with the .md5scale applied, glTF valid"
