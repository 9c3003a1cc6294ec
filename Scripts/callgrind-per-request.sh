#!/usr/bin/env bash
# Instructions and heap allocations per request for each chain of pipeline-bench, counted by
# valgrind (repeatable on a noisy machine, unlike wall time).
#
#   Scripts/callgrind-per-request.sh            all families, 0/1/5/10 layers
#   Scripts/callgrind-per-request.sh builder 10 one chain
#   Scripts/callgrind-per-request.sh standard   the standard stack on the happy path, nothing
#                                               inserted (pipeline-bench --suite standard)
#
# Each chain runs twice, with N and 2N requests; the difference divided by N is the cost of one
# request, with start-up and warm-up cancelled out. Each run is that one chain and nothing else
# (--suite chains --only F --layers L): another suite in the same process would be counted too.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
swift build -c release --product pipeline-bench >/dev/null
bench=.build/release/pipeline-bench
n=${N:-4000}
families=${1:-"builder array closures"}
layer_counts=${2:-"0 1 5 10"}
[ "$families" = standard ] && layer_counts=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The arguments that run one chain alone; the standard suite sends a tenth of --iterations.
chain_args() { # family layers
    if [ "$1" = standard ]; then echo "--suite standard"; else echo "--suite chains --only $1 --layers $2"; fi
}
instructions() { # family layers iterations
    # shellcheck disable=SC2046
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$bench" $(chain_args "$1" "$2") --iterations "$3" --rounds 1 >/dev/null 2>"$tmp/log"
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/log"
}
allocations() { # family layers iterations
    # shellcheck disable=SC2046
    valgrind --tool=memcheck "$bench" $(chain_args "$1" "$2") --iterations "$3" --rounds 1 >/dev/null 2>"$tmp/log"
    sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$tmp/log" | tr -d ,
}

printf '%-9s %6s %14s %12s\n' chain layers instr/request allocs/request
for family in $families; do
    for layers in $layer_counts; do
        i1=$(instructions "$family" "$layers" "$n"); i2=$(instructions "$family" "$layers" $((2 * n)))
        a1=$(allocations "$family" "$layers" "$n"); a2=$(allocations "$family" "$layers" $((2 * n)))
        for count in "$i1" "$i2" "$a1" "$a2"; do
            [[ $count =~ ^[0-9]+$ ]] || { cat "$tmp/log" >&2; echo "no count for $family $layers" >&2; exit 1; }
        done
        # The warm-up runs a tenth of the iterations too, so N more measured requests are 1.1 N calls.
        requests=$n
        [ "$family" = standard ] && requests=$((n / 10))
        awk -v f="$family" -v l="$layers" -v i1="$i1" -v i2="$i2" -v a1="$a1" -v a2="$a2" -v n="$requests" \
            'BEGIN { printf "%-9s %6d %14.0f %12.2f\n", f, l, (i2 - i1) / (1.1 * n), (a2 - a1) / (1.1 * n) }'
    done
done
