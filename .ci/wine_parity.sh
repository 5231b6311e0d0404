#!/usr/bin/env bash
# Issue 40: the Windows CLI (x86_64-pc-windows-gnu, built with Debian's mingw-w64) run under
# Wine writes the same bytes as the Linux build, and reads Windows paths (.ci/wine_parity.py).
#
#   bash .ci/wine_parity.sh LINUX_RETROMODEL [PER_FORMAT]
#
# LINUX_RETROMODEL: the Linux build to compare with (CI: target/release/retromodel).
# PER_FORMAT: corpus models of each readable format (default 5; CI's smoke runs 1).
# The Windows CLI is built without the GPU commands (--no-default-features: no render/view),
# which change no conversion, into $CARGO_TARGET_DIR (default target/). Idempotent: installs
# what is missing (mingw-w64, wine, the Rust target) and reuses the build and Wine prefix.
#
# Wine 8 (Debian 12) lacks bcryptprimitives.dll's ProcessPrng, which Rust's std calls: the
# stand-in DLL from release/wine/ is built here and put beside a copy of the program in
# target/wine-parity/, for this test only (never in a release zip).
set -euo pipefail
cd "$(dirname "$0")/.."
linux=${1:?usage: wine_parity.sh LINUX_RETROMODEL [PER_FORMAT]}
per_format=${2:-5}
target_dir=${CARGO_TARGET_DIR:-target}
triple=x86_64-pc-windows-gnu

need=()
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need+=(gcc-mingw-w64-x86-64)
command -v wine >/dev/null 2>&1 || need+=(wine64 wine)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
rustup target list --installed | grep -qx "$triple" || rustup target add "$triple"

t0=$(date +%s)
cargo build --release -q -p retromodel-cli --no-default-features --target "$triple"
echo "wine_parity: Windows CLI built in $(($(date +%s) - t0)) s"

bin=target/wine-parity/bin
mkdir -p "$bin"
cp "$target_dir/$triple/release/retromodel.exe" "$bin/"
x86_64-w64-mingw32-gcc -O2 -shared -o "$bin/bcryptprimitives.dll" \
  release/wine/processprng.c release/wine/processprng.def -ladvapi32

export WINEPREFIX=${WINEPREFIX:-$HOME/.wine-retromodel} WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml="
[ -f "$WINEPREFIX/system.reg" ] || wineboot -i >/dev/null 2>&1 || true
wineserver -w 2>/dev/null || true

python3 .ci/wine_parity.py --linux "$linux" --windows "$bin/retromodel.exe" --per-format "$per_format"
