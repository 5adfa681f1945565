#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Links and citations into the documentation resolve.

1. Every relative link in README.md and docs/*.md ([text](path),
   [text](path#anchor), [text](#anchor), images too) names a file of the
   tree, and its anchor exists in the target page: an explicit
   <a id="..."> / <a name="..."> or a heading's GitHub slug (lower case,
   punctuation dropped, spaces to '-', -1, -2, ... for repeats).  Links
   that leave the repository (../../shared/...) depend on the machine
   and are not checked; http(s) links neither.
2. Every citation docs/PAGE.md or docs/PAGE.md#anchor in the tracked
   source, scripts, tests and docs (code comments cite deviations as
   docs/rapid-deviations.md#NAME) names a page that exists and an
   anchor that it has.
3. Every citation of a section by its title, docs/PAGE.md, "Title" (also
   across comment lines), names a heading or a bold paragraph lead of
   that page that starts with the title; a citation of what a page used
   to hold ("moved here from docs/rapid.md ("Measurements")", "until
   2026-11-26 in docs/rapid.md, ...") is history and not checked.
4. No page defines an explicit anchor (<a id="...">) twice.

Usage: test_docs_links.py [TOP]   (TOP: the tree to check, default this one)
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
from tap import Tap  # noqa: E402

TOP = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", ".."))
T = Tap("docs_links: ")


def strip_code(text):
    """Text without fenced blocks and inline code spans (links there are
    examples, not links); line count kept for the messages."""
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$",
                  lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading):
    """GitHub's heading anchor (github-slugger) of a heading's source text."""
    h = re.sub(r"<[^>]*>", "", heading)                 # HTML (explicit anchors)
    h = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", h)    # links: their text
    h = h.replace("`", "").replace("*", "")
    h = h.strip().lower()
    h = re.sub(r"[^\w\- ]", "", h)                      # punctuation; \w keeps _
    return h.replace(" ", "-")


_anchors = {}


EXPLICIT_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def anchors(path):
    if path not in _anchors:
        text = open(path, encoding="utf-8").read()
        found, seen = set(), {}
        found |= set(EXPLICIT_ANCHOR.findall(text))
        for m in re.finditer(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", strip_code_fences(text), re.M):
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            found.add(s if n == 0 else f"{s}-{n}")
        _anchors[path] = found
    return _anchors[path]


def strip_code_fences(text):
    return re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)


def md_pages():
    pages = [os.path.join(TOP, "README.md")]
    d = os.path.join(TOP, "docs")
    pages += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".md"))
    return [p for p in pages if os.path.isfile(p)]


def rel(p):
    return os.path.relpath(p, TOP)


# 1. links in the pages
bad, n, outside = [], 0, 0
for page in md_pages():
    text = strip_code(open(page, encoding="utf-8").read())
    for m in re.finditer(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", text):
        target = m.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):     # http:, mailto:
            continue
        line = text.count("\n", 0, m.start()) + 1
        where = f"{rel(page)}:{line}: ({target})"
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if not (dest + os.sep).startswith(TOP + os.sep):
            outside += 1
            continue
        n += 1
        if not os.path.exists(dest):
            bad.append(f"{where} no such file {rel(dest)}")
        elif anchor and not dest.endswith(".md"):
            bad.append(f"{where} an anchor into a file that is not a page")
        elif anchor and anchor not in anchors(dest):
            bad.append(f"{where} no anchor #{anchor} in {rel(dest)}")
T.check(f"every relative link of README.md and docs/*.md resolves ({n} links; "
        f"{outside} leaving the repository not checked)", n > 0 and not bad,
        "\n# ".join(bad) or "no links found")


# 2. citations docs/PAGE.md[#anchor] anywhere in the tracked tree
def tracked():
    try:
        out = subprocess.run(["git", "-C", TOP, "ls-files", "-z"], capture_output=True,
                             text=True, check=True).stdout
        files = [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, fs in os.walk(TOP):
            dirs[:] = [x for x in dirs if x not in (".git", "build")]
            files += [os.path.relpath(os.path.join(d, f), TOP) for f in fs]
    me = os.path.relpath(os.path.abspath(__file__), TOP)     # its docstring's examples
    return [f for f in files if f != me and
            not re.search(r"\.(png|jpg|svg|pcap|pcapng|gz|ko|o)$", f)]


bad, n = [], 0
for f in tracked():
    p = os.path.join(TOP, f)
    try:
        text = open(p, encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        continue
    for m in re.finditer(r"(?<![\w/.-])docs/([\w.-]+\.md)(?:#([\w-]+))?", text):
        page, anchor = m.group(1), m.group(2)
        if anchor and anchor.isupper():
            anchor = None               # a placeholder (docs/PAGE.md#NAME), not a link
        line = text.count("\n", 0, m.start()) + 1
        dest = os.path.join(TOP, "docs", page)
        n += 1
        if not os.path.isfile(dest):
            bad.append(f"{f}:{line}: docs/{page}: no such page")
        elif anchor and anchor not in anchors(dest):
            bad.append(f"{f}:{line}: docs/{page}#{anchor}: no such anchor")
T.check(f"every citation docs/PAGE.md[#anchor] in the tracked tree resolves ({n} citations)",
        n > 0 and not bad, "\n# ".join(bad) or "no citations found")


# 3. citations of a section by its title
def norm(t):
    t = re.sub(r"<[^>]*>", "", t)
    t = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", t)
    return re.sub(r"\s+", " ", t.replace("`", "").replace("*", "")).strip().lower()


_titles = {}


def titles(path):
    if path not in _titles:
        text = strip_code_fences(open(path, encoding="utf-8").read())
        ts = [norm(m.group(1)) for m in re.finditer(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", text, re.M)]
        ts += [norm(m.group(1)) for m in re.finditer(r"\*\*([^*]+)\*\*", text)]
        _titles[path] = ts
    return _titles[path]


bad, n = [], 0
for f in tracked():
    try:
        text = open(os.path.join(TOP, f), encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        continue
    flat = re.sub(r"\n[ \t]*(?:#+|\*|//)?[ \t]*", " ", text)   # comment lines joined
    for m in re.finditer(r'(?<![\w/.-])docs/([\w.-]+\.md),?\s+(?:section\s+)?\(?"([^"]+)"', flat):
        before = flat[max(0, m.start() - 40):m.start()].lower()
        if "moved here from" in before or "until 2026" in before:
            continue
        page, title = m.group(1), norm(m.group(2))
        dest = os.path.join(TOP, "docs", page)
        if not os.path.isfile(dest):
            continue                    # check 2 reports it
        n += 1
        if not any(t.startswith(title) for t in titles(dest)):
            bad.append(f'{f}: docs/{page}, "{m.group(2)}": no such section')
T.check(f"every section cited by title, docs/PAGE.md \"Title\", exists ({n} citations)",
        n > 0 and not bad, "\n# ".join(bad) or "no citations found")

# 4. no explicit anchor twice on a page: a link to it would land on the
#    first one, whichever section its author meant
bad, n = [], 0
for page in md_pages():
    text = strip_code_fences(open(page, encoding="utf-8").read())
    ids = EXPLICIT_ANCHOR.findall(text)
    n += len(ids)
    bad += [f"{rel(page)}: #{a} {ids.count(a)} times" for a in sorted(set(ids)) if ids.count(a) > 1]
T.check(f"no page of README.md and docs/*.md defines an anchor twice ({n} anchors)",
        n > 0 and not bad, "\n# ".join(bad) or "no anchors found")
sys.exit(T.done())
