#!/usr/bin/env bash
# Issue 28's two builds side by side: benches/messages.rs built as users
# build it by default and with RUSTFLAGS="-C target-cpu=native" (each in
# its own target directory), the two binaries run alternately, one round
# each at a time, pinned with taskset when there is one; then per table
# row simdcrypt's time per message in each build (median of the rounds)
# and native ÷ default as a speed ratio: default time ÷ native time, per
# pair of rounds, median (min–max). Below 1 the native build is slower.
#
#   bench/both-builds.sh [-r ROUNDS] [FILTER …]
#
# FILTERs are substrings of the table names, as for the bench
# (`aes-128-ctr`, `sha512`, `scrypt` …); none runs every table. ROUNDS
# defaults to 3. Environment: CARGO_TARGET_DIR (default `target`) holds
# the default build, CARGO_TARGET_DIR/native the native one; PIN_CPU
# (default 1) is the CPU taskset pins to. The bench's own output, the
# tables of every run, goes to a log directory named at the end.
set -euo pipefail

usage() {
    sed -n '10,17p' "$0" | sed 's/^# \{0,1\}//'
}

rounds=3
while getopts hr: opt; do
    case $opt in
        r) rounds=$OPTARG ;;
        h) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case $rounds in
    '' | *[!0-9]* | 0) echo "rounds: a positive number, not '$rounds'" >&2; exit 2 ;;
esac

cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
case $target in /*) ;; *) target=$PWD/$target ;; esac
logs=$(mktemp -d "${TMPDIR:-/tmp}/both-builds.XXXXXX")

# build NAME DIR [RUSTFLAGS]: builds the bench, prints its executable.
build() {
    local name=$1 dir=$2 flags=${3-}
    echo "building the $name build in $dir" >&2
    if ! env -u RUSTFLAGS ${flags:+RUSTFLAGS="$flags"} CARGO_TARGET_DIR="$dir" \
        cargo bench -p simdcrypt-bench --bench messages --no-run >"$logs/build-$name.log" 2>&1; then
        tail -n 30 "$logs/build-$name.log" >&2
        exit 1
    fi
    sed -n 's/^ *Executable .*(\(.*messages-[0-9a-f]*\))$/\1/p' "$logs/build-$name.log" | tail -n 1
}

default_bin=$(build default "$target")
native_bin=$(build native "$target/native" "-C target-cpu=native")
for bin in "$default_bin" "$native_bin"; do
    [ -x "$bin" ] || { echo "no bench executable found (see $logs)" >&2; exit 1; }
done

pin=()
if command -v taskset >/dev/null; then
    pin=(taskset -c "${PIN_CPU:-1}")
fi

# Round r of each build in turn; the raw lines tagged build and round.
: >"$logs/raw.tsv"
for r in $(seq 1 "$rounds"); do
    for build in default native; do
        bin=${build}_bin
        echo "round $r/$rounds: $build" >&2
        log="$logs/$build-$r.log"
        if ! MESSAGES_ROUNDS=1 TABLE_RAW=1 "${pin[@]}" "${!bin}" "$@" >"$log" 2>&1; then
            tail -n 30 "$log" >&2
            exit 1
        fi
        awk -F '\t' -v b="$build" -v r="$r" '$1 == "raw" && $4 == "simdcrypt" {
            print b "\t" r "\t" $2 "\t" $3 "\t" $6
        }' "$log" >>"$logs/raw.tsv"
    done
done

echo
echo "simdcrypt per message, default build and -C target-cpu=native; $rounds rounds each, alternating"
awk -F ': *' '$1 ~ /^model name/ { n = $2 } $1 ~ /^cpu family/ { f = $2 }
    $1 ~ /^model[[:space:]]*$/ { m = $2 }
    END { if (n != "") printf "(%s, family %s, model %s)\n", n, f, m }' /proc/cpuinfo 2>/dev/null || true
echo
awk -F '\t' '
function sort(a, n,    i, j, t) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
function median(a, n) { sort(a, n); return a[int((n + 1) / 2)] }
function time(s) {
    if (s < 1e-6) return sprintf("%.1f ns", s * 1e9)
    if (s < 1e-3) return sprintf("%.2f µs", s * 1e6)
    return sprintf("%.2f ms", s * 1e3)
}
{
    row = $3 "\t" $4
    if (!(row in seen)) { seen[row] = 1; order[++rows] = row }
    t[$1, row, $2] = $5
    if ($2 > rounds) rounds = $2
}
END {
    print "| table | row | default | native | native ÷ default |"
    print "|---|---|---|---|---|"
    for (k = 1; k <= rows; k++) {
        row = order[k]; n = 0
        for (r = 1; r <= rounds; r++) {
            if (!(("default", row, r) in t) || !(("native", row, r) in t)) continue
            n++
            d[n] = t["default", row, r]; v[n] = t["native", row, r]
            q[n] = d[n] / v[n]
        }
        if (n == 0) continue
        md = median(d, n); mv = median(v, n); mq = median(q, n)
        split(row, name, "\t")
        printf "| %s | %s | %s | %s | **%.2f** (%.2f–%.2f) |\n", name[1], name[2], time(md), time(mv), mq, q[1], q[n]
    }
}' "$logs/raw.tsv"
echo
echo "logs: $logs"
