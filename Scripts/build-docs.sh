#!/usr/bin/env bash
# Builds the DocC documentation of every public module into a static site, and fails on any DocC
# warning (a broken ``symbol`` link or <doc:Article> included) and on any public symbol without a
# doc comment of its own (Scripts/doc-coverage.py; DocC does not warn about those).
#
#   bash Scripts/build-docs.sh
#   python3 -m http.server --directory .docs-site 8000   # then open http://localhost:8000/
#
# DOCS_SCRATCH_PATH  build directory for the symbol graphs (default .build-docs)
# DOCS_SITE          output folder (default .docs-site)
# DOCS_BASE_PATH     path the site is served under, e.g. "swift-http-pipeline" (default: the root)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${DOCS_SCRATCH_PATH:-.build-docs}"
site="${DOCS_SITE:-.docs-site}"
base="${DOCS_BASE_PATH:-}"
base="${base#/}"
base="${base%/}"
docc="${DOCC:-$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v swift)")")/docc")}"

# Every public module, in the order the site lists them, and where its catalog lives.
modules=(
    HTTPPipeline HTTPPipelineTesting HTTPPipelineHeaders HTTPPipelineLogging HTTPPipelineRetry
    HTTPPipelineAuth HTTPPipelineGzip HTTPPipelineStandard HTTPPipelineAPI
    HTTPPipelineRedirect HTTPPipelineTimeout HTTPPipelineCassette HTTPPipelineConcurrencyLimit
    HTTPPipelineCircuitBreaker HTTPPipelineHedging HTTPPipelineCache HTTPPipelineCookies HTTPPipelineTracing HTTPPipelineEvents HTTPPipelineCurl HTTPPipelineURLSession HTTPPipelineRedaction HTTPPipelineZlib
)
catalog() {
    for root in Sources Plugins; do
        if [ -d "$root/$1/$1.docc" ]; then
            echo "$root/$1/$1.docc"
            return
        fi
    done
    echo "no catalog: $1/$1.docc under Sources/ or Plugins/" >&2
    return 1
}

started=$SECONDS
echo "-- symbol graphs (swift package dump-symbol-graph, public symbols)"
log="$scratch/dump-symbol-graph.log"
mkdir -p "$scratch"
# Extraction also tries the synthesized test-runner modules and complains that it cannot load
# them; only the library modules matter, and their graphs are checked for below.
swift package --scratch-path "$scratch" dump-symbol-graph --minimum-access-level public \
    --emit-extension-block-symbols >"$log" 2>&1 || true
graphs=$(find "$scratch" -type d -name symbolgraph | head -n 1)
for module in "${modules[@]}"; do
    if [ -z "$graphs" ] || [ ! -f "$graphs/$module.symbols.json" ]; then
        cat "$log" >&2
        echo "no symbol graph was emitted for $module" >&2
        exit 1
    fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$site"
mkdir -p "$site"
failed=()
for module in "${modules[@]}"; do
    echo "-- $module"
    # The module's own graph and its extensions of other modules' types, nothing else: another
    # module's symbols would be documented twice.
    mkdir -p "$work/$module"
    cp "$graphs/$module.symbols.json" "$work/$module/"
    find "$graphs" -name "$module@*.symbols.json" -exec cp {} "$work/$module/" \;
    if ! "$docc" convert "$(catalog "$module")" \
        --additional-symbol-graph-dir "$work/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.swift-http-pipeline.$module" \
        --output-path "$site/$module.doccarchive" \
        --transform-for-static-hosting \
        --hosting-base-path "${base:+$base/}$module.doccarchive" \
        --warnings-as-errors; then
        failed+=("$module")
    fi
done

echo "-- every public symbol documented (Scripts/doc-coverage.py)"
if ! python3 Scripts/doc-coverage.py "$graphs" "${modules[@]}"; then
    failed+=("doc comments")
fi

# The entry page: one link per module, to its landing page, with the landing page's abstract
# whole (Scripts/docs-index.py; it fails on a summary cut mid-sentence).
echo "-- entry page (Scripts/docs-index.py)"
index_args=()
for module in "${modules[@]}"; do
    index_args+=("$module=$(catalog "$module")")
done
if ! python3 Scripts/docs-index.py "$site/index.html" "${index_args[@]}"; then
    failed+=("entry page")
fi

if [ ${#failed[@]} -gt 0 ]; then
    echo "documentation FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "documentation built in $((SECONDS - started)) s: $site/index.html (serve the folder over HTTP, e.g. python3 -m http.server --directory $site)"
