# SPDX-License-Identifier: GPL-2.0
"""Observability: cc_info (ss's fields and each socket's TCP_CC_INFO
record), tcp_probe (the tcp:tcp_probe tracepoint) and bpftrace/."""
