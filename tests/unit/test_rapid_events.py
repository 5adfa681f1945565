#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/rapid/events.py (the tcp_rapid tracepoint reader)
on a synthetic ftrace dump whose numbers are chosen by hand.  TAP lines and
"N passed, N failed"; exit 0 when all pass.

  <venv python> tests/unit/test_rapid_events.py
"""
import io
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "scripts", "rapid", "events.py")
from tap import Tap  # noqa: E402

T = Tap("rapid_events: ")


def ev(ts, src, raw, ravg, sport=40000):
    return (f"          iperf3-311     [000] ..s2.  {ts:.6f}: rapid_abest: sport={sport} "
            f"dport=5301 skaddr=00000000deadbeef id=7 src={src} rule=1 lossy=0 "
            f"raw_kbps={raw} abest_kbps={raw} r_avg_kbps={ravg} phase=1\n")


def mark(ts, name):
    return f"           <...>-400     [000] .....  {ts:.6f}: tracing_mark_write: phase {name}\n"


def run(args, text):
    with tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        p = subprocess.run([sys.executable, TOOL] + args + [path],
                           capture_output=True, text=True)
        return p.returncode, p.stdout
    finally:
        os.unlink(path)


def main():
    lines = ["# tracer: nop\n", "#\n", mark(100.0, "a")]
    # phase a: 0.0-1.0 s skipped, then 5 receiver estimates 10..50 Mbit/s
    lines += [ev(100.5, 1, 999000, 1000)]
    lines += [ev(101.0 + i * 0.1, 1, (i + 1) * 10000, 20000) for i in range(5)]
    lines += [ev(101.2, 2, 77000, 77000)]          # another source
    lines += [ev(101.3, 1, 0, 20000).replace("rule=1", "rule=0")]  # no estimate
    lines += ["garbage line without an event\n"]
    lines += [mark(110.0, "b"), ev(110.1, 1, 5000, 6000), ev(111.0, 1, 5000, 6000)]
    lines += [ev(120.0, 1, 4000, 4000)]            # 9.9 s in: cut by --until 5
    text = "".join(lines)

    rc, out = run(["phases", "--skip", "0.9", "--until", "5", "--src", "1"], text)
    T.check("phases exits 0", rc == 0, out)
    rows = {}
    for line in out.splitlines():
        d = json.loads(line)
        rows[d["phase"]] = d
    T.check("one row per phase, 'start' included", set(rows) == {"start", "a", "b"}, str(rows))
    a = rows.get("a", {})
    T.check("skip drops the first 0.9 s, src filters the sender's event",
          a.get("estimates") == 5, str(a))
    T.check("median ABest of 10..50 Mbit/s is 30", a.get("abest_median") == 30.0, str(a))
    T.check("p10 / p90 interpolate (14 / 46)",
          a.get("abest_p10") == 14.0 and a.get("abest_p90") == 46.0, str(a))
    T.check("median r_avg", a.get("r_avg_median") == 20.0, str(a))
    T.check("a stream without an estimate (rule 0) is counted apart", a.get("no_estimate") == 1, str(a))
    b = rows.get("b", {})
    T.check("until cuts late events of a phase", b.get("estimates") == 1, str(b))
    T.check("an empty phase has no median", rows.get("start", {}).get("abest_median") is None)

    rc, out = run(["phases", "--src", "2"], text)
    a = {json.loads(x)["phase"]: json.loads(x) for x in out.splitlines()}.get("a", {})
    T.check("src 2 selects the sender-side estimate", a.get("estimates") == 1
          and a.get("abest_median") == 77.0, str(a))

    rc, out = run(["csv"], text)
    rows = out.strip().splitlines()
    T.check("csv: a header and one row per rapid_abest event", rc == 0 and len(rows) == 1 + 11,
          out[:300])
    T.check("csv: fields by name", rows[0].startswith("ts,sport,dport,skaddr,id,src,rule"), rows[0])
    rc, out = run(["csv"], "# empty\n")
    T.check("csv of a trace without events exits 1", rc == 1)

    return T.done()


if __name__ == "__main__":
    sys.exit(main())
