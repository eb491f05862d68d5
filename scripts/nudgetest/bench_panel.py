"""What the panel's status costs (issue 55): `nudge status` started against systemctl
--version (goal 1.2x), and `nudge status --follow`: the time from a change written by another
process to its new line, and its wake-ups while nothing changes (its context switches, all
threads, over the idle span; goal 0). The same for `nudge tray` on a session bus of its own:
from a change to the signal that tells the panel (NewToolTip), its wake-ups idle (goal 0), and
what it holds in memory (resident, and its peak; goal under 16 MB).

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


def _latencies(nudge, env, changes, arrived):
    """Writes `changes` changes, each waiting for `arrived()` to return (the new line, the
    signal): the median ms from each writer's start, and from its exit, to it."""
    from_start, from_exit = [], []
    for i in range(changes):
        # a habit added, then removed: "N habits left" moves each time
        args = (["habit", "add", "Bench habit"] if i % 2 == 0
                else ["habit", "remove", "Bench habit", "--yes"])
        started = time.monotonic()
        subprocess.run([nudge, *args], env=env, check=True, capture_output=True)
        exited = time.monotonic()
        arrived()
        # (it may come before the writer has finished ending: 0 ms)
        from_start.append((time.monotonic() - started) * 1000)
        from_exit.append((time.monotonic() - exited) * 1000)
    return statistics.median(from_start), statistics.median(from_exit)


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
            start, exit_ = _latencies(nudge, e, changes, follower.stdout.readline)
            # the last writer's own end (its files closed) may wake it once more: let it pass
            time.sleep(1)
            before = _switches(follower.pid)
            time.sleep(idle)
            woke = _switches(follower.pid) - before
        finally:
            follower.terminate()
            follower.wait(timeout=10)
        return start, exit_, woke
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _memory_kb(pid):
    """(resident, its own: the private dirty pages, the heap among them) of `pid`, in kB. The
    resident figure counts the binary's and the libraries' pages too, which the kernel may
    drop and read again (and shares with every other process that maps them); what the
    process holds is its private dirty memory."""
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            key, _, value = line.partition(":")
            if value.split():
                fields[key] = int(value.split()[0])
    return fields["Rss"], fields["Private_Dirty"]


def tray_figures(nudge, env, idle, changes=10):
    """(median ms from a writer's start, and from its exit, to the tray's NewToolTip signal,
    context switches over
    `idle` seconds, resident kB, private dirty kB) for a tray on a private session bus, on a
    copy of env's database."""
    work = tempfile.mkdtemp(prefix="nudge-bench-tray-")
    bus = monitor = tray = None
    try:
        db = os.path.join(work, "copy.sqlite3")
        shutil.copy(env["NUDGE_DB"], db)
        address = f"unix:path={work}/bus"
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address={address}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if os.path.exists(f"{work}/bus"):
                break
            time.sleep(0.05)
        e = dict(env, NUDGE_DB=db, DBUS_SESSION_BUS_ADDRESS=address)
        monitor = subprocess.Popen(
            ["dbus-monitor", "--address", address,
             "type='signal',interface='org.kde.StatusNotifierItem',member='NewToolTip'"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        tray = subprocess.Popen([nudge, "tray"], env=e, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        # the tray is up once it owns its name on the bus
        name = f"org.kde.StatusNotifierItem-{tray.pid}-1"
        for _ in range(200):
            listed = subprocess.run(["busctl", f"--address={address}", "list", "--no-legend"],
                                    capture_output=True, text=True).stdout
            if name in listed:
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("the tray never took its name on the bus")
        def signalled():
            while True:
                line = monitor.stdout.readline()
                if not line:
                    raise RuntimeError("dbus-monitor ended before the tray's signal came")
                if "member=NewToolTip" in line:
                    return

        start, latency = _latencies(nudge, e, changes, signalled)
        time.sleep(1)  # (as the follower's: the last writer's end passes first)
        before = _switches(tray.pid)
        time.sleep(idle)
        woke = _switches(tray.pid) - before
        resident, held = _memory_kb(tray.pid)
        return start, latency, woke, resident, held
    finally:
        for process in (tray, monitor, bus):
            if process:
                process.terminate()
                process.wait(timeout=10)
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
    start, latency, woke, resident, held = tray_figures(nudge, env, idle)
    report("tray: a change written to the panel's NewToolTip signal (median of 10)",
           f"{start:.0f} ms from the writer's start, {latency:.0f} ms from its exit",
           "<= 200 ms from its exit", latency <= 200)
    report(f"tray idle: context switches over {idle} s", f"{woke}", "0", woke == 0)
    report("tray: memory it holds after 10 changes on 10 years (private dirty; resident)",
           f"{held / 1024:.1f} MB ({resident / 1024:.1f} MB resident with the binary's and "
           "libraries' pages)", "< 16 MB", held < 16 * 1024)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("nudge")
    parser.add_argument("db")
    parser.add_argument("--idle", type=int, default=10)
    args = parser.parse_args()
    env = dict(os.environ, NUDGE_DB=args.db, TZ="Europe/Berlin", LANG="C.UTF-8", NO_COLOR="1")
    # the bench's fixed now (the evening of its history's last day), unless one is given
    env.setdefault("NUDGE_NOW", "2026-11-20T21:00:00+01:00")
    start, exit_, woke = follow_figures(args.nudge, env, args.idle)
    print(f"status --follow: from the writer's start: {start:.0f} ms; from its exit: "
          f"{exit_:.0f} ms; idle {args.idle} s: {woke} context switches")
    start, latency, woke, resident, held = tray_figures(args.nudge, env, args.idle)
    print(f"tray: to NewToolTip from the writer's start: {start:.0f} ms; from its exit: "
          f"{latency:.0f} ms; idle {args.idle} s: "
          f"{woke} context switches; holds {held / 1024:.1f} MB (private dirty), "
          f"{resident / 1024:.1f} MB resident")
