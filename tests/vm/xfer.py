#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""End-to-end checked bulk transfers for the VM reliability suites.

  xfer.py server --port P [--count N]
      accept N connections (default: until killed); for each print one line
      "<peer> <bytes> <sha256>" once the peer has closed, flushed at once.
  xfer.py client --dst HOST --port P --bytes N --seed S [--cc NAME]
                 [--switch a,b,c --every BYTES]
      send N pseudo-random bytes (a seeded stream, no files), print
      "<bytes> <sha256> secs <S>" of what was sent, S the seconds from
      connect() until the server had read it all and closed (python's
      start-up not included); with --switch, change the
      socket's congestion control (setsockopt TCP_CONGESTION) in turn
      every BYTES while sending.
Exit status 0, or 1 on a socket error (printed).
"""
import argparse
import hashlib
import random
import socket
import sys
import threading
import time

CHUNK = 65536


def serve_one(conn, peer):
    h = hashlib.sha256()
    n = 0
    try:
        while True:
            b = conn.recv(CHUNK)
            if not b:
                break
            h.update(b)
            n += len(b)
    except OSError as e:
        print(f"{peer} error {e}", flush=True)
        return
    finally:
        conn.close()
    print(f"{peer} {n} {h.hexdigest()}", flush=True)


def server(a):
    fam = socket.AF_INET6 if ":" in a.bind else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((a.bind, a.port))
    s.listen(1024)
    threads = []
    done = 0
    while a.count == 0 or done < a.count:
        conn, addr = s.accept()
        t = threading.Thread(target=serve_one, args=(conn, f"{addr[0]}:{addr[1]}"))
        t.start()
        threads.append(t)
        done += 1
    for t in threads:
        t.join()
    return 0


def client(a):
    rng = random.Random(a.seed)
    fam = socket.AF_INET6 if ":" in a.dst else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_STREAM)
    ccs = a.switch.split(",") if a.switch else []
    try:
        if a.cc:
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, a.cc.encode())
        s.settimeout(a.timeout)
        t0 = time.monotonic()
        s.connect((a.dst, a.port))
        h = hashlib.sha256()
        sent = 0
        switches = 0
        next_switch = a.every if ccs else None
        while sent < a.bytes:
            n = min(CHUNK, a.bytes - sent)
            b = rng.randbytes(n)
            s.sendall(b)
            h.update(b)
            sent += n
            if next_switch is not None and sent >= next_switch:
                cc = ccs[switches % len(ccs)]
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
                switches += 1
                next_switch += a.every
        s.shutdown(socket.SHUT_WR)
        while s.recv(CHUNK):
            pass
        secs = time.monotonic() - t0
    except OSError as e:
        print(f"error {e}", flush=True)
        return 1
    finally:
        s.close()
    print(f"{sent} {h.hexdigest()} secs {secs:.3f}" + (f" switches {switches}" if ccs else ""), flush=True)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sv = sub.add_parser("server")
    sv.add_argument("--port", type=int, required=True)
    sv.add_argument("--bind", default="0.0.0.0")
    sv.add_argument("--count", type=int, default=0)
    cl = sub.add_parser("client")
    cl.add_argument("--dst", required=True)
    cl.add_argument("--port", type=int, required=True)
    cl.add_argument("--bytes", type=int, required=True)
    cl.add_argument("--seed", type=int, default=1)
    cl.add_argument("--cc")
    cl.add_argument("--switch", help="congestion controls to cycle through")
    cl.add_argument("--every", type=int, default=1 << 20)
    cl.add_argument("--timeout", type=float, default=120.0)
    a = ap.parse_args()
    return server(a) if a.cmd == "server" else client(a)


if __name__ == "__main__":
    sys.exit(main())
