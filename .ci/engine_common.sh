# Shared by the real-engine checks (.ci/engine_md3.sh, engine_iqm.sh, engine_darkplaces.sh):
# sourced after the script sets ENGINE_TAG (its name in messages, `engine_dp`). Provides
#   elapsed START               seconds since START (`date +%s.%N`), one decimal
#   engine_workdir KEEP_VAR     makes $work (a temporary folder), kept when the variable named
#                               KEEP_VAR is set; traps EXIT to stop Xvfb and remove it, and
#                               INT/TERM to exit 2
#   apt_install PACKAGE...      apt-get install as root (or sudo -n), quietly; exit 2 on failure
#   start_xvfb                  Xvfb on a free display (Xvfb picks it: -displayfd); exports
#                               DISPLAY; exit 2 when it does not start
# Exit status 2 is every check's "cannot judge".

elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}'; }

XVFB_PID=""
engine_workdir() {
  work="$(mktemp -d "${TMPDIR:-/tmp}/$ENGINE_TAG.XXXXXX")"
  ENGINE_KEEP_VAR="$1"
  trap engine_cleanup EXIT
  trap 'exit 2' INT TERM
}
engine_cleanup() {
  if [ -n "$XVFB_PID" ]; then kill "$XVFB_PID" 2>/dev/null || true; wait "$XVFB_PID" 2>/dev/null || true; fi
  [ -n "${!ENGINE_KEEP_VAR:-}" ] || rm -rf "$work"
}

apt_install() {
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo -n"
  echo "$ENGINE_TAG: apt-get install $*"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y -qq "$@" >/dev/null 2>&1 ||
    { $sudo apt-get update -qq >/dev/null 2>&1 && $sudo apt-get install -y -qq "$@" >/dev/null; } ||
    { echo "$ENGINE_TAG: could not install $*" >&2; exit 2; }
}

start_xvfb() {
  Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$work/display" >"$work/xvfb.log" 2>&1 &
  XVFB_PID=$!
  for _ in $(seq 100); do [ -s "$work/display" ] && break; kill -0 "$XVFB_PID" 2>/dev/null || break; sleep 0.1; done
  [ -s "$work/display" ] || { echo "$ENGINE_TAG: Xvfb did not start:" >&2; cat "$work/xvfb.log" >&2; exit 2; }
  DISPLAY=":$(head -n1 "$work/display")"
  export DISPLAY
}
