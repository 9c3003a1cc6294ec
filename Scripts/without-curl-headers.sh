#!/usr/bin/env bash
# Runs a command as a fresh machine would: with libcurl's development headers (and its pkg-config
# file) moved out of the compiler's and pkg-config's sight, and put back however the command ends.
# The README's two commands must need nothing but the Swift toolchain and zlib headers; CI builds
# and tests this way so a header dependency cannot creep back in.
#
#   bash Scripts/without-curl-headers.sh swift test
set -euo pipefail
hidden=()
restore() {
    for path in "${hidden[@]}"; do mv "$path.hidden-by-ci" "$path"; done
}
trap restore EXIT
for path in /usr/include/curl /usr/include/*-linux-gnu/curl /usr/lib/*-linux-gnu/pkgconfig/libcurl.pc \
    /usr/local/include/curl /usr/local/lib/pkgconfig/libcurl.pc; do
    if [ -e "$path" ]; then
        mv "$path" "$path.hidden-by-ci"
        hidden+=("$path")
    fi
done
[ ${#hidden[@]} -gt 0 ] && echo "hidden for this command: ${hidden[*]}" >&2
"$@"
