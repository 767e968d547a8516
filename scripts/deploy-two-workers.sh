#!/usr/bin/env bash
# Two Twin Table workers behind nginx on loopback (docs/deploy.md).
#
#   scripts/deploy-two-workers.sh [DB_URL] [REDIS_URL]
#
# Starts two `twintable serve` workers on 127.0.0.1:8101 and :8102 sharing one PostgreSQL
# database and one Redis, and nginx on 127.0.0.1:8100 in front of them (WebSocket upgrade
# headers set; /w1/ and /w2/ reach one worker each, where clients of its tables are sent).
# Installs nginx with apt-get when it is missing. A worker that exits is started again
# (after a pause that doubles while it keeps dying young) and nginx serves on through the
# other one meanwhile: only Ctrl-C (or SIGTERM) to this script stops nginx, after the
# workers have drained.
set -euo pipefail

DB_URL=${1:-postgresql://postgres@127.0.0.1:5432/test}
REDIS_URL=${2:-${TWINTABLE_REDIS_URL:-redis://127.0.0.1:6379/0}}
PORT=${PORT:-8100}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TWINTABLE=${TWINTABLE:-$ROOT/.venv/bin/twintable}

if ! command -v nginx >/dev/null; then
    echo "nginx is missing: installing it (apt-get)"
    apt-get update -qq && apt-get install -y -qq nginx >/dev/null
fi

RUN=$(mktemp -d -t twintable-deploy.XXXXXX)
cat > "$RUN/nginx.conf" <<CONF
worker_processes 1;
pid $RUN/nginx.pid;
error_log $RUN/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $RUN/body;
    proxy_temp_path $RUN/proxy;
    fastcgi_temp_path $RUN/fastcgi;
    uwsgi_temp_path $RUN/uwsgi;
    scgi_temp_path $RUN/scgi;
    map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }
    upstream twintable {
        server 127.0.0.1:$((PORT + 1)) max_fails=1 fail_timeout=2s;
        server 127.0.0.1:$((PORT + 2)) max_fails=1 fail_timeout=2s;
    }
    proxy_http_version 1.1;
    proxy_set_header Upgrade \$http_upgrade;
    proxy_set_header Connection \$connection_upgrade;
    proxy_set_header Host \$http_host;
    proxy_set_header X-Forwarded-For \$remote_addr;
    proxy_set_header X-Forwarded-Proto \$scheme;
    proxy_read_timeout 1h;
    server {
        listen 127.0.0.1:$PORT;
        location / {
            proxy_pass http://twintable;
            proxy_next_upstream error timeout http_502 http_503;
        }
        # Each worker's own path: clients of its tables are sent there (moved).
        location /w1/ { proxy_pass http://127.0.0.1:$((PORT + 1))/; }
        location /w2/ { proxy_pass http://127.0.0.1:$((PORT + 2))/; }
    }
}
CONF

declare -A pids=() started=()
stopping=0
start_worker() {
    local n=$1
    "$TWINTABLE" serve --host 127.0.0.1 --port $((PORT + n)) --db "$DB_URL" \
        --redis "$REDIS_URL" --advertise-url "/w$n" --public-url "http://127.0.0.1:$PORT" \
        --trusted-proxy 127.0.0.1 \
        >> "$RUN/worker$n.log" 2>&1 &
    pids[$n]=$!
    started[$n]=$SECONDS
}
# The only way nginx is stopped: this script is asked to stop. The workers drain first
# (SIGTERM: their tables go to no one, but their moves are written and their clients told).
stop_all() {
    local code=${1:-0}
    stopping=1
    trap - INT TERM
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ -f "$RUN/nginx.pid" ]; then nginx -c "$RUN/nginx.conf" -s quit 2>/dev/null || true; fi
    echo "stopped (logs in $RUN)"
    exit "$code"
}
trap stop_all INT TERM

for n in 1 2; do start_worker "$n"; done
for n in 1 2; do
    for _ in $(seq 100); do
        curl -sf "http://127.0.0.1:$((PORT + n))/readyz" >/dev/null && break
        sleep 0.2
    done
    if ! curl -sf "http://127.0.0.1:$((PORT + n))/readyz" >/dev/null; then
        echo "worker $n did not start: see $RUN/worker$n.log"
        stop_all 1
    fi
done
nginx -c "$RUN/nginx.conf"
echo "Twin Table on http://127.0.0.1:$PORT (2 workers; logs and nginx config in $RUN)"

# Keep both workers running. A worker's exit never ends this loop, so it never reaches
# nginx: the proxy stays up and sends everyone to the worker that is left.
pause=1
while [ "$stopping" -eq 0 ]; do
    for n in 1 2; do
        if kill -0 "${pids[$n]}" 2>/dev/null; then continue; fi
        status=0
        wait "${pids[$n]}" 2>/dev/null || status=$?
        if [ $((SECONDS - started[$n])) -lt 10 ]; then
            pause=$((pause * 2 > 30 ? 30 : pause * 2))
        else
            pause=1
        fi
        echo "worker $n exited (status $status): starting it again in ${pause}s"
        sleep "$pause"
        start_worker "$n"
    done
    sleep 1
done
