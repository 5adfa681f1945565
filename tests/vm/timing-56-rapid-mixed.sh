#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lab-time: 252 (host seconds under TCG, precise clock, measured in
# `tests/run.sh --vm-only` of 2026-12-02, two boots at once, on a host
# whose page cache held next to nothing: tests/run.sh balances its
# parallel boots with it)
#
# Part (d) of tests/vm/timing-55-rapid-estimate.sh in a suite of its own:
# the rapid flow over IPv6 with the receiver helper, beside iperf3's bursty
# UDP and beside a cubic TCP flow (run_mixed, check_mixed there).  Its own
# suite so that tests/run.sh can put it in the other lab boot, and so that
# the starved rapid flow of its cubic phase shares no namespace with the
# stock-receiver part (kt_done removes the topology).
T55_PARTS=mixed
. "$LAB_TOP/tests/vm/timing-55-rapid-estimate.sh"
