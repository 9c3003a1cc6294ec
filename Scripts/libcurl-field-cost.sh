#!/usr/bin/env bash
# What the three fields the standard stack adds cost libcurl alone, in C (no Swift in the
# process), against nginx on loopback: the figure under `e2e_*_curl_fields_ratio`
# (Documentation/Performance.md, "Where the pipeline ratios go: the fields and the layers").
#
#   Scripts/libcurl-field-cost.sh                  both arrangements, 5,000 requests, 8 rounds
#   REQUESTS=10000 ROUNDS=12 Scripts/libcurl-field-cost.sh two
#
# Starts nginx (Scripts/nginx-server.sh) unless NGINX_URL is set, and stops what it started; when
# an nginx from this checkout runs already (a benchmark's), it asks for NGINX_URL instead of
# replacing it.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
bash Scripts/bootstrap.sh
tmp=$(mktemp -d)
started=""
cleanup() {
    rm -rf "$tmp"
    if [ -n "$started" ]; then bash Scripts/nginx-server.sh stop; fi
}
trap cleanup EXIT
url=${NGINX_URL:-}
if [ -z "$url" ]; then
    if [ -f .build-nginx/nginx.pid ] && kill -0 "$(cat .build-nginx/nginx.pid)" 2>/dev/null; then
        echo "an nginx from this checkout runs already; pass its URL as NGINX_URL" >&2
        exit 2
    fi
    started=1
    url=$(bash Scripts/nginx-server.sh start)
fi
gcc -O2 -Wall -Wextra -o "$tmp/field-cost" Scripts/libcurl-field-cost.c $(pkg-config --cflags --libs libcurl) -lpthread
for arrangement in ${1:-one two}; do
    "$tmp/field-cost" "$url/e2e.json" "$arrangement" "${REQUESTS:-5000}" "${ROUNDS:-8}"
done
