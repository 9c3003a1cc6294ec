#!/usr/bin/env bash
# Swift 6 language-mode checks of the API shapes (SIL diagnostics included: -emit-sil, not -typecheck,
# because ownership and escaping errors are found in SIL).
cd "$(dirname "$0")"
for f in [a-h]*_*.swift; do
    echo "=== $f"
    out=$(swiftc -swift-version 6 -parse-as-library -wmo -emit-sil -o /dev/null common.swift "$f" 2>&1 \
        | grep -E "error|warning" | grep -v '^ *|' | sed 's/^.*compile-checks\///')
    echo "${out:-compiles, no warnings}"
done
