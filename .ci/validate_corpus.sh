#!/usr/bin/env bash
# `retromodel validate` on every corpus family with its engines (IQM with all four), each
# run's findings compared line for line with .ci/validate_expected.txt (issue 45: an exit
# status of 0 or 1 alone only caught crashes). The paths are made relative to the corpus
# and the lines sorted. A change in the findings fails CI and prints the difference; when it
# is meant, write the file anew and commit it with the change:
#   bash .ci/validate_corpus.sh target/release/retromodel "$RETROMODEL_CORPUS" --update
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$1"
corpus="${2%/}"
update="${3:-}"
expected=.ci/validate_expected.txt
[ -d "$corpus" ] || { echo "validate: no corpus at $corpus"; exit 1; }
runs=(
  "quake_mdl --engine quakespasm"
  "md2 --engine quake2"
  "md3 --engine ioq3"
  "md5 --engine doom3"
  "3dgs_wmp --engine acknex"
  "3dgs_mdl --engine acknex"
  "3dgs_hmp --engine acknex"
  "iqm --engine ioq3"
  "iqm --engine darkplaces"
  "iqm --engine fteqw"
  "iqm --engine tesseract"
  "hl1_mdl --engine goldsrc"
  "hl1_mdl --engine xash3d"
)
got=$(mktemp)
trap 'rm -f "$got"' EXIT
for args in "${runs[@]}"; do
  set +e
  # shellcheck disable=SC2086
  out=$("$bin" validate "$corpus"/$args 2>&1)
  rc=$?
  set -e
  [ "$rc" -le 1 ] || { echo "$out" | tail -n 20; echo "validate $args crashed (exit $rc)"; exit 1; }
  echo "validate $args: $(echo "$out" | tail -n 1)"
  {
    echo "## validate $args (exit $rc)"
    echo "$out" | sed "s#$corpus/##g" | LC_ALL=C sort
  } >> "$got"
done
if [ "$update" = --update ]; then
  cp "$got" "$expected"
  echo "validate: $expected written ($(wc -l < "$expected") lines)"
  exit 0
fi
if ! diff -u "$expected" "$got" > target/ci-validate.diff; then
  head -n 80 target/ci-validate.diff
  echo "validate: the findings differ from $expected (target/ci-validate.diff; --update if meant)"
  exit 1
fi
echo "validate: $(grep -c '^## ' "$expected") runs, findings as expected"
