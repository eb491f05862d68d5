"""Issue 39's two figures for scripts/bench: posting with `--wait 0` against notify-send, with
Do Not Disturb still logged `held`; and the idle daemon's wake-ups, of the whole process.

    measure(nudge, env, desktop, runs, hyperfine, report, quick=False)

`env` has the desktop's bus and display (scripts/bench's `denv`); `desktop` is the running
`nudgetest.desktop.Desktop` with dunst; `hyperfine(commands, runs, env, prepare=None,
names=None)` returns medians in seconds; `report(figure, value_text, target_text, ok)` prints
one row.
"""

import json
import os
import subprocess
import tempfile
import time

# a fixed morning: the reminder is due, nothing is done yet
NOW = "2026-11-23T07:05:00+01:00"


def measure(nudge, env, desktop, runs, hyperfine, report, quick=False):
    work = tempfile.mkdtemp(prefix="bench-notify-")
    base = dict(env, TZ="Europe/Berlin", NUDGE_NOW=NOW, LANG="C.UTF-8", NO_COLOR="1",
                HOME=work, XDG_DATA_HOME=os.path.join(work, "data"))
    post_vs_notify_send(nudge, dict(base, NUDGE_DB=os.path.join(work, "post.sqlite3")),
                        desktop, runs, hyperfine, report)
    held_under_do_not_disturb(nudge, dict(base, NUDGE_DB=os.path.join(work, "dnd.sqlite3")),
                              desktop, report)
    daemon_wake_ups(nudge, dict(base, NUDGE_DB=os.path.join(work, "daemon", "idle.sqlite3")),
                    report, 20 if quick else 60)


def post_vs_notify_send(nudge, env, desktop, runs, hyperfine, report):
    """`nudge notify demo --wait 0` and notify-send in one interleaved hyperfine run, then one
    more post that dunst must display."""
    desktop.ctl("set-paused", "false")
    # the database exists before the first timed run (its creation is not what is measured)
    subprocess.run([nudge, "notify", "demo", "--wait", "0"], env=env, capture_output=True)
    a, b = hyperfine([f"{nudge} notify demo --wait 0",
                      "notify-send -a nudge 'Nudge · Review your prep' 'Glance at your Why'"],
                     runs, env, prepare="dunstctl close-all", names=["nudge", "notify-send"])
    desktop.close_all()
    subprocess.run([nudge, "notify", "demo", "--wait", "0"], env=env, capture_output=True)
    shown = 1 if desktop.wait_displayed(1, 3) else desktop.displayed()
    desktop.close_all()
    report("notify demo --wait 0 vs notify-send (dunst)",
           f"{a * 1000:.1f} ms vs {b * 1000:.1f} ms = {a / b:.2f}x (displayed after: {shown})",
           "<= 1.25x, displayed", a / b <= 1.25 and shown == 1)


def held_under_do_not_disturb(nudge, env, desktop, report):
    """dunst paused: `notify morning --wait 0` reports and logs `held`, and nothing is drawn."""
    desktop.ctl("set-paused", "true")
    try:
        out = subprocess.run([nudge, "notify", "morning", "--wait", "0", "--json"], env=env,
                             capture_output=True, text=True)
        waiting = desktop.ctl("count", "waiting")
        displayed = desktop.displayed()
    finally:
        desktop.ctl("set-paused", "false")
        desktop.close_all()
    logged = subprocess.run([nudge, "log", "--json"], env=env, capture_output=True, text=True)
    try:
        outcome = json.loads(out.stdout)["outcome"]
        outcomes = [e["outcome"] for e in json.loads(logged.stdout)]
    except (ValueError, KeyError, TypeError):
        outcome, outcomes = f"exit {out.returncode}: {out.stderr.strip()[-200:]}", []
    report("Do Not Disturb (dunst paused): notify morning --wait 0",
           f"reported {outcome}, logged {outcomes}, dunst waiting {waiting} displayed {displayed}",
           "held, logged [held], none displayed",
           outcome == "held" and outcomes == ["held"] and displayed == 0)


def scheduled(pid):
    """Times any thread of the process was put on a CPU (schedstat's third field)."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[2])
        except (OSError, IndexError, ValueError):
            pass
    return total


def thread_names(pid):
    names = []
    for tid in sorted(os.listdir(f"/proc/{pid}/task")):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                names.append(f.read().strip())
        except OSError:
            pass
    return names


def daemon_wake_ups(nudge, env, report, seconds):
    """The idle daemon (every slot years away, no fixed now: the daemon's own clock), its whole
    process's times on a CPU over `seconds`, scaled to a minute."""
    env = {k: v for k, v in env.items() if k != "NUDGE_NOW"}
    os.makedirs(os.path.dirname(env["NUDGE_DB"]), exist_ok=True)
    for slot in ("morning", "evening"):
        subprocess.run([nudge, "schedule", "set", slot, "2099-01-01 07:00:00"], env=env,
                       check=True, capture_output=True)
    daemon = subprocess.Popen([nudge, "daemon"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        time.sleep(3)  # started, its first pass done
        before, t0 = scheduled(daemon.pid), time.monotonic()
        time.sleep(seconds)
        count, span = scheduled(daemon.pid) - before, time.monotonic() - t0
        threads = thread_names(daemon.pid)
    finally:
        daemon.terminate()
        code = daemon.wait(timeout=15)
    per_minute = count * 60 / span
    report(f"daemon idle: wake-ups of the whole process ({span:.0f} s, scaled to a minute)",
           f"{per_minute:.1f} a minute ({count} in {span:.0f} s; threads: {', '.join(threads)};"
           f" exit on SIGTERM {code})", "<= 2 a minute", per_minute <= 2 and code == 0)
