#!/usr/bin/env bash
# Runs Schemathesis against a running sandbox: every operation of Tools/openapi/sandbox.yaml
# (as the server serves it) with generated valid and invalid inputs, authenticated with
# a server token; no 5xx, every answer matching the document. Installs Schemathesis and
# openapi-spec-validator from PyPI when missing. Usage: scripts/schemathesis.sh [examples=40]
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${1:-40}"
command -v st >/dev/null && command -v openapi-spec-validator >/dev/null \
    || python3 -m pip install -q schemathesis openapi-spec-validator 2>&1 | grep -v "WARNING: Running pip as the 'root'" || true
openapi-spec-validator Tools/openapi/sandbox.yaml

work=$(mktemp -d)
bin="$(swift build --package-path Tools --show-bin-path)/chargekit-server"
CHARGEKIT_MERCHANT_KEY=sk_schemathesis_0123456789 "$bin" sandbox serve --port 0 --db "$work/s.sqlite" > "$work/out" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
report_server() { kill -0 "$pid" 2>/dev/null || { echo "schemathesis: the sandbox died; its last output:" >&2; tail -20 "$work/out" >&2; }; }
. scripts/lib/sandbox.sh
wait_for_sandbox "$work/out" schemathesis
token=$(curl -sf -X POST "$base/v1/access-tokens" -H 'Authorization: Bearer sk_schemathesis_0123456789' \
    -d '{"token_type":"server"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["access_token"])')
# Every check but positive_data_acceptance: a reference is an idempotency key, so a
# schema-valid request is rightly refused (4100) once its reference was used, and a
# refund of a charge never paid rightly answers 4202; both answers are documented.
# The coverage phase is left out: with this Python it stops on an internal error of
# its own ("AST constructor recursion depth mismatch" while drawing an object).
st run "$base/openapi.yaml" --url "$base" -H "Authorization: Bearer $token" --checks all \
    --exclude-checks positive_data_acceptance \
    --phases examples,fuzzing,stateful \
    --max-examples "$examples" --seed 7 --workers 2 --request-timeout 10 --report junit --report-dir "$work/report" \
    || { status=$?; report_server; exit $status; }
# The dashboard takes the merchant key, not an access token: its own pass.
st run "$base/openapi.yaml" --url "$base" -H "Authorization: Bearer sk_schemathesis_0123456789" --checks all \
    --exclude-checks positive_data_acceptance --include-path /sandbox/dashboard \
    --phases examples,fuzzing --max-examples "$examples" --seed 7 --workers 2 --request-timeout 10 \
    || { status=$?; report_server; exit $status; }
report_server
