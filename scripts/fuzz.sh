#!/usr/bin/env bash
# Runs every libFuzzer harness (Fuzz/*) for the given seconds each (default 60),
# seeded with the seeds' examples in Fuzz/corpus/<harness>/. A crash stops with
# exit 1 and leaves the input in Fuzz/crashes/<harness>/; keep it as a regression
# test in the SDK's tests (Tests/ChargeKitTests) once fixed.
# Usage: scripts/fuzz.sh [seconds] [harness...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
harnesses=("$@")
# Every harness folder (FuzzCallbacks reads every registered app's callbacks).
[ ${#harnesses[@]} -gt 0 ] || mapfile -t harnesses < <(cd Fuzz && ls -d Fuzz* | sort)
export SWIFT_BACKTRACE=enable=no   # a crash must report, not hang in the backtracer
export CHARGEKIT_FUZZ=1
build=(swift build --scratch-path .build-fuzz --sanitize fuzzer --sanitize address)
for harness in "${harnesses[@]}"; do
  if ! "${build[@]}" --product "$harness" >/tmp/chargekit-fuzz-build.log 2>&1; then
    grep -E "error" /tmp/chargekit-fuzz-build.log | head -20
    echo "fuzz: building $harness failed" >&2
    exit 2
  fi
done
bin="$("${build[@]}" --show-bin-path)"
failed=0
for harness in "${harnesses[@]}"; do
  work="$(mktemp -d)"
  cp Fuzz/corpus/"$harness"/* "$work"/
  mkdir -p Fuzz/crashes/"$harness"
  echo "== $harness for ${seconds}s"
  if "$bin/$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix=Fuzz/crashes/"$harness"/ "$work" >"$work.log" 2>&1; then
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work.log" | tr '\n' ' '; echo
  else
    failed=1
    echo "CRASH in $harness; input kept in Fuzz/crashes/$harness/"
    grep -E "ERROR|SUMMARY|Fatal|precondition|artifact" "$work.log" | head -20
  fi
  rm -rf "$work" "$work.log"
done
exit $failed
