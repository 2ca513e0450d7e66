#!/usr/bin/env bash
# Where the time of a durable charge creation goes, on the release sandbox with the
# load test's traffic (scripts/loadtest/charge.lua, 16 connections):
#  1. by difference: the same wrk run against GET /v1/health (HTTP alone), a create
#     refused at validation (HTTP, token check, JSON decoding, validation), a create
#     on tmpfs (everything but waiting for the disk) and a create on disk (all);
#  2. CPU by function: perf record of the sandbox during the creates on disk, the
#     inclusive share of each stage (HTTP, token, JSON, SQLite, the commit queue);
#  3. the disk: strace -c of the fsync and fdatasync calls during the creates;
#  4. where both cores' time goes per request, from /proc (the sandbox at its default
#     log level, its log in a file beside the database): the sandbox's user and system
#     CPU, everything else that ran (wrk, the kernel's threads), and the time no core
#     had work (idle, and idle while a thread waited for the disk: iowait), for health,
#     creates on disk, and creates with the database and the log on tmpfs;
#  5. the disk's requests per commit: every block request the machine issued during the
#     creates (perf's block and ext4 tracepoints, whole machine, so it needs root),
#     sorted by what it wrote: the WAL, the database (checkpoints), metadata (the
#     files' inodes), the device's cache flushes.
# Needs wrk, perf and strace (Debian packages), and e2fsprogs' filefrag for section 5. Usage: scripts/profile-create.sh [seconds=5]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-5}"
for tool in wrk perf strace; do command -v "$tool" >/dev/null || { echo "profile-create: install $tool first" >&2; exit 69; }; done
swift build --package-path Tools -c release --product chargekit-server >/dev/null 2>&1 || swift build --package-path Tools -c release --product chargekit-server
bin="$(swift build --package-path Tools -c release --show-bin-path 2>/dev/null)/chargekit-server"
work="$(mktemp -d)"
shm="$(mktemp -d -p /dev/shm)"
server=""
. scripts/lib/sandbox.sh
trap '[ -n "$server" ] && kill $server 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work" "$shm"' EXIT

start() {   # start DB [WRAPPER...]: the sandbox on DB, sets base, MERCHANT_KEY and pid
    # (at $log_level, warning unless set; its output in $log, server.log unless set)
    local db="$1" output="${log:-$work/server.log}"; shift
    "$@" "$bin" sandbox serve --port 0 --log-level "${log_level:-warning}" --db "$db" >"$output" 2>&1 &
    server=$!
    wait_for_sandbox "$output" profile-create 300
    export MERCHANT_KEY="$key"
    export RUN_ID="$RANDOM$RANDOM"
    pid="$(pgrep -n -f "$bin sandbox serve")"
}
stop() { kill -INT "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; server=""; }
run() {   # run SCRIPT [URL-SUFFIX] -> RESULT line
    wrk -t2 -c16 -d"${seconds}s" --latency -s "scripts/loadtest/$1" "$base${2:-}" | grep '^RESULT'
}
micro() { python3 -c "print(f'{1e6 / $1:.0f}')"; }   # requests per second -> microseconds of two cores per request

start "$work/a.sqlite"
health="$(field "$(run health.lua /v1/health)" rate)"
refused="$(AMOUNT=-1 run charge.lua)"
refused_rate="$(field "$refused" requests_rate)"
stop
start "$shm/b.sqlite"
tmpfs="$(field "$(run charge.lua)" rate)"
stop
start "$work/c.sqlite"
perf record -F 499 -g -p "$pid" -o "$work/perf.data" >/dev/null 2>&1 &
perfpid=$!
disk_result="$(run charge.lua)"
disk="$(field "$disk_result" rate)"
kill -INT "$perfpid"; wait "$perfpid" 2>/dev/null || true
stop

echo "1. by difference ($(nproc) cores shared with wrk; µs = 1e6 / rate, the time of both cores per request)"
printf '  %-66s %8s /s  %5s µs\n' "GET /v1/health (HTTP, routing, a small JSON answer)" "$health" "$(micro "$health")"
printf '  %-66s %8s /s  %5s µs\n' "create refused at validation (+ token, JSON decoding, validation)" "$refused_rate" "$(micro "$refused_rate")"
printf '  %-66s %8s /s  %5s µs\n' "create on tmpfs (+ ids, SQLite statements, commit queue, answer)" "$tmpfs" "$(micro "$tmpfs")"
printf '  %-66s %8s /s  %5s µs  p50 %s ms, p99 %s ms\n' "create on disk (+ waiting for fsync)" "$disk" "$(micro "$disk")" \
    "$(field "$disk_result" p50_ms)" "$(field "$disk_result" p99_ms)"

echo "2. CPU of the sandbox by stage, creates on disk (perf, inclusive share of samples)"
perf report -i "$work/perf.data" --children --stdio --no-header --sort symbol -g none 2>/dev/null \
    | swift demangle --simplified >"$work/report.txt"
stage() {   # label, pattern: the largest inclusive share among the matching symbols
    local share
    share="$( (grep -E "$2" "$work/report.txt" || true) | awk '{print $1}' | tr -d % | sort -n | tail -1)"
    printf '  %-66s %6s%%\n' "$1" "${share:-0}"
}
stage "POST /v1/charges: SandboxAPI.createCharge(as:request:), all of it" 'SandboxAPI\.createCharge\(as:'
stage "  JSON decoding of the body (the generated server's, ChargeBody.init(from:))" 'ChargeBody\.init\(from:'
stage "  store.insertCharge: write the record, queue it, await the commit" 'SQLiteSandboxStore\.insertCharge'
stage "the commit: a batch's SQL statements and COMMIT (SQLiteSandboxStore.commit)" 'SQLiteSandboxStore\.commit\('
stage "  inside SQLite (sqlite3_step, on NIO's thread pool)" 'sqlite3_step'
stage "token check (OperationPermissions, cached)" 'OperationPermissions\.intercept'
stage "answer: JSON encoding of the envelope (ChargeCreated.encode(to:))" 'ChargeCreated\.encode\(to:'
stage "Foundation JSONEncoder.encode, all callers" '\] (specialized )?JSONEncoder\.encode'
stage "Foundation JSONDecoder.decode, all callers" '\] (specialized )?JSONDecoder\.decode'
stage "HTTP/1 parsing (NIOHTTP1 decoder)" 'HTTPDecoder|llhttp'
stage "socket writes and reads (kernel)" 'sys_write|sys_writev|sys_read|sys_sendmsg|sys_recvfrom'
stage "random ids and tokens" 'randomDigits|randomHex|ChargeIdentifiers\.next'

# ticks: the sandbox's user and system ticks, then all cores' busy, idle and iowait ticks.
ticks() {
    awk '{print $14, $15}' "/proc/$pid/stat"
    awk '/^cpu /{print $2 + $3 + $4 + $7 + $8 + $9, $5, $6}' /proc/stat
}
account() {   # account LABEL SCRIPT [URL-SUFFIX]: one wrk run, both cores' time per request
    local before after result made
    before="$(ticks | tr '\n' ' ')"
    result="$(run "$2" "${3:-}")"
    after="$(ticks | tr '\n' ' ')"
    made="$(field "$result" charges)"; made="${made:-$(field "$result" requests)}"
    python3 - "$1" "$made" "$(getconf CLK_TCK)" "$(nproc)" $before $after <<'PY'
import sys
label, made, hz, cores = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
a, b = [int(x) for x in sys.argv[5:10]], [int(x) for x in sys.argv[10:15]]
d = [y - x for x, y in zip(a, b)]
us = lambda t: t * 1e6 / hz / max(made, 1) / cores   # section 1's unit: the time of all cores per request
user, system, busy, idle, iowait = d
print(f"  {label:<30} {us(user):6.0f} {us(system):6.0f} {us(busy - user - system):6.0f} {us(idle):6.0f} {us(iowait):6.0f} {us(busy + idle + iowait):6.0f}")
PY
}

echo "3. the disk: fsync and fdatasync during $seconds s of creates on disk"
start "$work/d.sqlite" strace -f -c -w -e trace=fsync,fdatasync -o "$work/strace.txt"
made="$(field "$(run charge.lua)" charges)"
kill -INT "$pid"; wait "$server" 2>/dev/null || true; server=""
echo "  $made charges created under strace (which slows the server); wall-clock time in the calls:"
grep -E "fsync|fdatasync|% time" "$work/strace.txt" | sed 's/^/  /' || cat "$work/strace.txt"

echo "4. both cores' time per request, in section 1's µs (default log level, the log written beside the database)"
printf '  %-30s %6s %6s %6s %6s %6s %6s\n' "" "user" "system" "others" "idle" "iowait" "all"
log_level=info log="$work/info.log" start "$work/e.sqlite"
account "GET /v1/health" health.lua /v1/health
account "create on disk" charge.lua
stop
log_level=info log="$shm/info.log" start "$shm/f.sqlite"
account "create on tmpfs (and its log)" charge.lua
stop
echo "  (user and system: the sandbox's CPU; others: wrk and the kernel's threads; idle and"
echo "  iowait: no core had work, iowait while some thread waited for the disk)"

echo "5. the disk's requests during $seconds s of creates on disk (block and ext4 tracepoints, whole machine)"
start "$work/g.sqlite"
perf record -a -e block:block_rq_issue -e ext4:ext4_sync_file_enter -o "$work/block.data" -- sleep $((seconds + 1)) \
    >"$work/block.log" 2>&1 &
recorder=$!
sleep 0.5
made="$(field "$(run charge.lua)" charges)"
if wait "$recorder" && command -v filefrag >/dev/null; then
    # Which file each written block belongs to: the extents of the WAL and of the database.
    extents() { filefrag -v "$1" | awk -F: '$1 ~ /^ *[0-9]+$/ {split($3, r, /\.\./); gsub(/ /, "", r[1]); gsub(/ /, "", r[2]); print r[1], r[2]}'; }
    perf script -i "$work/block.data" -F event,trace 2>/dev/null >"$work/block.txt"
    # The tracepoints name the whole disk and its sectors: on a partition, its disk and start.
    filesystem="$(stat -c '%Hd:%Ld' "$work/g.sqlite")" disk="" start=0
    if [ -e "/sys/dev/block/$filesystem/partition" ]; then
        disk="$(cat "/sys/dev/block/$filesystem/../dev")"; start="$(cat "/sys/dev/block/$filesystem/start")"
    fi
    python3 - "$made" "${filesystem/:/,}" "${disk/:/,}" "$start" "$(stat -f -c %S "$work/g.sqlite")" \
        "$(stat -c %i "$work/g.sqlite-wal")" "$(extents "$work/g.sqlite-wal" | tr '\n' ' ')" \
        "$(extents "$work/g.sqlite" | tr '\n' ' ')" "$work/block.txt" <<'PY'
import re, sys
made, filesystem, disk, start, block_size = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
wal_inode = sys.argv[6]
device = disk or filesystem   # what the block tracepoints name
def ranges(text):
    numbers = [int(n) for n in text.split()]
    return list(zip(numbers[0::2], numbers[1::2]))
wal, database = ranges(sys.argv[7]), ranges(sys.argv[8])
counts, sizes, wal_syncs = {}, {}, 0
for line in open(sys.argv[9]):
    if "ext4_sync_file_enter" in line:
        if f"dev {filesystem} ino {wal_inode} " in line: wal_syncs += 1
        continue
    found = re.search(r"block_rq_issue: (\S+) (\S+) (\d+) \(.*?\) (\d+) \+ \d+", line)
    if not found or found.group(1) != device: continue
    kind, size = found.group(2), int(found.group(3))
    block = (int(found.group(4)) - start) * 512 // block_size   # the file system's block
    within = lambda extents: any(first <= block <= last for first, last in extents)
    if kind.startswith("F"): what = "cache flushes"
    elif "R" in kind: what = "reads"
    elif "M" in kind: what = "metadata writes (inodes)"
    elif within(wal): what = "writes to the WAL"
    elif within(database): what = "writes to the database (checkpoints)"
    else: what = "other writes"
    counts[what] = counts.get(what, 0) + 1
    sizes[what] = sizes.get(what, 0) + size
commits = max(wal_syncs, 1)
print(f"  {made} charges, {wal_syncs} fsyncs of the WAL: {made / commits:.1f} charges a commit")
print(f"  {'':<40} {'per commit':>10} {'per charge':>10} {'KiB each':>9}")
for what in ["writes to the WAL", "writes to the database (checkpoints)", "metadata writes (inodes)",
             "other writes", "cache flushes", "reads"]:
    n = counts.get(what, 0)
    if n: print(f"  {what:<40} {n / commits:10.2f} {n / max(made, 1):10.3f} {sizes[what] / n / 1024:9.1f}")
total = sum(n for what, n in counts.items() if what != "reads")
print(f"  {'all writes and flushes':<40} {total / commits:10.2f} {total / max(made, 1):10.3f}")
PY
else
    echo "  skipped: perf could not record the tracepoints (root is needed), or filefrag is missing"
    sed 's/^/  /' "$work/block.log" | tail -3
fi
stop
