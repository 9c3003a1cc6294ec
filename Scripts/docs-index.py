#!/usr/bin/env python3
"""Writes the docs site's entry page: one link per module, to its landing page, with the landing
page's abstract (the paragraph after the "# ``Module``" title) whole. Fails when an abstract
does not end a sentence, which is how a summary cut mid-sentence shows.

usage: docs-index.py OUTPUT MODULE=CATALOG...
"""
import html
import os
import sys


def abstract(landing_page):
    """The abstract of a DocC landing page, as plain text."""
    with open(landing_page) as handle:
        lines = handle.read().splitlines()
    # The first paragraph after the title, however many source lines it is wrapped over.
    paragraph = []
    for line in lines[1:]:
        if line.strip():
            paragraph.append(line.strip())
        elif paragraph:
            break
    return " ".join(paragraph).replace("``", "")


def main(output, pairs):
    entries = []
    problems = []
    for pair in pairs:
        module, catalog = pair.split("=", 1)
        summary = abstract(os.path.join(catalog, module + ".md"))
        if not summary.endswith((".", "!", "?")):
            problems.append(f"the summary of {module} is cut: {summary!r}")
        entries.append((module, summary))
    with open(output, "w") as page:
        page.write(HEAD)
        for module, summary in entries:
            page.write(f'<dt><a href="{module}.doccarchive/documentation/{module.lower()}/">{module}</a></dt>\n')
            page.write(f"<dd>{html.escape(summary, quote=False)}</dd>\n")
        page.write("</dl>\n</body>\n</html>\n")
    for problem in problems:
        print(f"{output}: {problem}", file=sys.stderr)
    return 1 if problems else 0


HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>swift-http-pipeline documentation</title>
<style>
body { font: 16px/1.5 -apple-system, "Helvetica Neue", sans-serif; max-width: 44rem; margin: 3rem auto; padding: 0 1rem; }
dt { font-family: ui-monospace, Menlo, monospace; margin-top: 1rem; }
dd { margin-left: 0; color: #444; }
</style>
</head>
<body>
<h1>swift-http-pipeline</h1>
<p>HTTP client middleware for Swift. One documentation archive per module; the core's articles
are <a href="HTTPPipeline.doccarchive/documentation/httppipeline/writingamiddleware/">Writing a middleware</a>,
<a href="HTTPPipeline.doccarchive/documentation/httppipeline/orderingyourpipeline/">Ordering your pipeline</a> and
<a href="HTTPPipeline.doccarchive/documentation/httppipeline/testingapipeline/">Testing a pipeline</a>.</p>
<dl>
"""

if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
