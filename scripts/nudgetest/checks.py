"""The one tally of checks of the Python suites (e2e-sync-copy.py, e2e-sync.py, e2e-odd-args.py,
calendar-oracle.py, the reliability cases, the Syncthing self-test): each check counted passed or
failed, its line, the summary line "N passed, N failed" (the line CI and people read, as
scripts/lib/e2e.sh prints it for the bash suites) and the exit status.

    checks = Checks()
    checks.check("the review arrived", got == want, f"got {got}")  # "ok - …" or "FAIL - …"
    ...
    sys.exit(checks.finish())                                      # "3 passed, 0 failed"

A quiet tally (quiet=True) prints nothing per check: a suite with thousands of checks (the
calendar oracle, the odd arguments, a reliability case) prints its failures its own way, or
reads them from `failures` at the end.
"""

import threading


class Checks:
    """Counts checks: how many passed, how many failed, and what the failed ones said.

    check(name, ok, detail) counts one; unless the tally is quiet it prints "ok - NAME", or
    "FAIL - NAME" with DETAIL indented on the lines under it. `failures` keeps "NAME" (or
    "NAME: DETAIL") of the failed checks, the first `keep` of them (all when keep is None).
    Safe to call from several threads."""

    def __init__(self, quiet=False, keep=None):
        self.quiet = quiet
        self.keep = keep
        self.passed = 0
        self.failed = 0
        self.failures = []
        self._lock = threading.Lock()

    @property
    def total(self):
        """The number of checks made."""
        return self.passed + self.failed

    def check(self, name, ok, detail=""):
        """Counts one check (passed when `ok` is truthy); prints its line unless quiet.
        Returns whether it passed, so a suite can go on only when it did."""
        ok = bool(ok)
        with self._lock:
            if ok:
                self.passed += 1
            else:
                self.failed += 1
                if self.keep is None or len(self.failures) < self.keep:
                    self.failures.append(f"{name}: {detail}" if detail else name)
            if not self.quiet:
                line = f"{'ok' if ok else 'FAIL'} - {name}"
                if not ok and detail:
                    line += "\n    " + str(detail).replace("\n", "\n    ")
                print(line, flush=True)
        return ok

    def fail(self, name, detail=""):
        """Counts one failed check."""
        return self.check(name, False, detail)

    def add(self, other):
        """Adds another tally's counts (and kept failures) to this one: a suite's total."""
        with self._lock:
            self.passed += other.passed
            self.failed += other.failed
            self.failures += other.failures

    def summary(self, note=""):
        """The summary line: "N passed, N failed", with NOTE in parentheses after it."""
        return f"{self.passed} passed, {self.failed} failed" + (f" ({note})" if note else "")

    def status(self):
        """The exit status: 1 when a check failed or none was made (a run that checked
        nothing proved nothing), else 0."""
        return 1 if self.failed or not self.total else 0

    def finish(self, note=""):
        """Prints the summary line; returns the exit status."""
        print(self.summary(note), flush=True)
        return self.status()
