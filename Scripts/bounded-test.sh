#!/usr/bin/env bash
# Runs a test command (`swift test ...`) with a bound on its time: past LIMIT seconds it prints
# the tests that started and never ended, and every thread's stack in the command's test process
# (gdb), then stops the command and fails. A hang then names its place, instead of running into
# CI's own limit with the last lines of output still in a buffer.
#
#     bash Scripts/bounded-test.sh LIMIT swift test [arguments...]
#
# The command's output passes through unchanged and whole before this script returns; its exit
# status is this script's (124 when the bound stopped it). Only the command's own descendants
# are stopped, never another run's test process.
set -uo pipefail

limit=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT

"$@" >"$log" 2>&1 &
pid=$!
# Shows the output as it comes, and ends once the command has and the file is read to its end.
tail -n +1 -f --pid="$pid" "$log" &
shown=$!

# The command's descendants, deepest last.
descendants() {
    local child
    for child in $(pgrep -P "$1" || true); do
        echo "$child"
        descendants "$child"
    done
}

started=$SECONDS
while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS - started > limit)); then
        echo "== '$*' still running after $limit s: the tests that started and never ended" >&2
        python3 - "$log" >&2 <<'EOF'
import re, sys
text = open(sys.argv[1], errors="replace").read()
started = re.findall(r'◇ Test (.+?) started\.', text)
ended = set(re.findall(r'[✔✘] Test (.+?)(?: with \d+ test cases?)? (?:passed|failed)', text))
for name in dict.fromkeys(started):
    if name not in ended and not name.startswith("case passing"):
        print("   ", name)
EOF
        family=$(descendants "$pid")
        for test_pid in $family; do
            grep -q 'PackageTests\.xctest' "/proc/$test_pid/cmdline" 2>/dev/null || continue
            echo "== threads of the test process $test_pid" >&2
            timeout 120 gdb -p "$test_pid" -batch -ex "thread apply all bt 25" 2>/dev/null \
                | grep -E '^(Thread|#)' | head -400 >&2 || true
        done
        kill -9 "$pid" $family 2>/dev/null || true
        wait "$pid" 2>/dev/null
        wait "$shown" 2>/dev/null
        exit 124
    fi
    sleep 2
done
wait "$pid"
status=$?
wait "$shown" 2>/dev/null
exit "$status"
