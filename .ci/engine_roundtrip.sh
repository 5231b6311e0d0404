#!/usr/bin/env bash
# The real-engine test of issue 15: a corpus player (OpenArena's sarge) converted by
# retromodel to glTF and back to MD3, each part on its own (lower, upper, head and their
# lower-detail versions), packed in a .pk3 and loaded by OpenArena (.ci/engine_md3.sh: the
# same third-person screenshots with the original and with the rewritten model, compared
# pixel by pixel, and the console log checked for model warnings).
#
# Usage: .ci/engine_roundtrip.sh RETROMODEL_BINARY CORPUS_DIR [--keep DIR]
set -euo pipefail
bin=$(realpath "$1") corpus=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src="$corpus/md3/debian-openarena-data/openarena/baseoa/pak0.pk3/models/players/sarge"
mkdir -p "$work/pk3/models/players/sarge" "$work/glb"
for part in lower upper head lower_1 upper_1 head_1 lower_2 upper_2 head_2; do
  "$bin" convert "$src/$part.md3" "$work/glb/$part.glb" > /dev/null 2>&1
  "$bin" convert "$work/glb/$part.glb" "$work/pk3/models/players/sarge/$part.md3" 2> "$work/$part.log" \
    || { cat "$work/$part.log"; exit 1; }
  # Same frames, surfaces and tags as the original, positions within one 1/64 step.
  python3 - "$src/$part.md3" "$work/pk3/models/players/sarge/$part.md3" <<'PY'
import struct, sys
def read(p):
    b = open(p, "rb").read()
    nf, nt, ns = struct.unpack_from("<3i", b, 76)
    tags = [b[o:o + 64].split(b"\0")[0] for o in range(struct.unpack_from("<i", b, 96)[0], struct.unpack_from("<i", b, 96)[0] + 112 * nt, 112)]
    at, surfs = struct.unpack_from("<i", b, 100)[0], []
    for _ in range(ns):
        name = b[at + 4:at + 68].split(b"\0")[0]
        sf, _sh, nv, ntri, ot, osh, ost, oxyz, oend = struct.unpack_from("<9i", b, at + 72)
        xyz = struct.unpack_from(f"<{4 * nv * nf}h", b, at + oxyz)
        surfs.append((name, nv, ntri, xyz))
        at += oend
    return nf, tags, surfs
a, b = read(sys.argv[1]), read(sys.argv[2])
assert a[0] == b[0], f"frames {a[0]} vs {b[0]}"
assert a[1] == b[1], f"tags {a[1]} vs {b[1]}"
for (n1, v1, t1, x1), (n2, v2, t2, x2) in zip(a[2], b[2]):
    assert (n1, v1, t1) == (n2, v2, t2), f"surface {n1} {v1} {t1} vs {n2} {v2} {t2}"
    worst = max((abs(p - q) for k, (p, q) in enumerate(zip(x1, x2)) if k % 4 != 3), default=0)
    assert worst <= 1, f"surface {n1}: a position moved {worst} steps of 1/64"
print(f"{sys.argv[2].rsplit('/', 1)[1]}: {a[0]} frames, tags {[t.decode() for t in a[1]]}, surfaces {[s[0].decode() for s in a[2]]} as the original")
PY
done
(cd "$work/pk3" && python3 -c 'import sys, zipfile, os
with zipfile.ZipFile("../sarge-retromodel.pk3", "w", zipfile.ZIP_DEFLATED) as z:
    for root, _, files in os.walk("models"):
        for f in sorted(files):
            z.write(os.path.join(root, f))')
bash "$here/engine_md3.sh" "$@" "$work/sarge-retromodel.pk3" sarge
