#!/usr/bin/env python3
"""Fails when a public symbol has no doc comment of its own, or a public middleware type's doc
comment has no "Ordering" section. Reads the symbol graphs the compiler emits, like
api-listing.py; DocC itself does not warn about undocumented symbols.

Skipped, because no source line could carry a comment or a comment would repeat another:
- symbols without a source location (compiler-synthesized: `init(from:)` of `Codable`, the
  `$name` projection of a `@TaskLocal`, `hashValue` of a `RawRepresentable`, and the like);
- synthesized members (default implementations inherited from a protocol extension);
- implementations of a protocol requirement that inherit the requirement's documentation
  (`description`, `intercept(_:next:)`: the symbol graph gives them the protocol's comment);
- underscored symbols, which DocC hides (the symbol graph omits most of them already);
- extension blocks, which are containers, not declarations.

usage: doc-coverage.py SYMBOLGRAPH_DIR MODULE...
"""
import json
import os
import sys

MIDDLEWARE_PROTOCOL = "s:12HTTPPipeline14HTTPMiddlewareP"

source, wanted = sys.argv[1], set(sys.argv[2:])
problems = []
for name in sorted(os.listdir(source)):
    if not name.endswith(".symbols.json"):
        continue
    module = name.split("@")[0].split(".symbols.json")[0]
    if module not in wanted:
        continue
    with open(os.path.join(source, name)) as handle:
        graph = json.load(handle)
    symbols = {s["identifier"]["precise"]: s for s in graph.get("symbols", [])}
    for precise, symbol in symbols.items():
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        if symbol["kind"]["identifier"] == "swift.extension":
            continue
        if "::SYNTHESIZED::" in precise or "location" not in symbol:
            continue
        if any(component.startswith("_") for component in symbol["pathComponents"]):
            continue
        comment = symbol.get("docComment")
        lines = [line.get("text", "") for line in comment.get("lines", [])] if comment else []
        inherited = comment is not None and comment.get("module") not in (None, module)
        if inherited:
            continue
        where = symbol["location"]
        line = where.get("position", {}).get("line", 0) + 1
        path = where["uri"].removeprefix("file://")
        path = os.path.relpath(path) if path.startswith("/") else path
        title = f"{module}: {'.'.join(symbol['pathComponents'])}"
        if not any(text.strip() for text in lines):
            problems.append(f"{path}:{line}: error: undocumented public symbol {title}")
    for relation in graph.get("relationships", []):
        if relation.get("kind") != "conformsTo" or relation.get("target") != MIDDLEWARE_PROTOCOL:
            continue
        symbol = symbols.get(relation["source"])
        if symbol is None or symbol.get("accessLevel") not in ("public", "open"):
            continue
        if symbol["pathComponents"][-1].startswith("_") or "location" not in symbol:
            continue
        comment = symbol.get("docComment") or {}
        text = [line.get("text", "").strip() for line in comment.get("lines", [])]
        if not any(line.startswith("#") and "Ordering" in line for line in text):
            where = symbol["location"]
            path = where["uri"].removeprefix("file://")
            path = os.path.relpath(path) if path.startswith("/") else path
            line = where.get("position", {}).get("line", 0) + 1
            problems.append(
                f"{path}:{line}: error: middleware {module}: {'.'.join(symbol['pathComponents'])} "
                "has no '## Ordering' section saying where it belongs in a pipeline and why"
            )

for problem in sorted(set(problems)):
    print(problem, file=sys.stderr)
if problems:
    print(f"{len(set(problems))} documentation problem(s) in {', '.join(sorted(wanted))}", file=sys.stderr)
    sys.exit(1)
