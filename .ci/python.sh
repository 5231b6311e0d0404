#!/usr/bin/env bash
# The Python package (issue 27): the abi3 wheel built with maturin, installed with pip into a
# fresh virtual environment as the README's Install section says, the pytest suite on the
# corpus (criterion 1), and the vgio benchmark as a smoke (criterion 2's harness; the full
# figures are in BENCHMARKS.md).
#   RETROMODEL_CORPUS=... bash .ci/python.sh
# The build venv (maturin, pytest, vgio) is cached in target/venv-py; the fresh one is made
# anew in target/venv-fresh each run.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
venv=target/venv-py
if [ ! -x "$venv/bin/maturin" ] || ! "$venv/bin/python" -c "import numpy, pytest, vgio" 2>/dev/null; then
  "$PY" -m venv "$venv"
  "$venv/bin/pip" install -q "maturin>=1.9,<2" numpy pytest vgio==1.3.0
fi
rm -f target/wheels/retromodel-*.whl
"$venv/bin/maturin" build --release -m crates/retromodel-py/Cargo.toml -o target/wheels 2>&1 | grep -v '^ *Compiling' || true
wheel=$(ls target/wheels/retromodel-*-abi3-*.whl | head -n1)
echo "wheel: $wheel ($(du -h "$wheel" | cut -f1))"

# The README's Install section: pip install of the wheel into a fresh environment.
rm -rf target/venv-fresh
"$PY" -m venv target/venv-fresh
target/venv-fresh/bin/pip install -q "$wheel"
target/release/retromodel sample target/py-sample.mdl --force >/dev/null
(cd target && venv-fresh/bin/python -c "import retromodel; print(retromodel.load('py-sample.mdl').info())")
# help() is useful: the docstring says what a path may name.
target/venv-fresh/bin/python -c "import pydoc, retromodel; print(pydoc.render_doc(retromodel.load))" > target/py-help.txt
grep -q "ARCHIVE:PATH" target/py-help.txt || { echo "help(retromodel.load) lacks its docstring"; exit 1; }

"$venv/bin/pip" install -q --force-reinstall --no-deps "$wheel"
# The corpus is required (issue 45): with RETROMODEL_CORPUS set, conftest.py fails any test
# that would skip; -rs lists skip reasons should one get through.
: "${RETROMODEL_CORPUS:?python.sh runs the tests on the corpus: set RETROMODEL_CORPUS}"
RETROMODEL_BIN=target/release/retromodel "$venv/bin/python" -m pytest -q -rs crates/retromodel-py/tests
"$venv/bin/python" bench/python_vgio.py --quick
