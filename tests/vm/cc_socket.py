#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hold a TCP socket with a chosen congestion control, for the VM tests.

cc_socket.py [--cc NAME] [--connect HOST:PORT] [--send BYTES] [--hold SECONDS]
             [--ready FILE]
cc_socket.py --sink PORT

Creates a socket, selects NAME with setsockopt(TCP_CONGESTION) when given,
connects when asked, prints what getsockopt(TCP_CONGESTION) reports, writes
FILE once that is done, then keeps the socket open for SECONDS (so a test can
look at it with ss or try to unload its module) and closes it.
Exit status 3 when setsockopt was refused.

--sink PORT: a server on [::]:PORT (IPv4 too) that reads each connection
until its client closes and then closes it, so that no client socket
lingers in FIN_WAIT2 holding a module reference; runs until killed.
"""
import argparse
import socket
import sys
import threading
import time


def sink(port):
    def drain(c):
        while c.recv(65536):
            pass
        c.close()

    s = socket.socket(socket.AF_INET6)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("::", port))
    s.listen(64)
    while True:
        c, _ = s.accept()
        threading.Thread(target=drain, args=(c,), daemon=True).start()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc")
    ap.add_argument("--connect")
    ap.add_argument("--hold", type=float, default=0)
    ap.add_argument("--ready")
    ap.add_argument("--send", type=int, default=0, help="bytes to send after connecting")
    ap.add_argument("--sink", type=int, metavar="PORT")
    a = ap.parse_args()
    if a.sink:
        sink(a.sink)

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
