#!/usr/bin/env bash
# Load test of the UPI sandbox: starts `chargekit sandbox serve` (release build) on a
# fresh database and drives it with wrk from a second process on loopback:
# token → create charge at a fixed concurrency for a fixed time, then the server's
# cheapest endpoint (GET /v1/health) the same way. Reports charges per second (each
# one a durable commit: WAL, synchronous=FULL), p50/p99 latency, the ratio to the
# cheapest endpoint, and the number of 5xx answers, which must be zero.
# Needs wrk (apt-get install -y wrk).
# Usage: scripts/loadtest.sh [--db sqlite|postgres|both|DB] [--rounds N] [--against BIN] [seconds=10] [connections=16] [threads=2]
#   --db sqlite    a fresh SQLite file (the default)
#   --db postgres  a throw-away PostgreSQL (scripts/postgres.sh), or $CHARGEKIT_POSTGRES_URL when set
#   --db both      SQLite, then PostgreSQL, in one run (the README's table)
#   --db URL|PATH  passed through to `sandbox serve --db`
#   --rounds N     N alternating rounds on the same server (creates for `seconds`, then health
#                  for `seconds`, N times); rates are the totals over all rounds, so that a slow
#                  period of a shared machine weighs on both columns alike (default 1)
#   --against BIN  a second server from another build of chargekit (an earlier commit's, say),
#                  on a fresh database of its own, up beside the first; each round measures
#                  the first server, then the second, so that both builds meet the same
#                  periods of a shared machine (the second first in even rounds). Prints the
#                  second build's lines too, and the ratio of the two ratios (above 1: the
#                  build measured does better)
set -euo pipefail
cd "$(dirname "$0")/.."
db=sqlite
rounds=1
against=""
while [ $# -gt 0 ]; do
    case "$1" in
    --db) db="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --against) against="$2"; shift 2 ;;
    *) break ;;
    esac
done
case "$rounds" in ''|*[!0-9]*|0) echo "loadtest: --rounds takes a whole number from 1" >&2; exit 64 ;; esac
[ -z "$against" ] || [ -x "$against" ] || { echo "loadtest: --against takes a chargekit executable" >&2; exit 64; }
seconds="${1:-10}"
connections="${2:-16}"
threads="${3:-2}"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; } >/dev/null 2>&1 || true
command -v wrk >/dev/null || { echo "loadtest: install wrk first (apt-get install -y wrk)" >&2; exit 69; }
if [ "$db" = both ]; then
    set -- "$seconds" "$connections" "$threads"
    [ -z "$against" ] || set -- --against "$against" "$@"
    "$0" --db sqlite --rounds "$rounds" "$@"
    echo
    exec "$0" --db postgres --rounds "$rounds" "$@"
fi

# CHARGEKIT_BIN=path measures that build of chargekit instead (an earlier commit's, say).
if [ -n "${CHARGEKIT_BIN:-}" ]; then
    bin="$CHARGEKIT_BIN"
else
    swift build --package-path Tools -c release --product chargekit-server >/dev/null 2>&1
    bin="$(swift build --package-path Tools -c release --show-bin-path)/chargekit-server"
fi
work="$(mktemp -d)"
stop_postgres=""
case "$db" in
sqlite) database="$work/load.sqlite"; other_database="$work/against.sqlite"; backend="SQLite (WAL, synchronous=FULL)" ;;
postgres)
    if [ -n "${CHARGEKIT_POSTGRES_URL:-}" ]; then url="$CHARGEKIT_POSTGRES_URL"; else
        export CHARGEKIT_PG_STATE="$work/postgres"; url="$(bash scripts/postgres.sh start)"; stop_postgres=1; fi
    database="$url?table_prefix=load$$_"; other_database="$url?table_prefix=against$$_"
    backend="PostgreSQL 15 (fsync on, synchronous_commit on)" ;;
*) database="$db"; other_database=""; backend="$db" ;;
esac
[ -z "$against" ] || [ -n "$other_database" ] || { echo "loadtest: --against needs --db sqlite or postgres (a fresh database each)" >&2; exit 64; }
servers=""
trap 'for pid in $servers; do kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; done; [ -n "$stop_postgres" ] && bash scripts/postgres.sh stop; rm -rf "$work"' EXIT
. scripts/lib/sandbox.sh
declare -A bases keys
# start NAME BIN DATABASE: starts a sandbox from BIN; sets bases[NAME] and keys[NAME].
start() {
    # SANDBOX_FLAGS=--no-group-commit measures one fsync per write, for comparison.
    "$2" sandbox serve --port 0 --db "$3" ${SANDBOX_FLAGS:-} >"$work/$1.log" 2>&1 &
    servers="$servers $!"
    wait_for_sandbox "$work/$1.log" loadtest
    bases[$1]="$base"; keys[$1]="$key"
}
start main "$bin" "$database"
names=main
if [ -n "$against" ]; then start against "$against" "$other_database"; names="main against"; fi

add() { python3 -c "print($1 + $2)"; }
worst() { python3 -c "print(max($1, $2))"; }
quotient() { python3 -c "print(f'{$1 / $2:.$3f}')"; }   # quotient A B DIGITS
declare -A made charge_seconds charge_p50 charge_p99 non2xx served health_seconds health_p50 health_p99
errors=0
for name in $names; do
    made[$name]=0; charge_seconds[$name]=0; charge_p50[$name]=0; charge_p99[$name]=0; non2xx[$name]=0
    served[$name]=0; health_seconds[$name]=0; health_p50[$name]=0; health_p99[$name]=0
done
for round in $(seq 1 "$rounds"); do
    export RUN_ID="$$-$round"   # fresh references each round
    # With --against, even rounds measure the other build first, so that neither build
    # always follows the other.
    order="$names"
    [ -z "$against" ] || [ $(( round % 2 )) -eq 1 ] || order="against main"
    for name in $order; do
        base="${bases[$name]}"; export MERCHANT_KEY="${keys[$name]}"
        charges="$(wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency -s scripts/loadtest/charge.lua "$base" | grep '^RESULT')"
        health="$(wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency -s scripts/loadtest/health.lua "$base/v1/health" | grep '^RESULT')"
        made[$name]=$(( made[$name] + $(field "$charges" charges) ))
        served[$name]=$(( served[$name] + $(field "$health" requests) ))
        charge_seconds[$name]="$(add "${charge_seconds[$name]}" "$(field "$charges" seconds)")"
        health_seconds[$name]="$(add "${health_seconds[$name]}" "$(field "$health" seconds)")"
        non2xx[$name]=$(( non2xx[$name] + $(field "$charges" non2xx) ))
        errors=$(( errors + $(field "$charges" errors5xx) + $(field "$health" errors5xx) ))
        # Percentiles are not additive: the worst round's are reported.
        charge_p50[$name]="$(worst "${charge_p50[$name]}" "$(field "$charges" p50_ms)")"
        charge_p99[$name]="$(worst "${charge_p99[$name]}" "$(field "$charges" p99_ms)")"
        health_p50[$name]="$(worst "${health_p50[$name]}" "$(field "$health" p50_ms)")"
        health_p99[$name]="$(worst "${health_p99[$name]}" "$(field "$health" p99_ms)")"
        if [ "$rounds" -gt 1 ] || [ -n "$against" ]; then
            [ "$name" = main ] && who="" || who=" (against)"
            echo "round $round$who: creates $(field "$charges" rate)/s, health $(field "$health" rate)/s," \
                "ratio $(quotient "$(field "$charges" rate)" "$(field "$health" rate)" 3)"
        fi
    done
done
[ "$rounds" -gt 1 ] && percentiles="(worst round) " || percentiles=""
declare -A ratio
# report NAME PREFIX: the lines of one server.
report() {
    local charge_rate health_rate
    charge_rate="$(quotient "${made[$1]}" "${charge_seconds[$1]}" 1)"
    health_rate="$(quotient "${served[$1]}" "${health_seconds[$1]}" 1)"
    ratio[$1]="$(quotient "$charge_rate" "$health_rate" 3)"
    echo "${2}create charge (durable): $charge_rate/s  ${percentiles}p50 ${charge_p50[$1]} ms  p99 ${charge_p99[$1]} ms  (${made[$1]} charges, ${non2xx[$1]} non-2xx)"
    echo "${2}GET /v1/health:          $health_rate/s  ${percentiles}p50 ${health_p50[$1]} ms  p99 ${health_p99[$1]} ms"
    echo "${2}ratio charges/health: ${ratio[$1]}"
}

echo "backend: $backend"
echo "machine: $(nproc) cores, $(uname -srm); sandbox release build ${SANDBOX_FLAGS:-}; wrk -t$threads -c$connections -d${seconds}s; rounds $rounds"
report main ""
if [ -n "$against" ]; then
    echo "against $against, same rounds:"
    report against "against: "
    echo "ratio of ratios (this build / against): $(quotient "${ratio[main]}" "${ratio[against]}" 3)"
fi
echo "5xx: $errors"
[ "$errors" -eq 0 ]
