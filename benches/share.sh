#!/usr/bin/env bash
# The whole `simulate` process against the engine alone, timed side by side on a machine whose
# speed drifts: `sowlab simulate` (one thread, random against random, games.csv written) runs on
# one core while the engine's playout loop runs on the other, and the cores swap every round.
#
#   benches/share.sh VARIANT...
#
# Prints every run, simulate's rate over the engine's in moves per second, and per variant the
# geometric mean of that ratio with its 95% interval (benches/ratios.awk; the throughput
# issue's target: 0.85 or more).
# Build first: `cargo build --release --bins --example playouts`.
# GAMES per seat order (default 100000), MOVES for the engine (default 25000000, about as long a
# run) and ROUNDS (default 2; each is two runs) come from the environment.
# Needs two cores and `taskset` (util-linux).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sowlab=$here/target/release/sowlab
playouts=$here/target/release/examples/playouts
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for variant in "$@"; do
    file="$here/variants/$variant.sow"
    for _ in $(seq "${ROUNDS:-2}"); do
        for first in 0 1; do
            rm -rf "$out/run"
            taskset -c $((1 - first)) "$playouts" "$file" "${MOVES:-25000000}" >"$out/engine" &
            start=$(date +%s.%N)
            taskset -c "$first" "$sowlab" simulate "$file" --games "${GAMES:-100000}" \
                --agents random,random --threads 1 --seed 1 --out "$out/run" 2>/dev/null
            end=$(date +%s.%N)
            wait
            # Moves played: the `turns` column of games.csv, found by its name.
            moves=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "turns") c = i; next }
                             { s += $c } END { print s }' "$out/run/games.csv")
            echo "$variant $moves $start $end $(awk '{print $(NF-1)}' "$out/engine")"
        done
    done
done | awk '{
    simulate = $2 / ($4 - $3) / 1e6
    printf "%s simulate %.2f Mmoves/s engine %.2f Mmoves/s ratio %.3f\n", $1, simulate, $5, simulate / $5
}' | awk -v label=simulate/engine -f "$here/benches/ratios.awk"
