# SPDX-License-Identifier: GPL-2.0
"""RAPID's offline analysis: trace.c (build/rapid-trace: ABest per
p-stream of a trace), pcap2trace (receiver capture -> trace), gaps
(packet gaps of captured chirps), events (the tcp_rapid tracepoints), and
the bias experiment (bias-exp.sh, bias_report)."""
