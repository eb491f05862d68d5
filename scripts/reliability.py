#!/usr/bin/env python3
"""Nudge's reliability and security suite: nothing lost, no hang, no way in.

Runs the real `nudge` binary against real SQLite files, a real notification server (dunst under
Xvfb in a private D-Bus session), real kills (SIGKILL at random moments and, through strace's
fault injection, at every write of a save and of a migration), a real full disk (a small tmpfs),
a real read-only directory (a read-only bind mount), libFuzzer, strace, and steps of the wall
clock faked for `nudge daemon` alone (libfaketime) with the kernel's clock-set event delivered
for real by a +1 ns/-1 ns adjtimex pair that leaves the machine's clock where it was
(nudgetest/fakeclock.py). Prints one row per case: runs, failures, data lost; then "N passed,
N failed", over every case's checks (nudgetest/checks.py). Exit status 1 when any case failed or
lost data.

    python3 scripts/reliability.py .build/debug/nudge [--only NAME] [--seed N] [--keep]

The cases live in scripts/nudgetest/, a module per theme (suite.py lists them in order).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from nudgetest.suite import main  # noqa: E402  (needs the path above)

if __name__ == "__main__":
    main()
