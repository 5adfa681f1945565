# SPDX-License-Identifier: GPL-2.0
"""The benchmark harness (docs/benchmarks.md): scenario (scenarios/*.json
-> a run plan), sampler and rr (run in the guest), metrics, plot, and cli
(`python3 -m scripts.bench`: plan, analyze, table)."""
