#!/bin/bash
# The AVX-512 rungs' known-answer and property tests on an emulated AVX-512
# CPU, in one boot: builds crates/simdcrypt/tests/avx512_emu.rs as a static
# release test binary (in a target dir of its own, so the normal build is not
# invalidated), runs it with run-avx512.sh, and fails unless the guest ran
# the tests with the AVX-512 rungs demanded (SIMDCRYPT_REQUIRE_AVX512=1: a
# guest without them fails, it cannot pass by skipping) and all passed.
# .ci/run runs this. The test needs the `kit` feature (the checking kit,
# which compares with the specifications' `reference` modules); built
# without it, it would hold no tests, which this script also counts as a
# failure.
#
# Usage: tools/avx512emu/run-tests.sh [test-harness args, e.g. a name filter]
#
# Environment:
#   PROPTEST_CASES=32             cases per property test in the guest
#   AVX512EMU_TARGET_DIR=target/static   cargo target dir of the static build
#   AVX512EMU_REQUIRE_FEATURES=…  CPU features the guest must report (comma-
#                                 separated, as simdcrypt::cpu::Features::list
#                                 names them); the Ice Lake set by default
#   AVX512EMU_TIMEOUT=900         wall-clock limit of the emulator run, seconds
#   and run-avx512.sh's knobs (AVX512EMU_CPU, AVX512EMU_KEEP, …).
# Exit status: 0 when every test passed in the guest; otherwise the guest
# program's status (101: a test failed), or run-avx512.sh's (124 timeout,
# 125 the emulator could not be set up or run), or 1 when the log does not
# show the expected test results.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TRIPLE=x86_64-unknown-linux-gnu
TARGET_DIR="${AVX512EMU_TARGET_DIR:-$ROOT/target/static}"
CASES="${PROPTEST_CASES:-32}"
export AVX512EMU_CPU="${AVX512EMU_CPU:-corei7_icelake_u}"
export AVX512EMU_TIMEOUT="${AVX512EMU_TIMEOUT:-900}"
case "$AVX512EMU_CPU" in
    corei7_icelake_u | tigerlake)
        default_features=avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512ifma,vaes,vpclmulqdq,gfni,bmi2 ;;
    *) default_features= ;;
esac
FEATURES="${AVX512EMU_REQUIRE_FEATURES-$default_features}"

log() { echo "[avx512emu] $*" >&2; }

T0=$(date +%s)
log "building crates/simdcrypt/tests/avx512_emu.rs: static, release, in $TARGET_DIR"
cd "$ROOT"
# JSON on stdout (the test binary's path is read from it), diagnostics
# rendered on stderr.
BUILD_JSON="$(RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-C target-feature=+crt-static" \
    CARGO_TARGET_DIR="$TARGET_DIR" \
    cargo test -p simdcrypt --features kit --release --test avx512_emu --no-run \
    --target "$TRIPLE" --message-format=json-render-diagnostics)"
BIN="$(printf '%s\n' "$BUILD_JSON" | grep '"reason":"compiler-artifact"' |
    grep -o '"executable":"[^"]*avx512_emu-[^"]*"' | tail -1 | cut -d'"' -f4)"
[[ -n "$BIN" && -x "$BIN" ]] || { log "ERROR: cargo named no avx512_emu test binary"; exit 1; }
T1=$(date +%s)
log "built $BIN in $((T1 - T0))s"

LOG="$TARGET_DIR/avx512emu-tests.log"
ARGS=(-e SIMDCRYPT_REQUIRE_AVX512=1 -e PROPTEST_CASES="$CASES")
[[ -n "$FEATURES" ]] && ARGS+=(-e SIMDCRYPT_REQUIRE_FEATURES="$FEATURES")
set +e
"$HERE/run-avx512.sh" "${ARGS[@]}" "$BIN" --test-threads=1 --nocapture "$@" </dev/null | tee "$LOG"
RC=${PIPESTATUS[0]}
set -e
T2=$(date +%s)

RESULT="$(tr -d '\r' < "$LOG" | grep -E '^test result: ' | tail -1 || true)"
PASSED="$(sed -n 's/^test result: ok\. \([0-9]*\) passed; 0 failed.*/\1/p' <<< "$RESULT")"
if [[ "$RC" != 0 ]]; then
    log "FAILED: the AVX-512 tests in the emulator exited with status $RC (${RESULT:-no test result line}); log: $LOG"
    exit "$RC"
fi
if [[ -z "$PASSED" || "$PASSED" == 0 ]]; then
    log "FAILED: the guest's log shows no passed tests (${RESULT:-no test result line}); log: $LOG"
    exit 1
fi
if [[ $# == 0 ]] && ! grep -q 'AVX-512 rungs available and the default: ' "$LOG"; then
    log "FAILED: the guest's log does not show the AVX-512 rungs checked available; log: $LOG"
    exit 1
fi
log "OK: $PASSED tests passed on the emulated AVX-512 CPU ($AVX512EMU_CPU, PROPTEST_CASES=$CASES):" \
    "$((T2 - T0))s wall, of which build $((T1 - T0))s, emulator $((T2 - T1))s"
