#!/usr/bin/env python3
"""Checks that Documentation/Architecture.md names every shipped module and every arrow between
them, as `swift package dump-package` gives them.

The page's "Module graph" section holds one line per shipped module (a library product's target),
`Module -> Dependency, Dependency`, in a ```text block between the markers below. The script fails,
naming each difference, when a module or an arrow is missing from the page or no longer exists.

Usage: Scripts/check-architecture.py           check (CI)
       Scripts/check-architecture.py --update  rewrite the block from the package
Python standard library only; run from the package root.
"""

import json
import pathlib
import subprocess
import sys

PAGE = pathlib.Path("Documentation/Architecture.md")
BEGIN = "<!-- module graph: begin (Scripts/check-architecture.py --update) -->"
END = "<!-- module graph: end -->"


def graph():
    dump = json.loads(subprocess.run(
        ["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
    targets = {target["name"]: target for target in dump["targets"]}
    shipped = sorted({name for product in dump["products"] if "library" in product["type"]
                      for name in product["targets"]})
    lines = []
    for name in shipped:
        names = []
        for dependency in targets[name]["dependencies"]:
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    names.append(dependency[kind][0])
        lines.append(f"{name} -> {', '.join(sorted(names))}" if names else f"{name} -> (nothing)")
    return lines


def block(lines):
    return "\n".join([BEGIN, "```text", *lines, "```", END])


def main() -> int:
    text = PAGE.read_text()
    if BEGIN not in text or END not in text:
        print(f"{PAGE} has no module graph block ({BEGIN})", file=sys.stderr)
        return 1
    start = text.index(BEGIN)
    end = text.index(END) + len(END)
    expected = graph()
    if "--update" in sys.argv:
        PAGE.write_text(text[:start] + block(expected) + text[end:])
        print(f"{PAGE}: module graph of {len(expected)} modules written")
        return 0
    shown = [line for line in text[start:end].splitlines()[2:-2]]
    problems = []
    shown_arrows = {(line.split(" -> ")[0], dep) for line in shown for dep in line.split(" -> ")[1].split(", ")}
    expected_arrows = {(line.split(" -> ")[0], dep) for line in expected for dep in line.split(" -> ")[1].split(", ")}
    shown_modules = {line.split(" -> ")[0] for line in shown}
    for line in expected:
        module = line.split(" -> ")[0]
        if module not in shown_modules:
            problems.append(f"module {module} is missing from {PAGE}")
    for module, dependency in sorted(expected_arrows - shown_arrows):
        if module in shown_modules:
            problems.append(f"the arrow {module} -> {dependency} is missing from {PAGE}")
    for module, dependency in sorted(shown_arrows - expected_arrows):
        problems.append(f"{PAGE} shows {module} -> {dependency}, which the package no longer has")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print("run Scripts/check-architecture.py --update, then describe what changed in the page", file=sys.stderr)
        return 1
    print(f"architecture page: {len(expected)} modules and {len(expected_arrows)} arrows, as the package has them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
