# SPDX-License-Identifier: GPL-2.0
"""The project's tools as packages rooted at the repository's top:
scripts.bench (the benchmark harness), scripts.rapid (RAPID's offline
analysis), scripts.obs (observability).  Run from the top
(`python3 -m scripts.bench ...`) or with PYTHONPATH set to it, as the
shell entry points do."""
