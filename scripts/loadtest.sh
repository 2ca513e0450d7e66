#!/usr/bin/env bash
# Load test of the UPI sandbox: starts `chargekit sandbox serve` (release build) on a
# fresh database and drives it with wrk from a second process on loopback:
# token → create charge at a fixed concurrency for a fixed time, then the server's
# cheapest endpoint (GET /v1/health) the same way. Reports charges per second (each
# one a durable commit: WAL, synchronous=FULL), p50/p99 latency, the ratio to the
# cheapest endpoint, and the number of 5xx answers, which must be zero.
# Needs wrk (apt-get install -y wrk).
# Usage: scripts/loadtest.sh [--db sqlite|postgres|both|DB] [--rounds N] [seconds=10] [connections=16] [threads=2]
#   --db sqlite    a fresh SQLite file (the default)
#   --db postgres  a throw-away PostgreSQL (scripts/postgres.sh), or $CHARGEKIT_POSTGRES_URL when set
#   --db both      SQLite, then PostgreSQL, in one run (the README's table)
#   --db URL|PATH  passed through to `sandbox serve --db`
#   --rounds N     N alternating rounds on the same server (creates for `seconds`, then health
#                  for `seconds`, N times); rates are the totals over all rounds, so that a slow
#                  period of a shared machine weighs on both columns alike (default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
db=sqlite
rounds=1
while [ $# -gt 0 ]; do
    case "$1" in
    --db) db="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    *) break ;;
    esac
done
case "$rounds" in ''|*[!0-9]*|0) echo "loadtest: --rounds takes a whole number from 1" >&2; exit 64 ;; esac
seconds="${1:-10}"
connections="${2:-16}"
threads="${3:-2}"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; } >/dev/null 2>&1 || true
command -v wrk >/dev/null || { echo "loadtest: install wrk first (apt-get install -y wrk)" >&2; exit 69; }
if [ "$db" = both ]; then
    "$0" --db sqlite --rounds "$rounds" "$seconds" "$connections" "$threads"
    echo
    exec "$0" --db postgres --rounds "$rounds" "$seconds" "$connections" "$threads"
fi

# CHARGEKIT_BIN=path measures that build of chargekit instead (an earlier commit's, say).
if [ -n "${CHARGEKIT_BIN:-}" ]; then
    bin="$CHARGEKIT_BIN"
else
    swift build -c release --product chargekit >/dev/null 2>&1
    bin="$(swift build -c release --show-bin-path)/chargekit"
fi
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

field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
add() { python3 -c "print($1 + $2)"; }
worst() { python3 -c "print(max($1, $2))"; }
made=0; charge_seconds=0; charge_p50=0; charge_p99=0; non2xx=0
served=0; health_seconds=0; health_p50=0; health_p99=0; errors=0
for round in $(seq 1 "$rounds"); do
    export RUN_ID="$$-$round"   # fresh references each round
    charges="$(wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency -s scripts/loadtest/charge.lua "$base" | grep '^RESULT')"
    health="$(wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency -s scripts/loadtest/health.lua "$base/v1/health" | grep '^RESULT')"
    made=$(( made + $(field "$charges" charges) ))
    served=$(( served + $(field "$health" requests) ))
    charge_seconds="$(add "$charge_seconds" "$(field "$charges" seconds)")"
    health_seconds="$(add "$health_seconds" "$(field "$health" seconds)")"
    non2xx=$(( non2xx + $(field "$charges" non2xx) ))
    errors=$(( errors + $(field "$charges" errors5xx) + $(field "$health" errors5xx) ))
    # Percentiles are not additive: the worst round's are reported.
    charge_p50="$(worst "$charge_p50" "$(field "$charges" p50_ms)")"; charge_p99="$(worst "$charge_p99" "$(field "$charges" p99_ms)")"
    health_p50="$(worst "$health_p50" "$(field "$health" p50_ms)")"; health_p99="$(worst "$health_p99" "$(field "$health" p99_ms)")"
    if [ "$rounds" -gt 1 ]; then
        echo "round $round: creates $(field "$charges" rate)/s, health $(field "$health" rate)/s," \
            "ratio $(python3 -c "print(f'{$(field "$charges" rate) / $(field "$health" rate):.3f}')")"
    fi
done
charge_rate="$(python3 -c "print(f'{$made / $charge_seconds:.1f}')")"
health_rate="$(python3 -c "print(f'{$served / $health_seconds:.1f}')")"
ratio="$(python3 -c "print(f'{$charge_rate / $health_rate:.3f}')")"
[ "$rounds" -gt 1 ] && percentiles="(worst round) " || percentiles=""

echo "backend: $backend"
echo "machine: $(nproc) cores, $(uname -srm); sandbox release build ${SANDBOX_FLAGS:-}; wrk -t$threads -c$connections -d${seconds}s; rounds $rounds"
echo "create charge (durable): $charge_rate/s  ${percentiles}p50 $charge_p50 ms  p99 $charge_p99 ms  ($made charges, $non2xx non-2xx)"
echo "GET /v1/health:          $health_rate/s  ${percentiles}p50 $health_p50 ms  p99 $health_p99 ms"
echo "ratio charges/health: $ratio"
echo "5xx: $errors"
[ "$errors" -eq 0 ]
