#!/usr/bin/env bash
# Real-engine check for IQM (Inter-Quake Model v2): a real engine (Mesa llvmpipe under Xvfb)
# loads REWRITTEN.iqm and draws it like ORIGINAL.iqm.
#
# Engines (ENGINE_IQM_ENGINE): `auto` (default) takes ioquake3 when it can load ORIGINAL and
# DarkPlaces otherwise; `ioquake3` or `darkplaces` forces one.
#  - ioquake3 (Debian's ioquake3 with OpenArena data, as .ci/engine_md3.sh): its IQM loader takes
#    at most 999 vertices and 1999 triangles per mesh and 128 joints (mrfixit.iqm has 1,476
#    vertices in one mesh: DarkPlaces). The model is the loose file models/retromodel/model.iqm
#    in a fresh fs_homepath's baseoa/. Map aggressor, `fixedtime 16`; the client joins the
#    spectators and is put at a fixed spot (setviewpos); the cgame's `testmodel` command puts
#    the model 100 units in front of the third-person camera (cg_thirdpersonrange 100,
#    cg_cameraMode 1: no wall trace), facing it, and cg_thirdpersonangle turns the camera around
#    it; cg_fov is set from the model's size. Frame K is set with `nextframe`.
#  - DarkPlaces (Debian's darkplaces with nexuiz-data, 725 MB of packages, installed when
#    missing): it tells model formats by their magic, so the IQM bytes go in the user folder's
#    data/ under the name of a model that Nexuiz loads with every map but that aggressor never
#    shows (models/turrets/head-gib4.md3, model index 35), with a .framegroups file beside it
#    whose scene 0 is frame 0 and scene 1 frame K (single frames: no clock in the picture).
#    Map aggressor; when the game has started (Nexuiz's _cl_hook_gamestart alias) the script
#    moves the observer out of the map (0 0 4000, angles 0: nothing else is sent or drawn) and
#    uses `prvm_edictset` on an inert entity (edict 9, a weapon_info) to show model 35 as a
#    view-attached entity (viewmodelforclient 1, EF_NOGUNBOB|EF_FULLBRIGHT, r_fullbright 1 with
#    r_fullbright_directed 1: a fixed light direction), its centre 100 units (or more) ahead;
#    the entity's yaw turns the model, `fov` is set from its size.
# Both: the world is not drawn (black background); textures named by the original's materials,
# when they sit beside ORIGINAL, go to the same path in the game folder, the same in all runs.
# The engine runs three times under one Xvfb with the same script: twice with ORIGINAL
# (baselines A and B) and once with REWRITTEN (R). Screenshots (800x600): frame 0 at yaw 0, 90,
# 180 and 270 degrees and, for an animated model, frame K (middle of the first animation) at 30
# and 210; then the model is removed (ioquake3: `testmodel` without a name; DarkPlaces:
# modelindex 0) and every view is shot again (*_empty): the pixels the model covers.
#
# Method: per screenshot, ImageMagick `compare -metric AE -fuzz 10%` = pixels whose colour
# differs by more than 10% of the range, as a share of all pixels (RMSE is printed too).
# Fails (exit 1) if for any screenshot share(A, R) > max(ABS_LIMIT, share(A, B) + MARGIN), if
# the rewritten run's console log has lines about models, shaders, images or IQM loading
# (warnings, failures, limits, missing frames) that the baseline's has not, if the engine did
# not load the model file of R's folder, or if R did not get to its screenshots.
# Exit 2: the harness cannot judge (usage, engine missing, ORIGINAL not an IQM v2 file with a
# mesh that the engine loads, a baseline run failed, the baselines differ by more than
# BASELINE_MAX, or the model covers less than MIN_COVER of a baseline screenshot).
#
# Limits from measurements (docs/ENGINE-TESTS.md): A and B pixel-identical in both engines;
# positions scaled by 1.0001: up to 0.009%; by 1.005: 0.05-0.66%; by 1.05: 0.6-4.7%.
#
# Usage: .ci/engine_iqm.sh [--keep DIR] ORIGINAL.iqm REWRITTEN.iqm
#   --keep DIR: screenshots (PNG), diff images, console logs and summary.txt go to DIR.
# Env: ENGINE_IQM_ENGINE (auto, ioquake3, darkplaces), ENGINE_IQM_ABS_LIMIT (default 0.0005 =
# 0.05% of the pixels), ENGINE_IQM_MARGIN (0.0005), ENGINE_IQM_BASELINE_MAX (0.005),
# ENGINE_IQM_MIN_COVER (0.003), ENGINE_IQM_TIMEOUT (seconds per engine run, 90),
# ENGINE_IQM_RENDERER (ioquake3: opengl2, the package's default, or opengl1).
# ENGINE_IQM_KEEP_WORK=1 leaves the work folder (all three homes) in $TMPDIR.
set -euo pipefail

IOQ3=/usr/lib/ioquake3/ioquake3
OA_BASEPATH=/usr/lib/openarena
DP=/usr/games/darkplaces
NEXUIZ_BASEDIR=/usr/share/games/nexuiz
ENGINE_SEL="${ENGINE_IQM_ENGINE:-auto}"
ABS_LIMIT="${ENGINE_IQM_ABS_LIMIT:-0.0005}"
MARGIN="${ENGINE_IQM_MARGIN:-0.0005}"
BASELINE_MAX="${ENGINE_IQM_BASELINE_MAX:-0.005}"
MIN_COVER="${ENGINE_IQM_MIN_COVER:-0.003}"
RUN_TIMEOUT="${ENGINE_IQM_TIMEOUT:-90}"
RENDERER="${ENGINE_IQM_RENDERER:-opengl2}"
MAP=aggressor
IOQ3_SPOT="-272 976 200 -65"   # setviewpos x y z yaw: the spectator drifts a little from here, always the same way
IOQ3_MODEL=models/retromodel/model.iqm
DP_MODEL=models/turrets/head-gib4.md3   # precached by Nexuiz on every map, not shown on aggressor
DP_MODEL_INDEX=35                       # its model index there (checked in the log)
DP_EDICT=9                              # an inert entity (weapon_info) that shows it
WIDTH=800
HEIGHT=600

usage() { echo "usage: $0 [--keep DIR] ORIGINAL.iqm REWRITTEN.iqm" >&2; exit 2; }
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
[ $# -eq 2 ] || usage
case "$ENGINE_SEL" in auto|ioquake3|darkplaces) ;; *) echo "engine_iqm: ENGINE_IQM_ENGINE must be auto, ioquake3 or darkplaces" >&2; exit 2 ;; esac
ORIG="$1"
REWR="$2"
for f in "$ORIG" "$REWR"; do [ -f "$f" ] || { echo "engine_iqm: $f not found" >&2; exit 2; }; done
ORIG="$(cd "$(dirname "$ORIG")" && pwd)/$(basename "$ORIG")"
REWR="$(cd "$(dirname "$REWR")" && pwd)/$(basename "$REWR")"
ENGINE_TAG=engine_iqm
# shellcheck source=.ci/engine_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/engine_common.sh"
t_start=$(date +%s.%N)

engine_workdir ENGINE_IQM_KEEP_WORK

command -v python3 >/dev/null 2>&1 || apt_install python3

# --- the two files: header summary, engine, framing, frame K, textures ---------------------
# Writes $work/plan.env and $work/textures.tsv (source, path in the game folder); exits 2
# (message on stderr) when ORIGINAL cannot be judged.
if ! python3 - "$ORIG" "$REWR" "$work" "$ENGINE_SEL" <<'PY'
import math, os, re, struct, sys
orig, rewr, work, engine = sys.argv[1:5]
NAMES = ("version filesize flags num_text ofs_text num_meshes ofs_meshes num_vertexarrays num_vertexes "
         "ofs_vertexarrays num_triangles ofs_triangles ofs_adjacency num_joints ofs_joints num_poses ofs_poses "
         "num_anims ofs_anims num_frames num_framechannels ofs_frames ofs_bounds num_comment ofs_comment "
         "num_extensions ofs_extensions").split()

def parse(path):
    b = open(path, "rb").read()
    if len(b) < 124 or b[:16] != b"INTERQUAKEMODEL\0":
        raise ValueError("not an IQM file (magic)")
    h = dict(zip(NAMES, struct.unpack_from("<27I", b, 16)))
    if h["version"] != 2:
        raise ValueError(f"IQM version {h['version']}, not 2")
    def need(ofs, size, what):
        if ofs + size > len(b):
            raise ValueError(f"{what} block {ofs}..{ofs + size} outside the file ({len(b)} bytes)")
    def text(o):
        if o >= h["num_text"]:
            return ""
        s = b[h["ofs_text"] + o: h["ofs_text"] + h["num_text"]]
        return s.split(b"\0", 1)[0].decode("utf-8", "replace")
    need(h["ofs_text"], h["num_text"], "text")
    need(h["ofs_meshes"], 24 * h["num_meshes"], "meshes")
    meshes = []
    for i in range(h["num_meshes"]):
        name, mat, fv, nv, ft, nt = struct.unpack_from("<6I", b, h["ofs_meshes"] + 24 * i)
        meshes.append(dict(name=text(name), material=text(mat), nv=nv, nt=nt))
    need(h["ofs_vertexarrays"], 20 * h["num_vertexarrays"], "vertexarrays")
    pos = []
    for i in range(h["num_vertexarrays"]):
        typ, flags, fmt, size, ofs = struct.unpack_from("<5I", b, h["ofs_vertexarrays"] + 20 * i)
        if typ == 0 and fmt == 7 and size == 3:
            need(ofs, 12 * h["num_vertexes"], "positions")
            pos = list(struct.iter_unpack("<3f", b[ofs: ofs + 12 * h["num_vertexes"]]))
    anims = []
    if h["num_anims"]:
        need(h["ofs_anims"], 20 * h["num_anims"], "anims")
        for i in range(h["num_anims"]):
            name, first, num, rate, flags = struct.unpack_from("<3IfI", b, h["ofs_anims"] + 20 * i)
            anims.append((text(name), first, num))
    bounds = []
    if h["ofs_bounds"] and h["num_frames"]:
        need(h["ofs_bounds"], 32 * h["num_frames"], "bounds")
        bounds = [struct.unpack_from("<8f", b, h["ofs_bounds"] + 32 * i) for i in range(h["num_frames"])]
    return h, meshes, pos, anims, bounds

def summary(h, meshes, anims):
    ms = ", ".join(f"{m['name']}:{m['nv']}v/{m['nt']}t[{m['material']}]" for m in meshes)
    return (f"{h['num_meshes']} mesh(es) ({ms}), {h['num_vertexes']} vertices, {h['num_triangles']} triangles, "
            f"{h['num_joints']} joints, {h['num_frames']} frames, {h['num_anims']} anim(s)")

try:
    h, meshes, pos, anims, bounds = parse(orig)
except (ValueError, struct.error) as e:
    sys.exit(f"engine_iqm: ORIGINAL {orig}: {e}: cannot judge")
print(f"engine_iqm: original:  {summary(h, meshes, anims)}")
rmeshes = []
try:
    rh, rmeshes, _, ranims, _ = parse(rewr)
    print(f"engine_iqm: rewritten: {summary(rh, rmeshes, ranims)}")
except (ValueError, struct.error) as e:
    print(f"engine_iqm: rewritten: {e} (the engine decides)")
if not meshes or not pos:
    sys.exit("engine_iqm: ORIGINAL has no meshes or no float position array (an animation-only file?): cannot judge")

# what ioquake3's IQM loader refuses (renderergl1/2 tr_model_iqm.c: SHADER_MAX_VERTEXES 1000,
# SHADER_MAX_INDEXES 6000, IQM_MAX_JOINTS 128)
limits = [f"mesh '{m['name']}' has {m['nv']} vertices (max 999)" for m in meshes if m["nv"] >= 1000]
limits += [f"mesh '{m['name']}' has {m['nt']} triangles (max 1999)" for m in meshes if m["nt"] * 3 >= 6000]
if h["num_joints"] > 128:
    limits.append(f"{h['num_joints']} joints (max 128)")
if engine == "auto":
    engine = "darkplaces" if limits else "ioquake3"
    if limits:
        print("engine_iqm: ioquake3 cannot load it (" + "; ".join(limits) + "): DarkPlaces")
elif engine == "ioquake3" and limits:
    sys.exit("engine_iqm: ioquake3 cannot load ORIGINAL: " + "; ".join(limits) + ": cannot judge")

# frame K: the middle of the first animation (frames are numbered across all animations)
k = 0
if h["num_frames"] > 1:
    first, num = (anims[0][1], anims[0][2]) if anims else (0, h["num_frames"])
    k = min(h["num_frames"] - 1, first + max(1, num // 2))
# extent: bind-pose positions and the stored bounds of frames 0 and K
pts = list(pos)
for f in {0, k}:
    if f < len(bounds):
        x0, y0, z0, x1, y1, z1 = bounds[f][:6]
        pts += [(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)]
out = [f"ENGINE={engine}", f"FRAME_K={k}", f"NUM_FRAMES={h['num_frames']}"]
if engine == "ioquake3":
    # The camera circles the model at 100 units, about 1.3 units above the model's origin,
    # looking slightly down (cgame's third-person view: 8 up, aimed 512 ahead); the model's
    # origin is at the centre. Half-height needed, in tangent units, 15% margin; 4:3 frame.
    r_xy = max(math.hypot(x, y) for x, y, z in pts)
    if r_xy > 70:
        sys.exit(f"engine_iqm: ORIGINAL is {r_xy:.0f} units wide around its origin; ioquake3's camera orbits at 100: cannot judge")
    near = 100.0 - r_xy
    t_y = max(max(abs(z - 1.3) for x, y, z in pts) / near, 0.75 * r_xy / near) * 1.15 + 0.005
    fov = min(max(2 * math.degrees(math.atan(t_y * 4 / 3)), 2.0), 140.0)
    out.append(f"FOV={fov:.3f}")
    frame = f"cg_fov {fov:.2f} (model {r_xy:.1f} units wide around its origin)"
else:
    # The model's bounding-box centre c sits D units straight ahead; the sphere around c that
    # holds every point fills 1/1.15 of the half-height. DarkPlaces' fov is the horizontal
    # angle of a 4:3 view: tan(fov/2) * 0.75 = tan(vertical half-angle).
    c = [(min(p[i] for p in pts) + max(p[i] for p in pts)) / 2 for i in range(3)]
    rad = max(math.dist(p, c) for p in pts) or 1.0
    d = max(100.0, 1.6 * rad)
    half = math.asin(min(rad / d, 0.99)) * 1.15
    fov = min(max(2 * math.degrees(math.atan(math.tan(half) / 0.75)), 1.0), 170.0)
    out.append(f"FOV={fov:.3f}")
    # entity origin per yaw, relative to the view (x ahead, y left, z up): D ahead, minus the
    # rotated centre, so that c stays in the middle of the picture
    for a in (0, 90, 180, 270, 30, 210):
        s, co = math.sin(math.radians(a)), math.cos(math.radians(a))
        rx, ry = c[0] * co - c[1] * s, c[0] * s + c[1] * co
        out.append(f"DP_ORIGIN_{a}='{d - rx:.4f} {-ry:.4f} {-c[2]:.4f}'")
    frame = f"fov {fov:.2f}, centre {d:.0f} units ahead (model radius {rad:.1f} around its box centre)"

# textures: a material names a file beside ORIGINAL (as is, or with .tga/.png/.jpg added):
# it goes to the same path in each run's game folder, where the engine looks for it
rows = []
mats = sorted({m["material"] for m in meshes + rmeshes})
base = os.path.dirname(orig)
for m in mats:
    if not m or m.startswith("/") or "\\" in m or ".." in m.split("/") or not re.fullmatch(r"[A-Za-z0-9_./ -]+", m):
        continue
    cands = [m] if os.path.splitext(m)[1] else [m + e for e in (".tga", ".png", ".jpg")]
    for cand in cands:
        if os.path.isfile(os.path.join(base, cand)):
            rows.append(f"{os.path.join(base, cand)}\t{cand}")
            break
open(os.path.join(work, "textures.tsv"), "w").write("".join(r + "\n" for r in rows))
mat_re = "|".join(re.escape(m) for m in mats if m) or "retromodel"
out.append(f"MATERIALS_RE='{mat_re.replace(chr(39), '')}'")
open(os.path.join(work, "plan.env"), "w").write("\n".join(out) + "\n")
print(f"engine_iqm: {engine}: {frame}, frame K {k}, {len(rows)} texture file(s) beside the original"
      + (": " + ", ".join(r.split("\t")[1] for r in rows) if rows else ""))
PY
then exit 2; fi
# shellcheck disable=SC1091
. "$work/plan.env"

# --- tools -------------------------------------------------------------------------------
need=()
if [ "$ENGINE" = ioquake3 ]; then
  [ -x "$IOQ3" ] && [ -d "$OA_BASEPATH/baseoa" ] || need+=(openarena)
else
  [ -x "$DP" ] || need+=(darkplaces)
  [ -f "$NEXUIZ_BASEDIR/data/data.pk3" ] || need+=(nexuiz-data)
fi
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v compare >/dev/null 2>&1 || need+=(imagemagick)
if [ ${#need[@]} -gt 0 ]; then
  apt_install "${need[@]}"
  if [ "$ENGINE" = ioquake3 ]; then [ -x "$IOQ3" ] || { echo "engine_iqm: $IOQ3 still missing" >&2; exit 2; }
  else [ -x "$DP" ] && [ -f "$NEXUIZ_BASEDIR/data/data.pk3" ] || { echo "engine_iqm: $DP or nexuiz-data still missing" >&2; exit 2; }; fi
fi

# --- the script every run executes once the game is up ------------------------------------
SHOTS=(f0_a0 f0_a90 f0_a180 f0_a270)
ANGLES=(0 90 180 270)
if [ "$FRAME_K" -gt 0 ]; then SHOTS+=(fk_a30 fk_a210); ANGLES+=(30 210); fi
if [ "$ENGINE" = ioquake3 ]; then
  # `wait N` holds the rest for N command-buffer passes (two per frame); the renderer keeps one
  # screenshot name per frame, so screenshots stay frames apart.
  SHOT_EXT=tga
  {
    cat <<CFG
set cg_drawgun 0
set cg_draw2D 0
team spectator
wait 40
setviewpos $IOQ3_SPOT
wait 160
set cg_thirdperson 1
set cg_thirdpersonrange 100
set cg_thirdpersonangle 0
set cg_cameraMode 1
set cg_fov $FOV
set r_drawworld 0
set r_fastsky 1
wait 6
viewpos
testmodel $IOQ3_MODEL
wait 10
CFG
    for i in "${!SHOTS[@]}"; do
      if [ "${SHOTS[$i]}" = fk_a30 ]; then for _ in $(seq "$FRAME_K"); do echo nextframe; done; fi
      printf 'set cg_thirdpersonangle %s\nwait 4\nscreenshot %s\nwait 4\n' "${ANGLES[$i]}" "${SHOTS[$i]}"
    done
    printf 'testmodel\nwait 4\n'
    for i in "${!SHOTS[@]}"; do
      printf 'set cg_thirdpersonangle %s\nwait 4\nscreenshot %s_empty\nwait 4\n' "${ANGLES[$i]}" "${SHOTS[$i]}"
    done
    printf 'viewpos\nwait 2\nquit\n'
  } >"$work/shot.cfg"
else
  # `wait` holds the rest for one frame. The scene has no clock in it (single-frame scenes,
  # fixed light), so the real-time `defer` that starts the script does not change the picture.
  SHOT_EXT=png
  w10='wait;wait;wait;wait;wait;wait;wait;wait;wait;wait'
  {
    cat <<CFG
alias runshot "echo runshot: already running"
echo engine_iqm: shot.cfg
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
$w10
cl_modelindexlist
CFG
    for i in "${!SHOTS[@]}"; do
      a="${ANGLES[$i]}"; o="DP_ORIGIN_$a"; fr=0; [ "${SHOTS[$i]}" = "${SHOTS[$i]#fk_}" ] || fr=1
      printf 'prvm_edictset server %s angles "0 %s 0"\nprvm_edictset server %s origin "%s"\nprvm_edictset server %s frame %s\n%s\nscreenshot screenshots/%s.png\nwait;wait\n' \
        "$DP_EDICT" "$a" "$DP_EDICT" "${!o}" "$DP_EDICT" "$fr" "$w10" "${SHOTS[$i]}"
    done
    printf 'prvm_edictset server %s modelindex 0\n%s\n' "$DP_EDICT" "$w10"
    for i in "${!SHOTS[@]}"; do printf 'screenshot screenshots/%s_empty.png\nwait;wait\n' "${SHOTS[$i]}"; done
    printf 'prvm_edict server %s\nquit\n' "$DP_EDICT"
  } >"$work/shot.cfg"
  # Nexuiz's client game calls _cl_hook_gamestart once it is in the game (after sign-on: a
  # `wait` before that would hold up the sign-on commands the server sends)
  printf 'alias runshot "exec shot.cfg"\nalias _cl_hook_gamestart "defer 1 runshot"\n' >"$work/autoexec.cfg"
  if [ "$NUM_FRAMES" -gt 0 ]; then printf '0 1 10 1 // frame0\n%s 1 10 1 // frameK\n' "$FRAME_K" >"$work/framegroups"; fi
fi

# --- Xvfb on a free display (Xvfb picks it: -displayfd) ---------------------------------
start_xvfb

# --- one engine run: run_engine LABEL IQM ------------------------------------------------
game_dir() { if [ "$ENGINE" = ioquake3 ]; then echo "$work/$1/baseoa"; else echo "$work/$1/data"; fi; }
shot_file() { echo "$(game_dir "$1")/screenshots/$2.$SHOT_EXT"; }
run_engine() {
  local label="$1" iqm="$2" home="$work/$1" gd t0 rc=0 src dst pid
  gd="$(game_dir "$label")"
  mkdir -p "$gd" "$home/xdg"
  chmod 700 "$home/xdg"
  cp "$work/shot.cfg" "$gd/shot.cfg"
  while IFS=$'\t' read -r src dst; do
    mkdir -p "$gd/$(dirname "$dst")"; cp "$src" "$gd/$dst"
  done <"$work/textures.tsv"
  t0=$(date +%s.%N)
  if [ "$ENGINE" = ioquake3 ]; then
    mkdir -p "$gd/$(dirname "$IOQ3_MODEL")"; cp "$iqm" "$gd/$IOQ3_MODEL"
    XDG_RUNTIME_DIR="$home/xdg" timeout -k 5 "$RUN_TIMEOUT" "$IOQ3" \
      +set com_basegame baseoa +set fs_basepath "$OA_BASEPATH" +set fs_homepath "$home" \
      +set fs_debug 1 +set developer 1 +set con_notifytime -1 \
      +set cl_renderer "$RENDERER" +set s_initsound 0 +set in_mouse 0 +set r_fullscreen 0 +set r_mode -1 \
      +set r_customwidth "$WIDTH" +set r_customheight "$HEIGHT" \
      +set cl_motd 0 +set com_protocol 71 +set sv_pure 0 \
      +set bot_enable 0 +set bot_minplayers 0 +set g_gametype 0 +set fixedtime 16 \
      +devmap "$MAP" +wait 100 +exec shot.cfg >"$home/console.log" 2>&1 </dev/null || rc=$?
  else
    mkdir -p "$gd/$(dirname "$DP_MODEL")"; cp "$iqm" "$gd/$DP_MODEL"
    [ ! -f "$work/framegroups" ] || cp "$work/framegroups" "$gd/$DP_MODEL.framegroups"
    cp "$work/autoexec.cfg" "$gd/autoexec.cfg"
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
  fi
  printf 'engine_iqm: run %-9s %5.1f s, exit %s\n' "$label" "$(elapsed "$t0")" "$rc"
  local s missing=0
  for s in "${SHOTS[@]}"; do
    [ -s "$(shot_file "$label" "$s")" ] && [ -s "$(shot_file "$label" "${s}_empty")" ] || missing=1
  done
  if [ $rc -ne 0 ] || [ $missing -ne 0 ]; then
    echo "engine_iqm: run $label failed (exit $rc) or left out screenshots; console log tail:"
    grep -v '^WARNING: no tooltip' "$home/console.log" | tail -n 25 | sed 's/^/    /'
    return 1
  fi
}

# model_loaded LABEL: the engine loaded the model file of that run's folder
model_loaded() {
  local log="$work/$1/console.log"
  if [ "$ENGINE" = ioquake3 ]; then
    grep -qF "FS_FOpenFileRead: $IOQ3_MODEL (found in '$work/$1/baseoa')" "$log" &&
      ! grep -qE "couldn't load iqm file|Can't register model" "$log"
  else
    # cl_modelindexlist: " 35: models/turrets/head-gib4.md3   IQM      2988"
    grep -qE "^ *$DP_MODEL_INDEX: $DP_MODEL +IQM +[1-9]" "$log"
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

run_engine A "$ORIG" || exit 2
if ! model_loaded A; then
  echo "engine_iqm: the engine did not load ORIGINAL in the baseline run:"
  grep -iE "R_LoadIQM|R_RegisterIQM|Can't register|Host_Error|head-gib4|invalid|$DP_MODEL_INDEX: " "$work/A/console.log" | sort -u | head -n 10 | sed 's/^/    /'
  echo "engine_iqm: cannot judge"; exit 2
fi
if [ "$ENGINE" = darkplaces ] && ! awk -v e="EDICT $DP_EDICT:" 'index($0, e) {on = 1; next} on && /^ *$/ {exit} on' "$work/A/console.log" | grep -q '^classname *weapon_info'; then
  echo "engine_iqm: edict $DP_EDICT is not the weapon_info entity this script expects (other game data?): cannot judge"; exit 2
fi
run_engine B "$ORIG" || exit 2
rewritten_ok=1
run_engine R "$REWR" || { fail "the engine did not finish the rewritten run"; rewritten_ok=0; }

# Counts per shot (pixels): model = A against A without the model; A-B; A-R.
: >"$work/counts.tsv"
for s in "${SHOTS[@]}"; do
  a="$(shot_file A "$s")"; b="$(shot_file B "$s")"; r="$(shot_file R "$s")"
  ar=-; ar_rmse=-
  if [ $rewritten_ok -eq 1 ]; then ar=$(ae "$a" "$r"); ar_rmse=$(rmse "$a" "$r"); fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$(ae "$a" "$(shot_file A "${s}_empty")")" \
    "$(ae "$a" "$b")" "$(rmse "$a" "$b")" "$ar" "$ar_rmse" >>"$work/counts.tsv"
  if [ -n "$keep" ]; then
    mkdir -p "$work/keep"
    flip=(); [ "$SHOT_EXT" != tga ] || flip=(-flip)   # ioquake3's TGA rows are bottom-up
    for run in A B R; do
      f="$(shot_file "$run" "$s")"
      [ -f "$f" ] && convert "$f" "${flip[@]}" "$work/keep/${s}_$run.png"
    done
    if [ $rewritten_ok -eq 1 ]; then
      compare -fuzz 10% "$a" "$r" "$work/keep/${s}_diff_A_R.png" 2>/dev/null || true
      [ -f "$work/keep/${s}_diff_A_R.png" ] && [ ${#flip[@]} -gt 0 ] && mogrify -flip "$work/keep/${s}_diff_A_R.png"
    fi
  fi
done
# Table and verdicts; exit status of the snippet: 0 pass, 1 image difference, 2 cannot judge.
img_rc=0
python3 - "$work/counts.tsv" "$((WIDTH * HEIGHT))" "$ABS_LIMIT" "$MARGIN" "$BASELINE_MAX" "$MIN_COVER" "$work/totals.txt" <<'PY' | tee -a "$work/summary.txt" || img_rc=$?
import sys
path, total = sys.argv[1], int(sys.argv[2])
abs_limit, margin, base_max, min_cover = map(float, sys.argv[3:7])
totals = sys.argv[7]
rows = [l.rstrip("\n").split("\t") for l in open(path)]
pct = lambda x: f"{100 * x:.4f}%"
num = lambda x: f"{float(x or 0):.5f}"
print(f"\n{'shot':<9} {'model':>8} {'A-B':>9} {'rmse':>8} {'A-R':>9} {'rmse':>8} {'limit':>8}  result")
fails, worst_ab, worst_ar, min_model = [], 0.0, 0.0, 1.0
for s, model, ab, ab_rmse, ar, ar_rmse in rows:
    p, b = int(model) / total, int(ab) / total
    worst_ab, min_model = max(worst_ab, b), min(min_model, p)
    limit = max(abs_limit, b + margin)
    if ar == "-":
        print(f"{s:<9} {p*100:7.3f}% {pct(b):>9} {num(ab_rmse):>8} {'-':>9} {'-':>8} {'-':>8}  -")
        continue
    r = int(ar) / total
    worst_ar = max(worst_ar, r)
    verdict = "FAIL" if r > limit else "ok"
    print(f"{s:<9} {p*100:7.3f}% {pct(b):>9} {num(ab_rmse):>8} {pct(r):>9} {num(ar_rmse):>8} {limit*100:7.3f}%  {verdict}")
    if r > limit:
        fails.append(f"{s}: rewritten differs from A in {ar} pixels ({pct(r)} > limit {limit*100:.3f}%)")
print("(model: share of pixels the model covers in A; A-B, A-R: share of pixels differing by >10%; rmse: normalised)")
for f in fails:
    print("FAIL:", f)
code = 1 if fails else 0
if worst_ab > base_max:
    print(f"engine_iqm: the two baseline runs differ in up to {pct(worst_ab)} of the pixels (> {base_max*100}%): not deterministic here, cannot judge")
    code = 2
if min_model < min_cover:
    print(f"engine_iqm: the model covers only {min_model*100:.3f}% of a baseline screenshot (< {min_cover*100}%): the camera does not see it, cannot judge")
    code = 2
open(totals, "w").write(f"{pct(worst_ab)} {pct(worst_ar) if any(r[4] != '-' for r in rows) else '-'} {min_model*100:.2f}%\n")
sys.exit(code)
PY
case $img_rc in 0) ;; 1) status=1 ;; *) [ $status -eq 1 ] || status=2 ;; esac
read -r worst_base worst_r min_model <"$work/totals.txt"

# --- console log of the rewritten run ----------------------------------------------------
if [ $rewritten_ok -eq 1 ] || [ -s "$work/R/console.log" ]; then
  # the model file of R's folder was loaded (ioquake3: fs_debug 1 names where each file came
  # from; DarkPlaces: cl_modelindexlist names model 35 and its format) ...
  model_loaded R || fail "the engine did not load the rewritten file (see console_R.log)"
  # ... and the log has no line about models, shaders, images or IQM loading that A's has not
  suspicious() {
    sed -e "s#$work/[ABR]/#HOME/#g" -e 's/\^[0-9]//g' -e 's/\x1b\[[0-9;]*m//g' "$1" |
      grep -v -e '^FS_FOpenFileRead: ' -e '^WARNING: no tooltip' -e '^GL_EXTENSIONS' |
      grep -iE "warning|error|couldn't|could not|can't|cannot|failed|failure|has more than|unsupported|is missing|missing |invalid|not an inter-quake|no such frame|not present|wrong|broken|too (long|many)|bad |no scene" |
      grep -iE "iqm|retromodel|head-gib4|model|shader|image|texture|skin|frame|joint|bone|pose|mesh|vert|triang|anim|$MATERIALS_RE" | sort -u || true
  }
  suspicious "$work/A/console.log" >"$work/warn_A.txt"
  suspicious "$work/R/console.log" >"$work/warn_R.txt"
  comm -13 "$work/warn_A.txt" "$work/warn_R.txt" >"$work/warn_new.txt"
  if [ -s "$work/warn_new.txt" ]; then
    fail "the rewritten run's console log has $(wc -l <"$work/warn_new.txt") new model warning line(s):"
    sed 's/^/    /' "$work/warn_new.txt" | tee -a "$work/summary.txt"
  fi
  if [ "$ENGINE" = ioquake3 ]; then
    grep -E '^\([-0-9. ]+\) : ' "$work/A/console.log" | head -n1 >"$work/pos_A.txt" || true
    grep -E '^\([-0-9. ]+\) : ' "$work/R/console.log" | head -n1 >"$work/pos_R.txt" || true
    [ ! -s "$work/pos_R.txt" ] || cmp -s "$work/pos_A.txt" "$work/pos_R.txt" || echo "note: camera position differs: A $(cat "$work/pos_A.txt"), R $(cat "$work/pos_R.txt")"
  fi
fi

t_all=$(elapsed "$t_start")
{
  echo
  echo "engine: $ENGINE"
  echo "model coverage: at least $min_model of a baseline screenshot"
  echo "baseline A vs B: up to $worst_base of the pixels differ by >10%"
  echo "A vs rewritten:  up to $worst_r (limit per shot: max($(awk -v x="$ABS_LIMIT" 'BEGIN{print 100*x}')%, A-B + $(awk -v x="$MARGIN" 'BEGIN{print 100*x}')%))"
  echo "model warnings new in the rewritten run: $( [ -s "$work/warn_new.txt" ] && wc -l <"$work/warn_new.txt" || echo 0)"
  printf 'wall time: %.0f s\n' "$t_all"
  case $status in 0) echo "engine_iqm: PASS ($(basename "$REWR") against $(basename "$ORIG"))" ;; 1) echo "engine_iqm: FAIL ($(basename "$REWR") against $(basename "$ORIG"))" ;; *) echo "engine_iqm: CANNOT JUDGE" ;; esac
} | tee -a "$work/summary.txt"

if [ -n "$keep" ]; then
  mkdir -p "$keep" "$work/keep"
  for run in A B R; do
    [ -f "$work/$run/console.log" ] && cp "$work/$run/console.log" "$work/keep/console_$run.log"
  done
  cp "$work/shot.cfg" "$work/summary.txt" "$work/warn_A.txt" "$work/warn_R.txt" "$work/keep/" 2>/dev/null || true
  cp -r "$work/keep/." "$keep/"
  echo "engine_iqm: screenshots, diffs and logs in $keep"
fi
exit $status
