#!/bin/bash
# Run a statically linked x86-64 Linux program on an emulated AVX-512 CPU.
#
# Usage: run-avx512.sh [-e KEY=VAL]... [-v] /path/to/static-binary [args...]
#
# Boots Debian's stock kernel under Bochs (CPU model "corei7_icelake_u" by
# default: AVX-512 F/CD/BW/DQ/VL/VBMI/VBMI2/IFMA/VNNI/BITALG/VPOPCNTDQ, VAES,
# VPCLMULQDQ, GFNI; "corei3_cnl" has F/CD/BW/DQ/VL/VBMI/IFMA) with an
# initramfs whose /init runs the binary.  The binary's stdout+stderr are
# streamed to our stdout; our exit status is the program's exit status
# (128+N if it died from signal N; 124 on timeout; 125 on emulator trouble).
#
# Environment knobs:
#   AVX512EMU_CPU=corei7_icelake_u  Bochs CPU model (corei3_cnl, tigerlake, corei7_skylake_x)
#   AVX512EMU_MEGS=512           guest RAM in MB
#   AVX512EMU_IPS=100000000      Bochs "ips" (emulated-time calibration only)
#   AVX512EMU_TIMEOUT=3600       wall-clock seconds before giving up
#   AVX512EMU_KEEP=1             keep the work dir (bochsrc, logs, ISO) for debugging
#   AVX512EMU_CMDLINE="..."      extra kernel command line
#   AVX512EMU_CLEARCPUID=515,321,323,580  CPUID bits hidden from the guest kernel (see below)
#   AVX512EMU_NOSTRIP=1          do not strip debug info from the copied binary
# -v  show the guest kernel console (COM1) on stderr after the run.
# Environment inside the guest: PATH, HOME, RUST_BACKTRACE=1, plus -e KEY=VAL
# pairs and RUST_TEST_THREADS / RUST_BACKTRACE / RUST_LOG / RUST_MIN_STACK if set here.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="$HERE/cache"
CPU="${AVX512EMU_CPU:-corei7_icelake_u}"
MEGS="${AVX512EMU_MEGS:-512}"
IPS="${AVX512EMU_IPS:-100000000}"
TIMEOUT="${AVX512EMU_TIMEOUT:-3600}"
# Bochs 2.7 CPUID bugs: XSAVE leaf 0xD reports PKRU with size 0 and a wrong
# compacted size, so hide PKU (515), XSAVEC (321) and XSAVES (323) from Linux.
# With FSRM (580) visible the icelake/tigerlake models corrupt kernel memory
# during boot (the kernel's memmove becomes a bare `rep movsb`), so hide it too.
CLEARCPUID="${AVX512EMU_CLEARCPUID:-515,321,323,580}"
KVER=6.1.0-56-amd64   # Debian bookworm kernel; change + delete cache/ to update

ENVS=(PATH=/ HOME=/tmp RUST_BACKTRACE=1)
for v in RUST_TEST_THREADS RUST_BACKTRACE RUST_LOG RUST_MIN_STACK; do
    [[ -n "${!v:-}" ]] && ENVS+=("$v=${!v}")
done
VERBOSE=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        -e) ENVS+=("$2"); shift 2 ;;
        -v) VERBOSE=1; shift ;;
        --) shift; break ;;
        -*) echo "usage: $0 [-e KEY=VAL]... [-v] BINARY [ARGS...]" >&2; exit 2 ;;
        *) break ;;
    esac
done
[[ $# -ge 1 ]] || { echo "usage: $0 [-e KEY=VAL]... [-v] BINARY [ARGS...]" >&2; exit 2; }
BIN="$(readlink -f "$1")"; shift
[[ -x "$BIN" ]] || { echo "avx512emu: $BIN is not an executable file" >&2; exit 2; }

log() { echo "[avx512emu] $*" >&2; }

# ---- one-time setup (idempotent, unattended) -------------------------------
# Debian packages (apt-get as root, or through `sudo -n`), the kernel in
# cache/ (git-ignored), and the guest's /init.  Nothing here asks questions:
# CI runs this from a fresh clone, as root, without standard input.  When a
# step cannot be done the run fails loudly (exit 125): a CI that cannot run
# the emulator must not look as if the AVX-512 tests had passed.
die() {
    log "ERROR: $*"
    log "ERROR: the AVX-512 emulator cannot run on this machine (see tools/avx512emu/README.md)"
    exit 125
}
as_root() {
    if [[ $EUID -eq 0 ]]; then "$@"
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo -n "$@"
    else die "need root (or password-less sudo) to run: $*"
    fi
}
apt_updated=0
apt_update() {
    [[ $apt_updated == 1 ]] && return 0
    apt_updated=1
    log "apt-get update"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 || log "apt-get update failed; trying on"
}
apt_install() {
    command -v apt-get >/dev/null || die "no apt-get here to install: $*"
    log "installing: $*"
    local cmd=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@")
    as_root "${cmd[@]}" </dev/null >&2 && return 0
    apt_update
    as_root "${cmd[@]}" </dev/null >&2 || die "apt-get install $* failed"
}

need_pkgs=()
# bochs-term satisfies bochs' GUI dependency without pulling in wxWidgets;
# the runs use the rfb display, which the bochs package itself ships.
command -v bochs-bin >/dev/null || need_pkgs+=(bochs bochs-term)
[[ -f /usr/share/bochs/BIOS-bochs-latest ]] || need_pkgs+=(bochsbios)
[[ -f /usr/share/vgabios/vgabios.bin ]] || need_pkgs+=(vgabios)
[[ -f /usr/lib/ISOLINUX/isolinux.bin ]] || need_pkgs+=(isolinux)
[[ -f /usr/lib/syslinux/modules/bios/ldlinux.c32 ]] || need_pkgs+=(syslinux-common)
command -v xorriso >/dev/null || need_pkgs+=(xorriso)
command -v cpio >/dev/null || need_pkgs+=(cpio)
command -v gcc >/dev/null || need_pkgs+=(gcc)
[[ -f /usr/lib/x86_64-linux-gnu/libc.a ]] || need_pkgs+=(libc6-dev)
command -v readelf >/dev/null && command -v strip >/dev/null || need_pkgs+=(binutils)
command -v dpkg-deb >/dev/null || die "no dpkg-deb: this script needs a Debian-based host"
if [[ ${#need_pkgs[@]} -gt 0 ]]; then
    apt_install "${need_pkgs[@]}"
fi

mkdir -p "$CACHE"
# One setup at a time when several runs start together on a fresh clone.
exec 9>"$CACHE/.lock"
flock 9
# The kernel: Debian's package, of which only the compressed kernel image is
# kept (cache/vmlinuz; cache/vmlinuz.version says which).  When KVER has left
# the archive, the kernel that linux-image-amd64 depends on today is taken
# instead, with a warning: update KVER after checking that it boots.
if [[ ! -s "$CACHE/vmlinuz" || "$(cat "$CACHE/vmlinuz.version" 2>/dev/null)" != "$KVER" ]]; then
    command -v apt-get >/dev/null || die "no apt-get here to download linux-image-$KVER"
    DL="$(mktemp -d "$CACHE/download.XXXXXX")"
    # As root, apt would hand the download to its sandbox user, who cannot
    # write here.
    sandbox=(); [[ $EUID -eq 0 ]] && sandbox=(-o APT::Sandbox::User=root)
    download() { (cd "$DL" && apt-get download -q "${sandbox[@]}" "$1" </dev/null >&2); }
    log "fetching Debian kernel linux-image-$KVER"
    if ! download "linux-image-$KVER"; then
        apt_update
        if ! download "linux-image-$KVER"; then
            other="$(apt-cache depends linux-image-amd64 2>/dev/null |
                sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -1)"
            [[ -n "$other" ]] || die "cannot download linux-image-$KVER, and linux-image-amd64 names no kernel"
            log "WARNING: linux-image-$KVER is not in the archive; using $other (untested: update KVER in $0)"
            download "$other" || die "cannot download $other"
        fi
    fi
    deb="$(ls "$DL"/linux-image-*.deb | head -1)"
    ver="$(dpkg-deb -f "$deb" Package)"; ver="${ver#linux-image-}"
    dpkg-deb --fsys-tarfile "$deb" | tar -xO "./boot/vmlinuz-$ver" > "$CACHE/vmlinuz.new" ||
        die "no boot/vmlinuz-$ver in $deb"
    mv "$CACHE/vmlinuz.new" "$CACHE/vmlinuz"
    echo "$KVER" > "$CACHE/vmlinuz.version"   # what was asked for (and $ver, what came)
    echo "$ver" > "$CACHE/vmlinuz.kernel"
    rm -rf "$DL" "$CACHE/kroot" "$CACHE"/linux-image-*.deb
fi
if [[ ! -x "$CACHE/init" || "$HERE/init.c" -nt "$CACHE/init" ]]; then
    gcc -static -O2 -Wall -o "$CACHE/init.new" "$HERE/init.c" || die "cannot build init.c (gcc -static)"
    mv "$CACHE/init.new" "$CACHE/init"
fi
flock -u 9

if LC_ALL=C readelf -l "$BIN" 2>/dev/null | grep -q 'program interpreter'; then
    echo "avx512emu: $BIN is dynamically linked; build with RUSTFLAGS='-C target-feature=+crt-static' --target x86_64-unknown-linux-gnu" >&2
    exit 2
fi

# ---- per-run image ----------------------------------------------------------
WORK="$(mktemp -d /tmp/avx512emu.XXXXXX)"
cleanup() {
    [[ -n "${BOCHS_PID:-}" ]] && kill "$BOCHS_PID" 2>/dev/null || true
    [[ -n "${TAIL_PID:-}" ]] && kill "$TAIL_PID" 2>/dev/null || true
    if [[ "${AVX512EMU_KEEP:-0}" == 1 ]]; then log "work dir kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

mkdir -p "$WORK/root" "$WORK/iso"
cp "$CACHE/init" "$WORK/root/init"
# Debug info only slows down loading the initramfs in the emulator; keep the
# symbol table so panics still show function names.  AVX512EMU_NOSTRIP=1 keeps it.
if [[ "${AVX512EMU_NOSTRIP:-0}" != 1 ]] && command -v strip >/dev/null; then
    strip --strip-debug -o "$WORK/root/test" "$BIN"
else
    cp "$BIN" "$WORK/root/test"
fi
: > "$WORK/root/args"; for a in "$@"; do printf '%s\0' "$a" >> "$WORK/root/args"; done
: > "$WORK/root/env";  for e in "${ENVS[@]}"; do printf '%s\0' "$e" >> "$WORK/root/env"; done
# Uncompressed cpio: decompressing in the emulated guest is slower than
# loading the extra bytes.
(cd "$WORK/root" && find . | cpio -o -H newc --quiet) > "$WORK/iso/initrd.img"
cp "$CACHE/vmlinuz" "$WORK/iso/vmlinuz"
cp /usr/lib/ISOLINUX/isolinux.bin /usr/lib/syslinux/modules/bios/ldlinux.c32 "$WORK/iso/"
cat > "$WORK/iso/isolinux.cfg" <<EOF
DEFAULT linux
PROMPT 0
TIMEOUT 0
LABEL linux
  KERNEL /vmlinuz
  APPEND initrd=/initrd.img console=ttyS0,115200 quiet loglevel=3 nokaslr mitigations=off random.trust_cpu=on clearcpuid=$CLEARCPUID tsc=reliable nowatchdog panic=-1 ${AVX512EMU_CMDLINE:-}
EOF
xorriso -as mkisofs -quiet -o "$WORK/boot.iso" -b isolinux.bin -c boot.cat \
    -no-emul-boot -boot-load-size 4 -boot-info-table "$WORK/iso" 2>/dev/null

cat > "$WORK/bochsrc" <<EOF
megs: $MEGS
cpu: model=$CPU, count=1, ips=$IPS, reset_on_triple_fault=0
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/vgabios/vgabios.bin
display_library: rfb, options="timeout=0"
pci: enabled=1, chipset=i440fx
ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14
ata0-master: type=cdrom, path=$WORK/boot.iso, status=inserted
boot: cdrom
floppy_bootsig_check: disabled=1
clock: sync=none, time0=local
com1: enabled=1, mode=file, dev=$WORK/com1.txt
com2: enabled=1, mode=file, dev=$WORK/com2.txt
mouse: enabled=0
speaker: enabled=0
sound: waveoutdrv=dummy, waveindrv=dummy, midioutdrv=dummy
log: $WORK/bochs.log
panic: action=fatal
error: action=report
info: action=report
debug: action=ignore
EOF
: > "$WORK/com1.txt"; : > "$WORK/com2.txt"
# Debian builds bochs-bin with the internal debugger, which stops before the
# first instruction: tell it to continue, then quit when the simulation ends.
printf 'continue\nquit\n' > "$WORK/dbgcmds"

# ---- run --------------------------------------------------------------------
log "booting Bochs (cpu=$CPU, ${MEGS}MB) for $(basename "$BIN") $*"
T0=$(date +%s)
(cd "$WORK" && exec timeout --foreground -k 10 "$TIMEOUT" bochs-bin -q -f "$WORK/bochsrc" -rc "$WORK/dbgcmds" </dev/null >"$WORK/bochs.out" 2>&1) &
BOCHS_PID=$!
tail -n +1 -f --pid="$BOCHS_PID" "$WORK/com2.txt" &
TAIL_PID=$!
set +e
wait "$BOCHS_PID"; BOCHS_RC=$?
BOCHS_PID=
wait "$TAIL_PID" 2>/dev/null
TAIL_PID=
set -e
T1=$(date +%s)

tr -d '\r' < "$WORK/com1.txt" > "$WORK/console.txt"
if [[ "$VERBOSE" == 1 ]]; then
    log "---- guest console (COM1) ----"; cat "$WORK/console.txt" >&2; log "------------------------------"
fi
MODEL="$(sed -n 's/^AVX512EMU_MODEL *//p' "$WORK/console.txt" | head -1)"
FLAGS="$(sed -n 's/^AVX512EMU_FLAGS *//p' "$WORK/console.txt" | head -1)"
[[ -n "$FLAGS" ]] && log "guest cpu: $MODEL; flags: $FLAGS"
EXIT="$(sed -n 's/^AVX512EMU_EXIT=\([0-9]*\).*/\1/p' "$WORK/console.txt" | tail -1)"
SIG="$(sed -n 's/^AVX512EMU_SIGNAL=\([0-9]*\).*/\1/p' "$WORK/console.txt" | tail -1)"
if [[ -n "$EXIT" ]]; then
    log "program exited with status $EXIT (wall time $((T1 - T0))s incl. boot)"; exit "$EXIT"
elif [[ -n "$SIG" ]]; then
    log "program killed by signal $SIG (wall time $((T1 - T0))s incl. boot)"; exit $((128 + SIG))
elif [[ "$BOCHS_RC" == 124 ]]; then
    log "TIMEOUT after ${TIMEOUT}s; last guest console lines:"; tail -20 "$WORK/console.txt" >&2; exit 124
else
    log "emulator ended (rc=$BOCHS_RC) without a program exit status; console tail:"
    tail -30 "$WORK/console.txt" >&2; tail -5 "$WORK/bochs.out" >&2; exit 125
fi
