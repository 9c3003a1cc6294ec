#!/usr/bin/env bash
# Instructions per request end to end over loopback sockets (URLSession and the in-process
# LoopbackServer counted together), for the bare transport and the standard pipeline, counted by
# valgrind: each client runs alone (pipeline-bench --e2e-client), for N and 2N requests, and the
# difference divided by N is one request.
#
#   Scripts/callgrind-e2e.sh          both clients, N=200
#   N=400 Scripts/callgrind-e2e.sh pipeline
#   NGINX_URL=$(bash Scripts/nginx-server.sh start) Scripts/callgrind-e2e.sh "bare curl pipeline curl-pipeline"
#                                     URLSession against CurlTransport, bare and under the standard
#                                     pipeline; against nginx, so the process holds the client alone
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
swift build -c release --product pipeline-bench >/dev/null
bench=.build/release/pipeline-bench
n=${N:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

instructions() { # client requests
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1.$2" "$bench" --suite e2e --e2e-client "$1" --e2e-requests "$2" >/dev/null 2>"$tmp/log"
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/log"
}

printf '%-9s %14s\n' client instr/request
for client in ${1:-bare pipeline}; do
    i1=$(instructions "$client" "$n"); i2=$(instructions "$client" $((2 * n)))
    for count in "$i1" "$i2"; do
        [[ $count =~ ^[0-9]+$ ]] || { cat "$tmp/log" >&2; echo "no count for $client" >&2; exit 1; }
    done
    printf '%-9s %14d\n' "$client" $(((i2 - i1) / n))
    if [ -n "${KEEP:-}" ]; then cp "$tmp/cg.$client.$((2 * n))" "$KEEP.$client"; fi
done
