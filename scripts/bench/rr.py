#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Short TCP transfers with measured response times (benchmark cross traffic).

  rr.py server --port P
      in the receiver namespace: for every connection read an 8-byte
      big-endian length N, then N bytes, then answer one byte and close.
  rr.py client --dst IP --port P --schedule FILE --t0 EPOCH --out FILE
      in a sender namespace: FILE is JSON [[start_s, bytes], ...] relative
      to t0 (CLOCK_REALTIME seconds, the driver's $EPOCHREALTIME); each
      transfer opens its own connection at its start time, sends its bytes
      (data crosses the bottleneck) and waits for the one-byte answer.
      Writes one CSV line per transfer: start_s,bytes,response_s,ok,cc
      (response_s = connect() to answer received; -1 when it failed).

The schedule is drawn by scenario.py from the scenario's seed, so
every congestion control of a comparison sees the same transfers.  Python
standard library only (runs in the lab guest).
"""
import argparse
import json
import os
import signal
import socket
import struct
import sys
import threading
import time


def serve(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", port))
    s.listen(256)

    def handle(c):
        try:
            hdr = b""
            while len(hdr) < 8:
                d = c.recv(8 - len(hdr))
                if not d:
                    return
                hdr += d
            left = struct.unpack("!Q", hdr)[0]
            while left > 0:
                d = c.recv(min(left, 1 << 18))
                if not d:
                    return
                left -= len(d)
            c.sendall(b"\1")
        except OSError:
            pass
        finally:
            c.close()

    while True:
        c, _ = s.accept()
        threading.Thread(target=handle, args=(c,), daemon=True).start()


def transfer(dst, port, nbytes, cc, timeout):
    """One transfer; returns the response time in seconds (-1: failed)."""
    t = time.time()
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if cc:
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
        s.settimeout(timeout)
        s.connect((dst, port))
        s.sendall(struct.pack("!Q", nbytes))
        chunk = b"\0" * min(nbytes, 1 << 16)
        left = nbytes
        while left > 0:
            n = min(left, len(chunk))
            s.sendall(chunk[:n])
            left -= n
        ok = s.recv(1) == b"\1"
        s.close()
        return time.time() - t if ok else -1.0
    except OSError:
        return -1.0


def client(a):
    with open(a.schedule) as f:
        sched = json.load(f)
    results = []
    lock = threading.Lock()

    def run(start, nbytes):
        rt = transfer(a.dst, a.port, nbytes, a.cc, a.timeout)
        with lock:
            results.append((start, nbytes, rt))

    threads = []
    for start, nbytes in sched:
        delay = a.t0 + start - time.time()
        if delay > 0:
            time.sleep(delay)
        th = threading.Thread(target=run, args=(start, int(nbytes)), daemon=True)
        th.start()
        threads.append(th)
    for th in threads:
        th.join(a.timeout + 1)
    with lock:
        rows = sorted(results)
    with open(a.out, "w") as f:
        f.write("start_s,bytes,response_s,ok,cc\n")
        for start, nbytes, rt in rows:
            f.write(f"{start:.6f},{nbytes},{rt:.6f},{int(rt >= 0)},{a.cc or ''}\n")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("server")
    s.add_argument("--port", type=int, required=True)
    c = sub.add_parser("client")
    c.add_argument("--dst", required=True)
    c.add_argument("--port", type=int, required=True)
    c.add_argument("--schedule", required=True)
    c.add_argument("--t0", type=float, required=True)
    c.add_argument("--out", required=True)
    c.add_argument("--cc", default="")
    c.add_argument("--timeout", type=float, default=30)
    a = ap.parse_args()
    # The lab guest may start us with SIGTERM ignored (inherited): make
    # sure the topology's clean-up can stop us.
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    if a.cmd == "server":
        serve(a.port)
        return 0
    return client(a)


if __name__ == "__main__":
    sys.exit(main())
