#!/usr/bin/env bash
# The README's plots: each ladder's rungs, GB/s against message size (64 B to
# 1 MiB), one SVG per ladder in docs/plots/, titled with the CPU. Run it on a
# quiet machine; the medians of a shared one move 10-25 %.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p simdcrypt-cli >&2
mkdir -p docs/plots
for algo in salsa20 chacha20 poly1305 sha256 sha512 sha1 md5 chacha20-poly1305 xsalsa20-poly1305; do
  echo "plotting $algo" >&2
  target/release/simdcrypt bench --algo "$algo" --reps "${REPS:-100}" \
    --plot "docs/plots/${algo}.svg" --force > /dev/null
done
