#!/usr/bin/env bash
# Runs a test command (`swift test ...`) with a bound on its time: past LIMIT seconds it prints
# the tests that started and never ended, and every thread's stack in the test process (gdb),
# then stops it and fails. A hang then names its place, instead of running into CI's own limit
# with the last lines of output still in a buffer.
#
#     bash Scripts/bounded-test.sh LIMIT swift test [arguments...]
#
# The command's output passes through unchanged; its exit status is this script's.
set -uo pipefail

limit=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT

"$@" > >(tee "$log") 2>&1 &
pid=$!
started=$SECONDS
while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS - started > limit)); then
        echo "== '$*' still running after $limit s: the tests that started and never ended" >&2
        python3 - "$log" >&2 <<'EOF'
import re, sys
text = open(sys.argv[1], errors="replace").read()
started = re.findall(r'◇ Test (.+?) started\.', text)
ended = set(re.findall(r'[✔✘] Test (.+?) (?:passed|failed)', text))
ended |= {re.sub(r' with \d+ test cases?$', '', name) for name in ended}
for name in dict.fromkeys(started):
    if name not in ended and not name.startswith("case passing"):
        print("   ", name)
EOF
        for test_pid in $(pgrep -f 'PackageTests\.xctest' || true); do
            echo "== threads of the test process $test_pid" >&2
            timeout 120 gdb -p "$test_pid" -batch -ex "thread apply all bt 25" 2>/dev/null | grep -E '^(Thread|#)' | head -400 >&2 || true
            kill -9 "$test_pid" 2>/dev/null || true
        done
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null
        exit 124
    fi
    sleep 2
done
wait "$pid"
