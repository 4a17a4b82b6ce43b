#!/usr/bin/env bash
# The whole `simulate` process against the engine alone, timed side by side on a machine whose
# speed drifts: `sowlab simulate` (one thread, random against random, games.csv written) runs on
# one core while an engine loop runs on the other, and the cores swap every round.
#
#   benches/share.sh VARIANT...
#
# Each round times `simulate` twice: beside the playouts example, `Game::random_playout`, the
# engine's fastest random play (`VARIANT/playouts`), and beside the agent_playouts example,
# `Game::play_random_out`, the loop that plays the random agents' games, the games `simulate`
# plays (`VARIANT/agent_playouts`). Prints every run, simulate's rate over the engine loop's
# in moves per second, and per variant and loop the geometric mean of that ratio with its 95%
# interval (benches/ratios.awk; the throughput target is 0.85 or more against the agents' loop,
# docs/speed.md says why that one).
# Build first: `cargo build --release --bins --examples`.
# GAMES per seat order (default 100000), MOVES for the engine (default 25000000, about as long a
# run) and ROUNDS (default 2; each is four runs) come from the environment.
# Needs two cores and `taskset` (util-linux).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sowlab=$here/target/release/sowlab
examples=$here/target/release/examples
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for variant in "$@"; do
    file="$here/variants/$variant.sow"
    for _ in $(seq "${ROUNDS:-2}"); do
        for first in 0 1; do
            for engine in playouts agent_playouts; do
                rm -rf "$out/run"
                taskset -c $((1 - first)) "$examples/$engine" "$file" "${MOVES:-25000000}" \
                    >"$out/engine" &
                start=$(date +%s.%N)
                taskset -c "$first" "$sowlab" simulate "$file" --games "${GAMES:-100000}" \
                    --agents random,random --threads 1 --seed 1 --out "$out/run" 2>/dev/null
                end=$(date +%s.%N)
                wait
                # Moves played: the `turns` column of games.csv, found by its name.
                moves=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "turns") c = i; next }
                                 { s += $c } END { print s }' "$out/run/games.csv")
                echo "$variant/$engine $moves $start $end $(awk '{print $(NF-1)}' "$out/engine")"
            done
        done
    done
done | awk '{
    simulate = $2 / ($4 - $3) / 1e6
    printf "%s simulate %.2f Mmoves/s engine %.2f Mmoves/s ratio %.3f\n", $1, simulate, $5, simulate / $5
}' | awk -v label=simulate/engine -f "$here/benches/ratios.awk"
