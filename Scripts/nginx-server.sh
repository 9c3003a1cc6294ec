#!/usr/bin/env bash
# Starts (or stops) an nginx from Debian on 127.0.0.1 at a free port, serving the small JSON body
# of the end-to-end benchmark at /e2e.json with keep-alive, for
#   NGINX_URL=$(bash Scripts/nginx-server.sh start) swift run -c release pipeline-bench --suite e2e
#   bash Scripts/nginx-server.sh stop
# Installs nginx-light with apt-get when nginx is missing. Prints the base URL on standard output.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD/.build-nginx"
case "${1:-}" in
start)
    if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light) >&2
    fi
    nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
    mkdir -p "$root/html" "$root/logs"
    python3 -c 'import sys; sys.stdout.write("{\"books\":[" + ",".join("{\"id\":%d,\"title\":\"Book number %d of the soak\"}" % (i, i) for i in range(20)) + "]}")' >"$root/html/e2e.json"
    # The curl soak's files (pipeline-bench --suite curl --nginx URL): 512 KiB answers, and one
    # that trickles at 1 KiB/s for a call cancelled mid-body.
    mkdir -p "$root/html/soak"
    head -c 524288 /dev/zero >"$root/html/soak/large.bin"
    head -c 1048576 /dev/zero >"$root/html/soak/slow.bin"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    bash "$0" stop # a server left by an earlier start would lose its pid file
    # Run as root, nginx would hand its worker to nobody, who may not read a checkout under /root.
    user_line=""
    [ "$(id -u)" = 0 ] && user_line="user root;"
    cat >"$root/nginx.conf" <<CONF
$user_line
worker_processes 1;
pid $root/nginx.pid;
error_log $root/logs/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $root/tmp;
    proxy_temp_path $root/tmp;
    fastcgi_temp_path $root/tmp;
    uwsgi_temp_path $root/tmp;
    scgi_temp_path $root/tmp;
    keepalive_requests 1000000;
    default_type application/json;
    server {
        listen 127.0.0.1:$port;
        root $root/html;
        location = /soak/upload { return 204; }
        location = /soak/slow.bin { limit_rate 1k; }
    }
}
CONF
    mkdir -p "$root/tmp"
    "$nginx_bin" -c "$root/nginx.conf" -p "$root" >&2
    for _ in $(seq 1 50); do
        if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/e2e.json', timeout=1)" 2>/dev/null; then
            echo "http://127.0.0.1:$port"
            exit 0
        fi
        sleep 0.1
    done
    echo "nginx did not answer on 127.0.0.1:$port" >&2
    bash "$0" stop
    exit 1
    ;;
stop)
    if [ -f "$root/nginx.pid" ]; then
        kill "$(cat "$root/nginx.pid")" 2>/dev/null || true
        rm -f "$root/nginx.pid"
    fi
    ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
