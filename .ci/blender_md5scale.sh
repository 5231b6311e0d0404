#!/usr/bin/env bash
# Blender imports a Quake II re-release pair's glTF with the .md5scale applied: a corpus MD5
# with an animation is converted with --rerelease (NAME.md2 + md5/NAME.md5mesh + .md5anim), a
# .md5scale is written that gives one joint the scale 0 in frames 3 and 4, and the pair is
# exported with `convert NAME.md2 --prefer md5` once with the .md5scale and once without.
# .ci/blender_md5scale.py then imports both into Blender headless and checks that in frames 3
# and 4 the vertices the joint carries collapse to the joint (they spread without the scale
# file) and that everything else agrees between the two imports in every frame.
# The joint is the non-root joint that carries the most vertices fully (one weight, bias 1)
# in the converted md5mesh.
# Usage: .ci/blender_md5scale.sh RETROMODEL_BINARY CORPUS_DIR
#   BLENDER (default blender) runs the check; BPY_PYTHON is a Python with the bpy module from
#   PyPI (e.g. target/venv-bpy-4.2.23/bin/python) that runs it too. When BPY_PYTHON is empty
#   the venv blender_extension.sh made is used (${BPY_VENV_DIR:-target}/venv-bpy-4.2*); when
#   there is none the script fails rather than drop the bpy run the CI step names (issue 45).
#   BPY_PYTHON=none leaves it out on purpose, and says so.
set -euo pipefail
bin=$1 corpus=$2
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${BPY_PYTHON:-}" ]; then
  venvs=${BPY_VENV_DIR:-$here/../target}
  BPY_PYTHON=$(ls -d "$venvs"/venv-bpy-4.2*/bin/python 2>/dev/null | head -n1 || true)
  [ -n "$BPY_PYTHON" ] || {
    echo "md5scale: no bpy 4.2 venv in $venvs (run .ci/blender_extension.sh, set BPY_PYTHON, or BPY_PYTHON=none to leave it out)"
    exit 1
  }
fi
mesh=$corpus/md5/debian-redeclipse-data/redeclipse/data/props/flag/mesh.md5mesh
hidden=3,4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" convert "$mesh" "$tmp/flag.md2" --rerelease >/dev/null 2>&1
for f in flag.md2 md5/flag.md5mesh md5/flag.md5anim; do
  [ -f "$tmp/$f" ] || { echo "md5scale: convert --rerelease wrote no $f"; exit 1; }
done

# The joint: the non-root one with the most vertices on it alone with bias 1.
read -r joint carried total < <(python3 - "$tmp/md5/flag.md5mesh" <<'EOF'
import re, sys
names, parents, carried, total = [], [], {}, 0
verts, weights = [], {}
in_joints = False
def flush():
    global verts, weights, total
    for start, count in verts:
        total += 1
        if count == 1 and abs(weights[start][1] - 1.0) < 1e-6:
            carried[weights[start][0]] = carried.get(weights[start][0], 0) + 1
    verts, weights = [], {}
for line in open(sys.argv[1]):
    t = line.split()
    if not t:
        continue
    if t[0] == "joints":
        in_joints = True
    elif in_joints and t[0] == "}":
        in_joints = False
    elif in_joints:
        m = re.match(r'\s*"([^"]*)"\s+(-?\d+)', line)
        names.append(m.group(1))
        parents.append(int(m.group(2)))
    elif t[0] == "mesh":
        flush()
    elif t[0] == "vert":
        verts.append((int(t[-2]), int(t[-1])))
    elif t[0] == "weight":
        weights[int(t[1])] = (int(t[2]), float(t[3]))
flush()
best = max((j for j in carried if parents[j] >= 0), key=lambda j: (carried[j], -j), default=None)
if best is None or " " in names[best]:
    sys.exit("no usable non-root joint carries vertices fully")
print(names[best], carried[best], total)
EOF
)
echo "md5scale: hiding joint $joint in frames $hidden: it carries $carried of the $total md5mesh vertices fully"
[ "$carried" -ge 4 ] || { echo "md5scale: too few vertices on $joint"; exit 1; }

# Without the .md5scale first, then with it.
"$bin" convert "$tmp/flag.md2" --prefer md5 "$tmp/plain.glb" >/dev/null 2>&1
keys=$(echo "$hidden" | sed 's/\([0-9]*\)/"\1": 0/g')
printf '{ "%s": { %s } }\n' "$joint" "$keys" >"$tmp/md5/flag.md5scale"
read -r scale frames < <("$bin" info --json --prefer md5 "$tmp/flag.md2" | python3 -c 'import json,sys; r=json.load(sys.stdin)["rerelease"]; print(r.get("scale"), r["frames"])')
[ "$scale" = md5/flag.md5scale ] || { echo "md5scale: info does not see the .md5scale (scale: $scale)"; exit 1; }
"$bin" convert "$tmp/flag.md2" --prefer md5 "$tmp/flag.glb" >/dev/null 2>&1

args=("$tmp/flag.glb" "$tmp/plain.glb" "$joint" "$hidden" "$frames")
status=0
"${BLENDER:-blender}" -b --factory-startup --python-exit-code 1 --python "$here/blender_md5scale.py" -- "${args[@]}" \
  >"$tmp/blender.log" 2>&1 || status=$?
grep "^blender:" "$tmp/blender.log" || true
if [ "$status" -ne 0 ]; then
  echo "md5scale: Blender exited $status"
  grep -v "^blender:" "$tmp/blender.log" | tail -20
  exit 1
fi
if [ "$BPY_PYTHON" = none ]; then
  echo "md5scale: the bpy run left out (BPY_PYTHON=none)"
else
  status=0
  "$BPY_PYTHON" "$here/blender_md5scale.py" -- "${args[@]}" >"$tmp/bpy.log" 2>&1 || status=$?
  grep "^blender:" "$tmp/bpy.log" || true
  if [ "$status" -ne 0 ]; then
    echo "md5scale: $BPY_PYTHON exited $status"
    grep -v "^blender:" "$tmp/bpy.log" | tail -20
    exit 1
  fi
  echo "md5scale: the bpy run passed ($BPY_PYTHON)"
fi
