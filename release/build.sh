#!/usr/bin/env bash
# Every release artifact (issue 40), cross-built from one x86_64 Linux machine, into OUT:
#   bash release/build.sh OUT
#   RELEASE_ONLY="wheel-linux-x86_64 wheel-windows" bash release/build.sh OUT   # some of them
#
#   retromodel-V-windows-x86_64.zip       the CLI (mingw-w64): retromodel.exe, licences, README.txt
#   retromodel-V-linux-x86_64.tar.gz      the CLI for glibc 2.17 and later (cargo-zigbuild)
#   retromodel-V-macos-universal.tar.gz   the CLI, arm64 + x86_64 (cargo-zigbuild), without
#                                         `render` and `view` (wgpu/winit need Apple's SDK to
#                                         link; --help says so; the release workflow builds
#                                         the full program on macOS runners)
#   retromodel-V-cp311-abi3-*.whl         wheels: manylinux2014 x86_64 and aarch64 (zig),
#                                         win_amd64 (mingw, pyo3's generate-import-lib),
#                                         macOS universal2 (zig)
#   retromodel-V-<platform>.zip           the Blender extension, one zip per Blender platform
#                                         with that platform's wheel and `platforms` declared
#   retromodel-web-V.zip                  the web app (index.html, app.js, style.css, pkg/)
#   SHA256SUMS                            `sha256sum -c SHA256SUMS` verifies the rest
# then runs release/check.py OUT (glibc symbols, Mach-O and PE headers, auditwheel,
# abi3audit, the .pyd's DLLs, the Blender manifests, SHA256SUMS).
#
# Installs what it needs when missing: the Rust targets (rustup), mingw-w64 (apt-get), and
# into target/venv-release: maturin, ziglang (zig as a Python package), cargo-zigbuild,
# auditwheel, abi3audit. V is the workspace Cargo.toml's version (release/version.py).
# Builds go to $CARGO_TARGET_DIR (default target/); each target's build is kept there, so a
# second run only relinks.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: bash release/build.sh OUT}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ALL="cli-windows cli-linux cli-macos wheel-linux-x86_64 wheel-linux-aarch64 wheel-windows wheel-macos web blender"
ONLY=" ${RELEASE_ONLY:-$ALL} "
want() { [[ "$ONLY" == *" $1 "* ]]; }
TD=${CARGO_TARGET_DIR:-$PWD/target}
export CARGO_TARGET_DIR=$TD
step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }

python3 release/version.py --check
V=$(python3 release/version.py)

# Tools: the venv's bin goes first on PATH, so `python3 -m ziglang` (how maturin and
# cargo-zigbuild find zig when no `zig` is installed) finds ziglang.
venv=target/venv-release
if ! "$venv/bin/python" -c "import ziglang" 2>/dev/null || [ ! -x "$venv/bin/maturin" ] || [ ! -x "$venv/bin/cargo-zigbuild" ] \
   || [ ! -x "$venv/bin/auditwheel" ] || [ ! -x "$venv/bin/abi3audit" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "maturin>=1.9,<2" ziglang cargo-zigbuild auditwheel abi3audit
fi
export PATH="$PWD/$venv/bin:$PATH"
have_targets=$(rustup target list --installed)
need_target() { grep -qx "$1" <<<"$have_targets" || rustup target add "$1"; }
{ want cli-windows || want wheel-windows; } && need_target x86_64-pc-windows-gnu
{ want cli-macos || want wheel-macos; } && need_target aarch64-apple-darwin && need_target x86_64-apple-darwin
want wheel-linux-aarch64 && need_target aarch64-unknown-linux-gnu
# mingw-w64: the Windows linker, and objdump for the check of the .pyd's DLLs.
command -v x86_64-w64-mingw32-objdump >/dev/null || { apt-get update -q && apt-get install -y -q gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64; }

# A CLI archive: the program, both licences and README.txt in a folder named like the archive.
package_cli() { # NAME EXE_PATH zip|tgz
  local dir="retromodel-$V-$1" stage
  stage=$(mktemp -d)
  mkdir "$stage/$dir"
  cp "$2" "$stage/$dir/"
  cp LICENSE-MIT LICENSE-APACHE "$stage/$dir/"
  sed "s/@VERSION@/$V/" release/README-cli.txt > "$stage/$dir/README.txt"
  if [ "$3" = zip ]; then
    (cd "$stage" && rm -f "$OUT/$dir.zip" && zip -qr -X "$OUT/$dir.zip" "$dir")
  else
    tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$OUT/$dir.tar.gz" "$dir"
  fi
  rm -rf "$stage"
  echo "$OUT/$dir.$([ "$3" = zip ] && echo zip || echo tar.gz)"
}

# The web app first: the CLIs embed web/pkg when it is built (crates/retromodel-cli/build.rs).
if want web; then
  step "web app"
  bash web/build.sh
  (cd web && rm -f "$OUT/retromodel-web-$V.zip" && zip -qr -X "$OUT/retromodel-web-$V.zip" index.html app.js style.css pkg)
fi

if want cli-windows; then
  step "CLI x86_64-pc-windows-gnu (mingw-w64)"
  cargo build -q --release --locked -p retromodel-cli --target x86_64-pc-windows-gnu
  package_cli windows-x86_64 "$TD/x86_64-pc-windows-gnu/release/retromodel.exe" zip
fi

if want cli-linux; then
  step "CLI x86_64-unknown-linux-gnu.2.17 (cargo-zigbuild)"
  cargo-zigbuild build -q --release --locked -p retromodel-cli --target x86_64-unknown-linux-gnu.2.17
  package_cli linux-x86_64 "$TD/x86_64-unknown-linux-gnu/release/retromodel" tgz
fi

if want cli-macos; then
  step "CLI universal2-apple-darwin (cargo-zigbuild, without render/view)"
  cargo-zigbuild build -q --release --locked -p retromodel-cli --no-default-features --target universal2-apple-darwin
  package_cli macos-universal "$TD/universal2-apple-darwin/release/retromodel" tgz
fi

wheels=target/release-wheels
rm -rf "$wheels" && mkdir -p "$wheels"
maturin_build() { # ARGS...
  maturin build --release --locked -m crates/retromodel-py/Cargo.toml -o "$wheels" "$@" 2>&1 \
    | grep -v '^ *\(Compiling\|Downloaded\|Downloading\)' || true
}
if want wheel-linux-x86_64; then
  step "wheel manylinux2014 x86_64 (maturin --zig)"
  maturin_build --zig --compatibility manylinux2014 --target x86_64-unknown-linux-gnu
fi
if want wheel-linux-aarch64; then
  step "wheel manylinux2014 aarch64 (maturin --zig)"
  maturin_build --zig --compatibility manylinux2014 --target aarch64-unknown-linux-gnu
fi
if want wheel-windows; then
  step "wheel win_amd64 (maturin, mingw-w64, pyo3 generate-import-lib)"
  maturin_build --target x86_64-pc-windows-gnu
fi
if want wheel-macos; then
  step "wheel macOS universal2 (maturin --zig)"
  maturin_build --zig --target universal2-apple-darwin
fi
n=$(find "$wheels" -name 'retromodel-*.whl' | wc -l)
if [ "$n" -gt 0 ]; then
  cp "$wheels"/retromodel-*.whl "$OUT/"
  if want blender; then
    step "Blender extension, one zip per platform"
    python3 release/blender_zips.py "$wheels" "$OUT"
  fi
fi

step "SHA256SUMS"
sums=$(mktemp)
(cd "$OUT" && rm -f SHA256SUMS && find . -maxdepth 1 -type f -printf '%P\n' | LC_ALL=C sort \
  | xargs -d '\n' sha256sum -- > "$sums")
mv "$sums" "$OUT/SHA256SUMS" && chmod 644 "$OUT/SHA256SUMS"
(cd "$OUT" && sha256sum -c --quiet SHA256SUMS)

step "checks"
ls -l "$OUT"
# A partial build (RELEASE_ONLY) is checked for what it built: a missing kind is not a failure.
checks=()
if [ -n "${RELEASE_ONLY:-}" ]; then
  [[ "$ONLY" == *" cli-"* ]] && checks+=(--cli)
  [[ "$ONLY" == *" wheel-"* ]] && checks+=(--wheels)
  want blender && checks+=(--blender)
  checks+=(--sums)
fi
python3 release/check.py "$OUT" "${checks[@]}"
