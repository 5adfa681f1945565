# SPDX-License-Identifier: GPL-2.0
# tests.vm: the VM suites' Python helpers, importable from the top
# (tests/vm/lib.sh and tests/run.sh set PYTHONPATH to it).
