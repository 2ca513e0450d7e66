#!/usr/bin/env bash
# Load test of the UPI sandbox: starts `chargekit sandbox serve` (release build) on a
# fresh database and drives it with wrk from a second process on loopback:
# token → create charge at a fixed concurrency for a fixed time, then the server's
# cheapest endpoint (GET /v1/health) the same way. Reports charges per second (each
# one a durable commit: WAL, synchronous=FULL), p50/p99 latency, the ratio to the
# cheapest endpoint, and the number of 5xx answers, which must be zero.
# Needs wrk (apt-get install -y wrk).
# Usage: scripts/loadtest.sh [--db sqlite|postgres|both|DB] [seconds=10] [connections=16] [threads=2]
#   --db sqlite    a fresh SQLite file (the default)
#   --db postgres  a throw-away PostgreSQL (scripts/postgres.sh), or $CHARGEKIT_POSTGRES_URL when set
#   --db both      SQLite, then PostgreSQL, in one run (the README's table)
#   --db URL|PATH  passed through to `sandbox serve --db`
set -euo pipefail
cd "$(dirname "$0")/.."
db=sqlite
if [ "${1:-}" = "--db" ]; then db="$2"; shift 2; fi
seconds="${1:-10}"
connections="${2:-16}"
threads="${3:-2}"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; } >/dev/null 2>&1 || true
command -v wrk >/dev/null || { echo "loadtest: install wrk first (apt-get install -y wrk)" >&2; exit 69; }
if [ "$db" = both ]; then
    "$0" --db sqlite "$seconds" "$connections" "$threads"
    echo
    exec "$0" --db postgres "$seconds" "$connections" "$threads"
fi

swift build -c release --product chargekit >/dev/null 2>&1
bin="$(swift build -c release --show-bin-path)/chargekit"
work="$(mktemp -d)"
stop_postgres=""
case "$db" in
sqlite) database="$work/load.sqlite"; backend="SQLite (WAL, synchronous=FULL)" ;;
postgres)
    if [ -n "${CHARGEKIT_POSTGRES_URL:-}" ]; then url="$CHARGEKIT_POSTGRES_URL"; else
        export CHARGEKIT_PG_STATE="$work/postgres"; url="$(bash scripts/postgres.sh start)"; stop_postgres=1; fi
    database="$url?table_prefix=load$$_"; backend="PostgreSQL 15 (fsync on, synchronous_commit on)" ;;
*) database="$db"; backend="$db" ;;
esac
# SANDBOX_FLAGS=--no-group-commit measures one fsync per write, for comparison.
"$bin" sandbox serve --port 0 --db "$database" ${SANDBOX_FLAGS:-} >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; [ -n "$stop_postgres" ] && bash scripts/postgres.sh stop; rm -rf "$work"' EXIT
. scripts/lib/sandbox.sh
wait_for_sandbox "$work/server.log" loadtest
export MERCHANT_KEY="$key"
export RUN_ID="$$"

charges="$(wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency -s scripts/loadtest/charge.lua "$base" | grep '^RESULT')"
health="$(wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency -s scripts/loadtest/health.lua "$base/v1/health" | grep '^RESULT')"
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
charge_rate="$(field "$charges" rate)"
health_rate="$(field "$health" rate)"
errors=$(( $(field "$charges" errors5xx) + $(field "$health" errors5xx) ))
ratio="$(python3 -c "print(f'{$charge_rate / $health_rate:.3f}')")"

echo "backend: $backend"
echo "machine: $(nproc) cores, $(uname -srm); sandbox release build ${SANDBOX_FLAGS:-}; wrk -t$threads -c$connections -d${seconds}s"
echo "create charge (durable): $(field "$charges" rate)/s  p50 $(field "$charges" p50_ms) ms  p99 $(field "$charges" p99_ms) ms  ($(field "$charges" charges) charges, $(field "$charges" non2xx) non-2xx)"
echo "GET /v1/health:          $(field "$health" rate)/s  p50 $(field "$health" p50_ms) ms  p99 $(field "$health" p99_ms) ms"
echo "ratio charges/health: $ratio"
echo "5xx: $errors"
[ "$errors" -eq 0 ]
