#!/usr/bin/env bash
# Instructions per byte of every rung of one primitive, from valgrind's
# callgrind: unlike time on a shared machine, the count repeats exactly.
# Each rung runs `simdcrypt bench --calls N` at one size, for N and 2N calls;
# the difference of the two totals, divided by N × size, is the rung's own
# count (start-up, key set-up outside the timed call and the rest cancel).
#
# Usage: bench/callgrind.sh ALGO [SIZE]        (SIZE default 16384)
# Prints `rung<TAB>instructions/byte`. valgrind 3.19 cannot run AVX-512
# code: the AVX-512 rungs are skipped (run under SIMDCRYPT_MAX_ISA=avx2).
set -euo pipefail
cd "$(dirname "$0")/.."
algo="$1"
size="${2:-16384}"
n=$(( (1 << 22) / size )); [ "$n" -ge 4 ] || n=4
bin=target/release/simdcrypt
[ -x "$bin" ] || cargo build --release -p simdcrypt-cli >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() {
  SIMDCRYPT_MAX_ISA=avx2 valgrind --tool=callgrind --callgrind-out-file="$tmp/out" \
    "$bin" bench --algo "$algo" --impl "$1" --size "$size" --calls "$2" 2>"$tmp/log" \
    || { echo "callgrind failed for $1: $(tail -3 "$tmp/log")" >&2; return 1; }
  sed -n 's/^summary: //p' "$tmp/out"
}
rungs=$(SIMDCRYPT_MAX_ISA=avx2 "$bin" info --json | python3 -c '
import json, sys
algo = sys.argv[1]
for ladder in json.load(sys.stdin)["ladders"]:
    if any(p["name"] == algo for p in ladder["primitives"]):
        rungs = [r["name"] for r in ladder["rungs"] if r["available"]] or ["default"]
        print(" ".join(rungs))
' "$algo")
for rung in $rungs; do
  one=$(count "$rung" "$n")
  two=$(count "$rung" "$((2 * n))")
  python3 -c 'import sys; r, a, b, n, s = sys.argv[1:]; print(f"{r}\t{(int(b) - int(a)) / (int(n) * int(s)):.3f}")' \
    "$rung" "$one" "$two" "$n" "$size"
done
