#!/usr/bin/env bash
# Builds the libFuzzer fuzzers (address sanitizer on) and runs each for a bounded time, starting
# from a temporary copy of its committed seed corpus (Fuzz/Corpus/<fuzzer>/), so the checkout
# is never changed. A crash, a broken invariant, a leak, a timeout or running out of memory fails
# the script, and the reproducer is kept under .fuzz/artifacts/<fuzzer>/ (gitignored).
#
#   Scripts/fuzz.sh                      every fuzzer for 60 s
#   Scripts/fuzz.sh 300 gzip redaction   the named fuzzers for 300 s each
#   FUZZ_KEEP_CORPUS=1 Scripts/fuzz.sh   keep the grown corpora in .fuzz/corpus/<fuzzer>/
#
# Fuzzers: gzip, retry-after, redaction. Replay a reproducer with the fuzzer binary the script
# prints, or without libFuzzer: swift run FuzzGzip <file>. Keep it as a test by adding it to
# Fuzz/Regressions/<fuzzer>/ (Tests/FuzzCorpusTests replays that folder).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
fuzzers=("$@")
[ ${#fuzzers[@]} -gt 0 ] || fuzzers=(gzip retry-after redaction)
scratch=.build-fuzz

product() {
    case "$1" in
    gzip) echo FuzzGzip ;;
    retry-after) echo FuzzRetryAfter ;;
    redaction) echo FuzzRedaction ;;
    *) echo "unknown fuzzer '$1' (gzip, retry-after, redaction)" >&2; exit 2 ;;
    esac
}

# --sanitize=fuzzer makes SwiftPM link libFuzzer's main instead of the executable's own; the
# -sanitize=fuzzer,address passed to every compile instruments the code for coverage (SwiftPM's
# own flag pair reaches the compiler as address only); HTTP_PIPELINE_LIBFUZZER leaves out the
# replaying main of the ordinary build.
build_flags=(-c release --scratch-path "$scratch" --sanitize=fuzzer
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DHTTP_PIPELINE_LIBFUZZER)
started=$(date +%s)
for fuzzer in "${fuzzers[@]}"; do
    # pipefail: a build that fails stops here, instead of fuzzing a binary left by an older build.
    swift build "${build_flags[@]}" --product "$(product "$fuzzer")" 2>&1 |
        { grep -v "Cannot export local symbol '__asan" || true; }
    [ -x "$scratch/release/$(product "$fuzzer")" ] || { echo "building $fuzzer failed" >&2; exit 1; }
done
echo "built ${#fuzzers[@]} fuzzer(s) in $(($(date +%s) - started)) s"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()
for fuzzer in "${fuzzers[@]}"; do
    binary="$scratch/release/$(product "$fuzzer")"
    corpus="$work/$fuzzer"
    artifacts=".fuzz/artifacts/$fuzzer"
    mkdir -p "$corpus" "$artifacts"
    cp Fuzz/Corpus/"$fuzzer"/* "$corpus"/
    cp Fuzz/Regressions/"$fuzzer"/* "$corpus"/ 2>/dev/null || true
    echo "-- $fuzzer: ${seconds} s from $(ls "$corpus" | wc -l) seeds"
    status=0
    # SWIFT_BACKTRACE=enable=no: a failed check aborts at once instead of waiting for the Swift
    # backtracer; libFuzzer prints the stack. Leak detection stays on (libFuzzer's default).
    # Resident memory climbs to about 500 MB within a minute: that is ASan's quarantine of freed
    # blocks (256 MB by default), not a leak.
    SWIFT_BACKTRACE=enable=no "$binary" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -dict="Fuzz/Dictionaries/$fuzzer.dict" -artifact_prefix="$artifacts/" \
        -print_final_stats=1 "$corpus" >"$work/$fuzzer.log" 2>&1 || status=$?
    grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)" "$work/$fuzzer.log" | sed "s/^/   /" || true
    grep -E "^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)" "$work/$fuzzer.log" |
        sed "s/^/   /" || true
    if [ "${FUZZ_KEEP_CORPUS:-}" = 1 ]; then
        mkdir -p ".fuzz/corpus/$fuzzer" && cp "$corpus"/* ".fuzz/corpus/$fuzzer/"
    fi
    if [ "$status" -ne 0 ]; then
        failed+=("$fuzzer")
        cp "$work/$fuzzer.log" "$artifacts/last-run.log"
        grep -E "invariant broken|ERROR: |SUMMARY: |Fatal error" "$artifacts/last-run.log" | head -n 20 >&2 || true
        for reproducer in $(grep -oE "Test unit written to [^ ]+" "$artifacts/last-run.log" | cut -d' ' -f5); do
            echo "REPRODUCER: $reproducer (replay: $binary $reproducer)" >&2
        done
        echo "   log: $artifacts/last-run.log" >&2
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzzing failed: ${failed[*]}" >&2
    exit 1
fi
echo "fuzzing passed: ${fuzzers[*]}"
