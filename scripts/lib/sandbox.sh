# Sourced by the scripts that start `chargekit sandbox serve` with its output in a
# file. Usage: wait_for_sandbox LOG NAME [tenths=100]
# Waits until the sandbox has printed its address and merchant key (at most `tenths`
# tenths of a second), then sets $base and $key; otherwise stops, naming NAME, with
# the sandbox's output.
wait_for_sandbox() {
    local log="$1" name="$2" tenths="${3:-100}"
    for _ in $(seq 1 "$tenths"); do grep -q "^merchant key:" "$log" && break; sleep 0.1; done
    base="$(sed -n 's/^Citcon UPI sandbox listening on //p' "$log")"
    # A key given (CHARGEKIT_MERCHANT_KEY) is printed masked; a generated one in full.
    key="${CHARGEKIT_MERCHANT_KEY:-$(sed -n 's/^merchant key: //p' "$log")}"
    [ -n "$base" ] && [ -n "$key" ] || { echo "$name: the sandbox did not start" >&2; cat "$log" >&2; exit 1; }
}

# Usage: field LINE KEY
# The value of KEY in a RESULT line of scripts/loadtest/*.lua (`key=value` words), for
# the scripts that drive the sandbox with wrk (loadtest.sh, profile-create.sh).
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
