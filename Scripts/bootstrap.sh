#!/usr/bin/env bash
# Installs what building and testing need on a fresh Debian machine with the Swift toolchain:
# pkg-config and zlib headers (for the gzip plugin's system library target). Idempotent; does
# nothing when everything is present.
set -euo pipefail
missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null 2>&1 || { echo "swift is not on PATH (expected /opt/swift/usr/bin)" >&2; exit 1; }
