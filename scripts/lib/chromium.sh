# Sourced by the screenshot scripts: sets $browser to a headless-capable Chromium,
# or stops with exit 69 naming the package to install. Usage: require_chromium NAME
require_chromium() {
    browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
    [ -n "$browser" ] || { echo "$1: install Chromium first (apt-get install -y chromium)" >&2; exit 69; }
}
