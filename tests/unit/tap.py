# SPDX-License-Identifier: GPL-2.0
"""kselftest-style TAP for the Python unit tests (the C tests use tap.h).

    t = Tap("cc_info: ")
    t.check("name", cond, "diagnostic shown when it fails")
    sys.exit(t.done())       # prints 1..N and "N passed, N failed"
"""


class Tap:
    def __init__(self, prefix=""):
        self.prefix = prefix
        self.n = 0
        self.failed = 0

    def check(self, name, cond, diag=""):
        """One test line; returns cond so a caller can skip what depends on it."""
        self.n += 1
        if not cond:
            self.failed += 1
        print(f"{'' if cond else 'not '}ok {self.n} - {self.prefix}{name}")
        if not cond and diag:
            print(f"# {diag}")
        return bool(cond)

    def done(self):
        """The plan and the summary line; the exit status (0 all passed, 1 not)."""
        print(f"1..{self.n}")
        print(f"{self.n - self.failed} passed, {self.failed} failed")
        return 1 if self.failed else 0
