#!/usr/bin/env bash
# Regenerates the public API listing (api/<Module>.api) from the compiler's symbol graphs and
# fails when it differs from the committed one, so a public API change is always a visible,
# reviewed diff.
#
#   Scripts/check-api.sh            check (CI)
#   Scripts/check-api.sh --update   rewrite api/ after an intended change
#
# API_SCRATCH_PATH chooses the build directory (default .build-api-listing).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${API_SCRATCH_PATH:-.build-api-listing}"
# Extracted at internal level: at public level the compiler leaves out every underscored public
# symbol (the builder's composites), which are API all the same; the listing keeps public ones.
# Extraction also tries the synthesized test-runner modules and complains that it cannot load
# them; only the library modules matter here, and their graphs are checked for below.
swift package --scratch-path "$scratch" dump-symbol-graph --minimum-access-level internal >/dev/null 2>&1 || true
graphs=$(find "$scratch" -type d -name symbolgraph | head -n 1)
if [ -z "$graphs" ] || [ ! -f "$graphs/HTTPPipeline.symbols.json" ]; then
    echo "no symbol graphs were emitted" >&2
    exit 1
fi
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
python3 Scripts/api-listing.py "$graphs" "$fresh"
if [ "${1:-}" = "--update" ]; then
    rm -rf api && mkdir -p api && cp "$fresh"/*.api api/
    echo "api/ updated"
    exit 0
fi
if ! diff -ru api "$fresh"; then
    echo "The public API changed. If that is intended, run Scripts/check-api.sh --update and commit api/." >&2
    exit 1
fi
echo "public API unchanged"
