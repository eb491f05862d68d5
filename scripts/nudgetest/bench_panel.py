"""What the panel's status costs (issue 55): `nudge status` started against systemctl
--version (goal 1.2x), and `nudge status --follow`: the time from a change written by another
process to its new line, and its wake-ups while nothing changes (its context switches, all
threads, over the idle span; goal 0).

    measure(nudge, env, runs, hyperfine, report, idle=60)

is called by scripts/bench with its `hyperfine(commands, runs, env)` (medians in seconds) and
its `report(figure, value_text, target_text, ok)`; the database is a copy of the bench's (10
years). Run alone,

    python3 scripts/nudgetest/bench_panel.py NUDGE DB [--idle SECONDS]

it prints the follower's figures for that database (hyperfine is not needed).
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def _switches(pid):
    """The context switches of every thread of `pid` so far."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/status") as f:
            for line in f:
                if "ctxt_switches" in line:
                    total += int(line.split()[1])
    return total


def follow_figures(nudge, env, idle, changes=10):
    """(median ms from a writer's start to the new line, median ms from its exit, context
    switches over `idle` seconds) for a follower on a copy of env's database."""
    work = tempfile.mkdtemp(prefix="nudge-bench-panel-")
    try:
        db = os.path.join(work, "copy.sqlite3")
        shutil.copy(env["NUDGE_DB"], db)
        e = dict(env, NUDGE_DB=db)
        follower = subprocess.Popen([nudge, "status", "--follow", "--format", "json"], env=e,
                                    stdout=subprocess.PIPE, text=True, bufsize=1)
        try:
            follower.stdout.readline()
            from_start, from_exit = [], []
            for i in range(changes):
                # a habit added, then removed: "N habits left" moves each time
                args = (["habit", "add", "Bench habit"] if i % 2 == 0
                        else ["habit", "remove", "Bench habit", "--yes"])
                started = time.monotonic()
                subprocess.run([nudge, *args], env=e, check=True, capture_output=True)
                exited = time.monotonic()
                follower.stdout.readline()
                arrived = time.monotonic()
                from_start.append((arrived - started) * 1000)
                from_exit.append((arrived - exited) * 1000)
            before = _switches(follower.pid)
            time.sleep(idle)
            woke = _switches(follower.pid) - before
        finally:
            follower.terminate()
            follower.wait(timeout=10)
        return statistics.median(from_start), statistics.median(from_exit), woke
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(nudge, env, runs, hyperfine, report, idle=60):
    a, b = hyperfine([f"{nudge} status --format waybar", "systemctl --version"], runs, env)
    report("nudge status --format waybar on 10 years vs systemctl --version",
           f"{a * 1000:.1f} ms vs {b * 1000:.1f} ms = {a / b:.2f}x", "<= 1.2x", a / b <= 1.2)
    start, exit_, woke = follow_figures(nudge, env, idle)
    report("status --follow: a change written to its new line (median of 10)",
           f"{start:.0f} ms from the writer's start, {exit_:.0f} ms from its exit",
           "<= 200 ms from its exit", exit_ <= 200)
    report(f"status --follow idle: context switches over {idle} s", f"{woke}", "0", woke == 0)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("nudge")
    parser.add_argument("db")
    parser.add_argument("--idle", type=int, default=10)
    args = parser.parse_args()
    env = dict(os.environ, NUDGE_DB=args.db, TZ="Europe/Berlin", LANG="C.UTF-8", NO_COLOR="1")
    start, exit_, woke = follow_figures(args.nudge, env, args.idle)
    print(f"from the writer's start: {start:.0f} ms; from its exit: {exit_:.0f} ms; "
          f"idle {args.idle} s: {woke} context switches")
