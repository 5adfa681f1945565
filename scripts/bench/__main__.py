# SPDX-License-Identifier: GPL-2.0
"""python3 -m scripts.bench ...: the harness's command line (cli.py)."""
import sys

from .cli import main

sys.exit(main())
