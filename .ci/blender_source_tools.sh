#!/usr/bin/env bash
# Issue 42, criterion 3: Blender Source Tools (Artfunkel/BlenderSourceTools, in bpy 5.0.1)
# imports the QC + SMD files retromodel decompiles from every corpus GoldSrc model, with the
# model's bone count and one animation per sequence (.ci/blender_source_tools.py).
#
#   bash .ci/blender_source_tools.sh RETROMODEL CORPUS [OUT]
#
# Blender Source Tools is not on PyPI: BST_DIR names a folder holding its
# `io_scene_valvesource` add-on; else it is taken from a git mirror of the repository
# (BST_GIT, default /work/.mirror/Artfunkel+BlenderSourceTools/repo, what the `fetch` tool
# makes). With neither, the check says so and exits 2 (cannot judge). bpy comes from the venv
# .ci/blender_extension.sh makes (target/venv-bpy-5.0.1), made here when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: blender_source_tools.sh RETROMODEL CORPUS [OUT]}
CORPUS=${2:?usage: blender_source_tools.sh RETROMODEL CORPUS [OUT]}
OUT=${3:-target/ci-bst}
BST_GIT=${BST_GIT:-/work/.mirror/Artfunkel+BlenderSourceTools/repo}
if [ -z "${BST_DIR:-}" ]; then
  if [ -d "$BST_GIT" ]; then
    BST_DIR=target/bst
    rm -rf "$BST_DIR" && mkdir -p "$BST_DIR"
    git --git-dir="$BST_GIT" archive HEAD io_scene_valvesource | tar -x -C "$BST_DIR"
    echo "Blender Source Tools $(git --git-dir="$BST_GIT" log -1 --format='%h %cs')"
  else
    echo "blender_source_tools: no Blender Source Tools (set BST_DIR or BST_GIT): cannot judge" >&2
    exit 2
  fi
fi
[ -d "$BST_DIR/io_scene_valvesource" ] || { echo "blender_source_tools: $BST_DIR has no io_scene_valvesource" >&2; exit 2; }
venv=${BPY_VENV_DIR:-target}/venv-bpy-5.0.1
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import bpy" 2>/dev/null; then
  "${PYTHON311:-python3.11}" -m venv "$venv"
  "$venv/bin/pip" install -q "bpy==5.0.1" numpy
fi
rm -rf "$OUT" && mkdir -p "$OUT"
# Every corpus GoldSrc model with triangles, decompiled; the expectations come from `info`
# on the model itself (bones, sequences) and from the QC's $sequence lines (the SMD each
# animation is imported from).
python3 - "$BIN" "$CORPUS" "$OUT" <<'PY'
import json, os, re, subprocess, sys
binary, corpus, out = sys.argv[1:4]
cases, refused = [], []
for root, _, names in sorted(os.walk(corpus)):
    for n in sorted(names):
        p = os.path.join(root, n)
        if not n.lower().endswith(".mdl"):
            continue
        with open(p, "rb") as f:
            if f.read(4) != b"IDST":
                continue
        info = subprocess.run([binary, "info", "--json", p], capture_output=True, text=True)
        if info.returncode != 0:
            refused.append(p)
            continue
        d = json.loads(info.stdout.splitlines()[0])
        if d.get("triangles", 0) == 0:
            continue  # a texture file (NAMET.mdl) or a model without meshes
        stem = f"{len(cases):03d}_{os.path.splitext(n)[0]}"
        qc = os.path.join(out, stem, stem + ".qc")
        c = subprocess.run([binary, "convert", p, qc, "--force"], capture_output=True, text=True)
        if c.returncode != 0:
            print(f"FAIL {p}: decompile: {c.stderr.strip()[-300:]}")
            sys.exit(1)
        # QC tokens (quoted or bare, comments dropped). A $sequence names its SMD next, or
        # its SMDs (one per blend) as the quoted lines opening its { } block; BST skips a
        # sequence whose name is empty (a corpus model has five), so those are not expected.
        # Triangles: every reference SMD ($body, and each `studio` of a $bodygroup: BST
        # imports all of a body group's choices), counted in the SMD.
        text = re.sub(r"//[^\n]*", "", open(qc, encoding="latin-1").read())
        tokens = []
        for m in re.finditer(r'"([^"]*)"|(\S+)', text):
            tokens.append((m.group(1), True) if m.group(1) is not None else (m.group(2), False))
        smds, refs, named = [], [], 0
        for i, (t, quoted) in enumerate(tokens):
            low = t.lower() if not quoted else ""
            if low == "$sequence":
                name, j = tokens[i + 1][0], i + 2
                if tokens[j] == ("{", False):
                    j += 1
                    blends = []
                    while j < len(tokens) and tokens[j][1]:
                        blends.append(tokens[j][0])
                        j += 1
                else:
                    blends = [tokens[j][0]]
                named += 1
                if name:
                    smds += [os.path.splitext(os.path.basename(b))[0] for b in blends]
            elif low == "studio" or low == "$body":
                refs.append(tokens[i + 2][0] if low == "$body" else tokens[i + 1][0])
        sequences = d.get("animations", [])
        if named != len(sequences):
            print(f"FAIL {p}: the QC has {named} $sequence commands, the model {len(sequences)} sequences")
            sys.exit(1)
        tris = 0
        for r in refs:
            path = os.path.join(os.path.dirname(qc), r if r.lower().endswith(".smd") else r + ".smd")
            lines = open(path, encoding="latin-1").read().split("triangles", 1)[1].split("\nend")[0]
            tris += sum(1 for l in lines.strip().splitlines() if l.strip()) // 4
        cases.append({"qc": qc, "bones": d["joints"], "triangles": tris,
                      "sequences": smds, "source": p})
json.dump(cases, open(os.path.join(out, "cases.json"), "w"), indent=1)
print(f"{len(cases)} corpus GoldSrc models decompiled to QC" + (f"; {len(refused)} refused by info" if refused else ""))
PY
"$venv/bin/python" .ci/blender_source_tools.py --bst "$BST_DIR" "$OUT/cases.json" 2>&1 |
  grep -E '^(ok|FAIL|Blender Source Tools|no cases)' | tee "$OUT/result.txt"
grep -q '^Blender Source Tools .*: \([0-9]*\) of \1 ' "$OUT/result.txt"
