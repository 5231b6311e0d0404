#!/usr/bin/env bash
# GPU checks that need a Vulkan driver (Mesa's llvmpipe without a GPU): the render crate's GPU
# tests and goldens run for real (not skipped), the CLI render tests and corpus goldens, then
# `retromodel render` on every corpus model that `retromodel info` reads (256x256): count,
# failures, and the share of non-background pixels. Fails if a readable model with triangles
# fails to render or gives an empty image from the default camera and three others (back faces
# are culled, so a single-sided plane facing away is retried from the other side and reported).
#
# Assumes the release binary at target/release/retromodel (cargo build --release -p
# retromodel-cli; RETROMODEL_BIN names another). Usage: .ci/render.sh [CORPUS_DIR]   (default: $RETROMODEL_CORPUS or
# ../shared/corpus). RETROMODEL_RENDER_JOBS sets the parallelism (default 2);
# RETROMODEL_RENDER_SKIP_TESTS=1 leaves out the cargo tests (when .ci/run has just run them).
set -euo pipefail
cd "$(dirname "$0")/.."

CORPUS="${1:-${RETROMODEL_CORPUS:-../shared/corpus}}"
[ -f "$CORPUS/MANIFEST.tsv" ] || { echo "corpus not found at $CORPUS"; exit 1; }
CORPUS="$(cd "$CORPUS" && pwd)"
BIN="${RETROMODEL_BIN:-$PWD/target/release/retromodel}"
[ -x "$BIN" ] || { echo "$BIN not found: cargo build --release -p retromodel-cli"; exit 1; }
JOBS="${RETROMODEL_RENDER_JOBS:-2}"
OUT="$PWD/target/ci-render"
rm -rf "$OUT" && mkdir -p "$OUT/png"

# A Vulkan adapter: install Mesa's software driver when there is none.
"$BIN" sample "$OUT/demo.mdl" --force >/dev/null
if ! "$BIN" render "$OUT/demo.mdl" "$OUT/demo.png" --force --size 64x64 >"$OUT/probe.log" 2>&1; then
  if grep -q "no GPU adapter" "$OUT/probe.log" && [ "$(id -u)" = 0 ]; then
    echo "no GPU adapter: apt-get install mesa-vulkan-drivers"
    (export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq mesa-vulkan-drivers) >/dev/null
    "$BIN" render "$OUT/demo.mdl" "$OUT/demo.png" --force --size 64x64 >"$OUT/probe.log" 2>&1 || { cat "$OUT/probe.log"; exit 1; }
  else
    cat "$OUT/probe.log"; exit 1
  fi
fi
grep '^adapter:' "$OUT/probe.log"

if [ "${RETROMODEL_RENDER_SKIP_TESTS:-0}" != 1 ]; then
echo "== GPU tests (must run, not skip)"
RETROMODEL_CORPUS="$CORPUS" cargo test --release -q -p retromodel-render -p retromodel-cli \
  --test gpu --test golden --test cli_render --test cli_render_corpus -- --nocapture \
  >"$OUT/tests.log" 2>&1 || { tail -n 60 "$OUT/tests.log"; exit 1; }
if grep -q "no GPU adapter: skipped" "$OUT/tests.log"; then
  echo "GPU tests were skipped although an adapter exists"; exit 1
fi
grep -E "pixels differ|test result" "$OUT/tests.log" | sed 's/^/  /'
fi

echo "== render every corpus model (256x256, $JOBS jobs)"
find "$CORPUS" -type f \( -iname '*.mdl' -o -iname '*.md2' -o -iname '*.md5mesh' -o -iname '*.hmp' -o -iname '*.wmp' \) \
  | sort > "$OUT/all.txt"
# What `info` reads, with its triangle count; models without triangles have nothing to draw.
tr '\n' '\0' < "$OUT/all.txt" | xargs -0 "$BIN" info --json > "$OUT/info.jsonl" 2>/dev/null || true
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
readable, empty = [], 0
for line in open(f"{out}/info.jsonl"):
    d = json.loads(line)
    if "error" in d:
        continue
    if (d.get("triangles") or 0) > 0:
        readable.append(d["path"])
    else:
        empty += 1
open(f"{out}/readable.txt", "w").write("".join(p + "\n" for p in readable))
open(f"{out}/no_triangles.txt", "w").write(f"{empty}\n")
PY
start=$(date +%s)
# One line per model: path <TAB> status <TAB> coverage%.
render_one() {
  local f="$1" png
  png="$OUT/png/$(printf '%s' "$f" | md5sum | cut -c1-16).png"
  if line=$("$BIN" render "$f" "$png" --force --size 256x256 2>"$png.err" | grep -o 'coverage [0-9.]*%'); then
    if [ "$line" = "coverage 0.0%" ]; then
      # Back faces are culled: a single-sided plane may face away from the default camera.
      for cam in 210,15 30,-60 210,-60; do
        line2=$("$BIN" render "$f" "$png" --force --size 256x256 --camera "$cam" 2>/dev/null | grep -o 'coverage [0-9.]*%') || continue
        if [ "$line2" != "coverage 0.0%" ]; then
          printf '%s\tok-other-side\t%s\n' "$f" "${line2#coverage }"
          return
        fi
      done
    fi
    printf '%s\tok\t%s\n' "$f" "${line#coverage }"
  else
    printf '%s\tfailed\t%s\n' "$f" "$(grep -v XDG_RUNTIME_DIR "$png.err" | tail -n 1)"
  fi
}
export -f render_one
export BIN OUT
tr '\n' '\0' < "$OUT/readable.txt" | xargs -0 -P "$JOBS" -I{} bash -c 'render_one "$1"' _ {} > "$OUT/results.tsv"
secs=$(( $(date +%s) - start ))
python3 - "$OUT" "$secs" <<'PY'
import sys, statistics
out, secs = sys.argv[1], sys.argv[2]
ok, failed, blank, other = [], [], [], []
for line in open(f"{out}/results.tsv"):
    path, status, rest = line.rstrip("\n").split("\t", 2)
    if status not in ("ok", "ok-other-side"):
        failed.append((path, rest))
        continue
    cov = float(rest.rstrip("%"))
    ok.append(cov)
    if status == "ok-other-side":
        other.append((path, cov))
    if cov <= 0.0:
        blank.append(path)
total = sum(1 for _ in open(f"{out}/all.txt"))
readable = sum(1 for _ in open(f"{out}/readable.txt"))
notri = open(f"{out}/no_triangles.txt").read().strip()
print(f"render: {total} files found, {total - readable - int(notri)} not read by info, {readable} readable with triangles ({notri} without), "
      f"{len(ok)} rendered, {len(failed)} failed, {len(blank)} empty images, {secs} s")
if ok:
    print(f"coverage of non-background pixels: min {min(ok):.1f}%, median {statistics.median(ok):.1f}%, "
          f"mean {statistics.mean(ok):.1f}%, max {max(ok):.1f}%")
if other:
    print(f"{len(other)} single-sided models show nothing from the default camera (their front faces look away); seen from another side:")
    for p, cov in other:
        print(f"  {p}: {cov:.1f}%")
for p, why in failed:
    print(f"  FAILED {p}: {why}")
for p in blank:
    print(f"  EMPTY {p}")
sys.exit(1 if failed or blank else 0)
PY
