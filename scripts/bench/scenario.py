# SPDX-License-Identifier: GPL-2.0
"""Benchmark scenarios: load, override, check and resolve into a run plan.

A scenario (scenarios/<name>.json, schema in docs/benchmarks.md) describes a
dumbbell experiment in terms a person writes: rates in Mbit/s, a buffer in
packets or BDPs, flows with RTTs, start/stop times and a congestion control
("@cc" = the one under test), cross traffic, a schedule of changes, variants.

resolve() turns it into a plan: one run per (variant, cc) of the comparison
set, every random draw made (seeded), every flow and cross-traffic source
given its own sender namespace and port, times and sizes explicit.  The
guest driver (guest.sh) reads a run through shell_run(); the analysis
(cli.py) reads the same plan.  Python standard library only: the plan is
made on the host and read again inside the guest.
"""
import copy
import json
import math
import os
import random
import re
import shlex

SCENARIO_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios")

FRAME_BYTES = 1514	# Ethernet frame of a full-sized packet, what htb counts
MSS_BYTES = 1448	# TCP payload of that frame (timestamps on)
UDP_PAYLOAD = 1448	# iperf3 -u -l: same frame size as TCP's
UDP_FRAME = UDP_PAYLOAD + 8 + 20 + 14
FLOW_PORT0 = 5201	# bulk flow i: port FLOW_PORT0 + i
CBR_PORT0 = 5401	# cbr stream j: port CBR_PORT0 + j
SHORT_PORT0 = 5601	# short-transfer source k: port SHORT_PORT0 + k
MAX_SENDERS = 63	# lab_dumbbell's limit
# Bottleneck rates (Mbit/s) a caller can run: the lab VM's htb/netem path
# (scripts/bench/run.sh) does not go past this (it tops out near 100-400
# Mbit/s in practice); the scale engine passes its own, higher limit
# (sim/sim.py: ENGINE_MAX_RATE_MBIT).
LAB_MAX_RATE_MBIT = 1000

DEFAULTS = {
    "description": "",
    "cc": ["cubic"],
    "baseline": "cubic",
    "duration_s": 10,
    "sample_ms": 100,
    "seed": 1,
    "bottleneck": {"rate_mbit": 50, "buffer": "1bdp", "aqm": "pfifo",
                   "loss_pct": 0, "jitter_ms": 0, "netem": ""},
    "receiver": {"rmem_kb": 0, "capture": False},
    "modparams": {},
    "trace": [],
    "flows": [{"cc": "@cc", "rtt_ms": 40}],
    "cross": [],
    "schedule": [],
    "variants": [],
    "analysis": {},
    "time_scale": 1,
    "cpu": None,
}
FLOW_DEFAULTS = {"cc": "@cc", "count": 1, "rtt_ms": 40, "start_s": 0,
                 "stop_s": None, "label": ""}
ANALYSIS_DEFAULTS = {"from_s": 0, "to_s": None, "ratio": None,
                     "jain_timescales_s": [0.5, 1, 2, 4, 8, 10, 16],
                     "t90_frac": 0.9}
AQMS = ("pfifo", "bfifo", "fq_codel", "red")


MODPARAM_RE = re.compile(r"^[a-z0-9_]{1,64}$")
TRACE_RE = re.compile(r"^[a-z0-9_]+:[a-z0-9_]+$")
VALUE_RE = re.compile(r"^[A-Za-z0-9_.,-]{1,64}$")


class ScenarioError(ValueError):
    pass


def scenario_path(name):
    if os.sep in name or name.endswith(".json"):
        return name
    return os.path.join(SCENARIO_DIR, name + ".json")


def list_scenarios():
    out = []
    for f in sorted(os.listdir(SCENARIO_DIR)):
        if f.endswith(".json"):
            with open(os.path.join(SCENARIO_DIR, f)) as fh:
                d = json.load(fh)
            out.append((f[:-5], d.get("description", "")))
    return out


def load(name):
    path = scenario_path(name)
    if not os.path.exists(path):
        names = ", ".join(n for n, _ in list_scenarios())
        raise ScenarioError(f"no scenario '{name}' ({path}); known: {names}")
    with open(path) as f:
        try:
            doc = json.load(f)
        except json.JSONDecodeError as e:
            raise ScenarioError(f"{path}: {e}") from None
    doc.setdefault("name", os.path.basename(path)[:-5])
    return doc


def parse_value(text, current=None):
    """A --set value: JSON when it parses, a comma list when the field is a
    list, else the string itself."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    if isinstance(current, list):
        return [parse_value(x) for x in text.split(",") if x != ""]
    return text


def set_path(doc, path, value):
    """Set doc[a][b][0][c] for path 'a.b.0.c'; missing dict keys are made."""
    keys = path.split(".")
    cur = doc
    for i, k in enumerate(keys):
        last = i == len(keys) - 1
        if isinstance(cur, list):
            try:
                k = int(k)
            except ValueError:
                raise ScenarioError(f"--set {path}: '{k}' is not a list index") from None
            if not -len(cur) <= k < len(cur):
                raise ScenarioError(f"--set {path}: index {k} out of range")
        elif not isinstance(cur, dict):
            raise ScenarioError(f"--set {path}: '{keys[i - 1]}' is not an object")
        if last:
            old = cur[k] if isinstance(cur, list) or k in cur else None
            cur[k] = parse_value(value, old) if isinstance(value, str) else value
        else:
            if isinstance(cur, dict) and k not in cur:
                cur[k] = {}
            cur = cur[k]
    return doc


def apply_sets(doc, sets):
    for s in sets or []:
        if "=" not in s:
            raise ScenarioError(f"--set {s}: expected key=value")
        k, v = s.split("=", 1)
        set_path(doc, k.strip(), v)
    return doc


def _merge(defaults, doc):
    out = copy.deepcopy(defaults)
    for k, v in doc.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def draw(spec, rng, what):
    """A number, or {"uniform": [lo, hi]} drawn from rng."""
    if isinstance(spec, (int, float)) and not isinstance(spec, bool):
        return spec
    if isinstance(spec, dict) and "uniform" in spec:
        lo, hi = spec["uniform"]
        return rng.uniform(lo, hi)
    raise ScenarioError(f"{what}: expected a number or {{\"uniform\": [lo, hi]}}, got {spec!r}")


def bdp_packets(rate_mbit, rtt_ms):
    """Bandwidth-delay product in full-sized frames (1514 B), not rounded."""
    return rate_mbit * 1e6 / 8 * rtt_ms / 1000 / FRAME_BYTES


def buffer_packets(spec, rate_mbit, rtt_ms):
    """'1bdp', '0.5 bdp', {"bdp": 2} or a packet count -> packets (>= 10)."""
    if isinstance(spec, dict) and "bdp" in spec:
        pk = math.ceil(float(spec["bdp"]) * bdp_packets(rate_mbit, rtt_ms))
    elif isinstance(spec, str) and spec.strip().lower().endswith("bdp"):
        pk = math.ceil(float(spec.strip()[:-3]) * bdp_packets(rate_mbit, rtt_ms))
    elif isinstance(spec, (int, float)) and not isinstance(spec, bool):
        pk = int(spec)
    else:
        raise ScenarioError(f"bottleneck.buffer: packets or 'Nbdp', got {spec!r}")
    return max(10, int(pk))


def pareto_mean(alpha, lo, hi):
    """Mean of a Pareto(alpha, lo) truncated at hi (by rejection)."""
    if abs(alpha - 1.0) < 1e-9:
        return lo * math.log(hi / lo) / (1 - lo / hi)
    c = 1 - (lo / hi) ** alpha
    return alpha * lo ** alpha / c * (hi ** (1 - alpha) - lo ** (1 - alpha)) / (1 - alpha)


def short_schedule(spec, rng, start, stop):
    """Poisson arrivals of transfers between start and stop: [[t, bytes]]."""
    size = spec.get("size_kb", 50)
    load = float(spec.get("load_mbit", 1))
    if isinstance(size, dict) and "pareto" in size:
        alpha, lo, hi = (float(x) for x in size["pareto"])
        mean_b = pareto_mean(alpha, lo, hi) * 1000

        def one():
            while True:
                x = lo / (1 - rng.random()) ** (1 / alpha)
                if x <= hi:
                    return int(x * 1000)
    elif isinstance(size, (int, float)):
        mean_b = float(size) * 1000

        def one():
            return int(size * 1000)
    else:
        raise ScenarioError("cross short: size_kb is a number or {\"pareto\": [alpha, min_kb, max_kb]}")
    if load <= 0:
        raise ScenarioError("cross short: load_mbit must be > 0")
    rate = load * 1e6 / 8 / mean_b	# transfers per second
    out, t = [], start
    while True:
        t += rng.expovariate(rate)
        if t >= stop:
            return out
        out.append([round(t, 4), one()])


def _scale(spec, k):
    if spec is None or isinstance(spec, bool):
        return spec
    if isinstance(spec, (int, float)):
        return spec * k
    if isinstance(spec, dict) and "uniform" in spec:
        return {"uniform": [x * k for x in spec["uniform"]]}
    return spec


def scale_times(sc, k):
    """Multiply every time of a scenario by k (time_scale): duration, flow
    and cross-traffic start/stop, schedule, analysis window."""
    if k == 1:
        return sc
    sc["duration_s"] = sc["duration_s"] * k
    for f in sc["flows"]:
        for key in ("start_s", "stop_s"):
            if key in f:
                f[key] = _scale(f[key], k)
    for c in sc["cross"]:
        for key in ("start_s", "stop_s"):
            if key in c:
                c[key] = _scale(c[key], k)
    for e in sc["schedule"]:
        e["at_s"] = e["at_s"] * k
    an = sc.get("analysis") or {}
    for key in ("from_s", "to_s"):
        if an.get(key) is not None:
            an[key] = an[key] * k
    for key in ("from_s", "period_s", "settle_s"):
        if sc.get("cpu") and key in sc["cpu"]:
            sc["cpu"][key] = sc["cpu"][key] * k
    return sc


def validate(sc, max_rate_mbit=LAB_MAX_RATE_MBIT, who="the lab"):
    """max_rate_mbit, who: the caller's bottleneck rate limit and its name
    (the lab's by default; the engine passes its own)."""
    b = sc["bottleneck"]
    # a misspelt key (--set jump_mean=6 for modparams.tcp_rapid.jump_mean)
    # would otherwise run the defaults under the variant's name
    levels = [("", sc, set(DEFAULTS) | {"name"}),
              ("bottleneck.", b, set(DEFAULTS["bottleneck"]) | {"buffer_rtt_ms"}),
              ("receiver.", sc.get("receiver") or {}, set(DEFAULTS["receiver"]))]
    levels += [(f"flows.{i}.", f, set(FLOW_DEFAULTS)) for i, f in enumerate(sc["flows"])]
    for where, got, known in levels:
        unknown = sorted(set(got) - known) if isinstance(got, dict) else []
        if unknown:
            raise ScenarioError(f"{where}{unknown[0]}: no such field (known: "
                                f"{', '.join(sorted(known))}; module "
                                "parameters are modparams.<module>.<param>)")
    if not isinstance(sc["cc"], list) or not sc["cc"]:
        raise ScenarioError("cc: a non-empty list of congestion controls")
    if b["aqm"] not in AQMS:
        raise ScenarioError(f"bottleneck.aqm: one of {', '.join(AQMS)}")
    if not 0.1 <= float(b["rate_mbit"]) <= max_rate_mbit:
        raise ScenarioError(f"bottleneck.rate_mbit={b['rate_mbit']}: {who} runs "
                            f"0.1..{max_rate_mbit:g} Mbit/s")
    mp = sc.get("modparams") or {}
    if not isinstance(mp, dict) or not all(
            isinstance(v, dict) and MODPARAM_RE.match(m) and
            all(MODPARAM_RE.match(k) and VALUE_RE.match(str(x)) for k, x in v.items())
            for m, v in mp.items()):
        raise ScenarioError("modparams: {\"module\": {\"param\": value}} "
                            "(names [a-z0-9_], values [A-Za-z0-9_.,-])")
    tr = sc.get("trace") or []
    if isinstance(tr, str):			# --set trace=a:b,c:d
        tr = sc["trace"] = [e for e in tr.split(",") if e]
    if not isinstance(tr, list) or not all(
            isinstance(e, str) and TRACE_RE.match(e) for e in tr):
        raise ScenarioError("trace: a list of tracepoints \"system:event\" "
                            "(e.g. \"tcp_rapid:rapid_abest\")")
    rk = (sc.get("receiver") or {}).get("rmem_kb") or 0
    if not (rk == 0 or 64 <= float(rk) <= 262144):
        raise ScenarioError("receiver.rmem_kb: 0 (the kernel's) or 64..262144")
    cap = (sc.get("receiver") or {}).get("capture", False)
    if cap not in (True, False, 0, 1, "true", "false"):
        raise ScenarioError("receiver.capture: true or false")
    if not 1 <= float(sc["duration_s"]) <= 3600:
        raise ScenarioError("duration_s: 1..3600")
    if not 10 <= float(sc["sample_ms"]) <= 1000:
        raise ScenarioError("sample_ms: 10..1000")
    for i, c in enumerate(sc["cross"]):
        if c.get("type") not in ("cbr", "short"):
            raise ScenarioError(f"cross.{i}.type: cbr or short")
    for i, e in enumerate(sc["schedule"]):
        if "at_s" not in e or not ({"rate_mbit", "netem"} & set(e)):
            raise ScenarioError(f"schedule.{i}: needs at_s and rate_mbit or netem")
    cpu = sc.get("cpu")
    if cpu is not None:
        by = cpu.get("bystander") or {}
        if not (isinstance(cpu, dict) and float(cpu.get("period_s", 0)) > float(cpu.get("settle_s", 0)) >= 0
                and all(MODPARAM_RE.match(m) for m in by.get("modules", []))
                and MODPARAM_RE.match(str(by.get("idle_cc", "x")))
                and set(by.get("cycle") or ["off"]) <= {"off", "loaded", "on"}
                and "off" in (by.get("cycle") or ["off"])):
            raise ScenarioError("cpu: {\"from_s\", \"period_s\" > \"settle_s\", \"bystander\": "
                                "{\"modules\": [...], \"idle_cc\": cc}}")


def resolve_run(sc, cc, variant, outdir_rel, max_senders=MAX_SENDERS):
    """One run of a scenario (already merged with a variant) for one cc.
    max_senders: the lab's namespace limit (None: no limit, the engine's
    sim/sim.py)."""
    rng = random.Random(f"{sc['seed']}")
    dur = float(sc["duration_s"])
    b = sc["bottleneck"]
    rate = float(b["rate_mbit"])
    senders, flows, cbrs, shorts = [], [], [], []

    # Flows: expand counts and draws.  Draws happen for every flow, also
    # for those a run leaves out ("none"), so that all runs see the same
    # RTTs and start times.
    fid = 0
    for gi, g in enumerate(sc["flows"]):
        g = _merge(FLOW_DEFAULTS, g)
        for _ in range(int(g["count"])):
            rtt = int(round(draw(g["rtt_ms"], rng, f"flows.{gi}.rtt_ms")))
            start = round(float(draw(g["start_s"], rng, f"flows.{gi}.start_s")), 3)
            stop = g["stop_s"]
            stop = dur if stop is None else min(dur, float(draw(stop, rng, f"flows.{gi}.stop_s")))
            fcc = cc if g["cc"] == "@cc" else g["cc"]
            tested = g["cc"] == "@cc"
            if rtt < 2:
                raise ScenarioError(f"flows.{gi}.rtt_ms: at least 2 ms")
            if stop - start < 1:
                raise ScenarioError(f"flows.{gi}: lasts less than 1 s (start {start}, stop {stop})")
            if not (tested and cc == "none"):
                # iperf3 runs whole seconds: the stop the analysis uses is
                # start + those seconds (within the run).
                secs = max(1, int(round(stop - start)))
                senders.append({"rtt_ms": rtt, "role": "flow"})
                flows.append({"id": fid, "group": gi, "sender": len(senders) - 1,
                              "port": FLOW_PORT0 + fid, "cc": fcc, "tested": tested,
                              "rtt_ms": rtt, "start_s": start,
                              "stop_s": round(min(dur, start + secs), 3), "secs": secs,
                              "label": g["label"] or f"flow{fid + 1}"})
            fid += 1
    for ci, c in enumerate(sc["cross"]):
        rtt = int(round(draw(c.get("rtt_ms", 40), rng, f"cross.{ci}.rtt_ms")))
        start = float(c.get("start_s", 0))
        stop = min(dur, float(c["stop_s"])) if c.get("stop_s") is not None else dur
        senders.append({"rtt_ms": rtt, "role": c["type"]})
        if c["type"] == "cbr":
            secs = max(1, int(round(stop - start)))
            cbrs.append({"id": len(cbrs), "sender": len(senders) - 1,
                         "port": CBR_PORT0 + len(cbrs), "rate_mbit": float(c["rate_mbit"]),
                         "start_s": start, "stop_s": round(min(dur, start + secs), 3),
                         "secs": secs})
        else:
            shorts.append({"id": len(shorts), "sender": len(senders) - 1,
                           "port": SHORT_PORT0 + len(shorts), "cc": c.get("cc", "cubic"),
                           "rtt_ms": rtt, "start_s": start, "stop_s": stop,
                           "load_mbit": float(c.get("load_mbit", 1)),
                           "schedule": short_schedule(c, rng, start, stop)})
    if not senders:
        raise ScenarioError("the run has no flows and no cross traffic")
    if max_senders is not None and len(senders) > max_senders:
        raise ScenarioError(f"{len(senders)} senders: at most {max_senders}")

    bulk_rtts = [f["rtt_ms"] for f in flows] or [s["rtt_ms"] for s in senders]
    buf_rtt = float(b.get("buffer_rtt_ms") or sum(bulk_rtts) / len(bulk_rtts))
    buffer = buffer_packets(b["buffer"], rate, buf_rtt)
    sched = []
    for e in sorted(sc["schedule"], key=lambda e: float(e["at_s"])):
        x = {"at_s": float(e["at_s"])}
        if "rate_mbit" in e:
            x["rate_kbit"] = int(round(float(e["rate_mbit"]) * 1000))
        if "netem" in e:
            x["netem"] = str(e["netem"])
        sched.append(x)
    cpu = copy.deepcopy(sc.get("cpu"))
    if cpu:
        # CPU windows: period_s each from from_s on; in the bystander's
        # runs (every cc but idle_cc) each window starts a state of its
        # cycle in turn: "off" (the modules unloaded), "loaded" (loaded,
        # no socket of theirs), "on" (loaded, one idle idle_cc
        # connection open).
        by = cpu.get("bystander")
        cpu["alternate"] = bool(by) and cc != by.get("idle_cc")
        cycle = (by or {}).get("cycle") or ["off", "on"]
        t, i, cpu["windows"] = float(cpu.get("from_s", 0)), 0, []
        while t + float(cpu["period_s"]) <= dur + 1e-9:
            state = cycle[i % len(cycle)] if cpu["alternate"] else "all"
            cpu["windows"].append([round(t, 3), round(t + float(cpu["period_s"]), 3), state])
            if cpu["alternate"]:
                sched.append({"at_s": round(t, 3), "modules": state})
            t, i = t + float(cpu["period_s"]), i + 1
    an = _merge(ANALYSIS_DEFAULTS, sc.get("analysis") or {})
    rid = cc if variant is None else f"{variant}/{cc}"
    return {
        "id": rid, "cc": cc, "variant": variant, "dir": outdir_rel,
        "duration_s": dur, "sample_ms": float(sc["sample_ms"]),
        "bottleneck": {"rate_kbit": int(round(rate * 1000)), "buffer_pkts": buffer,
                       "buffer_rtt_ms": round(buf_rtt, 1), "aqm": b["aqm"],
                       "loss_pct": b.get("loss_pct") or 0,
                       "jitter_ms": b.get("jitter_ms") or 0, "netem": b.get("netem") or ""},
        "receiver": {"rmem_kb": int((sc.get("receiver") or {}).get("rmem_kb") or 0),
                     "capture": (sc.get("receiver") or {}).get("capture") in (True, 1, "true")},
        "modparams": copy.deepcopy(sc.get("modparams") or {}),
        "trace": list(sc.get("trace") or []),
        "senders": senders, "flows": flows, "cbr": cbrs, "shorts": shorts,
        "schedule": sched, "analysis": an, "cpu": cpu,
    }


def resolve(doc, ccs=None, sets=None, max_senders=MAX_SENDERS,
            max_rate_mbit=LAB_MAX_RATE_MBIT, who="the lab"):
    """Scenario document (+ --cc, --set) -> plan dict with one run per
    (variant, cc).  max_senders, max_rate_mbit, who: the caller's limits
    and its name in refusals (the lab's by default)."""
    doc = apply_sets(copy.deepcopy(doc), sets)
    if ccs:
        doc["cc"] = list(ccs)
    sc = _merge(DEFAULTS, doc)
    validate(sc, max_rate_mbit, who)
    variants = sc["variants"] or [{"name": None, "set": {}}]
    runs = []
    for v in variants:
        vs = copy.deepcopy(sc)
        vs.pop("variants", None)
        for k, val in (v.get("set") or {}).items():
            set_path(vs, k, copy.deepcopy(val))
        vs = _merge(DEFAULTS, vs)
        scale_times(vs, float(vs.get("time_scale", 1)))
        validate(vs, max_rate_mbit, who)
        for cc in sc["cc"]:
            rel = os.path.join("runs", *( [v["name"]] if v["name"] else []), cc)
            runs.append(resolve_run(vs, cc, v["name"], rel, max_senders))
    return {
        "scenario": sc["name"], "description": sc["description"],
        "cc": sc["cc"], "baseline": sc["baseline"] if sc["baseline"] in sc["cc"] else None,
        "variants": [v["name"] for v in variants if v["name"]],
        "sets": list(sets or []), "runs": runs,
        "guest_seconds": sum(r["duration_s"] for r in runs),
    }


def shell_run(plan, index, outdir):
    """Bash assignments for run INDEX of a plan (read by guest.sh)."""
    r = plan["runs"][index]
    b = r["bottleneck"]
    q = shlex.quote
    lines = [
        f"RUN_ID={q(r['id'])}", f"RUN_CC={q(r['cc'])}",
        f"RUN_DIR={q(os.path.join(outdir, r['dir']))}",
        f"RUN_DURATION_US={int(r['duration_s'] * 1e6)}",
        f"RUN_SAMPLE_MS={int(r['sample_ms'])}",
        f"RUN_CAPTURE={1 if (r.get('receiver') or {}).get('capture') else 0}",
    ]
    topo = ["--senders", str(len(r["senders"])), "--rate", f"{b['rate_kbit']}kbit",
            "--buffer", str(b["buffer_pkts"]), "--aqm", b["aqm"],
            "--rtt", ",".join(str(s["rtt_ms"]) for s in r["senders"])]
    if b["loss_pct"]:
        topo += ["--loss", f"{b['loss_pct']}%"]
    if b["jitter_ms"]:
        topo += ["--jitter", str(b["jitter_ms"])]
    if b["netem"]:
        topo += ["--netem", b["netem"]]
    rk = (r.get("receiver") or {}).get("rmem_kb") or 0
    if rk:
        topo += ["--rcv-rmem", str(rk * 1024)]
    lines.append("RUN_TOPO=(" + " ".join(q(x) for x in topo) + ")")

    def arr(name, vals):
        lines.append(f"{name}=(" + " ".join(q(str(v)) for v in vals) + ")")

    fl = r["flows"]
    arr("FLOW_SND", [f["sender"] for f in fl])
    arr("FLOW_PORT", [f["port"] for f in fl])
    arr("FLOW_CC", [f["cc"] for f in fl])
    arr("FLOW_SECS", [f["secs"] for f in fl])
    arr("CBR_SND", [c["sender"] for c in r["cbr"]])
    arr("CBR_PORT", [c["port"] for c in r["cbr"]])
    arr("CBR_RATE", [f"{c['rate_mbit']}M" for c in r["cbr"]])
    arr("CBR_SECS", [c["secs"] for c in r["cbr"]])
    arr("SHORT_SND", [s["sender"] for s in r["shorts"]])
    arr("SHORT_PORT", [s["port"] for s in r["shorts"]])
    arr("SHORT_CC", [s["cc"] for s in r["shorts"]])
    ccs = sorted({f["cc"] for f in fl} | {s["cc"] for s in r["shorts"]})
    arr("RUN_CCS", ccs)
    arr("RUN_TRACE", r.get("trace") or [])
    by = (r.get("cpu") or {}).get("bystander") if (r.get("cpu") or {}).get("alternate") else None
    arr("RUN_BYSTANDER", [by["idle_cc"]] + list(by["modules"]) if by else [])
    arr("RUN_MODPARAMS", [f"{m}/{k}={v}" for m, ps in sorted((r.get("modparams") or {}).items())
                          for k, v in sorted(ps.items())])

    # Events: "<microseconds> <kind> <arg>", sorted by time.
    ev = []
    for f in fl:
        ev.append((f["start_s"], "flow", f["id"]))
    for c in r["cbr"]:
        ev.append((c["start_s"], "cbr", c["id"]))
    for s in r["shorts"]:
        ev.append((0.0, "short", s["id"]))
    for e in r["schedule"]:
        if "rate_kbit" in e:
            ev.append((e["at_s"], "rate", f"{e['rate_kbit']}kbit"))
        if "netem" in e:
            ev.append((e["at_s"], "netem", e["netem"]))
        if "modules" in e:
            ev.append((e["at_s"], "modules", e["modules"]))
    ev.sort(key=lambda x: (x[0], x[1] != "short"))
    arr("EV_US", [int(round(t * 1e6)) for t, _, _ in ev])
    arr("EV_KIND", [k for _, k, _ in ev])
    arr("EV_ARG", [a for _, _, a in ev])
    return "\n".join(lines) + "\n"
