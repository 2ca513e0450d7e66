#!/usr/bin/env bash
# Every file of the repository outside an app's home that names the app, in code,
# comments or prose: what adding (or removing) the app touches beyond its own files.
# An app's home is every path that names it (Sources/ChargeKit/<App>/, <App>Tests.swift,
# api/ChargeKit/<App>.txt, scripts/cli-check/<app>.sh…).
#
# Usage: scripts/app-footprint.sh PATTERN|--newest [--max N]
#          PATTERN   an extended regular expression, matched without case ('myapp')
#          --newest  the newest app: the last of the registry
#          --max N   exit 1 when more than N files name it
#        scripts/app-footprint.sh --every-app [--class code|tests|docs]... [--newest] [--list]
#          Each registered app (RegisteredApps.all) held to its bounds, by class of file:
#            code   everything but tests and prose, its comments left out: only the three
#                   registries may name it; a comment may name one app for example, but a
#                   comment naming two apps or more is a list kept by hand, and fails
#                   (Sources/ChargeKit/Providers/RegisteredApps.swift,
#                   Sources/ChargeKitSimulators/SimulatedApps.swift,
#                   Tools/Sources/ChargeKitCommands/ToolApps.swift)
#            tests  Tests/, Tools/Tests/, scripts/cli-check*: none (its own test file and
#                   cli-check script are its home; the suites run over every app name none)
#            docs   *.md and the DocC catalogues: only the docs index (ChargeKit.md),
#                   README.md and CHANGELOG.md (its article is its home); a document's
#                   compiled samples (Tools/Tests/DocumentationSamples/<Document>.swift)
#                   count as the document
#          An app is named by its folder (`MyApp`, `myApp`) or its provider id (`myapp`,
#          `MYAPP`), matched with case, so that `CleanExit` names no app. Exit 1 when an
#          app is named past its bounds, listing where; --newest holds the newest app
#          only; --list prints every count.
#        scripts/app-footprint.sh --self-test
#          The check on a copy of the repository with one mention planted in the core, in
#          another app's home, in a shared test and in a shared article: each must fail it,
#          the copy as it is must pass every bound.
set -euo pipefail
cd "$(dirname "$0")/.."

apps() {  # each registered app: its folder (the registry's type) and its identifier
    grep -o '[A-Za-z]*\.self' Sources/ChargeKit/Providers/RegisteredApps.swift | sed 's/\.self//' | while read -r folder; do
        id=$(grep -ho 'static let identifier = "[a-z]*"' "Sources/ChargeKit/$folder/"*.swift 2>/dev/null | head -1 | sed 's/.*"\(.*\)"/\1/')
        echo "$folder ${id:-$(echo "$folder" | tr '[:upper:]' '[:lower:]')}"
    done
}

every_app() {  # the bounds, checked in one pass over the files (git's, and new ones not ignored)
    apps > "${TMPDIR:-/tmp}/chargekit-apps.$$"
    python3 - "${TMPDIR:-/tmp}/chargekit-apps.$$" "$@" <<'PY'
import re, subprocess, sys
apps_file, args = sys.argv[1], sys.argv[2:]
apps = [line.split() for line in open(apps_file) if line.strip()]
classes, listing, newest = [], False, False
i = 0
while i < len(args):
    if args[i] == "--class" and i + 1 < len(args) and args[i + 1] in ("code", "tests", "docs"):
        classes.append(args[i + 1]); i += 2
    elif args[i] == "--list": listing = True; i += 1
    elif args[i] == "--newest": newest = True; i += 1
    else:
        print("usage: scripts/app-footprint.sh --every-app [--class code|tests|docs]... [--newest] [--list]", file=sys.stderr); sys.exit(64)
classes = classes or ["code", "tests", "docs"]
registry = {"Sources/ChargeKit/Providers/RegisteredApps.swift", "Sources/ChargeKitSimulators/SimulatedApps.swift",
            "Tools/Sources/ChargeKitCommands/ToolApps.swift"}
index = {"Sources/ChargeKit/ChargeKit.docc/ChargeKit.md", "README.md", "CHANGELOG.md",
         "Tools/Tests/DocumentationSamples/README.swift"}
files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], capture_output=True, text=True, check=True).stdout.split("\n")

def class_of(path):
    if path.startswith("Tools/Tests/DocumentationSamples/"): return "docs"  # a document's samples, generated from it
    if re.match(r"(Tests/|Tools/Tests/|scripts/cli-check|Fuzz/corpus/)", path): return "tests"
    if path.endswith(".md") or ".docc/" in path: return "docs"
    return "code"

def comments_and_code(path, text):
    """The code with its comments left out, and the comments."""
    if re.search(r"\.(swift|m|h|c)$", path):
        comments = re.findall(r"/\*.*?\*/", text, flags=re.S)
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        lines, found = [], []
        for line in text.split("\n"):
            m = re.search(r"(^|[^:\"])(//.*)$", line)
            if m: found.append(m.group(2)); line = line[:m.start(2)]
            lines.append(line)
        return "\n".join(lines), comments + found
    if re.search(r"(\.sh|\.py|\.ya?ml)$|^\.ci/", path):
        kept = [l for l in text.split("\n") if not l.lstrip().startswith("#")]
        return "\n".join(kept), [l for l in text.split("\n") if l.lstrip().startswith("#")]
    return text, []

def pattern(folder, ident):
    return re.compile("|".join(map(re.escape, [folder, folder[0].lower() + folder[1:], ident, ident.upper()])))

texts = {}
for path in files:
    if not path:
        continue
    try:
        texts[path] = open(path, errors="replace").read()
    except (IsADirectoryError, FileNotFoundError):
        pass
status = 0
chosen = apps[-1:] if newest else apps
for folder, ident in chosen:
    named, home = pattern(folder, ident), re.compile(f"{re.escape(folder)}|{re.escape(ident)}", re.I)
    counts, over = {c: 0 for c in classes}, []
    for path, text in texts.items():
        kind = class_of(path)
        if kind not in classes or home.search(path):
            continue
        body = comments_and_code(path, text)[0] if kind == "code" else text
        if not named.search(body):
            continue
        counts[kind] += 1
        if not ((kind == "code" and path in registry) or (kind == "docs" and path in index)):
            over.append(f"{kind}: {path}")
    if listing:
        print(f"{ident}: " + " ".join(f"{c} {n}" for c, n in counts.items()) + " files outside its home name it")
    if over:
        status = 1
        print(f"{ident} is named outside its home past the bounds:")
        print("\n".join("  " + o for o in over))
if "code" in classes:
    every = [pattern(folder, ident) for folder, ident in apps]
    homes = re.compile("|".join(f"{re.escape(f)}|{re.escape(i)}" for f, i in apps), re.I)
    lists = []
    for path, text in texts.items():
        if class_of(path) != "code" or path in registry or homes.search(path):
            continue
        for comment in comments_and_code(path, text)[1]:
            if sum(1 for p in every if p.search(comment)) >= 2:
                lists.append(f"  {path}: {comment.strip()[:100]}"); break
    if lists:
        status = 1
        print("comments that list apps by hand (point to the registry, or name one app for example):")
        print("\n".join(lists))
if status == 0:
    print(f"app footprint: {'the newest app' if newest else 'every registered app'} within its bounds ({' '.join(classes)})")
sys.exit(status)
PY
    local status=$?
    rm -f "${TMPDIR:-/tmp}/chargekit-apps.$$"
    return $status
}

self_test() {
    local copy status=0
    copy=$(mktemp -d)
    trap 'rm -rf "$copy"' RETURN
    git ls-files -co --exclude-standard | while read -r f; do if [ -e "$f" ] || [ -L "$f" ]; then echo "$f"; fi; done \
        | tar -cf - -T - 2>/dev/null | tar -xf - -C "$copy"
    (cd "$copy" && git init -q && bash scripts/app-footprint.sh --every-app >/dev/null) \
        || { echo "app-footprint self-test: the repository as it is fails its bounds" >&2; return 1; }
    read -r first first_id < <(apps | head -1)
    read -r last _ < <(apps | tail -1)
    # A use of one app in the core (the ledger), then in another app's home.
    for target in Sources/ChargeKit/Ledger/ChargeLedger.swift "$(ls Sources/ChargeKit/"$last"/*.swift | head -1)"; do
        (cd "$copy" && cp "$target" "$target.saved" && printf '\nprivate let plantedMention = PaymentProvider.%s\n' \
            "$(echo "${first:0:1}" | tr '[:upper:]' '[:lower:]')${first:1}" >> "$target"
         if bash scripts/app-footprint.sh --every-app --class code >/dev/null; then
             echo "app-footprint self-test: a use of $first in $target was not caught" >&2; exit 1
         fi
         mv "$target.saved" "$target") || status=1
    done
    # A shared test and a shared article that use one app for example.
    for target in Tests/ChargeKitTests/LedgerTests.swift Sources/ChargeKit/ChargeKit.docc/TrustModel.md; do
        (cd "$copy" && cp "$target" "$target.saved" && printf '\n// For example %s.\n' "$first" >> "$target"
         if bash scripts/app-footprint.sh --every-app >/dev/null; then
             echo "app-footprint self-test: $first named in $target was not caught" >&2; exit 1
         fi
         mv "$target.saved" "$target") || status=1
    done
    # A comment listing two apps by hand.
    read -r second _ < <(apps | sed -n 2p)
    (cd "$copy" && printf '\n/// Works with %s and %s.\n' "$first" "$second" >> Sources/ChargeKit/Ledger/ChargeLedger.swift
     if bash scripts/app-footprint.sh --every-app --class code >/dev/null; then
         echo "app-footprint self-test: a comment listing $first and $second was not caught" >&2; exit 1
     fi) || status=1
    [ $status = 0 ] && echo "app-footprint self-test: a use planted in the core, one in another app's home, one in a shared test, one in a shared article and a comment listing two apps each fail it"
    return $status
}

case "${1:-}" in
    --every-app) shift; every_app "$@"; exit $? ;;
    --self-test) self_test; exit $? ;;
esac

[ $# -ge 1 ] || { echo "usage: scripts/app-footprint.sh PATTERN|--newest [--max N] | --every-app | --self-test" >&2; exit 64; }
pattern=$1; max=${3:-}; case_flag=-i
if [ "$pattern" = --newest ]; then
    # The newest app, named as --every-app names it (with case).
    read -r folder id < <(apps | tail -1)
    pattern="$folder|$(echo "${folder:0:1}" | tr '[:upper:]' '[:lower:]')${folder:1}|$id|$(echo "$id" | tr '[:lower:]' '[:upper:]')"
    case_flag=""
fi
[ "${2:-}" = "" ] || [ "${2:-}" = "--max" ] || { echo "usage: scripts/app-footprint.sh PATTERN|--newest [--max N]" >&2; exit 64; }
files=$(git ls-files | grep -Eiv -- "$pattern" | while read -r f; do
    [ -f "$f" ] && grep -Eq $case_flag -- "$pattern" "$f" 2>/dev/null && echo "$f"
done || true)
count=$(printf '%s' "$files" | grep -c . || true)
[ -n "$files" ] && echo "$files"
echo "$count files outside the home of /$pattern/ name it"
if [ -n "$max" ] && [ "$count" -gt "$max" ]; then exit 1; fi
