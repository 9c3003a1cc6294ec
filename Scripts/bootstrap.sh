#!/usr/bin/env bash
# Installs the optional extras CI and people use beyond the README's two commands, which need only
# the Swift toolchain and zlib headers: pkg-config (so SwiftPM finds zlib without guessing);
# gzip, pigz and zopfli (for the gzip plugin's interoperability tests, which skip without them);
# valgrind (for the benchmark's instruction counts); gdb (for stacks of a hung CI run); Python
# with venv (for the httpbin interop run). libcurl needs no headers: the curl transport binds the
# runtime the toolchain already brings.
# Idempotent; does nothing when everything is present.
set -euo pipefail
missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
# Other gzip encoders, for the gzip plugin's interoperability tests on bytes made at test time.
command -v gzip >/dev/null 2>&1 || missing+=(gzip)
command -v pigz >/dev/null 2>&1 || missing+=(pigz)
command -v zopfli >/dev/null 2>&1 || missing+=(zopfli)
# valgrind, for the instruction and allocation counts of Scripts/callgrind-per-request.sh.
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
# gdb, for the stacks Scripts/bounded-test.sh prints when a test run hangs in CI.
command -v gdb >/dev/null 2>&1 || missing+=(gdb)
# Python with venv, for the httpbin the interop tests run against (Scripts/interop-server.sh).
command -v python3 >/dev/null 2>&1 || missing+=(python3)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null 2>&1 || { echo "swift is not on PATH (expected /opt/swift/usr/bin)" >&2; exit 1; }
