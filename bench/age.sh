#!/usr/bin/env bash
# simdcrypt encrypt/decrypt beside the real age (Go) and rage, in one run:
# a file from the page cache to /dev/null with an X25519 recipient, on all
# cores and on one, and passphrase files at age's default work factor 2^18.
#
#   bench/age.sh [SIZE_MIB]            (default 1024; needs hyperfine)
#
# Peers come from PATH (or AGE_BIN, RAGE_BIN): `.ci/install-peers` puts
# them in .ci/peers/bin. Run on a quiet machine: nothing else compiling.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mib=${1:-1024}
runs=${RUNS:-10}
cargo build --release -p simdcrypt-cli >&2
simdcrypt=$PWD/target/release/simdcrypt
age=${AGE_BIN:-$(command -v age || true)}
rage=${RAGE_BIN:-$(command -v rage || true)}
work=${TMPDIR:-/tmp}/simdcrypt-age-bench
mkdir -p "$work"
plain=$work/plain-$size_mib.bin
[ -f "$plain" ] || head -c $((size_mib << 20)) /dev/urandom > "$plain"
rm -f "$work/key.txt" "$work/sealed.age"
"$simdcrypt" keygen -o "$work/key.txt" 2>/dev/null
recipient=$(sed -n 's/^# public key: //p' "$work/key.txt")
"$simdcrypt" encrypt -r "$recipient" -o "$work/sealed.age" "$plain"
cat "$plain" "$work/sealed.age" > /dev/null   # into the page cache
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) cores; $size_mib MiB" >&2

enc=(-n "simdcrypt" "$simdcrypt encrypt -r $recipient -o /dev/null $plain"
     -n "simdcrypt --threads 1" "$simdcrypt encrypt --threads 1 -r $recipient -o /dev/null $plain")
dec=(-n "simdcrypt" "$simdcrypt decrypt -i $work/key.txt -o /dev/null $work/sealed.age"
     -n "simdcrypt --threads 1" "$simdcrypt decrypt --threads 1 -i $work/key.txt -o /dev/null $work/sealed.age")
pass=(-n "simdcrypt" "$simdcrypt encrypt -j batchpass -o /dev/null $work/key.txt")
if [ -n "$age" ]; then
  enc+=(-n "age" "$age -r $recipient -o /dev/null $plain")
  dec+=(-n "age" "$age -d -i $work/key.txt -o /dev/null $work/sealed.age")
  command -v age-plugin-batchpass >/dev/null \
    && pass+=(-n "age" "$age -e -j batchpass -o /dev/null $work/key.txt")
fi
if [ -n "$rage" ]; then
  enc+=(-n "rage" "$rage -r $recipient -o /dev/null $plain")
  dec+=(-n "rage" "$rage -d -i $work/key.txt -o /dev/null $work/sealed.age")
fi
hyperfine -N --warmup 1 --runs "$runs" --export-markdown "$work/encrypt.md" "${enc[@]}"
hyperfine -N --warmup 1 --runs "$runs" --export-markdown "$work/decrypt.md" "${dec[@]}"
AGE_PASSPHRASE=bench AGE_PASSPHRASE_WORK_FACTOR=18 \
  hyperfine -N --warmup 1 --runs "$runs" --export-markdown "$work/scrypt.md" "${pass[@]}"
cat "$work/encrypt.md" "$work/decrypt.md" "$work/scrypt.md"
