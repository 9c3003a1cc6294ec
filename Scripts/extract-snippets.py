#!/usr/bin/env python3
"""Extracts every Swift code block of the documentation into the DocSnippetsTests target, so that
`swift build --build-tests` compiles them and `swift test` runs the `@Test` functions they show.

usage: extract-snippets.py           rewrite Tests/DocSnippetsTests/Generated/
       extract-snippets.py --check   fail, naming the files, if Generated/ is not what the docs give

The blocks: README.md, Documentation/*.md, the DocC articles (*.docc/**/*.md) and ```swift fences
in `///` comments of Sources/, Plugins/, Examples/ and Benchmarks/. How a document becomes one
generated file, and the two markers (`<!-- snippet: fragment REASON -->`,
`<!-- snippet: standalone -->`): Documentation/Architecture.md, "Code blocks in the documentation".
Python standard library only.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
GENERATED = os.path.join("Tests", "DocSnippetsTests", "Generated")
SOURCE_ROOTS = ["Sources", "Plugins", "Examples", "Benchmarks"]
CONTEXT_MODULE = "DocSnippetsContext"
APPLE_ONLY = {"os", "OSLog", "Darwin", "UIKit", "AppKit", "SwiftUI", "Combine", "WatchKit"}
DECLARATIONS = {"struct", "class", "enum", "actor", "protocol", "extension", "func", "typealias"}
MODIFIERS = {
    "public", "private", "fileprivate", "internal", "package", "open", "final", "indirect",
    "nonisolated", "static", "distributed",
}
ACCESS = {"public", "private", "fileprivate", "internal", "package", "open"}
MARKER = re.compile(r"^<!--\s*snippet:\s*(\S+)\s*(.*?)\s*-->$")
FENCE = re.compile(r"^(\s*)(```|~~~)\s*(\S*)")


class Fail(Exception):
    pass


class Block:
    def __init__(self, document, line, lines, marker, reason, implied):
        self.document = document  # path relative to the package root
        self.line = line  # 1-based line of the block's first code line in the document
        self.lines = lines
        self.marker = marker  # None, "fragment" or "standalone"
        self.reason = reason
        self.implied = implied  # modules a `///` block sees without showing them


# -- Finding the blocks ---------------------------------------------------------------------------

def markdown_blocks(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        text = handle.read().split("\n")
    return fenced_blocks(path, [(number + 1, line) for number, line in enumerate(text)], [])


def doc_comment_blocks(path):
    """The fenced blocks of a Swift file's `///` comments, with `///` and one space taken off."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        text = handle.read().split("\n")
    if "```" not in "".join(text):
        return []
    module = path.split("/")[1]
    implied = ["HTTPPipeline"] if module == "HTTPPipeline" else ["HTTPPipeline", module]
    blocks, run = [], []
    for number, line in enumerate(text + [""], start=1):
        match = re.match(r"^\s*///(.*)$", line)
        if match:
            content = match.group(1)
            run.append((number, content[1:] if content.startswith(" ") else content))
            continue
        if run:
            blocks += fenced_blocks(path, run, implied)
            run = []
    return blocks


def fenced_blocks(path, numbered, implied):
    blocks = []
    index = 0
    last_text = None  # (line number, text) of the last non-blank line outside a block
    while index < len(numbered):
        number, line = numbered[index]
        fence = FENCE.match(line)
        if not fence:
            if line.strip():
                marker = MARKER.match(line.strip())
                if last_text and MARKER.match(last_text[1]):
                    raise Fail(f"{path}:{last_text[0]}: a snippet marker must be the line just before a ```swift fence")
                if marker and marker.group(1) not in ("fragment", "standalone", "continues"):
                    raise Fail(
                        f"{path}:{number}: unknown snippet marker {marker.group(1)!r} (fragment, standalone or continues)")
                last_text = (number, line.strip())
            index += 1
            continue
        indent, delimiter, language = fence.group(1), fence.group(2), fence.group(3)
        body = []
        index += 1
        while index < len(numbered) and not numbered[index][1].strip().startswith(delimiter):
            body.append(numbered[index])
            index += 1
        if index == len(numbered):
            raise Fail(f"{path}:{number}: a code block is never closed")
        index += 1
        marker = MARKER.match(last_text[1]) if last_text else None
        last_text = None
        if language != "swift":
            if marker:
                raise Fail(f"{path}:{number}: a snippet marker before a block that is not ```swift")
            continue
        lines = [text[len(indent):] if text.startswith(indent) else text.lstrip() for _, text in body]
        first = body[0][0] if body else number + 1
        if marker and marker.group(1) == "fragment" and not marker.group(2):
            raise Fail(f"{path}:{number}: say why the block is a fragment: <!-- snippet: fragment REASON -->")
        blocks.append(Block(path, first, lines, marker.group(1) if marker else None,
                            marker.group(2) if marker else "", implied))
    if last_text and MARKER.match(last_text[1]):
        raise Fail(f"{path}:{last_text[0]}: a snippet marker must be the line just before a ```swift fence")
    return blocks


def documents():
    """Every document, in a stable order, as (path, blocks)."""
    paths = ["README.md"] if os.path.exists(os.path.join(ROOT, "README.md")) else []
    guides = os.path.join(ROOT, "Documentation")
    if os.path.isdir(guides):
        paths += sorted("Documentation/" + name for name in os.listdir(guides) if name.endswith(".md"))
    swift_files = []
    for root in SOURCE_ROOTS:
        for directory, subdirectories, files in os.walk(os.path.join(ROOT, root)):
            subdirectories.sort()
            relative = os.path.relpath(directory, ROOT).replace(os.sep, "/")
            for name in sorted(files):
                if name.endswith(".md") and any(part.endswith(".docc") for part in relative.split("/")):
                    paths.append(f"{relative}/{name}")
                elif name.endswith(".swift"):
                    swift_files.append(f"{relative}/{name}")
    found = [(path, markdown_blocks(path)) for path in paths]
    found += [(path, doc_comment_blocks(path)) for path in swift_files]
    return [(path, blocks) for path, blocks in found if blocks]


# -- Reading a block ------------------------------------------------------------------------------

def depths(lines):
    """The bracket depth at the start of each line and after the last, skipping strings and
    comments (with string interpolation, raw strings and multi-line strings). A line that starts
    inside a string literal or a comment counts one deeper: it never starts a statement."""
    text = "\n".join(lines)
    result = [0]
    depth = 0
    stack = []  # open string literals: (hashes, multiline, interpolation depth at entry)
    comment = 0  # nesting of /* */
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\n":
            result.append(depth + (1 if comment or stack and stack[-1][2] is None else 0))
            index += 1
            continue
        if comment:
            if text.startswith("*/", index):
                comment -= 1
                index += 2
            elif text.startswith("/*", index):
                comment += 1
                index += 2
            else:
                index += 1
            continue
        if stack and stack[-1][2] is None:  # inside a string literal's text
            hashes, multiline, _ = stack[-1]
            if char == "\\" and text.startswith("#" * hashes + "(", index + 1):
                stack[-1] = (hashes, multiline, depth)
                depth += 1
                index += 2 + hashes
                continue
            if char == "\\" and hashes == 0:
                index += 2
                continue
            closing = ('"""' if multiline else '"') + "#" * hashes
            if text.startswith(closing, index):
                stack.pop()
                index += len(closing)
                continue
            index += 1
            continue
        if text.startswith("//", index):
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
            continue
        if text.startswith("/*", index):
            comment += 1
            index += 2
            continue
        raw = re.match(r'(#*)("""|")', text[index:])
        if raw and (raw.group(1) == "" or char == "#"):
            stack.append((len(raw.group(1)), raw.group(2) == '"""', None))
            index += raw.end()
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if stack and stack[-1][2] is not None and depth == stack[-1][2]:
                hashes, multiline, _ = stack[-1]
                stack[-1] = (hashes, multiline, None)  # the interpolation closed: back in the string
        index += 1
    return result


def head(line):
    """The declaration keyword a top-level line starts with, its attributes and modifiers skipped,
    with the offset of the first modifier or keyword, or (None, 0)."""
    rest = line.lstrip()
    offset = len(line) - len(rest)
    while rest.startswith("@"):
        attribute = re.match(r"@[\w.]+", rest)
        end = attribute.end()
        if rest[end:end + 1] == "(":
            level = 0
            for position in range(end, len(rest)):
                level += {"(": 1, ")": -1}.get(rest[position], 0)
                if level == 0:
                    end = position + 1
                    break
        stripped = rest[end:].lstrip()
        offset += len(rest) - len(stripped)
        rest = stripped
    start = offset
    while True:
        word = re.match(r"[A-Za-z_]\w*", rest)
        if not word:
            return None, 0
        if word.group(0) in MODIFIERS:
            rest = rest[word.end():].lstrip()
            continue
        return (word.group(0), start) if word.group(0) in DECLARATIONS else (None, 0)


def is_attribute_line(line):
    return re.fullmatch(r"\s*(@[\w.]+(\(.*\))?\s*)+", line) is not None


def privatise(line, start):
    """`private` in place of the access level of the declaration that starts at `start`."""
    words = line[start:].split()
    keyword_line = line[start:]
    for word in words:
        if word in ACCESS:
            return line[:start] + re.sub(rf"\b{word}\b", "private", keyword_line, count=1)
        if word in DECLARATIONS:
            break
    if keyword_line.startswith("extension") and ":" in re.split(r"\bwhere\b|\{", keyword_line)[0]:
        return line  # a conformance: its members keep their own access, capped by the type's
    return line[:start] + "private " + keyword_line


def split(block):
    """Divides a block into its imports (runs of lines), its declarations (runs of lines) and its
    statements (one list of lines), each line as (line number, text)."""
    lines = block.lines
    depth = depths(lines)
    imports, declarations, statements = [], [], []
    pending = []  # comment and attribute lines at depth 0: they belong to what follows
    index = 0
    while index < len(lines):
        line = lines[index]
        number = block.line + index
        stripped = line.strip()
        if depth[index] != 0 or stripped == "":
            statements += pending + [(number, line)]
            pending = []
            index += 1
            continue
        if stripped.startswith("//") or is_attribute_line(line):
            pending.append((number, line))
            index += 1
            continue
        if re.match(r"(@testable\s+)?import\s", stripped):
            statements += pending
            pending = []
            imports.append([(number, line)])
            index += 1
            continue
        if stripped.startswith("#if"):
            end = next_endif(lines, index)
            if all(not l.strip() or l.strip().startswith(("import ", "#if", "#else", "#elseif", "#endif", "//"))
                   for l in lines[index:end + 1]):
                statements += pending
                pending = []
                imports.append([(block.line + i, lines[i]) for i in range(index, end + 1)])
                index = end + 1
                continue
        keyword, start = head(line)
        if keyword is None:
            statements += pending + [(number, line)]
            pending = []
            index += 1
            continue
        run = pending + [(number, privatise(line, start))]
        pending = []
        opened = "{" in line
        index += 1
        while index < len(lines) and (depth[index] != 0 or not opened and keyword != "typealias"
                                       and lines[index].strip() != ""):
            opened = opened or "{" in lines[index]
            run.append((block.line + index, lines[index]))
            index += 1
        declarations.append(run)
    statements += pending
    while statements and not statements[0][1].strip():
        statements.pop(0)
    while statements and not statements[-1][1].strip():
        statements.pop()
    return imports, declarations, statements


def next_endif(lines, index):
    level = 0
    for position in range(index, len(lines)):
        stripped = lines[position].strip()
        if stripped.startswith("#if"):
            level += 1
        elif stripped.startswith("#endif"):
            level -= 1
            if level == 0:
                return position
    return len(lines) - 1


def bindings(block):
    """The names the block's top-level `let` and `var` statements bind."""
    names = []
    depth = depths(block.lines)
    for index, line in enumerate(block.lines):
        if depth[index] != 0:
            continue
        match = re.match(r"\s*(?:let|var)\s+(\([^)]*\)|[A-Za-z_]\w*)", line)
        if not match:
            continue
        for name in re.findall(r"[A-Za-z_]\w*", match.group(1)):
            if name != "_" and name not in names:
                names.append(name)
    return names


def module_names(import_runs):
    modules = []
    for run in import_runs:
        for _, line in run:
            match = re.match(r"\s*(?:@testable\s+)?import\s+(?:\w+\s+)?(\w+)", line)
            if match and match.group(1) not in modules:
                modules.append(match.group(1))
    return modules


# -- Writing the generated files ------------------------------------------------------------------

def location(document, number):
    return f'#sourceLocation(file: "{document}", line: {number})'


def emit_run(out, document, run):
    out.append(location(document, run[0][0]))
    previous = run[0][0] - 1
    for number, text in run:
        if number != previous + 1:
            out.append(location(document, number))
        out.append(text)
        previous = number
    out.append("#sourceLocation()")


def render(document, blocks, standalone):
    parts = [(block, *split(block)) for block in blocks]
    # URLSessionTransport, in every block's examples, lives in a module of its own beside the core.
    implied = [] if standalone else [CONTEXT_MODULE, "Foundation", "HTTPPipelineURLSession"]
    for block in blocks:
        implied += [module for module in block.implied if module not in implied]
    shown, seen = [], set(implied)
    for _, block_imports, _, _ in parts:
        for run in block_imports:
            modules = module_names([run])
            key = modules[0] if len(run) == 1 and modules else "\n".join(t.strip() for _, t in run)
            if key not in seen:
                seen.add(key)
                shown.append(run)
    out = [
        "// swift-format-ignore-file",
        f"// Generated by Scripts/extract-snippets.py from {document}. Do not edit: edit the document, then",
        "// run `python3 Scripts/extract-snippets.py`. #sourceLocation points every line back to the document.",
        "",
    ]
    out += [f"import {module}" for module in sorted(implied)]
    if not standalone:
        out += ["#if canImport(FoundationNetworking)", "import FoundationNetworking", "#endif"]
    for run in shown:
        modules = module_names([run])
        apple = len(run) == 1 and modules[0] in APPLE_ONLY
        out += [f"#if canImport({modules[0]})"] if apple else []
        emit_run(out, document, run)
        out += ["#endif"] if apple else []
    for block, block_imports, declarations, statements in parts:
        apple = [module for module in module_names(block_imports) if module in APPLE_ONLY]
        out += ["", f"// {document}:{block.line}"]
        out += [f"#if canImport({module})" for module in apple]
        for run in declarations:
            emit_run(out, document, run)
        if any(text.strip() and not text.strip().startswith("//") for _, text in statements):
            out.append(f"@MainActor private func snippetAtLine{block.line}() async throws {{")
            emit_run(out, document, statements)
            out += [f"_ = {name}" for name in bindings(block)]
            out.append("}")
        out += ["#endif" for _ in apple]
    return "\n".join(out) + "\n"


def file_name(document, suffix=""):
    name = document.replace("/", "-")
    return (name[: -len(".swift")] if name.endswith(".swift") else name) + suffix + ".swift"


def written_twice(found):
    """Fails on a code block of four or more lines that two Markdown documents both hold: a guide
    keeps its code in one place and links to it (comments and blank lines do not count)."""
    first = {}
    for document, blocks in found:
        if not document.endswith(".md"):
            continue
        for block in blocks:
            code = [re.sub(r"\s+", " ", re.sub(r"(^|\s)//(\s.*)?$", "", line)).strip() for line in block.lines]
            code = [line for line in code if line]
            if len(code) < 4:
                continue
            key = "\n".join(code)
            if key in first and first[key].document != document:
                raise Fail(f"{document}:{block.line}: the same code as {first[key].document}:{first[key].line};"
                           " keep it in one document and link to it")
            first.setdefault(key, block)


def generate():
    files = {}
    found = documents()
    written_twice(found)
    for document, blocks in found:
        compiled = [block for block in blocks if block.marker != "fragment"]
        shared = [block for block in compiled if block.marker != "standalone"]
        if shared:
            files[file_name(document)] = render(document, shared, standalone=False)
        for number, block in enumerate((b for b in compiled if b.marker == "standalone"), start=1):
            files[file_name(document, f"-standalone{number}")] = render(document, [block], standalone=True)
    return files


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        files = generate()
    except Fail as failure:
        print(f"extract-snippets: {failure}", file=sys.stderr)
        return 1
    directory = os.path.join(ROOT, GENERATED)
    existing = set(os.listdir(directory)) if os.path.isdir(directory) else set()
    existing = {name for name in existing if name.endswith(".swift")}
    stale = sorted(name for name, text in files.items()
                   if name not in existing or open(os.path.join(directory, name), encoding="utf-8").read() != text)
    extra = sorted(existing - set(files))
    if check:
        if stale or extra:
            for name in stale:
                print(f"{GENERATED}/{name} is not what the documents give", file=sys.stderr)
            for name in extra:
                print(f"{GENERATED}/{name} comes from no document", file=sys.stderr)
            print("Run `python3 Scripts/extract-snippets.py` and commit Tests/DocSnippetsTests/Generated/.",
                  file=sys.stderr)
            return 1
        print(f"{len(files)} generated files up to date")
        return 0
    os.makedirs(directory, exist_ok=True)
    for name in extra:
        os.remove(os.path.join(directory, name))
    for name in stale:
        with open(os.path.join(directory, name), "w", encoding="utf-8") as handle:
            handle.write(files[name])
    print(f"{len(files)} files in {GENERATED}: {len(stale)} written, {len(extra)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
