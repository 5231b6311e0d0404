#!/usr/bin/env bash
# Blender extension check (issue 27, criterion 3) in two Blender releases installed from
# PyPI as Python modules.  The virtual environments are cached under target/.
#   RETROMODEL_CORPUS=... .ci/blender_extension.sh
# Optional: RETROMODEL_CLI_BIN (the built CLI), RETROMODEL_WHEEL (the wheel to bundle),
# BPY_VENV_DIR (where the venv-bpy-<version> folders are cached; default target),
# RETROMODEL_BLENDER_ZIP (an extension zip to install as it is, such as release/build.sh's
# retromodel-V-linux-x64.zip, instead of one built here from the wheel).
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${RETROMODEL_CORPUS:?set RETROMODEL_CORPUS to the model corpus}
CLI=${RETROMODEL_CLI_BIN:-target/release/retromodel}
PY=${PYTHON311:-python3.11}
[ -x "$CLI" ] || cargo build --release -p retromodel-cli
ZIP=${RETROMODEL_BLENDER_ZIP:-}
if [ -z "$ZIP" ]; then
  WHEEL=${RETROMODEL_WHEEL:-$(ls -t target/wheels/retromodel-*.whl 2>/dev/null | head -n1 || true)}
  if [ -z "$WHEEL" ]; then
    maturin build --release -m crates/retromodel-py/Cargo.toml
    WHEEL=$(ls -t target/wheels/retromodel-*.whl | head -n1)
  fi
  ZIP=$(python3 blender/build.py "$WHEEL")
fi
echo "Blender extension: $ZIP"
status=0
for v in 4.2.23 5.0.1; do
  venv=${BPY_VENV_DIR:-target}/venv-bpy-$v
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import bpy" 2>/dev/null; then
    "$PY" -m venv "$venv"
    "$venv/bin/pip" install -q "bpy==$v" numpy
  fi
  out=target/blender/check-$v
  rm -rf "$out"
  # the zip installs the wheel into Blender's extension folder; --require-package makes
  # sure the extension uses it rather than the CLI
  "$venv/bin/python" .ci/blender_extension.py --zip "$ZIP" --corpus "$CORPUS" \
      --retromodel "$CLI" --out "$out" --require-package || status=1
done
exit $status
