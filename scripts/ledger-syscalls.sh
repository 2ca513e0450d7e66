#!/usr/bin/env bash
# Counts the system calls one issue + verify makes on the file ledger's own files (its
# journal and lock, by path or descriptor) in the steady state: LedgerProbe warms up
# (20 rounds), writes "begin" to standard error, makes N rounds, writes "end"; strace
# -f -y records file and descriptor calls, and the calls between the markers that name
# the ledger's folder are divided by N. Thread wake-ups (futex) and other files are not
# counted. Fails when the figure passes the bound.
# Usage: scripts/ledger-syscalls.sh [bound=14] [rounds=200]
set -euo pipefail
cd "$(dirname "$0")/.."
bound="${1:-14}"
rounds="${2:-200}"
command -v strace >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq strace >/dev/null; }
swift build --package-path Tools --product LedgerProbe >/dev/null
probe="$(swift build --package-path Tools --show-bin-path 2>/dev/null)/LedgerProbe"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"
strace -f -y -qq -e trace=%file,%desc -o "$work/trace" "$probe" steps "$work/ledger/ledger.json" "$rounds" 2>/dev/null
python3 - "$work/trace" "$work/ledger/" "$rounds" "$bound" <<'PY'
import collections, sys
trace, folder, rounds, bound = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
lines = open(trace).read().splitlines()
begin = next(i for i, l in enumerate(lines) if '"begin\\n"' in l)
end = next(i for i, l in enumerate(lines) if '"end\\n"' in l)
calls = [l for l in lines[begin + 1:end] if folder in l]
names = collections.Counter(l.split('(')[0].split()[-1] for l in calls)
per = len(calls) / rounds
print(f"ledger-syscalls: {per:.2f} calls on the ledger's files per issue + verify (bound {bound:g}), over {rounds} rounds: "
      + ", ".join(f"{name} {count / rounds:.2f}" for name, count in names.most_common()))
sys.exit(0 if per <= bound else 1)
PY
