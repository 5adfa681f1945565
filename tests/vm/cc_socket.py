#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hold a TCP socket with a chosen congestion control, for the VM tests.

cc_socket.py [--cc NAME] [--connect HOST:PORT] [--hold SECONDS] [--ready FILE]

Creates a socket, selects NAME with setsockopt(TCP_CONGESTION) when given,
connects when asked, prints what getsockopt(TCP_CONGESTION) reports, writes
FILE once that is done, then keeps the socket open for SECONDS (so a test can
look at it with ss or try to unload its module) and closes it.
Exit status 3 when setsockopt was refused.
"""
import argparse
import socket
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc")
    ap.add_argument("--connect")
    ap.add_argument("--hold", type=float, default=0)
    ap.add_argument("--ready")
    ap.add_argument("--send", type=int, default=0, help="bytes to send after connecting")
    a = ap.parse_args()

    family = socket.AF_INET6 if a.connect and a.connect.startswith("[") else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    if a.cc:
        try:
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, a.cc.encode())
        except OSError as e:
            print(f"setsockopt(TCP_CONGESTION, {a.cc}): {e}", file=sys.stderr)
            return 3
    if a.connect:
        host, port = a.connect.rsplit(":", 1)
        s.connect((host.strip("[]"), int(port)))
        if a.send:
            s.sendall(b"\0" * a.send)
    cc = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16)
    print(cc.split(b"\0", 1)[0].decode(), flush=True)
    if a.ready:
        with open(a.ready, "w") as f:
            f.write("ready\n")
    time.sleep(a.hold)
    s.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
