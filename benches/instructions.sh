#!/usr/bin/env bash
# Instructions a random move, the engine against the hand-written reference, counted by
# callgrind: a count does not drift with the machine, as time does.
#
#   benches/instructions.sh VARIANT...
#
# VARIANT is one with a reference in benches/reference (hoyito-i, oware). Prints, per variant,
# the engine's and the reference's instructions a move and their ratio (the throughput issue's
# target: 1.3 or less). The engine and the reference play different games, each from its own
# generator, so they are counted over MOVES moves (default 10000000, about a minute each): over
# the first 200,000 the engine's games cost 2% more than typical ones (docs/speed.md, run M).
# The two counts of a variant run side by side, one per core.
# Build first: `cargo build --release --example playouts`. Needs valgrind.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
playouts=$here/target/release/examples/playouts
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Instructions a move of one count, named $1: `playouts` prints the moves played, callgrind the
# total.
count() {
    local name=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$playouts" "$@" >"$out/$name" 2>&1
    awk '$2 == "moves" { moves = $1 } /Collected/ { total = $NF }
         END { printf "%.2f", total / moves }' "$out/$name"
}
for variant in "$@"; do
    file="$here/variants/$variant.sow"
    # The example knows which variants have a reference: asked for no moves, it says so or fails.
    "$playouts" "$file" 0 --reference >/dev/null
    count engine "$file" "${MOVES:-10000000}" >"$out/engine.count" &
    reference=$(count reference "$file" "${MOVES:-10000000}" --reference)
    wait
    engine=$(cat "$out/engine.count")
    awk -v v="$variant" -v e="$engine" -v r="$reference" \
        'BEGIN { printf "%s engine %s reference %s ratio %.3f\n", v, e, r, e / r }'
done
