#!/usr/bin/env bash
# Starts or stops a local httpbin (https://github.com/postmanlabs/httpbin) for the interop tests.
#
#   bash Scripts/interop-server.sh start   # prints HTTPBIN_URL=http://127.0.0.1:PORT
#   bash Scripts/interop-server.sh stop
#   bash Scripts/interop-server.sh url     # the running server's URL
#
# `start` installs the pinned versions of Scripts/interop-requirements.txt into a virtualenv
# (.build-interop-venv/, gitignored; reinstalled only when the requirements change), runs gunicorn
# on 127.0.0.1 on a port the kernel picks, with two workers of four threads each (a /delay request
# never blocks the others), waits until /get answers, and writes the base URL to
# .build-interop-venv/url. It fails (exit 1) when the server cannot be installed or started.
# Environment: PYTHON (python3 by default), INTEROP_VENV (the virtualenv folder).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
venv=${INTEROP_VENV:-$root/.build-interop-venv}
requirements=$root/Scripts/interop-requirements.txt
pidfile=$venv/server.pid
logfile=$venv/server.log
urlfile=$venv/url

running() {
    [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

install() {
    local stamp=$venv/requirements.sha256
    local wanted
    wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
    if [ -x "$venv/bin/gunicorn" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then return; fi
    echo "installing httpbin and gunicorn into $venv" >&2
    "${PYTHON:-python3}" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$wanted" >"$stamp"
}

start() {
    if running; then
        echo "HTTPBIN_URL=$(cat "$urlfile")"
        return
    fi
    install
    rm -f "$urlfile" "$pidfile"
    # Port 0: the kernel picks a free port; gunicorn's log says which.
    "$venv/bin/gunicorn" --bind 127.0.0.1:0 --workers 2 --threads 4 --worker-class gthread \
        --graceful-timeout 2 --no-control-socket --access-logfile - --error-logfile - \
        httpbin:app </dev/null >"$logfile" 2>&1 &
    echo $! >"$pidfile"
    local url=""
    for _ in $(seq 1 300); do
        running || break
        url=$(sed -n 's/.*Listening at: \(http:\/\/127\.0\.0\.1:[0-9][0-9]*\).*/\1/p' "$logfile" | head -n 1)
        if [ -n "$url" ] && "$venv/bin/python" -c "import sys, urllib.request
urllib.request.urlopen(sys.argv[1] + '/get', timeout=1).read()" "$url" 2>/dev/null; then
            echo "$url" >"$urlfile"
            echo "HTTPBIN_URL=$url"
            return
        fi
        sleep 0.1
    done
    echo "httpbin did not start; its log ($logfile):" >&2
    cat "$logfile" >&2 || true
    stop
    exit 1
}

stop() {
    if running; then
        local pid
        pid=$(cat "$pidfile")
        kill -TERM "$pid"
        for _ in $(seq 1 100); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    fi
    rm -f "$pidfile" "$urlfile"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
url) cat "$urlfile" ;;
*)
    echo "usage: $0 start|stop|url" >&2
    exit 2
    ;;
esac
