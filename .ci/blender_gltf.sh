#!/usr/bin/env bash
# Blender imports converted corpus models headless: an MDL and an MD2 come in with one shape
# key per pose after the first and one action per clip, an MD5 mesh with its armature and
# one action per animation, a Quake 3 player with its node tree and a clip per animation.cfg
# entry. Expectations come from `retromodel info --json`. The MDL, MD2 and MD5 are also
# converted with --quantize (issue 16) and must come in like the float files: the same
# shape keys at the same world positions within the largest error `convert -v` reports,
# the same armature, normals and actions.
# Usage: .ci/blender_gltf.sh RETROMODEL_BINARY CORPUS_DIR
set -euo pipefail
bin=$1 corpus=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
specs=()
# Converts $1 with --quantize as $2-q.glb (the float file $2.glb exists); its spec compares
# it with the float file, within the largest position error -v reports (and 1e-4 for the
# float arithmetic on the way).
quantized() { # file name expectations
  local err
  err=$("$bin" convert "$1" "$out/$2-q.glb" --quantize -v 2>&1 | sed -n 's/.*quantised, largest position error \([0-9.e-]*\).*/\1/p')
  [ -n "$err" ] || { echo "no quantisation report for $1"; exit 1; }
  specs+=("$out/$2-q.glb:$3:same_as=$out/$2.glb:tolerance=$(python3 -c "print($err + 1e-4)")")
}
expect_keyframes() { # file name
  "$bin" convert "$1" "$out/$2.glb" >/dev/null 2>&1
  read -r poses clips < <("$bin" info --json "$1" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["poses"], len(d["clips"]))')
  specs+=("$out/$2.glb:shape_keys=$((poses - 1)):actions=$clips")
  quantized "$1" "$2" "shape_keys=$((poses - 1)):actions=$clips"
}
expect_keyframes "$corpus/quake_mdl/github-Ademan-LibreQuake/lq1/progs/zombie.mdl" zombie
expect_keyframes "$corpus/md2/debian-ufoai-data/ufoai/base/0models.pk3/models/aliens/bloodspider/bloodspider.md2" bloodspider
mesh="$corpus/assimp/test/models-nonbsd/MD5/Bob.md5mesh"
"$bin" convert "$mesh" "$out/bob.glb" >/dev/null 2>&1
read -r joints anims < <("$bin" info --json "$mesh" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["joints"], len([a for a in d["animations"] if a["kind"] == "skeletal"]))')
specs+=("$out/bob.glb:armature_bones=$joints:actions=$anims")
quantized "$mesh" bob "armature_bones=$joints:actions=$anims"
# IQM (issue 29): an armature with every joint and one action per IQM animation (those of
# the animation-only files beside snoutx10k included).
for iqm in assimp/test/models/IQM/mrfixit.iqm \
  iqm/github-raysan5-raylib/examples/models/resources/models/iqm/guy.iqm \
  iqm/debian-cube2-data/cube2/packages/models/snoutx10k/snoutx10k.iqm \
  iqm/github-excessive-ludum-dare-44/assets/models/slime.exm; do
  name=iqm-$(basename "$iqm")
  "$bin" convert "$corpus/$iqm" "$out/$name.glb" >/dev/null 2>&1
  read -r joints anims < <("$bin" info --json "$corpus/$iqm" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["joints"], len([a for a in d["animations"] if a["kind"] == "skeletal"]))')
  [ "$anims" -gt 0 ] || { echo "$iqm: no animations in info --json"; exit 1; }
  specs+=("$out/$name.glb:armature_bones=$joints:actions=$anims")
done
# Half-Life (issue 41): an armature with every bone, one action per sequence, and every
# texture of the glTF (manT.mdl's for man.mdl) loaded as an image with pixels.
for hl in "assimp/test/models/MDL/MDL (HL1)/man.mdl" \
  hl1_mdl/github-LogicAndTrick-sledge-formats/Sledge.Formats.Model.Tests/Resources/mdl10/cube.mdl; do
  name=hl1-$(basename "$hl")
  "$bin" convert "$corpus/$hl" "$out/$name.glb" >/dev/null 2>&1
  read -r joints anims < <("$bin" info --json "$corpus/$hl" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["joints"], len([a for a in d["animations"] if a["kind"] == "skeletal"]))')
  images=$(python3 -c 'import json,struct,sys; b=open(sys.argv[1],"rb").read(); n=struct.unpack_from("<I",b,12)[0]; print(len(json.loads(b[20:20+n]).get("images",[])))' "$out/$name.glb")
  [ "$anims" -gt 0 ] && [ "$images" -gt 0 ] || { echo "$hl: $anims animations, $images images"; exit 1; }
  specs+=("$out/$name.glb:armature_bones=$joints:actions=$anims:images=$images")
done
# Quake 3 players assembled from their folders: the node tree and one clip per
# animation.cfg entry (25 for these players).
for player in "$corpus"/md3/*/openarena/baseoa/*/models/players/*/; do
  [ -f "$player/animation.cfg" ] || continue
  name=$(basename "$player")
  "$bin" convert "$player" "$out/player-$name.glb" >/dev/null 2>&1
  specs+=("$out/player-$name.glb:clips=25:chain=head>tag_head>upper>tag_torso>lower")
done
blender -b --factory-startup --python-exit-code 1 --python "$(dirname "$0")/blender_check.py" -- "${specs[@]}" 2>&1 | grep "^blender:"
