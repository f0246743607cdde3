# shellcheck shell=bash
# The aarch64 cross toolchain, from Debian's archive only (rustup cannot
# download targets here): Debian's rustc-web and cargo-web, whose arm64
# standard library is unpacked into a sysroot of the project's own (no
# arm64 packages are installed, so no host library is upgraded), GCC's
# aarch64 cross linker and libc, and qemu-user to run the result.
#
#   source tools/aarch64/env.sh     # installs what is missing, then exports
#   "$CARGO_AARCH64" test --target aarch64-unknown-linux-gnu ...
#
# Installs with apt-get when a package is missing and fails (returns
# non-zero) when it cannot. Exports RUSTC, RUSTDOC, the target's linker,
# sysroot and runner (qemu-aarch64, CPU model from QEMU_CPU, default max),
# CARGO_AARCH64 (Debian's cargo) and AARCH64_SYSROOT. The sysroot lives in
# $AARCH64_CACHE (default: target/aarch64-toolchain of the checkout) and is
# unpacked again when rustc-web's version changes.

aarch64_env() {
  local root cache version deb
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  cache=${AARCH64_CACHE:-$root/target/aarch64-toolchain}
  local packages=(rustc-web cargo-web rust-web-clippy gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "aarch64: installing ${missing[*]}" >&2
    apt-get update -q >/dev/null || { echo "aarch64: apt-get update failed" >&2; return 1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -q -y --no-install-recommends "${missing[@]}" >/dev/null ||
      { echo "aarch64: could not install ${missing[*]}" >&2; return 1; }
  fi
  version=$(dpkg-query -W -f='${Version}' rustc-web)
  if [ "$(cat "$cache/version" 2>/dev/null)" != "$version" ]; then
    echo "aarch64: unpacking libstd-rust-web-dev:arm64 $version into $cache" >&2
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
      dpkg --add-architecture arm64 && apt-get update -q >/dev/null ||
        { echo "aarch64: could not add the arm64 architecture to apt" >&2; return 1; }
    fi
    rm -rf "$cache" && mkdir -p "$cache/debs" || return 1
    (cd "$cache/debs" && apt-get download -q "libstd-rust-web-dev:arm64=$version" \
      "libsodium-dev:arm64" >/dev/null 2>&1) ||
      { echo "aarch64: could not download libstd-rust-web-dev:arm64=$version" >&2; return 1; }
    for deb in "$cache"/debs/*.deb; do
      dpkg-deb -x "$deb" "$cache/sysroot" || return 1
    done
    echo "$version" > "$cache/version"
  fi
  export AARCH64_SYSROOT=$cache/sysroot/usr
  export SODIUM_LIB_DIR=$AARCH64_SYSROOT/lib/aarch64-linux-gnu
  export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc CARGO_AARCH64=/usr/bin/cargo
  export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
  export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUSTFLAGS="--sysroot $AARCH64_SYSROOT"
  export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
  export AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar
  # The dynamic loader and libc of the cross packages; every qemu run is
  # bounded (a guest that hangs must not hang CI).
  export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
  export QEMU_CPU=${QEMU_CPU:-max}
  export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="timeout 1200 qemu-aarch64"
}
aarch64_env
