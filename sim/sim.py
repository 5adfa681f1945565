#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The scale engine's driver: the lab's scenario files, its plan and its
analysis, with build/sim/sim (sim/sim.c) in place of the lab VM.

  sim.py --scenario NAME [--cc a,b] [--set k=v ...] [--out DIR] [--jobs N]
         [--no-plots]

1. scripts.bench.scenario.resolve() makes the plan (plan.json) as `make bench`
   does; fields the engine cannot honour are refused by name;
2. every run of the plan is one process of build/sim/sim (at most --jobs
   at once), which writes the sampler's files (tcp.csv, qdisc.csv, cbr.csv,
   run.json, flow<i>.json, cbr<j>.json) into runs/[<variant>/]<cc>/;
3. scripts.bench analyze (the same code as `make bench`) computes the metrics,
   writes results.json and the plots, prints the table and, last, one JSON
   line.

docs/sim.md describes the model and what it leaves out.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from scripts.bench import cli as bench  # PYTHONPATH: the top (Makefile)
from scripts.bench import scenario as bs

ENGINE_CCS = ("rapid", "cubic", "reno", "scalable", "pert", "icc", "highspeed")
# modules whose parameters the engine takes (--set modparams.<module>.X=V)
ENGINE_MODULES = ("tcp_rapid", "tcp_rapid_rx", "tcp_pert", "tcp_icc")
# The engine's bottleneck limit (the lab's is bs.LAB_MAX_RATE_MBIT): rates
# are uint64 bit/s in sim.c, so this is a bound on run time, not on range.
ENGINE_MAX_RATE_MBIT = 10000
SIM_BIN = os.path.join(TOP, "build", "sim", "sim")


class Refused(bs.ScenarioError):
    pass


def check_plan(plan):
    """Refuse, by name, what the engine does not model."""
    for run in plan["runs"]:
        where = f"run {run['id']}"
        b = run["bottleneck"]
        if b["aqm"] != "pfifo":
            raise Refused(f"{where}: bottleneck.aqm={b['aqm']}: the engine models "
                          "a drop-tail queue in packets (pfifo) only")
        if float(b.get("jitter_ms") or 0):
            raise Refused(f"{where}: bottleneck.jitter_ms: no delay jitter in the engine")
        if (b.get("netem") or "").strip():
            raise Refused(f"{where}: bottleneck.netem='{b['netem']}': no extra netem "
                          "in the engine (random loss: bottleneck.loss_pct)")
        if run["receiver"].get("rmem_kb"):
            raise Refused(f"{where}: receiver.rmem_kb: the engine's receiver "
                          "window never limits")
        if run.get("cpu"):
            raise Refused(f"{where}: cpu: no guest CPU time in the engine")
        if run["shorts"]:
            raise Refused(f"{where}: cross[] type short: short transfers are "
                          "not in the engine")
        for e in run["schedule"]:
            if "netem" in e:
                raise Refused(f"{where}: schedule at {e['at_s']} s: netem changes "
                              "are not in the engine (rate_mbit only)")
        for m, ps in (run["modparams"] or {}).items():
            if m not in ENGINE_MODULES:
                raise Refused(f"{where}: modparams.{m}: the engine has the "
                              f"parameters of {', '.join(ENGINE_MODULES)} only")
            for k, v in ps.items():
                try:
                    param_int(v)
                except ValueError:
                    raise Refused(f"{where}: modparams.{m}.{k}={v}: "
                                  "not an integer") from None
        for f in run["flows"]:
            if f["cc"] not in ENGINE_CCS:
                raise Refused(f"{where}: flow {f['id']}: cc '{f['cc']}' is not in "
                              f"the engine ({', '.join(ENGINE_CCS)})")


def param_int(v):
    """A module parameter's value as the kernel's setters read it: an
    integer, or a boolean (tcp_icc's fast_convergence: y/n, 1/0)."""
    s = str(v).strip().lower()
    if s in ("y", "yes", "true", "on"):
        return 1
    if s in ("n", "no", "false", "off"):
        return 0
    return int(s)


def run_config(plan, run, rdir, seed, start_jitter_ms=0.0, rx_noise_us=0.0,
               cbr_burst=2):
    """The engine's input for one run (sim/sim.c, read_config())."""
    b = run["bottleneck"]
    rtts = [s["rtt_ms"] for s in run["senders"]]
    fwd = min(rtts) / 2.0	# lab_dumbbell: half the smallest RTT each way
    lines = [f"out {rdir}", f"duration_s {run['duration_s']}",
             f"sample_ms {run['sample_ms']}", f"seed {seed}",
             f"rate_kbit {b['rate_kbit']}", f"buffer_pkts {b['buffer_pkts']}",
             f"loss_pct {float(b.get('loss_pct') or 0)}",
             f"start_jitter_ms {start_jitter_ms}"]
    if rx_noise_us:
        lines.append(f"rx_noise_us {rx_noise_us}")
    lines.append(f"cbr_burst {cbr_burst}")
    mp = run["modparams"] or {}
    seen = {m: {k: str(v) for k, v in ps.items()} for m, ps in mp.items()}
    lines.append("modparams_json " + json.dumps(seen))
    for k, v in (mp.get("tcp_rapid") or {}).items():
        lines.append(f"param {k} {int(str(v))}")
    for m in ("tcp_rapid_rx", "tcp_pert", "tcp_icc"):
        for k, v in (mp.get(m) or {}).items():
            lines.append(f"modparam {m} {k} {param_int(v)}")
    for f in run["flows"]:
        lines.append(f"flow {f['id']} {f['port']} {f['cc']} {int(f['tested'])} "
                     f"{f['rtt_ms']} {f['start_s']} {f['stop_s']} {fwd}")
    for ev in run["trace"]:	# the engine refuses events it has not
        lines.append(f"trace {ev}")
    for c in run["cbr"]:
        lines.append(f"cbr {c['rate_mbit']} {c['start_s']} {c['stop_s']}")
    for e in run["schedule"]:
        if "rate_kbit" in e:
            lines.append(f"sched {e['at_s']} {e['rate_kbit']}")
    return "\n".join(lines) + "\n"


def one_run(args):
    """(rdir, wall s, CPU s, exit code, stderr) of one engine process."""
    cfg_path, rdir, binary = args
    t = time.time()
    errf = os.path.join(rdir, "sim.stderr")
    with open(errf, "w") as ef:
        p = subprocess.Popen([binary, cfg_path], stdout=subprocess.DEVNULL, stderr=ef)
        _, status, ru = os.wait4(p.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    p.returncode = rc
    with open(errf) as ef:
        err = ef.read()
    if rc:
        with open(os.path.join(rdir, "error"), "w") as f:
            f.write(f"sim exited {rc}: {err.strip()[-500:]}\n")
    return rdir, time.time() - t, ru.ru_utime + ru.ru_stime, rc, err


def git_rev():
    try:
        return subprocess.run(["git", "-C", TOP, "rev-parse", "--short", "HEAD"],
                               capture_output=True, text=True).stdout.strip()
    except OSError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--cc", default="")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--out", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--bin", default=SIM_BIN)
    ap.add_argument("--start-jitter-ms", type=float, default=0.0,
                    help="move each flow's start later by up to this many ms, "
                         "drawn from the seed (--set seed=K): repeated runs of "
                         "one scenario that differ by their starts")
    ap.add_argument("--cbr-burst", type=int, default=2, choices=range(1, 65),
                    metavar="N",
                    help="CBR datagrams sent back to back, N periods apart: "
                         "2, the default, as the lab's fq paces a CBR socket "
                         "per quantum of 2 MTU (docs/sim.md); 1: evenly "
                         "spaced")
    ap.add_argument("--rx-noise-us", type=float, default=0.0,
                    help="delay every data packet between the bottleneck and "
                         "its receiver by an exponential time of this mean "
                         "(us), each flow's order kept: the lab VM's timing "
                         "noise (docs/sim.md); 0, the default: none")
    a = ap.parse_args()
    t0 = time.time()
    try:
        doc = bs.load(a.scenario)
        ccs = [c for c in a.cc.split(",") if c] if a.cc else None
        plan = bs.resolve(doc, ccs, a.set, max_senders=None,
                          max_rate_mbit=ENGINE_MAX_RATE_MBIT, who="the engine")
        check_plan(plan)
    except bs.ScenarioError as e:
        print(f"sim: scenario error: {e}", file=sys.stderr)
        return 2
    out = a.out or os.path.join(TOP, "build", "sim",
                                time.strftime("%Y%m%d-%H%M%S-") + plan["scenario"])
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)
    seed = int(doc.get("seed", 1))
    for kv in a.set:	# --set seed=K (the plan does not carry the seed)
        k, _, v = kv.partition("=")
        if k.strip() == "seed":
            seed = int(v)
    jobs = []
    for run in plan["runs"]:
        rdir = os.path.join(out, run["dir"])
        os.makedirs(rdir, exist_ok=True)
        cfg = os.path.join(rdir, "sim.cfg")
        with open(cfg, "w") as f:
            f.write(run_config(plan, run, rdir, seed, a.start_jitter_ms,
                               a.rx_noise_us, a.cbr_burst))
        jobs.append((cfg, rdir, a.bin))
    for cfg, rdir, binary in jobs:	# parameters the engine refuses
        p = subprocess.run([binary, "--check", cfg], capture_output=True, text=True)
        if p.returncode:
            print(f"sim: scenario error: {p.stderr.strip()}", file=sys.stderr)
            return 2
    print(f"# sim: {plan['scenario']}: {len(jobs)} run(s), "
          f"{plan['guest_seconds']:.0f} s of simulated time, {a.jobs} at once, "
          f"outdir {out}", file=sys.stderr)
    run_wall, run_cpu = {}, {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        for rdir, secs, cpu, rc, err in ex.map(one_run, jobs):
            rel = os.path.relpath(rdir, out)
            run_wall[rel] = round(secs, 2)
            run_cpu[rel] = round(cpu, 2)
            print(f"# sim: {rel}: {secs:.1f} s wall, {cpu:.1f} s CPU"
                  f"{'' if not rc else ' FAILED: ' + err.strip()[-300:]}", file=sys.stderr)
    wall = time.time() - t0
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump({"accel": "sim", "clock": "event", "wall_s": round(wall, 1),
                   "sim_wall_s": run_wall, "sim_cpu_s": run_cpu,
                   "load_avg": os.getloadavg(), "git": git_rev(),
                   "argv": sys.argv[1:], "engine": "sim/sim.c"}, f, indent=1)
    with open(os.path.join(out, "guest.json"), "w") as f:
        json.dump({"accel": "sim", "clock": "event",
                   "kernel": "none (scale engine, pure headers)", "cpus": a.jobs}, f)
    return bench.cmd_analyze(argparse.Namespace(dir=out, no_plots=a.no_plots,
                                                columns="", quiet=False, json=True))


if __name__ == "__main__":
    sys.exit(main())
