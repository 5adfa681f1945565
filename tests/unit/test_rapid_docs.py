#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""docs/rapid.md against the code: the size of a stream record (struct
rapid_stream, copied out of tcp_rapid.c and compiled here with the pure
headers, as the module compiles it on x86-64), the names of struct rapid's
fields RAPID's pages quote (rapid.md, rapid-helper.md, rapid-deviations.md),
its files table listing every RAPID source, and that nothing cites a
deviation by its old number (docs/rapid-deviations.md names them).
Links and anchors: test_docs_links.py."""
import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
from tap import Tap  # noqa: E402

T = Tap("rapid_docs: ")
src = open(os.path.join(TOP, "tcp_rapid.c")).read()
doc = open(os.path.join(TOP, "docs", "rapid.md")).read()
pages = {p: open(os.path.join(TOP, "docs", p)).read()
         for p in ("rapid.md", "rapid-helper.md", "rapid-deviations.md")}
rel = open(os.path.join(TOP, "docs", "reliability.md")).read()


def struct_text(name):
    m = re.search(r"^struct %s \{\n.*?^\};" % name, src, re.S | re.M)
    return m.group(0) if m else None


rec = struct_text("rapid_stream")
size = None
if T.check("struct rapid_stream found in tcp_rapid.c", rec is not None):
    with tempfile.TemporaryDirectory() as d:
        c = os.path.join(d, "s.c")
        with open(c, "w") as f:
            f.write('#include <stdio.h>\n#include "rapid_chirp.h"\n' + rec +
                    '\nint main(void) { printf("%zu\\n", sizeof(struct rapid_stream)); return 0; }\n')
        p = subprocess.run([os.environ.get("CC", "gcc"), "-std=gnu11", "-I", TOP, "-o",
                            os.path.join(d, "s"), c], capture_output=True, text=True)
        if T.check("it compiles with the pure headers", p.returncode == 0, p.stderr[-500:]):
            size = int(subprocess.run([os.path.join(d, "s")], capture_output=True,
                                      text=True).stdout)
said = re.findall(r"stream records \((\d+) bytes each\)", doc)
T.check(f"docs/rapid.md gives a stream record's size as sizeof (= {size})",
        said and all(int(x) == size for x in said), f"docs say {said}, sizeof {size}")
said = re.findall(r"stream records of (\d+) bytes", rel)
T.check(f"docs/reliability.md gives the same size (= {size})",
        said and all(int(x) == size for x in said), f"docs say {said}, sizeof {size}")

fields = set(re.findall(r"\b(\w+);", struct_text("rapid") or ""))
quoted = set(re.findall(r"ca->(\w+)", "".join(pages.values())))
T.check("every ca->FIELD RAPID's pages quote is a field of struct rapid",
        fields and quoted and quoted <= fields, f"not in struct rapid: {sorted(quoted - fields)}")

table = doc[doc.index("Files:"):doc.index("## Model")]
listed = set(re.findall(r"^\| `([^`]+)`", table, re.M))
sources = {os.path.basename(p) for p in glob.glob(os.path.join(TOP, "rapid_*.h"))}
sources |= {os.path.basename(p) for p in glob.glob(os.path.join(TOP, "tcp_rapid*.c"))
            if not p.endswith(".mod.c")}
sources.add("cc_stats.h")
T.check("docs/rapid.md's files table lists every RAPID source",
        sources <= listed, f"missing: {sorted(sources - listed)}")

# Deviations are cited by name (docs/rapid-deviations.md#NAME); the old
# numbers ("deviation 17", "deviations 15 and 20") live only in that page's
# table of old numbers.  PERT's, ICC's and SABUL's own pages and sources
# are theirs.
try:
    tracked = subprocess.run(["git", "-C", TOP, "ls-files"], capture_output=True, text=True,
                             check=True).stdout.split()
except (OSError, subprocess.CalledProcessError):
    tracked = [os.path.relpath(os.path.join(d, f), TOP) for d, _, fs in os.walk(TOP)
               if "/build" not in d and "/.git" not in d for f in fs]
numbered = []
for f in tracked:
    if f in ("docs/rapid-deviations.md", "tests/unit/test_rapid_docs.py") or re.search(r"pert|icc|sabul|\.(png|pcap|gz)$", f):
        continue
    try:
        text = open(os.path.join(TOP, f), encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        continue
    for m in re.finditer(r"\bdeviations?\s+\d", text, re.I):
        numbered.append(f"{f}:{text.count(chr(10), 0, m.start()) + 1}")
T.check("no RAPID source, test or page cites a deviation by number", not numbered,
        f"cite docs/rapid-deviations.md#NAME instead: {numbered}")
sys.exit(T.done())
