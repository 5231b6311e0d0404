#!/usr/bin/env bash
# bench/before_after.sh: every figure command of BENCHMARKS.md with the CLI built at an older
# commit and with the current one, alternating, and one before/after markdown table. See --help.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bench/before_after.sh [--runs N] [--corpus DIR] [--no-render] REV

Builds commit REV (release, `cargo build --release -p retromodel-cli`) in a temporary git
worktree with its own target folder (target/before-after/target; the binary is kept as
target/before-after/retromodel-SHA, so a second run with the same REV builds nothing), then
runs the figure commands of BENCHMARKS.md with that binary and the current one
(target/release/retromodel, built first; RETROMODEL_BIN overrides it), alternating, N times
each (default 3), and prints a markdown table: the median of each, and the speed-up
(after / before for throughputs, before / after for seconds). A command the old binary does
not know (a flag added later) shows "n/a"; renamed flags are tried in their old spelling
too (--gl-commands for --kernel gl-commands, --skinning for --kernel skinning).

Figures: quake_mdl full and parse-only, md2 full and parse-only, the gl-commands and
skinning kernels, md5 parse-only and full, 3dgs_mdl, 3dgs_hmp and 3dgs_wmp, the batch
conversion of the corpus to glb and gltf (wall-clock seconds), glTF import, palette reduction
(plain and dithered), and the two GPU renderer figures (`render --bench-frames 300`, fps;
left out with --no-render, and n/a where a binary has no renderer or no Vulkan driver).

  --runs N       runs of each command with each binary (default 3)
  --corpus DIR   the corpus (default: $RETROMODEL_CORPUS, else ../shared/corpus)
  --no-render    leave out the GPU renderer figures
  -h, --help     this text
EOF
}

die() {
  echo "before_after.sh: $*" >&2
  exit 1
}
say() { echo "$*" >&2; }

RUNS=3
CORPUS=""
RENDER=1
REV=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs)
      [ $# -ge 2 ] || die "--runs needs a number"
      RUNS=$2
      shift 2
      ;;
    --corpus)
      [ $# -ge 2 ] || die "--corpus needs a folder"
      CORPUS=$2
      shift 2
      ;;
    --no-render)
      RENDER=0
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    -*) die "unknown option $1 (see --help)" ;;
    *)
      [ -z "$REV" ] || die "one REV only (see --help)"
      REV=$1
      shift
      ;;
  esac
done
[ -n "$REV" ] || die "give the commit to compare with (see --help)"
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "--runs wants a positive number, not '$RUNS'"

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
CORPUS=${CORPUS:-${RETROMODEL_CORPUS:-../shared/corpus}}
[ -d "$CORPUS" ] || die "corpus folder not found: $CORPUS (give --corpus or set RETROMODEL_CORPUS)"
CORPUS="$(cd "$CORPUS" && pwd)"
command -v cargo >/dev/null 2>&1 || die "cargo not found: install a Rust toolchain"
SHA=$(git rev-parse --verify --quiet "$REV^{commit}") || die "not a commit: $REV"
SHORT=$(git rev-parse --short "$SHA")

WORK="$ROOT/target/before-after"
mkdir -p "$WORK"
OLD="$WORK/retromodel-$SHORT"

# --- the two binaries -----------------------------------------------------------------------
if [ ! -x "$OLD" ]; then
  tree="$WORK/worktree-$SHORT"
  cleanup() { git -C "$ROOT" worktree remove --force "$tree" >/dev/null 2>&1 || true; }
  trap cleanup EXIT
  cleanup
  say "building $SHORT in $tree (target folder $WORK/target)"
  git worktree add --detach --quiet "$tree" "$SHA" || die "git worktree add failed"
  # nice: a full release build on a shared machine.
  (cd "$tree" && CARGO_TARGET_DIR="$WORK/target" nice cargo build --release -q -p retromodel-cli) ||
    die "$SHORT does not build (cargo build --release -p retromodel-cli)"
  cp "$WORK/target/release/retromodel" "$OLD"
  cleanup
  trap - EXIT
fi
NEW=${RETROMODEL_BIN:-}
if [ -z "$NEW" ]; then
  say "building the current tree"
  cargo build --release -q -p retromodel-cli || die "the current tree does not build"
  NEW="${CARGO_TARGET_DIR:-$ROOT/target}/release/retromodel"
fi
[ -x "$NEW" ] || die "no binary at $NEW"
CURRENT=$(git rev-parse --short HEAD)
git diff --quiet HEAD 2>/dev/null || CURRENT="$CURRENT + local changes"

# --- the figures ----------------------------------------------------------------------------
# LABEL | METRIC | ARGS [|| OLDER SPELLING ...]; paths relative to the corpus (@/...).
# METRIC: MBps, per_s (the kernel's unit per second), seconds (wall clock of the command;
# batch conversions), fps (render --bench-frames), palette:false / palette:true.
BODY="@/md2/debian-ufoai-data/ufoai/base/0models.pk3/models/soldiers/femalepower/body.md2"
ZAPPER="@/md5/debian-redeclipse-data/redeclipse/data/weapons/zapper/mesh.md5mesh"
BOSS="@/quake_mdl/github-pnahratow-LibreQuake/lq1/progs/boss.mdl"
FIGURES=(
  "Quake MDL, full Model|MBps|bench @/quake_mdl --rounds 50"
  "Quake MDL, parse only|MBps|bench @/quake_mdl --rounds 50 --parse-only"
  "MD2, full Model|MBps|bench @/md2 --rounds 20"
  "MD2, parse only|MBps|bench @/md2 --rounds 20 --parse-only"
  "MD2 GL commands (femalepower/body.md2)|per_s|bench $BODY --kernel gl-commands --rounds 200||bench $BODY --gl-commands --rounds 200"
  "MD5, parse only|MBps|bench @/md5 --rounds 20 --parse-only"
  "MD5, full Model|MBps|bench @/md5 --rounds 20"
  "MD5 skinning (zapper)|per_s|bench $ZAPPER --kernel skinning --rounds 5||bench $ZAPPER --skinning --rounds 5"
  "3D GameStudio MDL, full Model|MBps|bench @/3dgs_mdl --rounds 5"
  "3D GameStudio MDL, parse only|MBps|bench @/3dgs_mdl --rounds 20 --parse-only"
  "HMP, full Model|MBps|bench @/3dgs_hmp --rounds 5"
  "WMP, full Model|MBps|bench @/3dgs_wmp --rounds 100"
  "WMP, parse only|MBps|bench @/3dgs_wmp --rounds 100 --parse-only"
  "batch conversion to glb|seconds|convert @ OUT --to glb"
  "batch conversion to gltf|seconds|convert @ OUT --to gltf"
  "glTF import (quake_mdl, md2)|MBps|bench @/quake_mdl @/md2 --import --rounds 3"
  "palette, nearest|palette:false|bench @/quake_mdl --palette --rounds 3"
  "palette, Floyd-Steinberg|palette:true|bench @/quake_mdl --palette --rounds 3"
)
if [ "$RENDER" = 1 ]; then
  FIGURES+=(
    "render boss.mdl, 512x512, 300 frames|fps|render $BOSS TMP/b.png --force --size 512x512 --bench-frames 300"
    "render zapper md5mesh, 512x512, 300 frames|fps|render $ZAPPER TMP/b.png --force --size 512x512 --bench-frames 300"
  )
fi
TMP="$WORK/tmp"
OUT="$WORK/out"
rm -rf "$TMP" "$OUT"
mkdir -p "$TMP"

# measure BINARY METRIC ARGS: prints the figure, or nothing when the command gave none.
measure() {
  local bin=$1 metric=$2 args=$3 log="$TMP/log" t0 t1 rc=0 argv
  args=${args//@/$CORPUS}
  args=${args//TMP/$TMP}
  args=${args//OUT/$OUT}
  rm -rf "$OUT"
  read -r -a argv <<<"$args"
  t0=$(date +%s.%N)
  "$bin" "${argv[@]}" >"$log" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  case $metric in
    MBps) sed -n 's/.*MBps=\([0-9.]*\).*/\1/p' "$log" | head -n 1 ;;
    per_s) grep '^files=' "$log" | tr ' ' '\n' | grep -v '^files_per_s=' |
      sed -n 's/^[a-z_]*_per_s=\([0-9.]*\)$/\1/p' | tail -n 1 ;;
    palette:*) grep "dither=${metric#palette:} " "$log" | sed -n 's/.*megapixels_per_s=\([0-9.]*\).*/\1/p' ;;
    fps) sed -n 's/.* \([0-9.]*\) fps.*/\1/p' "$log" | head -n 1 ;;
    seconds)
      # A batch over the corpus exits 1 (it holds broken files); its summary line says it ran.
      if [ "$rc" -le 1 ] && grep -qE '^[0-9]+ files: [0-9]+ converted' "$log"; then
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
      fi
      ;;
  esac
  return 0
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
unit() {
  case $1 in
    MBps) echo "MB/s" ;;
    per_s) echo "/s" ;;
    seconds) echo "s" ;;
    fps) echo "fps" ;;
    palette:*) echo "Mpx/s" ;;
  esac
}
fmt() { # VALUE METRIC
  [ -n "$1" ] || {
    echo "n/a"
    return
  }
  case $2 in
    per_s) awk -v v="$1" 'BEGIN { printf "%.2f M/s", v / 1e6 }' ;;
    seconds) printf '%.2f s' "$1" ;;
    *) printf '%.1f %s' "$1" "$(unit "$2")" ;;
  esac
}

echo "## Before ($SHORT) and after ($CURRENT)"
echo
echo "Corpus: $CORPUS. Median of $RUNS run(s) of each, the two binaries alternating (before, after, ...)."
echo "Speed-up: after / before for throughputs, before / after for seconds (above 1: faster)."
echo
echo "| figure | command (after) | before | after | speed-up |"
echo "|---|---|---:|---:|---:|"
for f in "${FIGURES[@]}"; do
  IFS='|' read -r label metric rest <<<"$f"
  spellings=()
  while [ -n "$rest" ]; do
    spellings+=("${rest%%||*}")
    [[ "$rest" == *"||"* ]] && rest=${rest#*||} || rest=""
  done
  say "$label"
  # The first spelling each binary gives a figure with (one run to find it, not counted).
  declare -A use=()
  for who in old new; do
    bin=$OLD
    [ "$who" = new ] && bin=$NEW
    use[$who]=""
    for s in "${spellings[@]}"; do
      if [ -n "$(measure "$bin" "$metric" "$s")" ]; then
        use[$who]=$s
        break
      fi
    done
  done
  before=()
  after=()
  for ((i = 1; i <= RUNS; i++)); do
    if [ -n "${use[old]}" ]; then
      v=$(measure "$OLD" "$metric" "${use[old]}")
      [ -z "$v" ] || before+=("$v")
    fi
    if [ -n "${use[new]}" ]; then
      v=$(measure "$NEW" "$metric" "${use[new]}")
      [ -z "$v" ] || after+=("$v")
    fi
  done
  med_b=""
  med_a=""
  [ ${#before[@]} -eq 0 ] || med_b=$(median "${before[@]}")
  [ ${#after[@]} -eq 0 ] || med_a=$(median "${after[@]}")
  speedup="n/a"
  if [ -n "$med_b" ] && [ -n "$med_a" ]; then
    speedup=$(awk -v b="$med_b" -v a="$med_a" -v m="$metric" 'BEGIN {
      r = (m == "seconds") ? b / a : a / b; printf "%.2fx", r }')
  fi
  shown=${use[new]:-${spellings[0]}}
  shown=${shown//@/\$CORPUS}
  shown=${shown//TMP\//\/tmp\/}
  echo "| $label | \`retromodel $shown\` | $(fmt "$med_b" "$metric") | $(fmt "$med_a" "$metric") | $speedup |"
  unset use
done
if [ "$RENDER" = 0 ]; then
  echo
  echo "The GPU renderer figures were left out (--no-render)."
fi
rm -rf "$OUT"
