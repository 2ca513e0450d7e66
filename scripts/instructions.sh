#!/usr/bin/env bash
# Instructions per operation, which do not depend on a noisy machine: runs each
# operation of the benchmarks (Benchmarks/Sources/HandoffOperations) under
# valgrind --tool=callgrind with N and N + 1000 iterations and prints the
# difference / 1000, for ChargeKit and for the URLComponents path of the same work.
# Needs Debian's valgrind package (apt-get install -y valgrind).
# Usage: scripts/instructions.sh [--markdown]
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
command -v valgrind >/dev/null || { echo "instructions: install valgrind first (apt-get install -y valgrind)" >&2; exit 69; }
swift build -c release --product InstructionCounts >/dev/null 2>&1 || swift build -c release --product InstructionCounts
bin="$(swift build -c release --show-bin-path 2>/dev/null)/InstructionCounts"
count() {   # program arguments... iterations -> total instructions collected
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
# Instructions per operation: the program run with 1 100 and with 100 iterations (its
# last argument), the difference divided by 1 000, so that start-up is left out.
per_operation() { echo $(( ($(count "$@" 1100) - $(count "$@" 100)) / 1000 )); }
ratio() { python3 -c "print(f'{$2 / $1:.1f}')"; }   # ours theirs -> how many times fewer
markdown="${1:-}"
[ "$markdown" = --markdown ] && { echo "| operation | ChargeKit instructions | URLComponents instructions | ratio |"; echo "|---|---|---|---|"; }
"$bin" list | while IFS=$'\t' read -r index name; do
    ours="$(per_operation "$bin" "$index" chargekit)"
    theirs="$(per_operation "$bin" "$index" urlcomponents)"
    ratio="$(ratio "$ours" "$theirs")"
    if [ "$markdown" = --markdown ]; then
        echo "| $name | $ours | $theirs | $ratio× fewer |"
    else
        printf '%-42s ChargeKit %8s   URLComponents %8s   %s× fewer\n' "$name" "$ours" "$theirs" "$ratio"
    fi
done

