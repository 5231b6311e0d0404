#!/usr/bin/env bash
# The viewer under Xvfb: starts a virtual X server, opens a corpus model in `retromodel view`
# playing a clip, takes two screenshots of the root window with ImageMagick's
# `import -window root` a second apart, checks that they are not blank (many colours, the
# model's area differs from the background) and that the animation moves (the two differ),
# then closes the viewer and the X server.
#
# Needs: Xvfb, ImageMagick, libxkbcommon-x11-0, a Vulkan driver (mesa-vulkan-drivers);
# installed with apt-get when missing and running as root. Builds the viewer (cargo feature
# `viewer`) unless RETROMODEL_VIEWER_BIN names a binary built with it.
# Usage: .ci/viewer_xvfb.sh [MODEL [CLIP]]   (default: LibreQuake's boss.mdl, first clip)
# RETROMODEL_VIEWER_STATIC=1: the model has no animation (an .obj): the movement check is
# skipped. RETROMODEL_VIEWER_OUT: where the screenshots go (default target/ci-viewer).
set -euo pipefail
cd "$(dirname "$0")/.."

CORPUS="${RETROMODEL_CORPUS:-../shared/corpus}"
MODEL="${1:-$CORPUS/quake_mdl/github-pnahratow-LibreQuake/lq1/progs/boss.mdl}"
CLIP="${2:-}"
OUT="${RETROMODEL_VIEWER_OUT:-$PWD/target/ci-viewer}"
mkdir -p "$OUT"

need=()
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v import >/dev/null 2>&1 || need+=(imagemagick)
ldconfig -p | grep libxkbcommon-x11 >/dev/null || need+=(libxkbcommon-x11-0)
ldconfig -p | grep libvulkan_lvp >/dev/null 2>&1 || [ -e /usr/lib/x86_64-linux-gnu/libvulkan_lvp.so ] || need+=(mesa-vulkan-drivers)
if [ ${#need[@]} -gt 0 ]; then
  echo "apt-get install ${need[*]}"
  (export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq "${need[@]}") >/dev/null
fi

BIN="${RETROMODEL_VIEWER_BIN:-}"
if [ -z "$BIN" ]; then
  cargo build --release -q -p retromodel-cli --features viewer
  BIN="$PWD/target/release/retromodel"
fi

DISPLAY_NUM=":$(( 90 + RANDOM % 9 ))"
Xvfb "$DISPLAY_NUM" -screen 0 1024x768x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
XVFB_PID=$!
VIEW_PID=""
cleanup() {
  [ -n "$VIEW_PID" ] && kill "$VIEW_PID" 2>/dev/null || true
  kill "$XVFB_PID" 2>/dev/null || true
}
trap cleanup EXIT
export DISPLAY="$DISPLAY_NUM"
for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; [ -e "/tmp/.X11-unix/X${DISPLAY_NUM#:}" ] && break; sleep 0.1; done
sleep 0.5

args=(view "$MODEL" --play --size 1000x740 --quit-after 60)
[ -n "$CLIP" ] && args+=(--clip "$CLIP")
echo "DISPLAY=$DISPLAY $BIN ${args[*]}"
"$BIN" "${args[@]}" >"$OUT/viewer.log" 2>&1 &
VIEW_PID=$!
sleep "${RETROMODEL_VIEWER_WAIT:-6}"
kill -0 "$VIEW_PID" 2>/dev/null || { echo "the viewer exited early:"; cat "$OUT/viewer.log"; exit 1; }
import -window root "$OUT/shot1.png"
sleep 1
import -window root "$OUT/shot2.png"
kill "$VIEW_PID" 2>/dev/null || true
wait "$VIEW_PID" 2>/dev/null || true
VIEW_PID=""
grep -v XDG_RUNTIME_DIR "$OUT/viewer.log" || true

colours=$(convert "$OUT/shot1.png" -format '%k' info:)
# The model's area: right of the side panel, the middle of the window.
convert "$OUT/shot1.png" -crop 500x500+380+120 +repage "$OUT/model1.png"
convert "$OUT/shot2.png" -crop 500x500+380+120 +repage "$OUT/model2.png"
model_colours=$(convert "$OUT/model1.png" -format '%k' info:)
changed=$(compare -metric AE "$OUT/model1.png" "$OUT/model2.png" null: 2>&1 || true)
echo "screenshot: $colours colours; model area: $model_colours colours; $changed pixels changed in 1 s"
echo "screenshots: $OUT/shot1.png $OUT/shot2.png"
[ "$colours" -gt 50 ] || { echo "the screenshot looks blank"; exit 1; }
[ "$model_colours" -gt 10 ] || { echo "no model in the view"; exit 1; }
if [ "${RETROMODEL_VIEWER_STATIC:-0}" != 1 ]; then
  [ "${changed%% *}" -gt 0 ] 2>/dev/null || { echo "the clip does not play (no change in 1 s)"; exit 1; }
fi
echo "viewer under Xvfb: ok"
