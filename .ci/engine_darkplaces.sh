#!/usr/bin/env bash
# Real-engine check for the Quake MDL, MD2 and IQM writers (issue 44, "DarkPlaces check"):
# DarkPlaces (Debian's darkplaces with the GPL game nexuiz-data, Mesa llvmpipe under Xvfb) loads
# files written by `retromodel convert` and draws them like the original file, and like
# `retromodel render` draws the same frame from the same camera.
#
# Cases (ORIGINAL -> what retromodel writes; "A" is what the engine draws as the reference):
#   md3_mdl   Nexuiz's models/items/a_rockets.md3 -> MDL (textures from the installed game via
#             --game-dir)                                      A: the MD3 itself
#   md2_mdl   UFO:AI bloodspider.md2 (96 frames) -> MDL, frame 48          A: the MD2 itself
#   gltf_md2  raylib guy.iqm -> .glb (written by retromodel: the corpus has no glTF file) -> MD2
#             at the IQM's 24 fps, frame 30 of "jump"                      A: guy.iqm itself
#   md5_md2   Red Eclipse zapper mesh.md5mesh + reload.md5anim -> MD2 at the anim's 24 fps,
#             frame 12             A: the same MD5 converted to IQM by retromodel (DarkPlaces
#             2018 reads no MD5, so this reference is our own IQM writer: the check is that two
#             writers agree in the engine, and the render comparison below)
#   md3_iqm   a_rockets.md3 -> IQM                                       A: the MD3 itself
# --smoke runs md3_mdl alone (CI); the default runs all five.
#
# Engine set-up (as .ci/engine_iqm.sh's DarkPlaces mode): the file goes into a pk3
# (zzz-retromodel.pk3 in a fresh -userdir's data/) under the name of a model Nexuiz precaches
# on every map but aggressor never shows (models/turrets/head-gib4.md3, model index 35;
# DarkPlaces tells formats by magic, not name), with (frame F > 0) a .framegroups file whose scene 0 is the
# case's frame F alone. Map aggressor; when the game has started (Nexuiz's _cl_hook_gamestart)
# the observer is moved out of the map (0 0 4000, angles 0), the world is not drawn (black),
# and an inert entity (edict 9, a weapon_info) shows model 35 view-attached
# (viewmodelforclient 1, EF_NOGUNBOB|EF_FULLBRIGHT, r_fullbright_directed: fixed light).
# The camera is the one `retromodel render` uses: the centre of the frame's bounding box sits
# D = 1.05 * R / sin(20 deg) straight ahead (R: half the box diagonal), vertical field of view
# 40 degrees (DarkPlaces' fov is horizontal: 51.78 at 4:3), level; the entity's yaw Y turns
# the model, which is `retromodel render --camera 180-Y,0,D` (render's yaw 0 looks at the
# model's front). Four views (yaw 0, 90, 180, 270), each shot again without the model
# (*_empty). Per case three engine runs: A twice (baselines A, B) and R (the rewritten file).
#
# Measures per view (ImageMagick): model mask = pixels differing from the *_empty shot (black) by
# more than 1% (`compare -fuzz 1%`: dark texels count); render mask = alpha of `retromodel render`.
#   sil(A,R)  = |mask A xor mask R| / |mask A or mask R|   (silhouette mismatch, engine vs engine)
#   sil(R,rd) = |mask R xor render mask| / |union|          (engine vs retromodel render)
#   A-B, A-R  = share of all pixels whose colour differs by more than 10% (AE -fuzz 10%).
# Colours are printed, not judged: MDL skins are 8-bit Quake palette (the converter's palette
# mapping changes colours by more than 10% in places), and MD2 skins are named files the
# original's game had (UFO:AI's) and Nexuiz has not, so A and R are textured differently.
# Fails (exit 1) if in any view sil(A,R) > max(SIL_LIMIT, sil(A,B) + SIL_LIMIT) or
# sil(R,render) > RENDER_LIMIT, if the engine did not load R's file as the expected format
# with A's triangle count (cl_modelindexlist), if R's console log has model/skin/frame
# warnings that A's has not, or if R did not get to its screenshots. Exit 2: cannot judge
# (usage, tools missing, a conversion of an original failed, a baseline run failed, A and B
# differ by more than BASELINE_MAX, the model covers less than MIN_COVER of a view).
#
# Limits from measurements (docs/ENGINE-TESTS.md, full run): see the table there. A vertex
# scramble of the rewritten file (ENGINE_DP_SCRAMBLE=1: the vertex records of every frame
# permuted, MDL/MD2/IQM) must and does fail.
#
# Usage: .ci/engine_darkplaces.sh [--smoke] [--keep DIR] [RETROMODEL [CORPUS]]
#   RETROMODEL: the binary (default target/release/retromodel); CORPUS: default
#   $RETROMODEL_CORPUS. --keep DIR: screenshots (PNG), masks, renders, logs and summary.txt.
# Env: ENGINE_DP_SIL_LIMIT (0.03 = 3% of the union), ENGINE_DP_RENDER_LIMIT (0.03),
# ENGINE_DP_BASELINE_MAX (0.005), ENGINE_DP_MIN_COVER (0.003), ENGINE_DP_TIMEOUT (seconds per
# engine run, 90), ENGINE_DP_CASES (space-separated case names, overrides --smoke),
# ENGINE_DP_SCRAMBLE=1 (self-test: scramble the rewritten files; the check must fail),
# ENGINE_DP_KEEP_WORK=1 (leave the work folder in $TMPDIR).
# Installs darkplaces, nexuiz-data (725 MB), xvfb, imagemagick with apt-get when missing.
set -euo pipefail

DP=/usr/games/darkplaces
NEXUIZ_BASEDIR=/usr/share/games/nexuiz
SIL_LIMIT="${ENGINE_DP_SIL_LIMIT:-0.03}"
RENDER_LIMIT="${ENGINE_DP_RENDER_LIMIT:-0.03}"
BASELINE_MAX="${ENGINE_DP_BASELINE_MAX:-0.005}"
MIN_COVER="${ENGINE_DP_MIN_COVER:-0.003}"
RUN_TIMEOUT="${ENGINE_DP_TIMEOUT:-90}"
MAP=aggressor
DP_MODEL=models/turrets/head-gib4.md3   # precached by Nexuiz on every map, not shown on aggressor
DP_MODEL_INDEX=35                       # its model index there (checked in the log)
DP_EDICT=9                              # an inert entity (weapon_info) that shows it
WIDTH=800
HEIGHT=600
YAWS=(0 90 180 270)
ALL_CASES="md3_mdl md2_mdl gltf_md2 md5_md2 md3_iqm"

usage() { echo "usage: $0 [--smoke] [--keep DIR] [RETROMODEL [CORPUS]]" >&2; exit 2; }
keep=""
smoke=0
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=1; shift ;;
    --keep) [ $# -ge 2 ] || usage; keep="$2"; shift 2 ;;
    --keep=*) keep="${1#--keep=}"; shift ;;
    -h|--help) usage ;;
    --) shift; break ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -le 2 ] || usage
BIN="${1:-target/release/retromodel}"
CORPUS="${2:-${RETROMODEL_CORPUS:-}}"
[ -x "$BIN" ] || { echo "engine_dp: retromodel binary $BIN not found" >&2; exit 2; }
[ -n "$CORPUS" ] && [ -d "$CORPUS" ] || { echo "engine_dp: corpus folder not given (argument or RETROMODEL_CORPUS)" >&2; exit 2; }
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
CORPUS="$(cd "$CORPUS" && pwd)"
if [ -n "${ENGINE_DP_CASES:-}" ]; then CASES="$ENGINE_DP_CASES"; elif [ $smoke = 1 ]; then CASES=md3_mdl; else CASES="$ALL_CASES"; fi
for c in $CASES; do case " $ALL_CASES " in *" $c "*) ;; *) echo "engine_dp: unknown case $c (cases: $ALL_CASES)" >&2; exit 2 ;; esac; done
ENGINE_TAG=engine_dp
# shellcheck source=.ci/engine_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/engine_common.sh"
t_start=$(date +%s.%N)

engine_workdir ENGINE_DP_KEEP_WORK

# --- tools -------------------------------------------------------------------------------
need=()
[ -x "$DP" ] || need+=(darkplaces)
[ -f "$NEXUIZ_BASEDIR/data/data.pk3" ] || need+=(nexuiz-data)
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v compare >/dev/null 2>&1 || need+=(imagemagick)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  apt_install "${need[@]}"
  [ -x "$DP" ] && [ -f "$NEXUIZ_BASEDIR/data/data.pk3" ] || { echo "engine_dp: $DP or nexuiz-data still missing" >&2; exit 2; }
fi

# --- the cases: ORIGINAL (A), the written file (R), frame F, expected engine format ---------
MD3_ROCKETS="$CORPUS/md3/debian-nexuiz-data/nexuiz/data/data.pk3/models/items/a_rockets.md3"
MD2_SPIDER="$CORPUS/md2/debian-ufoai-data/ufoai/base/0models.pk3/models/aliens/bloodspider/bloodspider.md2"
IQM_GUY="$CORPUS/iqm/github-raysan5-raylib/examples/models/resources/models/iqm/guy.iqm"
MD5_ZAPPER="$CORPUS/md5/debian-redeclipse-data/redeclipse/data/weapons/zapper"
conv() {   # conv CASE SRC OUT [ARGS...]: retromodel convert, log kept
  local c="$1" src="$2" out="$3"; shift 3
  if ! "$BIN" convert "$src" "$out" --force "$@" >>"$work/$c/convert.log" 2>&1; then
    echo "engine_dp: $c: retromodel convert $(basename "$src") $(basename "$out") failed:" >&2
    tail -n 5 "$work/$c/convert.log" | sed 's/^/    /' >&2
    return 1
  fi
}
# prepare CASE: writes $work/CASE/{a.*,r.*,case.env}; returns 2 (cannot judge) when an
# original is missing or its reference conversion failed, 1 when the file under test failed
prepare() {
  local c="$1" d="$work/$1"
  mkdir -p "$d"
  case "$c" in
    md3_mdl)
      [ -f "$MD3_ROCKETS" ] || return 2
      cp "$MD3_ROCKETS" "$d/a.md3"
      conv "$c" "$MD3_ROCKETS" "$d/r.mdl" --game-dir "$NEXUIZ_BASEDIR/data" || return 1
      printf 'A=a.md3\nR=r.mdl\nF=0\nFMT_A=MD3\nFMT_R=MDL\n' >"$d/case.env" ;;
    md2_mdl)
      [ -f "$MD2_SPIDER" ] || return 2
      cp "$MD2_SPIDER" "$d/a.md2"
      conv "$c" "$MD2_SPIDER" "$d/r.mdl" || return 1
      printf 'A=a.md2\nR=r.mdl\nF=48\nFMT_A=MD2\nFMT_R=MDL\n' >"$d/case.env" ;;
    gltf_md2)
      [ -f "$IQM_GUY" ] || return 2
      cp "$IQM_GUY" "$d/a.iqm"
      conv "$c" "$IQM_GUY" "$d/guy.glb" || return 1
      conv "$c" "$d/guy.glb" "$d/r.md2" --fps 24 --skin-path models/retromodel/guy.pcx || return 1
      printf 'A=a.iqm\nR=r.md2\nF=30\nFMT_A=IQM\nFMT_R=MD2\n' >"$d/case.env" ;;
    md5_md2)
      [ -f "$MD5_ZAPPER/mesh.md5mesh" ] && [ -f "$MD5_ZAPPER/reload.md5anim" ] || return 2
      conv "$c" "$MD5_ZAPPER/mesh.md5mesh" "$d/a.iqm" --anim "$MD5_ZAPPER/reload.md5anim" || return 2
      conv "$c" "$MD5_ZAPPER/mesh.md5mesh" "$d/r.md2" --anim "$MD5_ZAPPER/reload.md5anim" --fps 24 \
        --skin-path models/retromodel/zapper.pcx || return 1
      printf 'A=a.iqm\nR=r.md2\nF=12\nFMT_A=IQM\nFMT_R=MD2\n' >"$d/case.env" ;;
    md3_iqm)
      [ -f "$MD3_ROCKETS" ] || return 2
      cp "$MD3_ROCKETS" "$d/a.md3"
      conv "$c" "$MD3_ROCKETS" "$d/r.iqm" --game-dir "$NEXUIZ_BASEDIR/data" || return 1
      printf 'A=a.md3\nR=r.iqm\nF=0\nFMT_A=MD3\nFMT_R=IQM\n' >"$d/case.env" ;;
  esac
}

# frame_count FILE: frames (poses) of an MDL, MD2, MD3 or IQM file, from its header (an IQM
# without frames shows its bind pose: 1)
frame_count() {
  python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
if b[:4] == b"IDPO":
    print(struct.unpack_from("<i", b, 68)[0])   # numframes (groups count as one)
elif b[:4] == b"IDP2":
    print(struct.unpack_from("<i", b, 40)[0])
elif b[:4] == b"IDP3":
    print(struct.unpack_from("<i", b, 76)[0])
elif b[:16] == b"INTERQUAKEMODEL\0":
    print(max(struct.unpack_from("<I", b, 16 + 4 * 19)[0], 1))   # no frames: the bind pose
else:
    print(-1)
PY
}

# scramble FILE: permute the vertex records of every frame (MDL, MD2) or the position array
# (IQM) with a fixed seed: the self-test file the check must refuse
scramble() {
  python3 - "$1" <<'PY'
import random, struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
rng = random.Random(44)
def permute(ofs, n, size):
    recs = [bytes(b[ofs + i * size: ofs + (i + 1) * size]) for i in range(n)]
    rng.shuffle(recs)
    b[ofs: ofs + n * size] = b"".join(recs)
if b[:4] == b"IDPO":
    nskins, sw, sh, nv, nt, nf = struct.unpack_from("<6i", b, 48)
    o = 84
    for _ in range(nskins):
        g = struct.unpack_from("<i", b, o)[0]; o += 4
        if g == 0:
            o += sw * sh
        else:
            n = struct.unpack_from("<i", b, o)[0]; o += 4 + 4 * n + n * sw * sh
    o += 12 * nv + 16 * nt
    for _ in range(nf):
        t = struct.unpack_from("<i", b, o)[0]; o += 4
        if t == 0:
            permute(o + 24, nv, 4); o += 24 + 4 * nv
        else:
            n = struct.unpack_from("<i", b, o)[0]; o += 12 + 4 * n
            for _ in range(n):
                permute(o + 24, nv, 4); o += 24 + 4 * nv
elif b[:4] == b"IDP2":
    framesize, _, nxyz, _, _, _, nframes = struct.unpack_from("<7i", b, 16)
    ofs_frames = struct.unpack_from("<i", b, 56)[0]
    for f in range(nframes):
        permute(ofs_frames + f * framesize + 40, nxyz, 4)
elif b[:16] == b"INTERQUAKEMODEL\0":
    nva, nv, ofs_va = struct.unpack_from("<3I", b, 16 + 4 * 7)
    for i in range(nva):
        typ, flags, fmt, size, ofs = struct.unpack_from("<5I", b, ofs_va + 20 * i)
        if typ == 0:
            permute(ofs, nv, 4 * size)
else:
    sys.exit(f"scramble: {p}: unknown format")
open(p, "wb").write(b)
PY
}

# plan CASE: the camera from R's frame F (an OBJ of it, Y-up back to Z-up): DP fov, entity
# origin per yaw, render distance
plan() {
  local c="$1" d="$work/$1"
  "$BIN" convert "$d/$R" "$d/frame.obj" --frame "$F" --force >>"$d/convert.log" 2>&1 || return 1
  python3 - "$d/frame.obj" "$d/plan.env" <<'PY'
import math, sys
pts = []
for line in open(sys.argv[1]):
    if line.startswith("v "):
        x, y, z = map(float, line.split()[1:4])
        pts.append((x, -z, y))          # OBJ Y-up -> the model's Z-up
if not pts:
    sys.exit("no vertices")
lo = [min(p[i] for p in pts) for i in range(3)]
hi = [max(p[i] for p in pts) for i in range(3)]
c = [(lo[i] + hi[i]) / 2 for i in range(3)]
r = max(math.dist(lo, hi) / 2, 1e-3)
half_y = math.radians(20.0)                 # retromodel render: fov_y 40
half_x = math.atan(math.tan(half_y) * 4 / 3)
dist = r / math.sin(min(half_y, half_x)) * 1.05
fov = 2 * math.degrees(math.atan(math.tan(half_y) / 0.75))   # DarkPlaces: horizontal fov at 4:3
out = [f"FOV={fov:.4f}", f"DIST={dist:.4f}", f"RADIUS={r:.4f}"]
for a in (0, 90, 180, 270):
    s, co = math.sin(math.radians(a)), math.cos(math.radians(a))
    rx, ry = c[0] * co - c[1] * s, c[0] * s + c[1] * co
    out.append(f"DP_ORIGIN_{a}='{dist - rx:.4f} {-ry:.4f} {-c[2]:.4f}'")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
}

# --- Xvfb on a free display (Xvfb picks it: -displayfd) ---------------------------------
start_xvfb

# write_cfg CASE: shot.cfg (the same for A, B and R of a case) and autoexec.cfg
write_cfg() {
  local d="$work/$1" w10='wait;wait;wait;wait;wait;wait;wait;wait;wait;wait' a o
  {
    cat <<CFG
alias runshot "echo runshot: already running"
echo engine_dp: shot.cfg
r_draw2d 0
r_drawworld 0
r_fullbright 1
r_fullbright_directed 1
cl_nolerp 1
scr_screenshot_png 1
fov $FOV
prvm_edictset server 1 origin "0 0 4000"
prvm_edictset server 1 angles "0 0 0"
prvm_edictset server 1 v_angle "0 0 0"
prvm_edictset server 1 fixangle 1
prvm_edictset server $DP_EDICT model $DP_MODEL
prvm_edictset server $DP_EDICT modelindex $DP_MODEL_INDEX
prvm_edictset server $DP_EDICT viewmodelforclient 1
prvm_edictset server $DP_EDICT effects 768
prvm_edictset server $DP_EDICT frame 0
$w10
cl_modelindexlist
CFG
    for a in "${YAWS[@]}"; do
      o="DP_ORIGIN_$a"
      printf 'prvm_edictset server %s angles "0 %s 0"\nprvm_edictset server %s origin "%s"\n%s\nscreenshot screenshots/y%s.png\nwait;wait\n' \
        "$DP_EDICT" "$a" "$DP_EDICT" "${!o}" "$w10" "$a"
    done
    printf 'prvm_edictset server %s modelindex 0\n%s\n' "$DP_EDICT" "$w10"
    for a in "${YAWS[@]}"; do printf 'screenshot screenshots/y%s_empty.png\nwait;wait\n' "$a"; done
    printf 'prvm_edict server %s\nquit\n' "$DP_EDICT"
  } >"$d/shot.cfg"
  # Nexuiz's client game calls _cl_hook_gamestart once it is in the game (after sign-on)
  printf 'alias runshot "exec shot.cfg"\nalias _cl_hook_gamestart "defer 1 runshot"\n' >"$d/autoexec.cfg"
  # scene 0 = frame F alone (DarkPlaces reads NAME.framegroups beside any model); none for
  # frame 0 (an IQM without frames has no frame 0 to name)
  rm -f "$d/framegroups"
  [ "$F" = 0 ] || printf '%s 1 10 1 // frameF\n' "$F" >"$d/framegroups"
}

# run_engine CASE LABEL FILE: one engine run with FILE at the model's path inside a pk3
run_engine() {
  local c="$1" label="$2" file="$3" home="$work/$1/$2" t0 rc=0 pid
  mkdir -p "$home/data" "$home/xdg"
  chmod 700 "$home/xdg"
  cp "$work/$c/shot.cfg" "$work/$c/autoexec.cfg" "$home/data/"
  python3 - "$home/data/zzz-retromodel.pk3" "$file" "$DP_MODEL" "$work/$c/framegroups" <<'PY'
import os, sys, zipfile
pk3, model, path, fg = sys.argv[1:5]
with zipfile.ZipFile(pk3, "w", zipfile.ZIP_DEFLATED) as z:
    z.write(model, path)
    if os.path.exists(fg):
        z.write(fg, path + ".framegroups")
PY
  t0=$(date +%s.%N)
  XDG_RUNTIME_DIR="$home/xdg" timeout -k 5 "$RUN_TIMEOUT" "$DP" -nexuiz -basedir "$NEXUIZ_BASEDIR" \
    -userdir "$home" -nosound -nocdaudio -window -width "$WIDTH" -height "$HEIGHT" \
    +developer 1 +vid_vsync 0 +sv_cheats 1 +map "$MAP" >"$home/console.log" 2>&1 </dev/null &
  pid=$!
  # a model that stops the map (Host_Error) leaves the engine at its console: end it early
  while kill -0 "$pid" 2>/dev/null; do
    if grep -q '^Host_Error' "$home/console.log" 2>/dev/null; then sleep 1; kill "$pid" 2>/dev/null || true; break; fi
    sleep 0.5
  done
  wait "$pid" || rc=$?
  printf 'engine_dp: %-8s run %s %5.1f s, exit %s\n' "$c" "$label" "$(elapsed "$t0")" "$rc"
  local a missing=0
  for a in "${YAWS[@]}"; do
    [ -s "$home/data/screenshots/y$a.png" ] && [ -s "$home/data/screenshots/y${a}_empty.png" ] || missing=1
  done
  if [ $rc -ne 0 ] || [ $missing -ne 0 ]; then
    echo "engine_dp: $c run $label failed (exit $rc) or left out screenshots; console log tail:"
    grep -v '^WARNING: no tooltip' "$home/console.log" | grep -v '^ *$' | tail -n 15 | sed 's/^/    /'
    return 1
  fi
}

# loaded_as CASE LABEL: the format and triangle count cl_modelindexlist gives model 35 in that
# run (" 35: path FMT triangles"), as "FMT TRIANGLES"
loaded_as() {
  sed -n "s#^ *$DP_MODEL_INDEX: $DP_MODEL  *\([A-Za-z0-9]*\)  *\([1-9][0-9]*\).*#\1 \2#p" "$work/$1/$2/console.log" | head -n1
}

# --- image measures ---------------------------------------------------------------------------
ae() {   # pixels whose colour differs by more than FUZZ
  local out
  out=$(compare -metric AE -fuzz "$3" "$1" "$2" null: 2>&1 >/dev/null || true)
  if [[ "$out" =~ ^[0-9.e+]+$ ]]; then awk -v x="$out" 'BEGIN{printf "%d", x}'; else echo "compare $1 $2: $out" >&2; echo $((WIDTH * HEIGHT)); fi
}
mask() {   # mask SHOT EMPTY OUT: white where SHOT differs from EMPTY by more than 1%
  compare -fuzz 1% "$1" "$2" -compose src -highlight-color white -lowlight-color black "$3" 2>/dev/null || true
  [ -s "$3" ] || convert -size "${WIDTH}x${HEIGHT}" xc:black "$3"
}
count_white() { convert "$1" -colorspace gray -threshold 50% -format '%[fx:round(mean*w*h)]' info:; }
sil() {   # sil MASK1 MASK2 UNION_OUT: "xor union"
  local x u
  convert "$1" "$2" -compose lighten -composite "$3"
  x=$(ae "$1" "$2" 50%); u=$(count_white "$3")
  echo "$x $u"
}

status=0
fail() { echo "FAIL: $*" | tee -a "$work/summary.txt"; status=1; }
cannot=0
: >"$work/table.tsv"
for c in $CASES; do
  d="$work/$c"
  prc=0; prepare "$c" || prc=$?
  if [ $prc -eq 2 ]; then echo "engine_dp: $c: original missing or its reference conversion failed: cannot judge"; cannot=1; continue; fi
  if [ $prc -ne 0 ]; then fail "$c: retromodel could not write the file under test"; continue; fi
  # shellcheck disable=SC1091
  . "$d/case.env"
  nf_a=$(frame_count "$d/$A"); nf_r=$(frame_count "$d/$R")
  echo "engine_dp: $c: $A ($FMT_A, $nf_a frames) against $R ($FMT_R, $nf_r frames, $(stat -c %s "$d/$R") bytes), frame $F"
  if [ "$nf_r" -le "$F" ] || { [ "$FMT_A" != MD3 ] && [ "$nf_a" -le "$F" ]; }; then
    fail "$c: frame $F is not in both files ($nf_a, $nf_r frames)"; continue
  fi
  if [ -n "${ENGINE_DP_SCRAMBLE:-}" ]; then scramble "$d/$R"; echo "engine_dp: $c: $R SCRAMBLED (self-test)"; fi
  plan "$c" || { fail "$c: retromodel cannot read back its own $R (OBJ of frame $F)"; continue; }
  # shellcheck disable=SC1091
  . "$d/plan.env"
  write_cfg "$c"
  run_engine "$c" A "$d/$A" || { echo "engine_dp: $c: the baseline run failed: cannot judge"; cannot=1; continue; }
  read -r fa tri_a < <(loaded_as "$c" A; echo)
  [ "$fa" = "$FMT_A" ] || { echo "engine_dp: $c: the engine did not load the original as $FMT_A (cl_modelindexlist: '${fa:-nothing}'): cannot judge"; cannot=1; continue; }
  if ! awk -v e="EDICT $DP_EDICT:" 'index($0, e) {on = 1; next} on && /^ *$/ {exit} on' "$d/A/console.log" | grep -q '^classname *weapon_info'; then
    echo "engine_dp: edict $DP_EDICT is not the weapon_info entity this script expects (other game data?): cannot judge"; cannot=1; continue
  fi
  run_engine "$c" B "$d/$A" || { echo "engine_dp: $c: the second baseline run failed: cannot judge"; cannot=1; continue; }
  if ! run_engine "$c" R "$d/$R"; then fail "$c: the engine did not finish the run with $R"; continue; fi
  read -r fr tri_r < <(loaded_as "$c" R; echo)
  if [ "$fr" != "$FMT_R" ]; then fail "$c: the engine did not load $R as $FMT_R (cl_modelindexlist: '${fr:-nothing}')"
  elif [ "$tri_r" != "$tri_a" ]; then fail "$c: the engine has $tri_r triangles in $R, $tri_a in $A"
  else echo "engine_dp: $c: the engine loaded $A as $fa and $R as $fr, $tri_r triangles each"; fi
  # retromodel's own render of R's frame F from the same camera
  mkdir -p "$d/m"
  for a in "${YAWS[@]}"; do
    ry=$(( (180 - a + 360) % 360 ))
    if ! "$BIN" render "$d/$R" "$d/m/render_y$a.png" --frame "$F" --camera "$ry,0,$DIST" --size "${WIDTH}x${HEIGHT}" --force >>"$d/render.log" 2>&1; then
      fail "$c: retromodel render failed (render.log)"; tail -n 3 "$d/render.log"; break
    fi
    convert "$d/m/render_y$a.png" -alpha extract -threshold 50% "$d/m/rmask_y$a.png"
    s() { echo "$d/$1/data/screenshots/y$a${2:-}.png"; }
    for run in A B R; do mask "$(s $run)" "$(s $run _empty)" "$d/m/mask_${run}_y$a.png"; done
    cover=$(count_white "$d/m/mask_A_y$a.png")
    read -r xab uab < <(sil "$d/m/mask_A_y$a.png" "$d/m/mask_B_y$a.png" "$d/m/u_ab.png")
    read -r xar uar < <(sil "$d/m/mask_A_y$a.png" "$d/m/mask_R_y$a.png" "$d/m/u_ar.png")
    read -r xrd urd < <(sil "$d/m/mask_R_y$a.png" "$d/m/rmask_y$a.png" "$d/m/u_rd.png")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "y$a" "$cover" "$xab" "$uab" "$xar" "$uar" "$xrd" "$urd" \
      "$(ae "$(s A)" "$(s B)" 10%)" "$(ae "$(s A)" "$(s R)" 10%)" >>"$work/table.tsv"
  done
  # console: model lines in R's log that A's has not
  suspicious() {
    sed -e "s#$work/[^ ]*/##g" -e 's/\^[0-9]//g' -e 's/\x1b\[[0-9;]*m//g' "$1" |
      grep -v -e '^WARNING: no tooltip' -e '^GL_EXTENSIONS' |
      grep -iE "warning|error|couldn't|could not|can't|cannot|failed|failure|has more than|unsupported|is missing|missing |invalid|no such frame|not present|wrong|broken|too (long|many)|bad |no scene|out of range" |
      grep -iE "mdl|md2|md3|iqm|retromodel|head-gib4|model|skin|frame|vert|triang|anim|pcx" | sort -u || true
  }
  suspicious "$d/A/console.log" >"$d/warn_A.txt"
  suspicious "$d/R/console.log" >"$d/warn_R.txt"
  comm -13 "$d/warn_A.txt" "$d/warn_R.txt" >"$d/warn_new.txt"
  if [ -s "$d/warn_new.txt" ]; then
    fail "$c: the run with $R has $(wc -l <"$d/warn_new.txt") model warning line(s) the original's has not:"
    sed 's/^/    /' "$d/warn_new.txt" | tee -a "$work/summary.txt"
  fi
  if [ -n "$keep" ]; then
    mkdir -p "$keep/$c"
    cp "$d"/m/*.png "$keep/$c/"
    for run in A B R; do
      cp "$d/$run/console.log" "$keep/$c/console_$run.log"
      for a in "${YAWS[@]}"; do cp "$d/$run/data/screenshots/y$a.png" "$keep/$c/y${a}_$run.png"; done
    done
    cp "$d/shot.cfg" "$d/convert.log" "$d/warn_new.txt" "$keep/$c/" 2>/dev/null || true
  fi
done

# --- table and verdicts --------------------------------------------------------------------
img_rc=0
python3 - "$work/table.tsv" "$((WIDTH * HEIGHT))" "$SIL_LIMIT" "$RENDER_LIMIT" "$BASELINE_MAX" "$MIN_COVER" <<'PY' | tee -a "$work/summary.txt" || img_rc=$?
import sys
path, total = sys.argv[1], int(sys.argv[2])
sil_limit, render_limit, base_max, min_cover = map(float, sys.argv[3:7])
rows = [l.rstrip("\n").split("\t") for l in open(path) if l.strip()]
q = lambda x, u: int(x) / max(int(u), 1)
print(f"\n{'case':<9} {'view':<5} {'cover':>7} {'sil A-B':>8} {'sil A-R':>8} {'limit':>7} {'sil R-rd':>8} {'limit':>7} {'col A-B':>8} {'col A-R':>8}  result")
code, fails = 0, []
for c, v, cover, xab, uab, xar, uar, xrd, urd, cab, car in rows:
    cov, sab, sar, srd = int(cover) / total, q(xab, uab), q(xar, uar), q(xrd, urd)
    lim = max(sil_limit, sab + sil_limit)
    bad = []
    if sar > lim:
        bad.append(f"silhouette of R differs from A's in {100*sar:.2f}% of their union (> {100*lim:.2f}%)")
    if srd > render_limit:
        bad.append(f"engine silhouette of R differs from retromodel render's in {100*srd:.2f}% of their union (> {100*render_limit:.2f}%)")
    if int(cab) / total > base_max:
        print(f"engine_dp: {c} {v}: the baselines differ in {100*int(cab)/total:.3f}% of the pixels: not deterministic, cannot judge")
        code = max(code, 2) if code != 1 else 1
    if cov < min_cover:
        print(f"engine_dp: {c} {v}: the model covers {100*cov:.3f}% of the view (< {100*min_cover}%): cannot judge")
        code = max(code, 2) if code != 1 else 1
    print(f"{c:<9} {v:<5} {100*cov:6.2f}% {100*sab:7.3f}% {100*sar:7.3f}% {100*lim:6.2f}% {100*srd:7.3f}% {100*render_limit:6.2f}% "
          f"{100*int(cab)/total:7.3f}% {100*int(car)/total:7.3f}%  {'FAIL' if bad else 'ok'}")
    fails += [f"{c} {v}: {b}" for b in bad]
print("(cover: share of the view the model covers in A; sil: xor / union of the model masks (A, B: original,"
      " R: rewritten, rd: retromodel render); col: share of pixels whose colour differs by >10%, not judged)")
for f in fails:
    print("FAIL:", f)
if fails:
    code = 1
sys.exit(code)
PY
case $img_rc in 0) ;; 1) status=1 ;; *) [ $status -eq 1 ] || cannot=1 ;; esac
[ $status -eq 1 ] || [ $cannot -eq 0 ] || status=2

{
  echo
  printf 'engine_dp: cases: %s; wall time: %.0f s\n' "$CASES" "$(elapsed "$t_start")"
  case $status in 0) echo "engine_dp: PASS" ;; 1) echo "engine_dp: FAIL" ;; *) echo "engine_dp: CANNOT JUDGE" ;; esac
} | tee -a "$work/summary.txt"
if [ -n "$keep" ]; then
  mkdir -p "$keep"; cp "$work/summary.txt" "$work/table.tsv" "$keep/"
  echo "engine_dp: screenshots, masks, renders and logs in $keep"
fi
exit $status
