#!/usr/bin/env bash
# Paired timing for a machine whose speed drifts: runs two playout programs at the same time,
# one pinned to each core, and swaps the cores every round, so both see the same machine.
#
#   benches/paired.sh A B VARIANT...
#
# A and B are commands (split at spaces) called as `A variants/VARIANT.sow MOVES` that print
# their rate last but one ("... 6.12 Mmoves/s"), such as `target/release/examples/playouts`
# built from two commits, or the same with `--fresh` or `--reference`. Prints every run and, per
# variant, the geometric mean of B's rate over A's with its 95% interval (benches/ratios.awk).
# ROUNDS (default 3; each is two runs) and MOVES (default 10000000) come from the environment.
# Needs two cores and `taskset` (util-linux).
set -euo pipefail
a=$1 b=$2
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for variant in "$@"; do
    for _ in $(seq "${ROUNDS:-3}"); do
        for first in 0 1; do
            file="$here/variants/$variant.sow"
            # shellcheck disable=SC2086 # A and B are split into a command and its options
            taskset -c "$first" $a "$file" "${MOVES:-10000000}" >"$out/a" &
            taskset -c $((1 - first)) $b "$file" "${MOVES:-10000000}" >"$out/b"
            wait
            echo "$variant $(awk '{print $(NF-1)}' "$out/a") $(awk '{print $(NF-1)}' "$out/b")"
        done
    done
done | awk '{ printf "%s A %s B %s B/A %.3f\n", $1, $2, $3, $3 / $2 }' |
    awk -v label=B/A -f "$here/benches/ratios.awk"
