#!/usr/bin/env bash
# bench/compare.sh: retromodel and Assimp side by side on the same files (issue 16).
#
# Loads the corpus's model files with both, grouped by format, and prints one markdown table
# of load throughput; then converts the same files to .glb with `retromodel convert DIR OUT
# --to glb` and with a shell loop of `assimp export FILE OUT.glb -fglb2`, and prints a second
# table. The report goes to standard output, progress to standard error, logs and file lists
# to target/bench/compare/. See --help.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bench/compare.sh [--rounds N] [--quick] [--no-convert] [--only GROUP] [CORPUS]

Loads every model file of CORPUS (default: $RETROMODEL_CORPUS, else ../shared/corpus) with
retromodel (`retromodel bench --files-from LIST`, full Model and --parse-only) and with
Assimp (bench/assimp_bench.cpp: ReadFileFromMemory, no post-processing), and prints one
markdown table: per format, the files each loads, MB/s each, and the ratios on the files both
load. Then times the batch conversion to .glb of the same files by both and prints a second
table (files converted, seconds, output MB).

Groups (by magic; MD5 by extension): Quake MDL (IDPO), MD2 (IDP2), md5mesh, md5anim,
md5camera, MD3 (IDP3), 3D GameStudio MDL (MDL2..MDL7), HMP (HMP4/5/7), IQM, Half-Life MDL
(IDST: models and their NAMET.mdl texture files; Assimp's harness loads from memory, so
it cannot open a model's NAMET.mdl and fails such a model: man.mdl). Files read into
memory first; only loading is timed. Each figure is the median of 3 runs, the tools
alternating (Assimp, retromodel, Assimp, ...). The md5camera group also loads three
cutscene cameras the script writes to target/bench/compare/generated/ (the corpus's only
md5camera is invalid).

  --rounds N     load every file N times per run (default: per group, enough rounds for
                 about 1 s a run)
  --quick        CI smoke run: 4 files per group, 1 round, 1 run (under a minute)
  --no-convert   skip the batch conversion table
  --only GROUP   one group only (quake_mdl md2 md5mesh md5anim md5camera md3 gs_mdl hmp iqm
                 hl1_mdl)
  -h, --help     this text

Needs g++, libassimp-dev and assimp-utils (installed with apt-get when missing and run as
root), and target/release/retromodel (built with cargo when missing; RETROMODEL_BIN
overrides it). Exit status: 0, or 1 when the harness does not build, or either tool loads
no file at all.
EOF
}

die() {
  echo "compare.sh: $*" >&2
  exit 1
}
say() { echo "$*" >&2; }

ROUNDS=""
ONLY=""
QUICK=0
CONVERT=1
CORPUS=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds)
      [ $# -ge 2 ] || die "--rounds needs a number"
      ROUNDS=$2
      shift 2
      ;;
    --rounds=*)
      ROUNDS=${1#--rounds=}
      shift
      ;;
    --quick)
      QUICK=1
      shift
      ;;
    --no-convert)
      CONVERT=0
      shift
      ;;
    --only)
      [ $# -ge 2 ] || die "--only needs a group"
      ONLY=$2
      shift 2
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    -*) die "unknown option $1 (see --help)" ;;
    *)
      [ -z "$CORPUS" ] || die "one CORPUS folder only (see --help)"
      CORPUS=$1
      shift
      ;;
  esac
done
if [ -n "$ROUNDS" ]; then
  [[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "--rounds wants a positive number, not '$ROUNDS'"
fi

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
CORPUS=${CORPUS:-${RETROMODEL_CORPUS:-../shared/corpus}}
[ -d "$CORPUS" ] || die "corpus folder not found: $CORPUS (give CORPUS or set RETROMODEL_CORPUS)"
CORPUS="$(cd "$CORPUS" && pwd)"

RUNS=3
TARGET_SECONDS=1
PER_GROUP=0 # 0: every file
if [ "$QUICK" = 1 ]; then
  RUNS=1
  PER_GROUP=4
  ROUNDS=${ROUNDS:-1}
fi

# --- tools --------------------------------------------------------------------------------
need=()
[ -f /usr/include/assimp/Importer.hpp ] || need+=(libassimp-dev)
command -v g++ >/dev/null 2>&1 || need+=(g++)
if [ "$CONVERT" = 1 ] && ! command -v assimp >/dev/null 2>&1; then need+=(assimp-utils); fi
if [ ${#need[@]} -gt 0 ]; then
  sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "missing ${need[*]}: install them (apt-get install ${need[*]})"
    sudo=(sudo)
  fi
  say "apt-get install ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  ("${sudo[@]}" apt-get update -qq && "${sudo[@]}" apt-get install -y -qq "${need[@]}") >/dev/null ||
    die "apt-get install ${need[*]} failed"
fi

TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
BENCH="$TARGET/bench"
WORK="$BENCH/compare"
HARNESS="$BENCH/assimp_bench"
mkdir -p "$BENCH"
# Built every time (a few seconds): a run proves that the harness builds.
say "building $HARNESS"
g++ -std=c++17 -O2 -Wall -Wextra -o "$HARNESS" bench/assimp_bench.cpp -lassimp ||
  die "the Assimp harness (bench/assimp_bench.cpp) did not build"
RETROMODEL=${RETROMODEL_BIN:-$TARGET/release/retromodel}
if [ ! -x "$RETROMODEL" ]; then
  command -v cargo >/dev/null 2>&1 || die "$RETROMODEL not found and no cargo to build it"
  say "building $RETROMODEL"
  cargo build --release -q -p retromodel-cli || die "cargo build --release -p retromodel-cli failed"
fi
help=$("$RETROMODEL" bench --help) || die "$RETROMODEL bench --help failed"
[[ "$help" == *--files-from* ]] ||
  die "$RETROMODEL has no 'bench --files-from': rebuild it (cargo build --release -p retromodel-cli)"

ASSIMP_VERSION=$(dpkg-query -W -f='${Version}' libassimp-dev 2>/dev/null || echo unknown)
RETROMODEL_VERSION=$("$RETROMODEL" --version | awk '{print $2}')
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || COMMIT="$COMMIT + local changes"

rm -rf "$WORK"
mkdir -p "$WORK/lists"
: >"$WORK/dropped"
# Paths as the report shows them: relative to the repository, where they can be.
shown() {
  case $1 in
    "$ROOT"/*) echo "${1#"$ROOT"/}" ;;
    "$(dirname "$ROOT")"/*) echo "../${1#"$(dirname "$ROOT")"/}" ;;
    *) echo "$1" ;;
  esac
}

# --- the files, by format -------------------------------------------------------------------
FORMATS=(quake_mdl md2 md5mesh md5anim md5camera md3 gs_mdl hmp iqm hl1_mdl)
declare -A LABEL=(
  [quake_mdl]="Quake MDL (IDPO)" [md2]="MD2 (IDP2)" [md5mesh]="md5mesh" [md5anim]="md5anim"
  [md5camera]="md5camera" [md3]="MD3 (IDP3)" [gs_mdl]="GameStudio MDL (MDL2-MDL7)"
  [hmp]="HMP (HMP4-HMP7)" [iqm]="IQM" [hl1_mdl]="Half-Life MDL (IDST)"
)
if [ -n "$ONLY" ]; then
  [ -n "${LABEL[$ONLY]:-}" ] || die "unknown group $ONLY (see --help)"
  FORMATS=("$ONLY")
fi
for g in "${FORMATS[@]}"; do : >"$WORK/lists/$g.all"; done
say "classifying the model files of $CORPUS"
while IFS= read -r -d '' f; do
  case "$f" in *$'\n'*) say "skipped (newline in the name): $f"; continue ;; esac
  ext=${f##*.}
  ext=${ext,,}
  case "$ext" in
    md5mesh | md5anim | md5camera) g=$ext ;;
    *)
      magic=$(head -c 4 -- "$f" | tr -d '\0')
      case "$magic" in
        IDPO) g=quake_mdl ;;
        IDP2) g=md2 ;;
        IDP3) g=md3 ;;
        MDL2 | MDL3 | MDL4 | MDL5 | MDL6 | MDL7) g=gs_mdl ;;
        HMP4 | HMP5 | HMP7) g=hmp ;;
        INTE) g=iqm ;;
        IDST) g=hl1_mdl ;;
        *) continue ;;
      esac
      ;;
  esac
  echo "$f" >>"$WORK/lists/$g.all"
done < <(find "$CORPUS" -type f \( -iname '*.mdl' -o -iname '*.md2' -o -iname '*.md3' \
  -o -iname '*.md5mesh' -o -iname '*.md5anim' -o -iname '*.md5camera' -o -iname '*.hmp' \
  -o -iname '*.iqm' -o -iname '*.vvm' -o -iname '*.exm' \) -print0 | sort -z)
if [ "$PER_GROUP" -gt 0 ]; then
  for g in "${FORMATS[@]}"; do
    # Spread over the list (its sources), not its first files.
    awk -v k="$PER_GROUP" -v n="$(wc -l <"$WORK/lists/$g.all")" \
      'BEGIN { step = n > k ? n / k : 1 } NR - 1 >= next_pick { print; next_pick += step }' \
      "$WORK/lists/$g.all" >"$WORK/lists/$g.tmp"
    mv "$WORK/lists/$g.tmp" "$WORK/lists/$g.all"
  done
fi

# --- generated md5camera files -------------------------------------------------------------
# The corpus's one md5camera is invalid (a cut past numFrames: Assimp loads it, retromodel
# refuses it), so the md5camera row also loads three cutscene cameras made here in Doom 3's
# layout: 240, 1200 and 4800 frames at 24 fps, a cut every 240 frames, six decimals.
mkdir -p "$WORK/generated"
for n in 240 1200 4800; do
  f="$WORK/generated/cutscene_$n.md5camera"
  awk -v n="$n" 'BEGIN {
    printf "MD5Version 10\ncommandline \"camera maps/generated.ma -dest cutscene_%d.md5camera\"\n\n", n
    cuts = int((n - 1) / 240)
    printf "numFrames %d\nframeRate 24\nnumCuts %d\n\ncuts {\n", n, cuts
    for (c = 1; c <= cuts; c++) printf "\t%d\n", c * 240
    printf "}\n\ncamera {\n"
    for (i = 0; i < n; i++) {
      t = i / 24.0
      x = 512 * cos(t / 3); y = 512 * sin(t / 3); z = 96 + 32 * sin(t)
      h = (t / 3 + 3.14159265) / 2
      printf "\t( %.6f %.6f %.6f ) ( %.6f %.6f %.6f ) %.6f\n", x, y, z, 0.0, -0.05 * cos(t), sin(h) * 0.95, 90 - 10 * sin(t / 5)
    }
    printf "}\n"
  }' >"$f"
  echo "$f" >>"$WORK/lists/md5camera.all"
done

# --- measuring ------------------------------------------------------------------------------
# run TOOL LIST ROUNDS [--parse-only]: the totals line of one run ("" when nothing loaded);
# the run's whole output is appended to $WORK/runs.log.
run() {
  local tool=$1 list=$2 rounds=$3 mode=${4:-} out
  if [ "$tool" = assimp ]; then
    out=$("$HARNESS" --rounds "$rounds" "$list" 2>>"$WORK/stderr.log") || true
  else
    # shellcheck disable=SC2086
    out=$("$RETROMODEL" bench --files-from "$list" --rounds "$rounds" $mode 2>>"$WORK/stderr.log") || true
  fi
  printf '== %s %s rounds=%s %s\n%s\n' "$tool" "$list" "$rounds" "$mode" "$out" >>"$WORK/runs.log"
  # Files Assimp left out of this run only (they failed after others had loaded).
  printf '%s\n' "$out" | { grep '^failed' || true; } | cut -f2 >>"$WORK/dropped"
  printf '%s\n' "$out" | grep '^files=' | tail -n 1 || true
}
# key LINE NAME: the value of NAME=... in a totals line.
key() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)]}'; }
mbps() { local t; t=$(key "$1" MBps); echo "${t:-0}"; }
files_of() { local t; t=$(key "$1" files); echo "${t:-0}"; }
# med LINE...: the median MB/s of totals lines ("" for none).
med() {
  local v=() l
  for l in "$@"; do v+=("$(mbps "$l")"); done
  if [ ${#v[@]} -gt 0 ]; then median "${v[@]}"; else echo ""; fi
}

# The measurements of a format: ID TOOL LIST-SUFFIX MODE. The "both" ones are left out where
# the files both load are a tool's own files (the figures are then the same).
VARIANTS=(
  "a assimp assimp -" "rf retromodel retromodel -" "rp retromodel retromodel --parse-only"
  "ab assimp both -" "rfb retromodel both -" "rpb retromodel both --parse-only"
)
declare -A RESULT FILES
NOTES=()
NOTES+=("md5camera: the corpus's one md5camera is invalid (a cut past numFrames), so the row also loads three generated cutscene cameras (240, 1200 and 4800 frames; target/bench/compare/generated/)")
total_a=0
total_r=0
: >"$WORK/rounds.tsv"
for g in "${FORMATS[@]}"; do
  all="$WORK/lists/$g.all"
  n=$(wc -l <"$all")
  [ "$n" -gt 0 ] || continue
  say "${LABEL[$g]}: $n files"
  # One round each, untimed for the table: which files each loads.
  "$HARNESS" --rounds 1 "$all" >"$WORK/$g.assimp" 2>>"$WORK/stderr.log" || true
  "$RETROMODEL" bench --files-from "$all" --rounds 1 --list >"$WORK/$g.retromodel" 2>>"$WORK/stderr.log" || true
  { grep '^loaded' "$WORK/$g.assimp" || true; } | cut -f2- >"$WORK/lists/$g.assimp"
  { grep '^loaded' "$WORK/$g.retromodel" || true; } | cut -f2- >"$WORK/lists/$g.retromodel"
  awk 'NR == FNR { a[$0]; next } $0 in a' "$WORK/lists/$g.assimp" "$WORK/lists/$g.retromodel" \
    >"$WORK/lists/$g.both"
  na=$(wc -l <"$WORK/lists/$g.assimp")
  nr=$(wc -l <"$WORK/lists/$g.retromodel")
  nb=$(wc -l <"$WORK/lists/$g.both")
  total_a=$((total_a + na))
  total_r=$((total_r + nr))
  FILES[$g]="$nr / $na / $nb"
  same_a=0
  same_r=0
  cmp -s "$WORK/lists/$g.both" "$WORK/lists/$g.assimp" && same_a=1
  cmp -s "$WORK/lists/$g.both" "$WORK/lists/$g.retromodel" && same_r=1
  # The active measurements and their rounds: --rounds, or enough for about TARGET_SECONDS
  # a run, from a run of one round.
  active=()
  declare -A ROUNDS_V=() LINES=()
  for v in "${VARIANTS[@]}"; do
    read -r id tool suffix mode <<<"$v"
    [ "$mode" = - ] && mode=""
    list="$WORK/lists/$g.$suffix"
    [ -s "$list" ] || continue
    if [ "$suffix" = both ] && { { [ "$tool" = assimp ] && [ "$same_a" = 1 ]; } ||
      { [ "$tool" = retromodel ] && [ "$same_r" = 1 ]; }; }; then
      continue
    fi
    active+=("$id $tool $suffix ${mode:--}")
    rounds=$ROUNDS
    if [ -z "$rounds" ]; then
      # Seconds a round from bytes / MB/s (the printed seconds have 3 decimals only).
      line=$(run "$tool" "$list" 1 "$mode")
      rounds=$(awk -v b="$(key "$line" bytes)" -v m="$(key "$line" MBps)" -v t="$TARGET_SECONDS" 'BEGIN {
        s = m > 0 ? b / (m * 1e6) : 0.001; if (s < 0.00001) s = 0.00001; n = int(t / s + 0.5);
        if (n < 1) n = 1; if (n > 100000) n = 100000; print n }')
    fi
    ROUNDS_V[$id]=$rounds
    printf '%s\t%s\t%s\n' "$g" "$id" "$rounds" >>"$WORK/rounds.tsv"
  done
  # The runs, the tools alternating.
  for ((i = 1; i <= RUNS; i++)); do
    say "  run $i/$RUNS"
    for v in "${active[@]}"; do
      read -r id tool suffix mode <<<"$v"
      [ "$mode" = - ] && mode=""
      LINES[$id]+="$(run "$tool" "$WORK/lists/$g.$suffix" "${ROUNDS_V[$id]}" "$mode")"$'\n'
    done
  done
  for v in "${active[@]}"; do
    read -r id tool suffix _ <<<"$v"
    mapfile -t lines < <(printf '%s' "${LINES[$id]}" | grep '^files=' || true)
    RESULT[$g.$id]=$(med "${lines[@]}")
    # Assimp can fail on a file only after it loaded others (it reads past its buffers): such
    # a file is left out of that run, so say how many each run loaded.
    want=$(wc -l <"$WORK/lists/$g.$suffix")
    counts=()
    for l in "${lines[@]}"; do counts+=("$(files_of "$l")"); done
    if [ "${#counts[@]}" -ne "$RUNS" ] || printf '%s\n' "${counts[@]}" | grep -qvx "$want"; then
      case $suffix in both) which="both load" ;; assimp) which="Assimp loads" ;; *) which="retromodel loads" ;; esac
      NOTES+=("${LABEL[$g]}: the $tool runs on the $want files $which loaded $(printf '%s, ' "${counts[@]}" | sed 's/, $//') of them")
      dropped=$(sort -u "$WORK/dropped" | grep -Fxf "$WORK/lists/$g.$suffix" | sed "s|^$CORPUS/||" |
        awk '{ printf "%s%s", sep, $0; sep = ", " }' || true)
      [ -z "$dropped" ] || NOTES+=("  left out of some runs (they failed after other files had loaded): $dropped")
    fi
  done
  for id in a rf rp; do
    if [ "$nb" -eq 0 ]; then
      RESULT[$g.${id}b]=""
    elif [ -z "${RESULT[$g.${id}b]+x}" ]; then
      RESULT[$g.${id}b]=${RESULT[$g.$id]:-}
    fi
  done
  unset ROUNDS_V LINES
done

[ "$total_a" -gt 0 ] || die "Assimp loaded no file (see $WORK/*.assimp and $WORK/stderr.log)"
[ "$total_r" -gt 0 ] || die "retromodel loaded no file (see $WORK/*.retromodel and $WORK/stderr.log)"

# --- the load table -------------------------------------------------------------------------
# cell MBPS [MBPS_BOTH]: "X" or "X (Y)" where the files both load differ.
cell() {
  if [ -z "$1" ]; then
    echo "-"
  elif [ -n "${2:-}" ] && [ "$2" != "$1" ]; then
    printf '%.0f (%.0f)' "$1" "$2"
  else
    printf '%.0f' "$1"
  fi
}
ratio() {
  if [ -z "$1" ] || [ -z "$2" ]; then echo "-"; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; fi
}
echo "## Load throughput: retromodel and Assimp on the same files"
echo
echo "Corpus: $(shown "$CORPUS"). retromodel $RETROMODEL_VERSION ($COMMIT), Assimp $ASSIMP_VERSION."
if [ -n "$ROUNDS" ]; then rounds_note="$ROUNDS round(s) per run"; else rounds_note="rounds per run chosen per measurement for about $TARGET_SECONDS s a run (from a one-round run; see $(shown "$WORK")/rounds.tsv)"; fi
if [ "$RUNS" = 1 ]; then runs_note="One run"; else runs_note="Median of $RUNS runs, tools alternating"; fi
echo "$runs_note; $rounds_note."
echo
echo "| format | files: retromodel / Assimp / both | MB/s retromodel full | MB/s retromodel parse-only | MB/s Assimp | full / Assimp | parse-only / Assimp |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for g in "${FORMATS[@]}"; do
  [ -n "${FILES[$g]:-}" ] || continue
  b_a=${RESULT[$g.ab]:-}
  b_f=${RESULT[$g.rfb]:-}
  b_p=${RESULT[$g.rpb]:-}
  echo "| ${LABEL[$g]} | ${FILES[$g]} | $(cell "${RESULT[$g.rf]:-}" "$b_f") | $(cell "${RESULT[$g.rp]:-}" "$b_p") | $(cell "${RESULT[$g.a]:-}" "$b_a") | $(ratio "$b_f" "$b_a") | $(ratio "$b_p" "$b_a") |"
done
echo
echo "MB/s: input bytes x rounds / seconds, each tool on the files it loads; in brackets, on"
echo "the files both load where that set differs. The ratios are on the files both load."
echo "retromodel: \`retromodel bench --files-from LIST --rounds N [--parse-only]\` (full: every"
echo "keyframe pose and skin decoded into a Model; IQM: meshes, weights, skeleton and animations"
echo "built, the animations' frames kept as the file's 16-bit channels, decoded on first read,"
echo "outside the timed loop). Assimp: \`target/bench/assimp_bench --rounds N LIST\`"
echo "(ReadFileFromMemory with the extension as hint, flags 0, one Importer, FreeScene after"
echo "each; MD5 files load from memory too, with AI_CONFIG_IMPORT_MD5_NO_ANIM_AUTOLOAD). Assimp's"
echo "Quake MDL, GameStudio MDL2-5, MD2 and MD3 loaders build one keyframe (frame 0), retromodel's"
echo "full load every frame. Assimp's IQM loader builds the meshes only (no bones, no animations)."
echo "Lists and per-file results: $(shown "$WORK")/."
for note in "${NOTES[@]}"; do case $note in "  "*) echo "$note" ;; *) echo "- $note" ;; esac; done
echo
echo "Files Assimp does not load, by reason (numbers as N; per file in $(shown "$WORK")/FORMAT.assimp):"
echo
for g in "${FORMATS[@]}"; do
  [ -f "$WORK/$g.assimp" ] || continue
  { grep '^failed' "$WORK/$g.assimp" || true; } | cut -f3 | sed -E 's/\b[0-9]+\b/N/g' | sort | uniq -c | sort -rn |
    awk -v l="${LABEL[$g]}" '{ c = $1; $1 = ""; printf "- %s: %d x%s\n", l, c, $0 }'
done
echo
echo "Files retromodel does not load:"
echo
for g in "${FORMATS[@]}"; do
  [ -f "$WORK/$g.retromodel" ] || continue
  { grep '^failed' "$WORK/$g.retromodel" || true; } | cut -f2- | awk -F'\t' -v l="${LABEL[$g]}" \
    -v c="$CORPUS/" '{ p = $1; sub(c, "", p); printf "- %s: %s: %s\n", l, p, $2 }'
done

[ "$CONVERT" = 1 ] || exit 0

# --- batch conversion to .glb ---------------------------------------------------------------
# The same model files for both: a tree of symbolic links to them (and to every other
# non-model file of the corpus, so that skins, .skin files and shader scripts are found as
# beside the originals) for `retromodel convert DIR OUT --to glb`; a loop of `assimp export`.
say "batch conversion"
IN="$WORK/convert-in"
OUT_R="$WORK/convert-retromodel"
OUT_A="$WORK/convert-assimp"
: >"$WORK/lists/convert"
: >"$WORK/lists/convert.groups"
for g in "${FORMATS[@]}"; do
  cat "$WORK/lists/$g.all" >>"$WORK/lists/convert"
  sed "s|^|$g\t|" "$WORK/lists/$g.all" >>"$WORK/lists/convert.groups"
done
mkdir -p "$IN"
link() {
  local f=$1 rel=${1#"$CORPUS"/}
  mkdir -p "$IN/$(dirname "$rel")"
  ln -sfn "$f" "$IN/$rel"
}
while IFS= read -r f; do link "$f"; done <"$WORK/lists/convert"
while IFS= read -r -d '' f; do link "$f"; done < <(find "$CORPUS" -type f -not \( -iname '*.mdl' \
  -o -iname '*.md2' -o -iname '*.md3' -o -iname '*.md5mesh' -o -iname '*.md5anim' \
  -o -iname '*.md5camera' -o -iname '*.hmp' -o -iname '*.wmp' -o -iname '*.pk3' -o -iname '*.pak' \
  -o -iname '*.zip' -o -iname '*.glb' -o -iname '*.gltf' -o -iname '*.obj' \) -print0)
n_convert=$(wc -l <"$WORK/lists/convert")
in_bytes=$(tr '\n' '\0' <"$WORK/lists/convert" | xargs -0 stat -L -c %s | awk '{ s += $1 } END { print s + 0 }')
# The loop Assimp runs (a script of its own, so the shell's crash messages go to the log).
cat >"$WORK/assimp_loop.sh" <<'EOF'
corpus=$1 out=$2
while IFS= read -r f; do
  rel=${f#"$corpus"/}
  assimp export "$f" "$out/$rel.glb" -fglb2 >/dev/null 2>&1
  echo "$? $rel"
done
EOF
now() { date +%s.%N; }
declare -a t_r=() t_a=()
for ((i = 1; i <= RUNS; i++)); do
  say "  run $i/$RUNS: retromodel convert"
  rm -rf "$OUT_R" "$OUT_A"
  sync
  t0=$(now)
  "$RETROMODEL" convert "$IN" "$OUT_R" --to glb >"$WORK/convert-retromodel.log" 2>&1 || true
  t1=$(now)
  t_r+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
  say "  run $i/$RUNS: assimp export loop"
  while IFS= read -r f; do mkdir -p "$OUT_A/$(dirname "${f#"$CORPUS"/}")"; done <"$WORK/lists/convert"
  sync
  t0=$(now)
  timeout 1200 bash "$WORK/assimp_loop.sh" "$CORPUS" "$OUT_A" <"$WORK/lists/convert" \
    >"$WORK/convert-assimp.status" 2>"$WORK/convert-assimp.log" || say "  the assimp loop ended early (see $WORK/convert-assimp.log)"
  t1=$(now)
  t_a+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
done
sec_r=$(median "${t_r[@]}")
sec_a=$(median "${t_a[@]}")
summary=$(grep -E '^[0-9]+ files: ' "$WORK/convert-retromodel.log" | tail -n 1 || true)
# Per format: converted by each (an output file written; Assimp: exit status 0 too) and sizes.
(cd "$OUT_R" && find . -type f -name '*.glb' -printf '%s %P\n') >"$WORK/convert-retromodel.sizes"
(cd "$OUT_A" && find . -type f -name '*.glb' -size +0 -printf '%s %P\n') >"$WORK/convert-assimp.sizes"
echo
echo "## Batch conversion to .glb"
echo
echo "The same $n_convert model files ($(awk -v b="$in_bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB): \`retromodel convert DIR OUT --to glb\` (DIR: links to the files"
echo "in the corpus's layout; both cores) against a shell loop of \`assimp export FILE OUT.glb -fglb2\`"
echo "(one process per file, one after the other). Seconds: median of $RUNS run(s), tools alternating."
echo
echo "| format | files | converted: retromodel / Assimp | output MB: retromodel / Assimp |"
echo "|---|---:|---:|---:|"
awk -F'\t' -v labels="$(for g in "${FORMATS[@]}"; do printf '%s=%s;' "$g" "${LABEL[$g]}"; done)" \
  -v corpus="$CORPUS/" -v order="${FORMATS[*]}" '
  FILENAME ~ /retromodel.sizes$/ { split($0, a, " "); sz = a[1]; p = substr($0, length(a[1]) + 2); rsize[p] = sz; next }
  FILENAME ~ /assimp.sizes$/ { split($0, a, " "); sz = a[1]; p = substr($0, length(a[1]) + 2); asize[p] = sz; next }
  FILENAME ~ /assimp.status$/ { st = $0; code = st; sub(/ .*/, "", code); p = substr(st, length(code) + 2); aok[p] = (code == 0); next }
  {
    g = $1; rel = $2; sub("^" corpus, "", rel)
    n[g]++; total_n++
    full = rel ".glb"; plain = rel; sub(/\.[^.\/]*$/, "", plain); plain = plain ".glb"
    if (full in rsize) { rc[g]++; rb[g] += rsize[full] } else if (plain in rsize) { rc[g]++; rb[g] += rsize[plain] }
    if (aok[rel] && (full in asize)) { ac[g]++; ab[g] += asize[full] }
  }
  END {
    split(labels, L, ";"); for (i in L) { split(L[i], kv, "="); label[kv[1]] = kv[2] }
    k = split(order, G, " ")
    for (i = 1; i <= k; i++) {
      g = G[i]; if (!n[g]) continue
      printf "| %s | %d | %d / %d | %.1f / %.1f |\n", label[g], n[g], rc[g], ac[g], rb[g] / 1e6, ab[g] / 1e6
      trc += rc[g]; tac += ac[g]; trb += rb[g]; tab += ab[g]
    }
    printf "| all | %d | %d / %d | %.1f / %.1f |\n", total_n, trc, tac, trb / 1e6, tab / 1e6
  }' "$WORK/convert-retromodel.sizes" "$WORK/convert-assimp.sizes" "$WORK/convert-assimp.status" \
  "$WORK/lists/convert.groups"
echo
echo "| tool | seconds ($RUNS run(s)) | median | files/s |"
echo "|---|---|---:|---:|"
echo "| retromodel convert | $(printf '%.2f, ' "${t_r[@]}" | sed 's/, $//') | $(printf '%.2f' "$sec_r") | $(awk -v n="$n_convert" -v s="$sec_r" 'BEGIN { printf "%.0f", n / s }') |"
echo "| assimp export loop | $(printf '%.2f, ' "${t_a[@]}" | sed 's/, $//') | $(printf '%.2f' "$sec_a") | $(awk -v n="$n_convert" -v s="$sec_a" 'BEGIN { printf "%.0f", n / s }') |"
echo
echo "retromodel's summary line: $summary"
