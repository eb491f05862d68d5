#!/usr/bin/env python3
"""End-to-end test of `nudge sync` through two real Syncthing instances on this machine.

    python3 scripts/e2e-sync.py [NUDGE]      (default .build/debug/nudge; KEEP=1 keeps the
                                              scratch folder, with both Syncthing logs)

A "laptop" and a "desktop" (each its own database, HOME, XDG folders, TZ=UTC and a fixed
NUDGE_NOW, so nothing depends on the real date) share a folder that Syncthing carries between
their two copies (scripts/nudgetest/syncthing.py). What is checked:

 1. both join (`sync init`), Syncthing brings the files over, each lists the other by name;
 2. flows done on both while Syncthing is stopped merge to the same history, streak and
    achievements on both;
 3. a delete on the laptop travels, and so does its `undo`;
 4. the same day's review written on both while apart: the later (the desktop's) wins on both,
    and each keeps exactly one conflict holding the laptop's answers;
 5. reminders: the desktop's morning reminder is `skipped-done` (nothing shown) when the
    laptop's review arrived first; a reminder waiting on the desktop's screen (Xvfb + a private
    D-Bus session + dunst) is withdrawn and logged `done-elsewhere` when the laptop's review
    arrives while it waits;
 6. `sync leave` on the desktop: exit 0, the folder keeps its files, and a later laptop change
    no longer arrives.

Prints "ok - ..." or "FAIL - ..." per check and "N passed, N failed" (nudgetest/checks.py);
exits 1 on any failure.
Everything it starts (Syncthing, Xvfb, dbus, dunst, a waiting `nudge notify`) is stopped at
the end, on a failure and on Ctrl-C or SIGTERM too. Needs syncthing, Xvfb, dbus-daemon, dunst
and dunstctl. Takes about 25 seconds.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from nudgetest import processes  # noqa: E402
from nudgetest.checks import Checks  # noqa: E402
from nudgetest.desktop import Desktop, Xvfb  # noqa: E402
from nudgetest.syncthing import SyncthingPair  # noqa: E402

SYNC_TIMEOUT = 60.0  # seconds for Syncthing to bring both copies level
WITHDRAW_TIMEOUT = 30.0  # seconds for a waiting reminder to go once the review is done elsewhere

checks = Checks()
check = checks.check  # check(WHAT, OK, DETAIL=""): "ok - WHAT" or "FAIL - WHAT" (DETAIL under it)


def note(text):
    print(f"# {text}", flush=True)


class Device:
    """One computer: its database, HOME and XDG folders, and its copy of the shared folder."""

    def __init__(self, nudge, work, name, folder):
        self.nudge = nudge
        self.name = name
        self.folder = folder
        home = os.path.join(work, name, "home")
        runtime = os.path.join(work, name, "runtime")
        for d in (home, runtime):
            os.makedirs(d, mode=0o700, exist_ok=True)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "HOME": home,
            "XDG_CONFIG_HOME": os.path.join(home, ".config"),
            "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
            "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
            "XDG_CACHE_HOME": os.path.join(home, ".cache"),
            "XDG_RUNTIME_DIR": runtime,
            "NUDGE_DB": os.path.join(work, name, "nudge.sqlite3"),
            "TZ": "UTC",
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
        }
        self.session = {}  # DBUS_SESSION_BUS_ADDRESS and DISPLAY once it has a desktop

    def environment(self, now, desktop=False):
        env = dict(self.env, NUDGE_NOW=now)
        if desktop:
            env.update(self.session)
        return env

    def run(self, now, *args, desktop=False, timeout=60):
        """Runs `nudge ARGS` as this device at `now`; returns the CompletedProcess (with
        `.cmd` for messages)."""
        argv = [self.nudge, *args]
        r = subprocess.run(argv, env=self.environment(now, desktop), capture_output=True,
                           text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        r.cmd = f"[{self.name} NUDGE_NOW={now}] nudge " + " ".join(args)
        return r

    def ok(self, now, *args, **kw):
        """Runs a command that must succeed: a failed check (with its output) otherwise."""
        r = self.run(now, *args, **kw)
        check(f"{self.name}: nudge {' '.join(args)} exits 0", r.returncode == 0, describe(r))
        return r

    def json(self, now, *args, **kw):
        """Runs a command printing JSON; returns it decoded (None after a failed check)."""
        r = self.run(now, *args, **kw)
        try:
            if r.returncode != 0:
                raise ValueError(f"exit {r.returncode}")
            return json.loads(r.stdout)
        except ValueError as e:
            check(f"{self.name}: nudge {' '.join(args)} prints JSON", False, f"{e}\n{describe(r)}")
            return None


def describe(r):
    """A command's line, exit status and output, for a failure message."""
    return (f"{r.cmd}\nexit {r.returncode}\nstdout: {r.stdout.strip()[-1500:]}\n"
            f"stderr: {r.stderr.strip()[-1500:]}")


def status(dev, now):
    return dev.json(now, "sync", "status", "--json") or {}


def history(dev, now, days=10):
    return dev.json(now, "history", "--json", "--days", str(days)) or []


def day_of(hist, day):
    return next((d for d in hist if d.get("date") == day), {})


def earned(dev, now):
    got = dev.json(now, "achievements", "--json") or []
    return {a["key"]: a.get("earned_on") for a in got if a.get("earned_on")}


def reminder_log(dev, now):
    return dev.json(now, "log", "--json", "--limit", "1000") or []


def in_sync(pair, what):
    """Waits (polling, up to SYNC_TIMEOUT) for both copies to be level; a check."""
    t0 = time.monotonic()
    ok = pair.wait_in_sync(SYNC_TIMEOUT)
    return check(f"Syncthing brings both folders level ({what}, "
                 f"{time.monotonic() - t0:.1f} s)", ok, pair.last_problem)


def nudge_files(folder):
    return sorted(n for n in os.listdir(folder) if n.startswith("nudge-"))


def wait_for(predicate, seconds, interval=0.1):
    """Polls `predicate` until it is true or `seconds` pass; returns its last value."""
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)


# The scenario, step by step. Times are UTC; each step's commands are later than the last's, so
# no device ever reads a change dated ahead of its own clock.

def step_join(pair, laptop, desktop):
    note("1. both join; Syncthing carries the files; each lists the other")
    now = "2026-11-20T08:00:00Z"
    laptop.ok(now, "sync", "init", laptop.folder, "--name", "laptop")
    desktop.ok(now, "sync", "init", desktop.folder, "--name", "desktop")
    pair.start()
    check("both Syncthing instances run and are connected", pair.connected())
    in_sync(pair, "after both joined")
    laptop.ok(now, "sync")
    desktop.ok(now, "sync")
    for dev, other in ((laptop, "desktop"), (desktop, "laptop")):
        st = status(dev, now)
        names = [d.get("name") for d in st.get("devices", [])]
        check(f"{dev.name}: sync status --json is on, names itself and lists {other}",
              st.get("on") is True and (st.get("device") or {}).get("name") == dev.name
              and names == [other], json.dumps(st))


def step_apart(pair, laptop, desktop):
    note("2. flows on both while Syncthing is stopped, then merged")
    pair.stop()
    check("both Syncthing instances stopped", not pair.running(0) and not pair.running(1))
    laptop.ok("2026-11-21T21:00:00Z", "prep", "--item", "sticky-notes=yes", "--item",
              "water=yes", "--no-input", "--no-animation")
    desktop.ok("2026-11-21T22:00:00Z", "checkin", "--feel", "good", "--blocker", "late meeting",
               "--no-input", "--no-animation")
    laptop.ok("2026-11-22T07:00:00Z", "review", "--why", "energy", "--commit-to",
              "fruit at 10", "--no-input", "--no-animation")
    desktop.ok("2026-11-22T21:30:00Z", "prep", "--item", "produce=yes", "--no-input",
               "--no-animation")
    now = "2026-11-22T22:00:00Z"
    pair.start()
    in_sync(pair, "after the flows done apart")
    r = laptop.ok(now, "sync")
    check("laptop: nudge sync says 'From desktop: 2 changes.'",
          "From desktop: 2 changes." in r.stdout, describe(r))
    r = desktop.ok(now, "sync")
    check("desktop: nudge sync says 'From laptop: 2 changes.'",
          "From laptop: 2 changes." in r.stdout, describe(r))
    hl, hd = history(laptop, now, 7), history(desktop, now, 7)
    d21, d22 = day_of(hl, "2026-11-21"), day_of(hl, "2026-11-22")
    check("laptop's history holds all four entries (21st: prep + check-in, 22nd: review + prep)",
          bool(d21.get("prep")) and bool(d21.get("checkin")) and bool(d22.get("review"))
          and bool(d22.get("prep")), json.dumps([d21, d22]))
    check("history --json --days 7 is the same on both", hl == hd and hl != [],
          f"laptop: {json.dumps(hl)}\ndesktop: {json.dumps(hd)}")
    sl, sd = laptop.json(now, "streak", "--json") or {}, desktop.json(now, "streak", "--json") or {}
    pick = lambda s: (s.get("current"), s.get("longest"))  # noqa: E731
    check(f"streak --json current/longest the same on both ({pick(sl)})",
          pick(sl) == pick(sd) and pick(sl) != (None, None),
          f"laptop {pick(sl)}, desktop {pick(sd)}")
    el, ed = earned(laptop, now), earned(desktop, now)
    check(f"achievements --json: the same earned set on both ({', '.join(sorted(el))})",
          set(el) == set(ed) and {"first-prep", "first-review", "first-checkin"} <= set(el),
          f"laptop {el}\ndesktop {ed}")
    if el != ed:
        note(f"earned_on dates differ: laptop {el}, desktop {ed}")


def step_delete_undo(pair, laptop, desktop):
    note("3. a delete on the laptop travels, then its undo")
    laptop.ok("2026-11-22T22:05:00Z", "delete", "2026-11-22", "review", "--yes")
    in_sync(pair, "after the delete")
    now = "2026-11-22T22:06:00Z"
    desktop.ok(now, "sync")
    review = day_of(history(desktop, now, 7), "2026-11-22").get("review", "missing")
    check("desktop: the 22nd's review is gone after sync", review is None, json.dumps(review))
    laptop.ok("2026-11-22T22:07:00Z", "undo")
    in_sync(pair, "after the undo")
    now = "2026-11-22T22:08:00Z"
    desktop.ok(now, "sync")
    back = day_of(history(desktop, now, 7), "2026-11-22").get("review")
    mine = day_of(history(laptop, now, 7), "2026-11-22").get("review")
    check("desktop: the 22nd's review is back after the laptop's undo, as the laptop has it",
          back is not None and back == mine,
          f"desktop {json.dumps(back)}\nlaptop {json.dumps(mine)}")


def step_conflict(pair, laptop, desktop):
    note("4. the same review written on both while apart: the later wins, the other is kept")
    pair.stop()
    laptop_answers = {"why": "laptop why", "commit_to": "walk 10 min"}
    desktop_answers = {"why": "desktop why", "commit_to": "stretch 5 min"}
    laptop.ok("2026-11-23T07:00:00Z", "review", "--why", laptop_answers["why"], "--commit-to",
              laptop_answers["commit_to"], "--no-input", "--no-animation")
    desktop.ok("2026-11-23T07:05:00Z", "review", "--why", desktop_answers["why"],
               "--commit-to", desktop_answers["commit_to"], "--no-input", "--no-animation")
    pair.start()
    in_sync(pair, "after the two reviews")
    now = "2026-11-23T07:10:00Z"
    for dev in (laptop, desktop):
        r = dev.ok(now, "sync")
        check(f"{dev.name}: nudge sync says 1 conflict was kept", "1 conflict" in r.stdout,
              describe(r))
    for dev in (laptop, desktop):
        review = day_of(history(dev, now, 7), "2026-11-23").get("review") or {}
        got = {k: review.get(k) for k in desktop_answers}
        check(f"{dev.name}: the 23rd's review has the desktop's answers", got == desktop_answers,
              json.dumps(review))
    for dev in (laptop, desktop):
        conflicts = status(dev, now).get("conflicts", [])
        ok = len(conflicts) == 1
        if ok:
            c = conflicts[0]
            kept = (c.get("kept") or {}).get("answers") or {}
            ok = ({k: kept.get(k) for k in laptop_answers} == laptop_answers
                  and c.get("kept_from") == "laptop" and c.get("won_from") == "desktop"
                  and "2026-11-23" in c.get("key", ""))
        check(f"{dev.name}: sync status --json lists exactly one conflict, keeping the "
              "laptop's answers (desktop's won)", ok, json.dumps(conflicts))


def step_reminders(pair, laptop, desktop, work, stack):
    note("5. reminders: skipped-done after the review arrived; a waiting one withdrawn")
    xvfb = Xvfb()
    stack.append(xvfb.stop)
    session = Desktop(work, xvfb.display)
    stack.append(session.stop)
    session.start_dunst()
    desktop.session = dict(session.env)

    # a) the laptop reviews the 24th; it arrives; the desktop's 07:00 reminder skips itself
    laptop.ok("2026-11-24T06:50:00Z", "review", "--why", "energy", "--commit-to", "tea",
              "--no-input", "--no-animation")
    in_sync(pair, "after the laptop's review of the 24th")
    now = "2026-11-24T07:00:00Z"
    r = desktop.run(now, "notify", "morning", "--scheduled", "--json", "--server-wait", "5",
                    desktop=True, timeout=60)
    try:
        outcome = json.loads(r.stdout).get("outcome")
    except ValueError:
        outcome = None
    check("desktop: notify morning --scheduled on the 24th says skipped-done",
          r.returncode == 0 and outcome == "skipped-done", describe(r))
    entries = [e for e in reminder_log(desktop, now)
               if e.get("slot") == "morning" and e.get("elapse", "").startswith("2026-11-24")]
    check("desktop: the log has the 24th's morning reminder as skipped-done, and only that",
          [e.get("outcome") for e in entries] == ["skipped-done"], json.dumps(entries))
    check("desktop: nothing was shown (dunst displayed 0, history 0)",
          session.displayed() == 0 and session.ctl("count", "history") in ("0", ""),
          f"displayed {session.displayed()}, history {session.ctl('count', 'history')}")

    # b) the 25th, 07:00: nothing done yet; the desktop's reminder goes up and waits
    now = "2026-11-25T07:00:00Z"
    out_path = os.path.join(work, "notify-25.out")
    err_path = os.path.join(work, "notify-25.err")
    with open(out_path, "w") as out, open(err_path, "w") as err:
        proc = subprocess.Popen(
            [desktop.nudge, "notify", "morning", "--scheduled", "--json", "--server-wait", "5"],
            env=desktop.environment(now, desktop=True), stdin=subprocess.DEVNULL, stdout=out,
            stderr=err)
    stack.append(lambda: processes.stop(proc))

    def notify_output():
        with open(out_path) as o, open(err_path) as e:
            return f"exit {proc.poll()}\nstdout: {o.read().strip()}\nstderr: {e.read().strip()}"

    shown = wait_for(lambda: session.displayed() >= 1 or proc.poll() is not None, 20) and \
        session.displayed() >= 1
    check("desktop: notify morning --scheduled on the 25th is on dunst's screen and waits",
          shown and proc.poll() is None, f"displayed {session.displayed()}\n{notify_output()}")
    if not (shown and proc.poll() is None):
        return
    laptop.ok("2026-11-25T07:01:00Z", "review", "--why", "energy", "--commit-to", "oats",
              "--no-input", "--no-animation")
    t0 = time.monotonic()
    ended = wait_for(lambda: proc.poll() is not None, WITHDRAW_TIMEOUT, 0.2)
    took = time.monotonic() - t0
    if not ended:
        note(f"Syncthing: {pair.sync_problem() or 'in sync'}; desktop folder "
             f"{nudge_files(desktop.folder)}")
    check(f"desktop: the waiting reminder ends by itself once the laptop's review "
          f"arrives ({took:.1f} s, at most {WITHDRAW_TIMEOUT:.0f} s)", ended, notify_output())
    if not ended:
        processes.stop(proc)
    with open(out_path) as o:
        try:
            outcome = json.loads(o.read()).get("outcome")
        except ValueError:
            outcome = None
    check("desktop: notify exits 0 saying done-elsewhere",
          ended and proc.returncode == 0 and outcome == "done-elsewhere", notify_output())
    later = "2026-11-25T07:02:00Z"
    entries = [e.get("outcome") for e in reminder_log(desktop, later)
               if e.get("slot") == "morning" and e.get("elapse", "").startswith("2026-11-25")]
    check("desktop: the log has the 25th's morning reminder shown, then done-elsewhere",
          "shown" in entries and entries[-1:] == ["done-elsewhere"], json.dumps(entries))
    check("desktop: the reminder is off the screen (dunst displayed 0)",
          wait_for(lambda: session.displayed() == 0, 5), f"displayed {session.displayed()}")


def step_leave(pair, laptop, desktop):
    note("6. the desktop leaves; a later laptop change no longer arrives")
    now = "2026-11-25T08:00:00Z"
    before = nudge_files(desktop.folder)
    r = desktop.ok(now, "sync", "leave")
    after = nudge_files(desktop.folder)
    check("desktop: the folder keeps its files after leave (both devices' nudge-* files)",
          len(before) >= 2 and after == before, f"before {before}, after {after}")
    st = status(desktop, now)
    check("desktop: sync status --json says on: false", st.get("on") is False, json.dumps(st))
    laptop.ok("2026-11-25T21:00:00Z", "checkin", "--followed", "yes", "--feel", "fine",
              "--no-input", "--no-animation")
    in_sync(pair, "after the laptop's check-in")
    now = "2026-11-25T21:10:00Z"
    laptop_check = day_of(history(laptop, now, 3), "2026-11-25").get("checkin")
    desktop_check = day_of(history(desktop, now, 3), "2026-11-25").get("checkin", "missing")
    check("desktop: the laptop's check-in of the 25th does not arrive after leave "
          "(it is in the desktop's folder copy, not in its history)",
          laptop_check is not None and desktop_check is None,
          f"laptop {json.dumps(laptop_check)}\ndesktop {json.dumps(desktop_check)}")


def interrupt(signum, frame):
    """SIGTERM: stop as Ctrl-C does."""
    raise KeyboardInterrupt


def main():
    nudge = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/nudge")
    if not os.access(nudge, os.X_OK):
        check(f"{nudge} is not an executable nudge binary", False)
        return checks.finish()
    keep = os.environ.get("KEEP") == "1"
    # SIGTERM ends the run like Ctrl-C: through the `finally` below, which stops everything
    signal.signal(signal.SIGTERM, interrupt)
    started = time.monotonic()
    work = tempfile.mkdtemp(prefix="syncthing-e2e-nudge-")
    stack = []  # cleanups, run last first
    try:
        folder_a = os.path.join(work, "laptop", "Sync")
        folder_b = os.path.join(work, "desktop", "Sync")
        for f in (folder_a, folder_b):
            os.makedirs(f, mode=0o700)
        laptop = Device(nudge, work, "laptop", folder_a)
        desktop = Device(nudge, work, "desktop", folder_b)
        pair = SyncthingPair(os.path.join(work, "syncthing"), folder_a, folder_b)
        stack.append(pair.stop)
        steps = [
            ("1 join", lambda: step_join(pair, laptop, desktop)),
            ("2 apart", lambda: step_apart(pair, laptop, desktop)),
            ("3 delete/undo", lambda: step_delete_undo(pair, laptop, desktop)),
            ("4 conflict", lambda: step_conflict(pair, laptop, desktop)),
            ("5 reminders", lambda: step_reminders(pair, laptop, desktop, work, stack)),
            ("6 leave", lambda: step_leave(pair, laptop, desktop)),
        ]
        for name, step in steps:
            t0 = time.monotonic()
            try:
                step()
            except Exception as e:  # noqa: BLE001 (a step that broke is a failure; go on)
                traceback.print_exc()
                check(f"step {name} ran to its end", False, f"{type(e).__name__}: {e}")
            note(f"step {name}: {time.monotonic() - t0:.1f} s")
            if name == "1 join" and not pair.running(0):
                check("Syncthing runs (the remaining steps need it)", False)
                break
    except KeyboardInterrupt:
        check("interrupted", False)
    finally:
        # a second Ctrl-C must not cut the cleanup short
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for cleanup in reversed(stack):
            try:
                cleanup()
            except Exception as e:  # noqa: BLE001 (the others still run)
                print(f"# cleanup: {type(e).__name__}: {e}", flush=True)
        if keep:
            print(f"# scratch folder kept: {work}", flush=True)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return checks.finish(f"{time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
