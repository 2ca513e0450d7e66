#!/usr/bin/env bash
# A throw-away PostgreSQL server for tests and CI.
#   scripts/postgres.sh start [--port N]
#                               → starts one on loopback (a free port, or N) in a temporary folder
#                                 and prints its URL (postgres://postgres@127.0.0.1:PORT/chargekit)
#   scripts/postgres.sh stop    → stops it and removes its folder
#   scripts/postgres.sh url     → prints the URL of the running one
# PostgreSQL refuses to run as root, so the server runs as the `postgres` user. The
# Debian package is installed first where the binaries are missing.
set -euo pipefail
state="${CHARGEKIT_PG_STATE:-/tmp/chargekit-postgres}"
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-}" in
start)
    if [ -f "$state/url" ] && as_postgres "$bindir/pg_ctl" -D "$state/data" status >/dev/null 2>&1; then
        cat "$state/url"; exit 0
    fi
    rm -rf "$state"; mkdir -p "$state"
    if [ "$(id -u)" = 0 ]; then chown postgres "$state"; chmod o+x "$(dirname "$state")"; fi
    port=""
    if [ "${2:-}" = "--port" ]; then
        port="${3:-}"
        [[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ] || { echo "postgres.sh: --port must be 1 to 65535, got '${3:-}'" >&2; exit 64; }
    fi
    [ -n "$port" ] || port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    as_postgres "$bindir/initdb" -D "$state/data" -U postgres -A trust --no-sync >/dev/null
    as_postgres "$bindir/pg_ctl" -D "$state/data" -l "$state/log" -w \
        -o "-h 127.0.0.1 -p $port -k $state -c fsync=on -c max_connections=200" start >/dev/null
    as_postgres "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres chargekit
    echo "postgres://postgres@127.0.0.1:$port/chargekit" | tee "$state/url"
    ;;
stop)
    [ -d "$state/data" ] && as_postgres "$bindir/pg_ctl" -D "$state/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$state"
    ;;
url)
    cat "$state/url"
    ;;
*)
    echo "usage: scripts/postgres.sh start [--port N]|stop|url" >&2; exit 64
    ;;
esac
