"""Nudge's reliability and security suite: nothing lost, no hang, no way in."""

import argparse
import os
import shutil
import signal
import sys
import tempfile
import time
import traceback

from .checks import Checks
from .concurrency import case_concurrency, case_fresh_creators, case_reader_holds
from .crashes import case_crash_random, case_crash_each_write, case_migration_kills
from .desktop import Desktop, Xvfb
from .faults import case_no_network, case_notification_faults, case_time_faults
from .files import case_bad_files, case_read_only, case_disk_full, case_permissions
from .fuzzing import case_fuzz_config, case_fuzz_import, case_libfuzzer
from .hostile import (case_hostile_files, case_hostile_streams, case_hostile_values,
                      case_hostile_databases, case_hostile_text, case_test_hooks,
                      case_no_sqlite)
from .links import case_hostile_links, case_no_shell
from .world import Case


class Suite:
    """Settings shared by the cases, the Xvfb display, and the scratch folder."""

    def __init__(self, args):
        self.nudge = os.path.abspath(args.nudge)
        self.seed = args.seed
        self.work = tempfile.mkdtemp(prefix="nudge-reliability-")
        self.keep = args.keep
        self.kills = 200
        self.recompute_every = 5
        self.writes = 500
        self.creator_rounds = 10
        self.full_disk_runs = 3
        self.links = 10000
        self.fuzz_seconds = args.fuzz_seconds
        self.config_values = 300
        self.import_docs = 300
        self.fault_runs = 3
        self.desktops = []
        try:
            self.xvfb = Xvfb()
        except Exception:
            self.remove_work()
            raise
        self.display = self.xvfb.display

    def desktop(self, **kw):
        """A private D-Bus session on the display (see Desktop); close() and the end of each
        case stop it if the case did not."""
        desktop = Desktop(self.work, self.display, **kw)
        self.desktops.append(desktop)
        return desktop

    def stop_desktops(self):
        """Stops every desktop a case started and left running (one that failed half-way)."""
        while self.desktops:
            self.desktops.pop().stop()

    def close(self):
        """Stops the desktops, then Xvfb (cleanly, without a stale lock), then removes the
        scratch folder unless --keep."""
        try:
            self.stop_desktops()
        finally:
            try:
                self.xvfb.stop()
            finally:
                self.remove_work()

    def remove_work(self):
        if not self.keep:
            shutil.rmtree(self.work, ignore_errors=True)


CASES = [
    ("crash", case_crash_random),
    ("each-write", case_crash_each_write),
    ("concurrency", case_concurrency),
    ("creators", case_fresh_creators),
    ("reader", case_reader_holds),
    ("bad-files", case_bad_files),
    ("read-only", case_read_only),
    ("disk-full", case_disk_full),
    ("links", case_hostile_links),
    ("config", case_fuzz_config),
    ("import", case_fuzz_import),
    ("libfuzzer", case_libfuzzer),
    ("no-shell", case_no_shell),
    ("permissions", case_permissions),
    ("network", case_no_network),
    ("notifications", case_notification_faults),
    ("migrations", case_migration_kills),
    ("time", case_time_faults),
    ("hostile-files", case_hostile_files),
    ("hostile-streams", case_hostile_streams),
    ("hostile-values", case_hostile_values),
    ("hostile-databases", case_hostile_databases),
    ("no-sqlite", case_no_sqlite),
    ("hostile-text", case_hostile_text),
    ("test-hooks", case_test_hooks),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("nudge", help="the nudge binary under test")
    parser.add_argument("--only", action="append", help="run only these cases (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fuzz-seconds", type=int, default=30,
                        help="seconds of libFuzzer per target (default 30)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args()
    # a SIGTERM ends the run through the `finally` below, which stops Xvfb, dbus and dunst
    signal.signal(signal.SIGTERM, terminated)
    suite = Suite(args)
    results = []
    started = time.monotonic()
    try:
        for key, function in CASES:
            if args.only and key not in args.only:
                continue
            print(f"-- {key}: {function.__doc__.splitlines()[0].strip()}", flush=True)
            t0 = time.monotonic()
            try:
                case = function(suite)
            except Exception:
                case = Case(key)
                case.fail("crashed: " + traceback.format_exc().strip().splitlines()[-1])
                traceback.print_exc()
            finally:
                suite.stop_desktops()
            case.seconds = time.monotonic() - t0
            results.append(case)
            for problem in case.problems:
                print(f"   {problem}", flush=True)
    finally:
        suite.close()
    print()
    width = max(len(c.name) for c in results) if results else 10
    print(f"{'case':<{width}}  {'runs':>6}  {'failures':>8}  {'data lost':>9}  {'time':>6}  notes")
    for c in results:
        print(f"{c.name:<{width}}  {c.runs:>6}  {c.failed:>8}  {c.lost:>9}  "
              f"{c.seconds:>5.0f}s  {getattr(c, 'note', '')}")
    total = Checks(quiet=True)
    for c in results:
        total.add(c)
    lost = sum(c.lost for c in results)
    print(f"{'total':<{width}}  {sum(c.runs for c in results):>6}  {total.failed:>8}  {lost:>9}  "
          f"{time.monotonic() - started:>5.0f}s")
    status = total.finish(f"{len(results)} cases, {lost} records lost")
    sys.exit(1 if status or lost else 0)


def terminated(signum, frame):
    sys.exit(128 + signum)
