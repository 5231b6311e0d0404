#!/usr/bin/env bash
# Real-engine check for Quake 3 MD3 player models: OpenArena (ioquake3, Mesa llvmpipe under
# Xvfb) loads a player model from PLAYER_PK3 and draws it like the installed original.
#
# The engine runs three times under one Xvfb with the same script (.cfg below): twice with the
# installed game data only (baselines A and B) and once with PLAYER_PK3 copied into a fresh
# fs_homepath's baseoa/ as zzz-retromodel.pk3 (sorts after the installed paks, so its files
# win). Each run: map aggressor (the first spawn spot is fixed: all its spots carry the
# "initial" flag), `fixedtime 16` (every frame advances game time by exactly 16 ms, so a frame
# count gives the same animation frame in every run), no bots, HUD and notify lines off,
# LOD 0 forced (r_lodbias -2), third-person camera. It takes 7 TGA screenshots (front idle,
# 135 degrees, a close view, a gesture, crouched, LOD 1, LOD 2), each followed a few frames later
# by the same view with r_drawentities 0 (so that the pixels the player and items cover can
# be counted).
#
# Method: per screenshot, ImageMagick `compare -metric AE -fuzz 10%` = pixels whose colour
# differs by more than 10% of the range, as a share of all pixels (RMSE is printed too).
# Fails (exit 1) if for any screenshot share(A, rewritten) > max(ABS_LIMIT, share(A, B) +
# MARGIN), if the rewritten run's console log has lines about models, skins or MD3 loading
# that the baseline's has not (warnings, failures, limits), if the pk3 is not in the engine's
# search path or one of its models/players/NAME/*.md3 was not read from it, or if the
# rewritten run did not get to its screenshots. Exit 2: the harness cannot judge (usage,
# engine missing, a baseline run failed, the baselines differ by more than BASELINE_MAX, or
# the player covers almost no pixels).
#
# Limits from measurements (docs/ENGINE-TESTS.md): A and B pixel-identical; every vertex moved
# one step (1/64 unit): up to 0.036%; upper.md3 scaled by 1.02: 0.08-0.57%.
#
# Usage: .ci/engine_md3.sh [--keep DIR] PLAYER_PK3 [PLAYER_NAME]   (default name: sarge)
#   --keep DIR: screenshots (PNG), diff images, console logs and summary.txt go to DIR.
# Env: ENGINE_MD3_ABS_LIMIT (default 0.0005 = 0.05% of the pixels), ENGINE_MD3_MARGIN
# (0.0005), ENGINE_MD3_BASELINE_MAX (0.005), ENGINE_MD3_TIMEOUT (seconds per engine run, 90),
# ENGINE_MD3_RENDERER (opengl2, the package's default, or opengl1).
# ENGINE_MD3_KEEP_WORK=1 leaves the work folder (all three homes) in $TMPDIR for debugging.
# Installs the openarena package (apt-get, as root) when /usr/lib/ioquake3/ioquake3 is missing.
set -euo pipefail

ENGINE=/usr/lib/ioquake3/ioquake3
BASEPATH=/usr/lib/openarena
ABS_LIMIT="${ENGINE_MD3_ABS_LIMIT:-0.0005}"
MARGIN="${ENGINE_MD3_MARGIN:-0.0005}"
BASELINE_MAX="${ENGINE_MD3_BASELINE_MAX:-0.005}"
RUN_TIMEOUT="${ENGINE_MD3_TIMEOUT:-90}"
RENDERER="${ENGINE_MD3_RENDERER:-opengl2}"
MAP=aggressor
WIDTH=800
HEIGHT=600
SHOTS=(s1_front s2_side s3_close s4_gesture s5_crouch s6_lod1 s7_lod2)

usage() { echo "usage: $0 [--keep DIR] PLAYER_PK3 [PLAYER_NAME]" >&2; exit 2; }
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) [ $# -ge 2 ] || usage; keep="$2"; shift 2 ;;
    --keep=*) keep="${1#--keep=}"; shift ;;
    -h|--help) usage ;;
    --) shift; break ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] && [ $# -le 2 ] || usage
PK3="$1"
NAME="${2:-sarge}"
[ -f "$PK3" ] || { echo "engine_md3: $PK3 not found" >&2; exit 2; }
PK3="$(cd "$(dirname "$PK3")" && pwd)/$(basename "$PK3")"
case "$NAME" in *[!A-Za-z0-9_-]*|"") echo "engine_md3: bad player name '$NAME'" >&2; exit 2 ;; esac
ENGINE_TAG=engine_md3
# shellcheck source=.ci/engine_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/engine_common.sh"
t_start=$(date +%s.%N)

# --- tools -------------------------------------------------------------------------------
need=()
[ -x "$ENGINE" ] && [ -d "$BASEPATH/baseoa" ] || need+=(openarena)
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v compare >/dev/null 2>&1 || need+=(imagemagick)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  apt_install "${need[@]}"
  [ -x "$ENGINE" ] || { echo "engine_md3: $ENGINE still missing" >&2; exit 2; }
fi

# --- the pk3: a zip with models/players/NAME/*.md3 --------------------------------------
engine_workdir ENGINE_MD3_KEEP_WORK

if ! python3 - "$PK3" "$NAME" >"$work/pk3_md3.txt" <<'PY'
import sys, zipfile
pk3, name = sys.argv[1], sys.argv[2].lower()
try:
    z = zipfile.ZipFile(pk3)
except zipfile.BadZipFile as e:
    sys.exit(f"engine_md3: {pk3} is not a zip: {e}")
bad = z.testzip()
if bad:
    sys.exit(f"engine_md3: {pk3}: bad CRC for {bad}")
prefix = f"models/players/{name}/"
md3 = [n for n in z.namelist() if n.lower().startswith(prefix) and n.lower().endswith(".md3")]
if not md3:
    sys.exit(f"engine_md3: {pk3} holds no {prefix}*.md3")
print("\n".join(md3))
PY
then exit 2; fi
echo "engine_md3: $(basename "$PK3"): $(wc -l <"$work/pk3_md3.txt") MD3 file(s) for player '$NAME': $(tr '\n' ' ' <"$work/pk3_md3.txt")"

# --- the script every run executes once the map is up ------------------------------------
# Identical in all runs: the frame counts (wait) fix the game time of every screenshot.
# Each `screenshot X` is followed by X_noent, a few frames later with entities hidden.
# `wait N` holds the rest for N command-buffer passes, and the engine runs two per frame; the
# renderer keeps one screenshot name per frame, so screenshots stay frames apart.
shot() { printf 'screenshot %s\nwait 2\nset r_drawentities 0\nwait 4\nscreenshot %s_noent\nwait 2\nset r_drawentities 1\nwait 2\n' "$1" "$1"; }
{
  cat <<'CFG'
set cg_thirdperson 1
set cg_thirdpersonrange 150
set cg_thirdpersonangle 180
set cg_fov 60
set cg_drawgun 0
set cg_draw2D 0
set r_lodbias -2
path
viewpos
wait 30
CFG
  shot s1_front
  printf 'set cg_thirdpersonangle 135\nwait 20\n'
  shot s2_side
  printf 'set cg_thirdpersonangle 225\nwait 20\n'
  shot s3_close
  printf 'set cg_thirdpersonangle 180\n+button3\nwait 30\n'
  shot s4_gesture
  printf -- '-button3\n+movedown\nwait 40\n'
  shot s5_crouch
  printf -- '-movedown\nwait 40\nset r_lodbias 1\nwait 2\n'
  shot s6_lod1
  printf 'set r_lodbias 2\nwait 2\n'
  shot s7_lod2
  printf 'viewpos\nwait 2\nquit\n'
} >"$work/shot.cfg"

# --- Xvfb on a free display (Xvfb picks it: -displayfd) ---------------------------------
start_xvfb

# --- one engine run: run_engine LABEL [PK3] ------------------------------------------------
run_engine() {
  local label="$1" pk3="${2:-}" home="$work/$1" t0 rc=0
  mkdir -p "$home/baseoa" "$home/xdg"
  chmod 700 "$home/xdg"
  cp "$work/shot.cfg" "$home/baseoa/shot.cfg"
  [ -z "$pk3" ] || cp "$pk3" "$home/baseoa/zzz-retromodel.pk3"
  t0=$(date +%s.%N)
  XDG_RUNTIME_DIR="$home/xdg" timeout -k 5 "$RUN_TIMEOUT" "$ENGINE" \
    +set com_basegame baseoa +set fs_basepath "$BASEPATH" +set fs_homepath "$home" \
    +set fs_debug 1 +set developer 1 +set con_notifytime 0 \
    +set cl_renderer "$RENDERER" +set s_initsound 0 +set in_mouse 0 +set r_fullscreen 0 +set r_mode -1 \
    +set r_customwidth "$WIDTH" +set r_customheight "$HEIGHT" \
    +set cl_motd 0 +set com_protocol 71 +set sv_pure 0 \
    +set bot_enable 0 +set bot_minplayers 0 +set g_gametype 0 +set fixedtime 16 \
    +set model "$NAME" +set headmodel "$NAME" +set team_model "$NAME" +set team_headmodel "$NAME" \
    +devmap "$MAP" +wait 100 +exec shot.cfg >"$home/console.log" 2>&1 </dev/null || rc=$?
  printf 'engine_md3: run %-9s %5.1f s, exit %s\n' "$label" "$(elapsed "$t0")" "$rc"
  local s missing=0
  for s in "${SHOTS[@]}"; do
    [ -s "$home/baseoa/screenshots/$s.tga" ] && [ -s "$home/baseoa/screenshots/${s}_noent.tga" ] || missing=1
  done
  if [ $rc -ne 0 ] || [ $missing -ne 0 ]; then
    echo "engine_md3: run $label failed (exit $rc) or left out screenshots; console log tail:"
    tail -n 25 "$home/console.log" | sed 's/^/    /'
    return 1
  fi
}

# --- image difference ----------------------------------------------------------------------
# ae A B: pixels differing by more than 10%;  rmse A B: normalised RMSE (0..1)
# (an error, e.g. different sizes, counts as every pixel differing)
ae() {
  local out
  out=$(compare -metric AE -fuzz 10% "$1" "$2" null: 2>&1 >/dev/null || true)
  if [[ "$out" =~ ^[0-9.e+]+$ ]]; then awk -v x="$out" 'BEGIN{printf "%d", x}'; else echo "compare $1 $2: $out" >&2; echo $((WIDTH * HEIGHT)); fi
}
rmse() { compare -metric RMSE "$1" "$2" null: 2>&1 >/dev/null | sed -n 's/.*(\(.*\)).*/\1/p' || true; }

status=0
fail() { echo "FAIL: $*" | tee -a "$work/summary.txt"; status=1; }

run_engine A || exit 2
run_engine B || exit 2
rewritten_ok=1
run_engine R "$PK3" || { fail "the engine did not finish the rewritten run"; rewritten_ok=0; }

# Counts per shot (pixels): player = A against A with entities hidden; A-B; A-R.
: >"$work/counts.tsv"
for s in "${SHOTS[@]}"; do
  a="$work/A/baseoa/screenshots/$s.tga"; b="$work/B/baseoa/screenshots/$s.tga"; r="$work/R/baseoa/screenshots/$s.tga"
  ar=-; ar_rmse=-
  if [ $rewritten_ok -eq 1 ]; then ar=$(ae "$a" "$r"); ar_rmse=$(rmse "$a" "$r"); fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$(ae "$a" "$work/A/baseoa/screenshots/${s}_noent.tga")" \
    "$(ae "$a" "$b")" "$(rmse "$a" "$b")" "$ar" "$ar_rmse" >>"$work/counts.tsv"
  if [ -n "$keep" ]; then
    mkdir -p "$work/keep"
    for run in A B R; do
      f="$work/$run/baseoa/screenshots/$s.tga"
      [ -f "$f" ] && convert "$f" -flip "$work/keep/${s}_$run.png"
    done
    if [ $rewritten_ok -eq 1 ]; then
      compare -fuzz 10% "$a" "$r" "$work/keep/${s}_diff_A_R.png" 2>/dev/null || true
      [ -f "$work/keep/${s}_diff_A_R.png" ] && mogrify -flip "$work/keep/${s}_diff_A_R.png"
    fi
  fi
done
# Table and verdicts; exit status of the snippet: 0 pass, 1 image difference, 2 cannot judge.
img_rc=0
python3 - "$work/counts.tsv" "$((WIDTH * HEIGHT))" "$ABS_LIMIT" "$MARGIN" "$BASELINE_MAX" "$work/totals.txt" <<'PY' | tee -a "$work/summary.txt" || img_rc=$?
import sys
path, total, abs_limit, margin, base_max, totals = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:6]), sys.argv[6]
rows = [l.rstrip("\n").split("\t") for l in open(path)]
pct = lambda x: f"{100 * x:.4f}%"
num = lambda x: f"{float(x or 0):.5f}"
print(f"\n{'shot':<11} {'player':>8} {'A-B':>9} {'rmse':>8} {'A-R':>9} {'rmse':>8} {'limit':>8}  result")
fails, worst_ab, worst_ar, min_player = [], 0.0, 0.0, 1.0
for s, player, ab, ab_rmse, ar, ar_rmse in rows:
    p, b = int(player) / total, int(ab) / total
    worst_ab, min_player = max(worst_ab, b), min(min_player, p)
    limit = max(abs_limit, b + margin)
    if ar == "-":
        print(f"{s:<11} {p*100:7.3f}% {pct(b):>9} {num(ab_rmse):>8} {'-':>9} {'-':>8} {'-':>8}  -")
        continue
    r = int(ar) / total
    worst_ar = max(worst_ar, r)
    verdict = "FAIL" if r > limit else "ok"
    print(f"{s:<11} {p*100:7.3f}% {pct(b):>9} {num(ab_rmse):>8} {pct(r):>9} {num(ar_rmse):>8} {limit*100:7.3f}%  {verdict}")
    if r > limit:
        fails.append(f"{s}: rewritten differs from A in {ar} pixels ({pct(r)} > limit {limit*100:.3f}%)")
print("(player: share of pixels the player and items cover in A; A-B, A-R: share of pixels differing by >10%; rmse: normalised)")
for f in fails:
    print("FAIL:", f)
code = 1 if fails else 0
if worst_ab > base_max:
    print(f"engine_md3: the two baseline runs differ in up to {pct(worst_ab)} of the pixels (> {base_max*100}%): not deterministic here, cannot judge")
    code = 2
if min_player < 0.005:
    print(f"engine_md3: the player and items cover only {min_player*100:.3f}% of a baseline screenshot: the camera does not see the model, cannot judge")
    code = 2
open(totals, "w").write(f"{pct(worst_ab)} {pct(worst_ar) if any(r[4] != '-' for r in rows) else '-'}\n")
sys.exit(code)
PY
case $img_rc in 0) ;; 1) status=1 ;; *) [ $status -eq 1 ] || status=2 ;; esac
read -r worst_base worst_r <"$work/totals.txt"

# --- console log of the rewritten run ----------------------------------------------------
if [ $rewritten_ok -eq 1 ] || [ -s "$work/R/console.log" ]; then
  # the pk3 is in the search path (`path` lists it with its file count) ...
  grep -q "baseoa/zzz-retromodel.pk3 (" "$work/R/console.log" || fail "the engine's search path does not list zzz-retromodel.pk3"
  # ... and each of its player MD3 files was read from it (fs_debug 1 names the source pak)
  while IFS= read -r f; do
    grep -qiF "FS_FOpenFileRead: $f (found in '$work/R/baseoa/zzz-retromodel.pk3')" "$work/R/console.log" ||
      fail "$f was not read from the pk3 (the engine did not ask for it, or found it elsewhere)"
  done <"$work/pk3_md3.txt"
  # lines about models, skins or MD3 loading that are in R's log but not in the baseline's
  suspicious() {
    sed -e "s#$work/[ABR]/#HOME/#g" -e 's/\^[0-9]//g' "$1" |
      grep -v '^FS_FOpenFileRead: ' |
      grep -iE "warning|error|couldn't|could not|can't|failed|failure|has more than|has no |wrong version|unknown fileid|broken|too (long|many)|bad " |
      grep -iE "\.md3|\.skin|players/$NAME|models/|$NAME|R_LoadMD3|R_RegisterMD3|RegisterModel|ClientModel|skin|animation" | sort -u || true
  }
  suspicious "$work/A/console.log" >"$work/warn_A.txt"
  suspicious "$work/R/console.log" >"$work/warn_R.txt"
  comm -13 "$work/warn_A.txt" "$work/warn_R.txt" >"$work/warn_new.txt"
  if [ -s "$work/warn_new.txt" ]; then
    fail "the rewritten run's console log has $(wc -l <"$work/warn_new.txt") new model warning line(s):"
    sed 's/^/    /' "$work/warn_new.txt" | tee -a "$work/summary.txt"
  fi
  grep -E '^\([-0-9. ]+\) : ' "$work/A/console.log" | head -n1 >"$work/pos_A.txt" || true
  grep -E '^\([-0-9. ]+\) : ' "$work/R/console.log" | head -n1 >"$work/pos_R.txt" || true
  [ ! -s "$work/pos_R.txt" ] || cmp -s "$work/pos_A.txt" "$work/pos_R.txt" || echo "note: player position differs: A $(cat "$work/pos_A.txt"), R $(cat "$work/pos_R.txt")"
fi

t_all=$(elapsed "$t_start")
{
  echo
  echo "baseline A vs B: up to $worst_base of the pixels differ by >10%"
  echo "A vs rewritten:  up to $worst_r (limit per shot: max($(awk -v x="$ABS_LIMIT" 'BEGIN{print 100*x}')%, A-B + $(awk -v x="$MARGIN" 'BEGIN{print 100*x}')%))"
  echo "model warnings new in the rewritten run: $( [ -s "$work/warn_new.txt" ] && wc -l <"$work/warn_new.txt" || echo 0)"
  printf 'wall time: %.0f s\n' "$t_all"
  case $status in 0) echo "engine_md3: PASS ($NAME from $(basename "$PK3"))" ;; 1) echo "engine_md3: FAIL ($NAME from $(basename "$PK3"))" ;; *) echo "engine_md3: CANNOT JUDGE" ;; esac
} | tee -a "$work/summary.txt"

if [ -n "$keep" ]; then
  mkdir -p "$keep" "$work/keep"
  for run in A B R; do
    [ -f "$work/$run/console.log" ] && cp "$work/$run/console.log" "$work/keep/console_$run.log"
  done
  cp "$work/shot.cfg" "$work/summary.txt" "$work/warn_A.txt" "$work/warn_R.txt" "$work/keep/" 2>/dev/null || true
  cp -r "$work/keep/." "$keep/"
  echo "engine_md3: screenshots, diffs and logs in $keep"
fi
exit $status
