#!/usr/bin/env bash
# Kalah on six holes a row solved, under both capture rules, with time and memory:
#
#   benches/solve.sh [SEEDS...]      (default: 1 2 3)
#
# For each number of seeds a hole, prints the value `sowlab solve` finds, the published value
# where there is one, the nodes, the wall time and the most memory resident, under the
# empty-capture rule (variants/catalogue/kalah-empty-capture.sow; Irving, Donkers & Uiterwijk
# 2000, Table 9: +2, +10, +2, +10, +12 for 1 to 5 seeds) and the standard rule
# (variants/kalah.sow; Rawlings 2015: +8 and +10 for 4 and 5 seeds). A value that differs
# from the published one fails the script. Extra flags for `solve` go in SOLVE_FLAGS
# (e.g. SOLVE_FLAGS="--threads 1 --memory 4G"). With a tablebase kept on disk
# (SOLVE_FLAGS="--tablebase-seeds 16 --tablebase /tmp/tb"), each line says how many of its
# layers were read rather than built: run the script twice to see the second run reuse them.
# Build first: `cargo build --release`.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sowlab=$here/target/release/sowlab
declare -A published=([empty-1]=2 [empty-2]=10 [empty-3]=2 [empty-4]=10 [empty-5]=12
    [standard-4]=8 [standard-5]=10)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for seeds in "${@:-1 2 3}"; do
    for rule in empty standard; do
        case $rule in
            empty) file=$here/variants/catalogue/kalah-empty-capture.sow ;;
            standard) file=$here/variants/kalah.sow ;;
        esac
        # shellcheck disable=SC2086
        /usr/bin/time -f "%e %M" -o "$out.time" "$sowlab" solve "$file" --set holes=6 \
            --set "seeds=$seeds" --json ${SOLVE_FLAGS:-} >"$out"
        # The first margin is the start position's (the first moves' follow).
        margin=$(grep -o '"margin":[-0-9]*' "$out" | head -1 | cut -d: -f2)
        nodes=$(grep -o '"nodes":[0-9]*' "$out" | cut -d: -f2)
        read -r seconds kb <"$out.time"
        expected=${published[$rule-$seeds]:-}
        layers=$(grep -o '"tablebase_layers_read":[0-9]*' "$out" | cut -d: -f2)
        tablebase=$(grep -o '"tablebase_seeds":[0-9]*' "$out" | cut -d: -f2)
        printf '%-8s (6,%s) %+d%s  %s nodes  %s s  %d MB%s\n' "$rule" "$seeds" "$margin" \
            "${expected:+ (published +$expected)}" "$nodes" "$seconds" $((kb / 1024)) \
            "${tablebase:+  tablebase of $tablebase seeds, $layers layers read}"
        if [[ -n $expected && $margin != "$expected" ]]; then
            echo "the published value is +$expected" >&2
            exit 1
        fi
    done
done
rm -f "$out.time"
