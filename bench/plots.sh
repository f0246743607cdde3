#!/usr/bin/env bash
# The plots of docs/measurements.md: for each ladder, every rung
# (`simdcrypt bench --json`, TSC-timed medians) beside every peer
# (criterion's medians, bench/README.md), GB/s against message size (64 B
# to 1 MiB, log scale), one SVG per plot in docs/plots/, titled with the
# CPU. Drawn by examples/plot.rs. Run it on a quiet machine: the medians of
# a shared one move 10-25 %.
#
#   bench/plots.sh            measure everything (about 10 minutes), then draw
#   bench/plots.sh --reuse    draw from the results already in
#                             target/criterion and target/plots, measuring
#                             only what is missing there
#
# Criterion runs the peers and simdcrypt's default only (the rungs come
# from `simdcrypt bench`), with a short configuration: CRITERION_ARGS
# replaces it. A peer that is missing (a library not installed, a bench
# that fails) is reported by the example on stderr; the rest is drawn.
set -euo pipefail
cd "$(dirname "$0")/.."
reuse=false
case "${1:-}" in
  --reuse) reuse=true ;;
  "") ;;
  *) echo "usage: $0 [--reuse]" >&2; exit 2 ;;
esac
target=${CARGO_TARGET_DIR:-target}
# Short samples, of which the plot takes the fastest (examples/plot.rs).
criterion_args=${CRITERION_ARGS:---warm-up-time 0.1 --measurement-time 0.2 --sample-size 20 --nresamples 1000}
# The rungs' sizes: every power of four from 64 B to 1 MiB.
sizes="64 256 1024 4096 16384 65536 262144 1048576"

# One plot a line: its file name, `simdcrypt bench`'s arguments (commas
# for spaces), the bench file and the criterion group of its peers (`-`:
# none benched).
plots="
salsa20             salsa20                 salsa20   salsa20
xsalsa20            xsalsa20                salsa20   xsalsa20
chacha20            chacha20                chacha20  chacha20
xchacha20           xchacha20               chacha20  xchacha20
poly1305            poly1305                poly1305  poly1305
chacha20-poly1305   chacha20-poly1305       aead      chacha20poly1305
xchacha20-poly1305  xchacha20-poly1305      aead      xchacha20poly1305
xsalsa20-poly1305   xsalsa20-poly1305       aead      xsalsa20poly1305
aes-128-ctr         aes-128-ctr             aes       aes-128-ctr
aes-128-cbc         aes-128-cbc             aes       aes-128-cbc-encrypt
aes-128-cbc-decrypt aes-128-cbc,--decrypt   aes       aes-128-cbc-decrypt
aes-128-gcm         aes-128-gcm             gcm       aes128gcm-seal
aes-128-gcm-open    aes-128-gcm,--decrypt   gcm       aes128gcm-open
aes-128-gcm-siv     aes-128-gcm-siv         gcm       aes128gcmsiv-seal
ghash               ghash                   -         -
polyval             polyval                 -         -
magma-ctr           magma-ctr               gost      magma-ctr
magma-cbc           magma-cbc               gost      magma-cbc-encrypt
gost89-cnt          gost89-cnt              gost      gost89-cnt
magma-mac           magma-mac               gost      magma-mac
sha256              sha256                  hash      sha256
sha512              sha512                  hash      sha512
sha1                sha1                    hash      sha1
md5                 md5                     hash      md5
"

cargo build --release -p simdcrypt-cli >&2
cargo build --release -p simdcrypt-bench --example plot >&2
mkdir -p docs/plots "$target/plots"

# The rungs.
while read -r name args _ _; do
  [ -n "$name" ] || continue
  json=$target/plots/$name.json
  if $reuse && [ -s "$json" ]; then continue; fi
  echo "plots.sh: simdcrypt bench ${args//,/ }" >&2
  # shellcheck disable=SC2086 # the sizes and arguments are words
  "$target/release/simdcrypt" bench --algo ${args//,/ } --size $sizes --json > "$json"
done <<< "$plots"

# The peers: each bench file's ids of the plotted groups whose contender
# is no rung (the rungs' names are those of the JSON above).
if ! $reuse; then
  rungs=$(sed -n 's/^ *"impl": "\(.*\)",\{0,1\}$/\1/p' "$target"/plots/*.json | sort -u)
  for file in $(awk '$3 != "-" && NF { print $3 }' <<< "$plots" | sort -u); do
    groups=$(awk -v f="$file" '$3 == f { print $4 }' <<< "$plots")
    ids=$(cargo bench -p simdcrypt-bench --bench "$file" -- --list 2>/dev/null |
      sed -n 's/: benchmark$//p' |
      awk -F/ -v groups="$groups" -v rungs="$rungs" '
        BEGIN { split(groups, g, "\n"); for (i in g) want[g[i]] = 1
                split(rungs, r, "\n"); for (i in r) rung[r[i]] = 1 }
        want[$1] && !rung[$3]' |
      paste -sd '|')
    if [ -z "$ids" ]; then
      echo "plots.sh: bench $file: no peer to run (does it build?)" >&2
      continue
    fi
    echo "plots.sh: cargo bench --bench $file (peers of: ${groups//$'\n'/ })" >&2
    # shellcheck disable=SC2086 # criterion_args are words
    cargo bench -p simdcrypt-bench --bench "$file" -- $criterion_args "^($ids)\$" > /dev/null ||
      echo "plots.sh: bench $file failed: its peers are drawn from older results or not at all" >&2
  done
fi

# The plots.
while read -r name _ _ group; do
  [ -n "$name" ] || continue
  peers=()
  [ "$group" = - ] || peers=(--criterion "$target/criterion/$group")
  "$target/release/examples/plot" --out "docs/plots/$name.svg" \
    --rungs "$target/plots/$name.json" "${peers[@]}" ||
    echo "plots.sh: docs/plots/$name.svg not drawn" >&2
done <<< "$plots"
