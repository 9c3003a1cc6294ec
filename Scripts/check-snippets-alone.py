#!/usr/bin/env python3
"""Type-checks every ```swift block of the Markdown documentation on its own, as the body of a
file in a package that depends on this one: its own imports and nothing else (no Foundation, no
context names, no earlier block), against the modules `swift build` made, with the package's
strict settings and without its package name (so `package` symbols are hidden, as for a
dependent). A block marked `<!-- snippet: continues -->` is checked after the blocks it continues.

usage: check-snippets-alone.py [--jobs N]     run after `swift build` (debug); prints the counts
Python standard library only. Blocks marked `fragment` are left out (they say why).
"""

import concurrent.futures
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
spec = importlib.util.spec_from_file_location("extract_snippets", os.path.join(ROOT, "Scripts", "extract-snippets.py"))
extract = importlib.util.module_from_spec(spec)
spec.loader.exec_module(extract)

FLAGS = [
    "-swift-version", "6",
    "-enable-upcoming-feature", "ExistentialAny",
    "-enable-upcoming-feature", "MemberImportVisibility",
    "-enable-upcoming-feature", "InternalImportsByDefault",
]


def module_maps(build):
    maps = []
    for directory, _, files in os.walk(build):
        if "module.modulemap" in files and directory.endswith(".build"):
            maps.append(os.path.join(directory, "module.modulemap"))
    zlib = os.path.join(ROOT, "Sources", "CHTTPPipelineZlib", "module.modulemap")
    if os.path.exists(zlib):
        maps.append(zlib)
    return maps


IMPORT = re.compile(r"^\s*import\s+(\w+)")


def apple_only(block):
    """Whether a block imports a module only Apple platforms have (checked there only)."""
    return any((match := IMPORT.match(line)) and match.group(1) in extract.APPLE_ONLY for line in block.lines)


def units():
    """(document, line, source, continues) for every checked block, a continuation carrying the
    blocks it continues; and how many blocks were left for Apple platforms."""
    found = []
    skipped = 0
    on_apple = sys.platform == "darwin"
    for document, blocks in extract.documents():
        if not document.endswith(".md"):
            continue
        chain = []
        for block in blocks:
            if block.marker == "fragment":
                chain = []
                continue
            if apple_only(block) and not on_apple:
                skipped += 1
                chain = []
                continue
            source = "\n".join(block.lines)
            if block.marker == "continues":
                chain.append(source)
            else:
                chain = [source]
            found.append((document, block.line, "\n\n".join(chain), block.marker == "continues"))
    return found, skipped


def check(unit, arguments):
    document, line, source, _ = unit
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "main.swift")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(source + "\n")
        run = subprocess.run(["swiftc", "-typecheck", *arguments, path], capture_output=True, text=True)
        if run.returncode == 0:
            return None
        errors = [text for text in run.stderr.splitlines() if ": error:" in text]
        return f"{document}:{line}: " + (errors[0].split(": error:", 1)[1].strip() if errors else run.stderr.strip()[:200])


def main():
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 2
    build = os.path.join(ROOT, ".build", "debug")
    modules = os.path.join(build, "Modules")
    if not os.path.isdir(modules):
        print("build first: swift build", file=sys.stderr)
        return 1
    arguments = FLAGS + ["-I", modules]
    for module_map in module_maps(os.path.realpath(build)):
        arguments += ["-Xcc", f"-fmodule-map-file={module_map}"]
    found, skipped = units()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        failures = [failure for failure in pool.map(lambda unit: check(unit, arguments), found) if failure]
    continuations = sum(1 for unit in found if unit[3])
    for failure in failures:
        print(failure, file=sys.stderr)
    apple = f"; {skipped} for Apple platforms only, checked there" if skipped else ""
    print(f"documentation blocks checked alone: {len(found)} ({continuations} continuations){apple}; {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
