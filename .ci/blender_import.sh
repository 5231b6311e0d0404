#!/usr/bin/env bash
# Issue 8, criterion 2 with a glTF made by Blender: a skinned, animated column exported
# headless (.ci/blender_export_rig.py) converts to MD2 and MDL whose frames match Blender's
# own evaluation of the mesh at the same times to within one quantisation step.
# Usage: .ci/blender_import.sh RETROMODEL_BINARY
set -euo pipefail
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
blender -b --factory-startup --python-exit-code 1 --python "$(dirname "$0")/blender_export_rig.py" -- "$out/rig.glb" "$out/rig.json" 2>&1 | grep "^blender:"
"$bin" convert "$out/rig.glb" "$out/rig.md2" --skin-path rig.pcx
"$bin" convert "$out/rig.glb" "$out/rig.mdl"
python3 "$(dirname "$0")/compare_frames.py" "$out/rig.json" "$out/rig.md2" "$out/rig.mdl"
