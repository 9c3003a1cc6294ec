#!/usr/bin/env bash
# Instructions (callgrind) and heap allocations (memcheck) per request for each variant:
# each variant runs alone with N and 2N measured requests (after the same 100 warm-up requests);
# (count(2N) - count(N)) / N is one request.
#
#   N=1000 ./measure.sh                 every variant
#   N=1000 ./measure.sh url light       some
#   MEMCHECK=0 ...                      instructions only
set -euo pipefail
cd "$(dirname "$0")"
export SWIFT_DETERMINISTIC_HASHING=1
nice swift build -c release >/dev/null
bin=.build/release/spike
n=${N:-1000}
variants=${*:-"url url-consuming light light-borrowing light-consuming light-dict light-borrowing-dict light-consuming-dict light-chain-only url-pass5 light-pass5 light-pass5-dict url-e2e light-e2e light-e2e-dict light-consuming-e2e url-e2e-pass5 light-e2e-pass5-dict sendable-plain sendable-group1 sendable-race hop-plain hop-sendable hop-sendable-group1 hop-sendable-race hop-sendable-race-dispatch ctx-dict-carry ctx-dict ctx-array-carry ctx-array ctx-inline-carry ctx-inline micro-empty micro-dict micro-array micro-inline piece-url-init piece-url-set-unique piece-url-copy-set piece-url-build piece-rebuild piece-head-build piece-fields-copy-set piece-to-urlrequest piece-to-urlrequest-dict piece-to-urlrequest-dict-core piece-from-response piece-from-response-cast"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
instructions() { # variant iterations
    nice valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$bin" "$1" "$2" >/dev/null 2>"$tmp/log"
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/log"
}
allocations() { # variant iterations
    nice valgrind --tool=memcheck "$bin" "$1" "$2" >/dev/null 2>"$tmp/log"
    sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$tmp/log" | tr -d ,
}
printf '%-18s %14s %12s\n' variant instr/request allocs/request
for v in $variants; do
    i1=$(instructions "$v" "$n"); i2=$(instructions "$v" $((2 * n)))
    if [[ ${MEMCHECK:-1} == 1 ]]; then a1=$(allocations "$v" "$n"); a2=$(allocations "$v" $((2 * n))); else a1=0; a2=0; fi
    for c in "$i1" "$i2" "$a1" "$a2"; do [[ $c =~ ^[0-9]+$ ]] || { cat "$tmp/log" >&2; exit 1; }; done
    awk -v v="$v" -v i1="$i1" -v i2="$i2" -v a1="$a1" -v a2="$a2" -v n="$n" \
        'BEGIN { printf "%-18s %14.0f %12.2f\n", v, (i2 - i1) / n, (a2 - a1) / n }'
done
