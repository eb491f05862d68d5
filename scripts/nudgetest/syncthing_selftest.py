#!/usr/bin/env python3
"""Checks scripts/nudgetest/syncthing.py against real Syncthing: two instances in a temp dir
share a folder; a file written in A reaches B; with B stopped, A's file grows and B gets a new
file; B started again, both converge. Prints "ok - ..." / "FAIL - ..." lines with timings and
"N passed, N failed" (nudgetest/checks.py); exits 1 on a failure.
Run: python3 scripts/nudgetest/syncthing_selftest.py [--keep]  (--keep leaves the temp dir, with
both Syncthing logs, for a look)."""

import os
import stat
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from nudgetest.checks import Checks  # noqa: E402
from nudgetest.syncthing import SyncthingPair, SyncthingError, syncthing_version, tree  # noqa: E402

checks = Checks()
check = checks.check  # check(WHAT, OK, DETAIL=""): "ok - WHAT" or "FAIL - WHAT" (DETAIL under it)


def timed_sync(pair, what, timeout=60):
    """Waits for the pair to be in sync: a check, named with the seconds it took."""
    t0 = time.monotonic()
    ok = pair.wait_in_sync(timeout)
    took = time.monotonic() - t0
    check(f"{what} ({took:.1f} s)", ok, pair.last_problem)
    return took


def write(path, data, mode="w"):
    """Writes (or with mode 'a' appends) `data` to `path`, flushed to disk."""
    with open(path, mode) as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def read(path):
    """The text of `path`, or None when it is not there."""
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return None


def main():
    """Runs the scenario; returns the exit status."""
    keep = "--keep" in sys.argv[1:]
    print(syncthing_version(), flush=True)
    base = tempfile.mkdtemp(prefix="nudge-syncthing-")
    folder_a, folder_b = os.path.join(base, "folder-a"), os.path.join(base, "folder-b")
    pair = SyncthingPair(base, folder_a, folder_b)
    try:
        t0 = time.monotonic()
        pair.start()
        check(f"both started and connected ({time.monotonic() - t0:.1f} s)", True)
        print(pair.describe(), flush=True)
        check("connected() says connected", pair.connected())
        timed_sync(pair, "empty folders in sync")

        # 1. A file written in A reaches B.
        log_a = os.path.join(folder_a, "nudge-AAAA.log")
        write(log_a, "line 1 from A\n")
        timed_sync(pair, "a new file in A reaches B")
        check("B's copy has A's bytes",
              read(os.path.join(folder_b, "nudge-AAAA.log")) == "line 1 from A\n")

        # 2. B offline: A's file grows, B gets a new file; then B comes back.
        t0 = time.monotonic()
        pair.stop_one(1)
        check(f"B stopped ({time.monotonic() - t0:.1f} s)",
              not pair.running(1) and not pair.connected())
        write(log_a, "line 2 from A, B offline\n", "a")
        write(os.path.join(folder_b, "nudge-BBBB.log"), "line 1 from B, written offline\n")
        apart = not pair.wait_in_sync(4)
        check(f"not in sync while B is stopped ({pair.last_problem})", apart)
        t0 = time.monotonic()
        pair.start_one(1)
        check(f"B started again and reconnected ({time.monotonic() - t0:.1f} s)",
              pair.connected())
        timed_sync(pair, "both converge after B's restart")
        want = {"nudge-AAAA.log": "line 1 from A\nline 2 from A, B offline\n",
                "nudge-BBBB.log": "line 1 from B, written offline\n"}
        for folder, name in ((folder_a, "A"), (folder_b, "B")):
            got = {n: read(os.path.join(folder, n)) for n in sorted(tree(folder))}
            check(f"{name} holds exactly both files with the right bytes", got == want, str(got))

        # 3. An append while both run (what Nudge does all the time), and an explicit rescan.
        write(os.path.join(folder_b, "nudge-BBBB.log"), "line 2 from B\n", "a")
        timed_sync(pair, "an append in B reaches A (watcher)")
        write(log_a, "line 3 from A\n", "a")
        pair.rescan(0)
        timed_sync(pair, "an append in A reaches B (after rescan(0))")

        for folder, name in ((folder_a, "A"), (folder_b, "B")):
            mode = stat.S_IMODE(os.stat(folder).st_mode)
            check(f"folder {name} is still mode 0700", mode == 0o700, oct(mode))
        conflicts = [n for f in (folder_a, folder_b) for n in os.listdir(f) if "sync-conflict" in n]
        check("no conflict copies", not conflicts, ", ".join(conflicts))
    except SyncthingError as e:
        check("syncthing pair", False, str(e))
    finally:
        pair.stop()
        check("both stopped", not pair.running(0) and not pair.running(1))
        if keep or checks.failed:
            print(f"logs and folders kept in {base}", flush=True)
        else:
            import shutil
            shutil.rmtree(base, ignore_errors=True)
    return checks.finish("syncthing selftest")


if __name__ == "__main__":
    sys.exit(main())
