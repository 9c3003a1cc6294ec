#!/usr/bin/env python3
"""Checks the package's module graph against the architecture (Documentation/Architecture.md).

Reads `swift package dump-package` and fails when:
- a shipped module other than the standard stack depends on a plugin (Plugins/): a mechanism
  two modules need is a module of its own beneath them (the redaction engine, the zlib codec);
- a plugin depends on another plugin;
- the core depends on anything, or a core source file imports FoundationNetworking.

Usage: Scripts/check-module-graph.py  (run from the package root)
"""

import json
import pathlib
import re
import subprocess
import sys

CORE = "HTTPPipeline"
ALLOWED_TO_KNOW_PLUGINS = {"HTTPPipelineStandard"}


def main() -> int:
    dump = json.loads(subprocess.run(
        ["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
    targets = {target["name"]: target for target in dump["targets"]}
    shipped = {name for product in dump["products"] if "library" in product["type"]
               for name in product["targets"]}
    plugins = {name for name, target in targets.items() if (target.get("path") or "").startswith("Plugins/")}

    def dependencies(target):
        names = []
        for dependency in target["dependencies"]:
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    names.append(dependency[kind][0])
        return names

    problems = []
    for name in sorted(shipped):
        known = set(dependencies(targets[name]))
        if name == CORE and known:
            problems.append(f"the core depends on {sorted(known)}")
        if name in plugins:
            others = sorted(known & plugins)
            if others:
                problems.append(f"plugin {name} depends on plugin(s) {others}")
        elif name not in ALLOWED_TO_KNOW_PLUGINS:
            others = sorted(known & plugins)
            if others:
                problems.append(f"{name} depends on plugin(s) {others}; move what it needs into a module beneath both")
    for source in sorted(pathlib.Path("Sources", CORE).rglob("*.swift")):
        if re.search(r"^\s*(\w+\s+)?import\s+FoundationNetworking\b", source.read_text(), re.MULTILINE):
            problems.append(f"{source} imports FoundationNetworking")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"module graph: {len(shipped)} shipped modules; only {sorted(ALLOWED_TO_KNOW_PLUGINS)} knows the plugins")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
