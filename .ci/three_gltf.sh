#!/usr/bin/env bash
# Issue 16: three.js's GLTFLoader reads quantised conversions of corpus models (an MDL, an
# MD2, an MD3 and an MD5 mesh) with the poses of their float conversions, within the largest
# position error `convert -v` reports; issue 43: the same for `--compress` (loaded through
# meshoptimizer's MeshoptDecoder, the welded vertices compared by their source vertex).
# Usage: .ci/three_gltf.sh RETROMODEL_BINARY CORPUS_DIR   (three and meshoptimizer under NODE_PATH)
set -euo pipefail
bin=$1 corpus=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for model in \
  "$corpus/quake_mdl/github-Ademan-LibreQuake/lq1/progs/zombie.mdl" \
  "$corpus/md2/debian-ufoai-data/ufoai/base/0models.pk3/models/aliens/bloodspider/bloodspider.md2" \
  "$corpus/md3/debian-openarena-data/openarena/baseoa/pak0.pk3/models/players/sarge/upper.md3" \
  "$corpus/assimp/test/models-nonbsd/MD5/Bob.md5mesh"; do
  name=$(basename "$model")
  "$bin" convert "$model" "$out/$name.glb" > /dev/null 2>&1
  err=$("$bin" convert "$model" "$out/$name-q.glb" --quantize -v 2>&1 | sed -n 's/.*quantised, largest position error \([0-9.e-]*\).*/\1/p')
  [ -n "$err" ] || { echo "no quantisation report for $model"; exit 1; }
  node "$(dirname "$0")/three_compare.mjs" "$out/$name.glb" "$out/$name-q.glb" "$(python3 -c "print($err + 1e-4)")"
  err=$("$bin" convert "$model" "$out/$name-c.glb" --compress -v 2>&1 | sed -n 's/.*quantised, largest position error \([0-9.e-]*\).*/\1/p')
  [ -n "$err" ] || { echo "no quantisation report for $model --compress"; exit 1; }
  node "$(dirname "$0")/three_compare.mjs" "$out/$name.glb" "$out/$name-c.glb" "$(python3 -c "print($err + 1e-4)")"
done
