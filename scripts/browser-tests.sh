#!/usr/bin/env bash
# Clicks the sandbox's pages in headless Chromium (Tools/Tests/Browser/test_pages.py): the
# wallet, the QR page, the dashboard and the landing page, at a phone's size and a
# desktop's, each outcome checked through the API; and another site's posts refused.
# Needs Debian's chromium and chromium-driver, and Selenium from PyPI (installed when
# missing). Usage: scripts/browser-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v chromedriver >/dev/null || { echo "browser-tests: install chromium and chromium-driver (apt-get install -y chromium chromium-driver)" >&2; exit 69; }
python3 -c 'import selenium' 2>/dev/null \
    || python3 -m pip install -q selenium 2>&1 | grep -v "WARNING: Running pip as the 'root'" || true
swift build --package-path Tools --product chargekit-server >/dev/null
bin="$(swift build --package-path Tools --show-bin-path)/chargekit-server"
work="$(mktemp -d)"
export CHARGEKIT_MERCHANT_KEY="sk_browser_$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
"$bin" sandbox serve --port 0 --db "$work/sandbox.sqlite" >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
. scripts/lib/sandbox.sh
wait_for_sandbox "$work/server.log" browser-tests
swift build --package-path Tools --product chargekit >/dev/null
SANDBOX_URL="$base" CHARGEKIT_BIN="$(dirname "$bin")/chargekit" python3 Tools/Tests/Browser/test_pages.py
