"""Faults around nudge: no network, a notification server killed, restarted or hung, clock steps
(faked for nudge alone, fakeclock.py)."""

import datetime as dt
import json
import os
import re
import signal
import subprocess
import time

from . import processes
from .fakeclock import NudgeClock, machine_clock_offset
from .world import Case, World


def case_no_network(suite):
    """Every command's sockets, traced: only AF_UNIX (D-Bus, journald), never an IP socket."""
    case = Case("no network socket (strace -e socket)")
    world = World(suite, "sockets")
    desktop = suite.desktop()
    desktop.start_dunst()
    world.env.update(desktop.env)
    commands = [
        ["today"], ["prep", "--item", "water=yes", "--no-input", "--no-animation"],
        ["review", "--why", "w", "--commit-to", "tea", "--no-input", "--no-animation"],
        # the evening is done (prep and check-in), so the daemon's firing ends at once
        ["checkin", "--followed", "yes", "--no-input", "--no-animation"], ["streak", "--json"],
        ["achievements"], ["history"], ["schedule", "preview", "daily", "--count", "3"],
        ["notify", "demo", "--wait", "1"], ["notify", "morning", "--scheduled", "--wait", "1"],
        ["doctor"], ["export"], ["open", "nudge://x;y"], ["config", "list"],
        ["daemon", "--exit-after", "2"], ["install", "--dry-run"],
    ]
    families = set()
    # The reminders the daemon starts read the wall clock (NUDGE_NOW is not passed on), and
    # strace -f waits for them: under the real clock one would post a reminder and wait for
    # its click whenever the suite runs just after 07:00 or 21:30 in Berlin. The daemon and
    # its children run under a wall clock fixed at the same evening, whose prep, Morning
    # Focus and check-in are done, so each firing ends at once.
    now = "2026-01-01T21:35:00+01:00"
    clock = NudgeClock(world.dir)
    clock.set_to(dt.datetime.fromisoformat(now).timestamp())
    try:
        with desktop:
            for args in commands:
                trace = os.path.join(world.dir, "sockets.txt")
                faked = clock.environment() if args[0] == "daemon" else {}
                subprocess.run(["strace", "-f", "-qq", "-e", "trace=socket,connect", "-o", trace,
                                suite.nudge, *args],
                               env=world.environment(now, faked),
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
                found = set(re.findall(r"socket\((AF_[A-Z0-9]+)", open(trace).read()))
                families |= found
                case.check(f"{args[0]}: opened {sorted(found)}", found <= {"AF_UNIX"})
    finally:
        clock.close()
    case.note = f"{len(commands)} commands, socket families seen: {sorted(families) or 'none'}"
    return case


# MARK: - Notification faults


def case_notification_faults(suite):
    """The server killed between posting and the click, or an activation that never answers:
    nudge returns within 3 s, logs `undelivered`; a server restarted while the reminder is on
    screen gets it again, once; the next reminder is shown normally."""
    case = Case("notification faults: killed, restarted, hung")
    timings = []
    for run in range(suite.fault_runs):
        for fault in ("killed", "restarted", "hung"):
            world = World(suite, f"notify-{fault}")
            desktop = suite.desktop(activatable="/bin/sleep 600" if fault == "hung" else None)
            world.env.update(desktop.env)
            procs = []
            try:
                timings.append(notification_fault(case, world, desktop, fault, procs))
            finally:
                # the nudge processes, then dunst, the bus and what it activated (the hung
                # server's `sleep 600`), whatever went wrong
                for proc in procs:
                    processes.stop(proc, 0)
                desktop.stop()
    timings = [t for t in timings if t is not None]
    case.note = f"returned after {min(timings):.2f}-{max(timings):.2f} s"
    return case


def notification_fault(case, world, desktop, fault, procs):
    """One run of case_notification_faults; the nudge processes it starts go into `procs`.
    Returns how long nudge took to return after the fault (None for `restarted`)."""
    if fault != "hung":
        desktop.start_dunst()
    started = time.monotonic()
    proc = world.start("notify", "morning", "--wait", "60", now="2026-01-05T07:00:05+01:00")
    procs.append(proc)
    if fault != "hung":
        if not desktop.wait_displayed(1, 5):
            case.fail(f"{fault}: the first reminder was never displayed")
        started = time.monotonic()
        desktop.kill_dunst()
        if fault == "restarted":
            desktop.start_dunst()
    if fault == "restarted":
        # shown again on the new server, once; a dismissal there ends it
        again = desktop.wait_displayed(1, 5)
        time.sleep(0.5)
        once = desktop.displayed() == 1
        desktop.close_all()
    try:
        code = proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = "hang"
    took = time.monotonic() - started
    log = json.loads(world.run("log", "--json").stdout or "[]")
    outcomes = [e["outcome"] for e in log]
    if fault == "restarted":
        case.check(f"restarted: shown again {again}, once {once}, exit {code}, log {outcomes}",
                   again and once and code == 0 and outcomes == ["shown", "dismissed"])
    else:
        case.check(f"{fault}: exit {code} after {took:.2f} s, log {outcomes}",
                   code == 69 and took <= 3.0 and outcomes[-1:] == ["undelivered"])
    if fault == "hung":
        # the `sleep 600` this desktop's bus activated (found by the bus's mark, so no other
        # `sleep` on the machine is touched); the bus then fails the pending activation
        hung = desktop.kill_activated()
        if desktop.activated():
            case.fail(f"hung: the activated server {hung} outlived SIGKILL")
        desktop.start_dunst()
    elif desktop.dunst is None:
        desktop.start_dunst()
    proc = world.start("notify", "evening", "--wait", "3", now="2026-01-05T21:30:05+01:00")
    procs.append(proc)
    shown = desktop.wait_displayed(1, 5)
    desktop.close_all()
    proc.wait(timeout=15)
    log = json.loads(world.run("log", "--json").stdout or "[]")
    case.check(f"{fault}: next reminder shown={shown}, log {[e['outcome'] for e in log]}",
               shown and [e["outcome"] for e in log][-2:] == ["shown", "dismissed"])
    return None if fault == "restarted" else took


# MARK: - Time faults


def epoch_of(text):
    return dt.datetime.fromisoformat(text).timestamp()


def local_clock_time(epoch, zone):
    """`HH:MM:SS` of an instant in a zone (a calendar expression's time of day)."""
    env = dict(os.environ, TZ=zone)
    return subprocess.run(["date", "-d", f"@{epoch}", "+%H:%M:%S"], env=env,
                          capture_output=True, text=True, check=True).stdout.strip()


# what `nudge daemon` logs when its timerfd says the wall clock was set
CLOCK_SET_LINE = "the clock was set: rechecking"


def case_time_faults(suite):
    """`nudge daemon` while its wall clock steps back two hours (and forward again), faked for
    nudge alone (libfaketime; the kernel's clock-set event delivered for real, the machine's
    clock left where it is: fakeclock.py), and the time zone changes under it: each elapse
    reminds once, and the next reminder comes at its right instant, in the new zone after the
    change."""
    case = Case("time faults: nudge's clock faked -2 h / +2 h (machine's clock untouched), "
                "zone change")
    world = World(suite, "time")
    machine_before = machine_clock_offset()
    zone_link = os.path.join(world.dir, "localtime")
    os.symlink("/usr/share/zoneinfo/Europe/Berlin", zone_link)
    world.env["TZ"] = ":" + zone_link
    # both steps (start + 13, start + 36) land at least 3 s from an elapse of the evening slot
    # (every minute, at :00; a reminder fires at most once a minute): a step within
    # milliseconds of a firing races the reminder the daemon starts (the child reads the clock
    # after the step, the daemon read it before), and the database then refuses the child's
    # second claim as a duplicate. Started 38-42 s into a minute, its elapse comes 18-22 s on.
    wait_for(lambda: int(time.time()) % 60 in range(38, 43), 65)
    start = int(time.time())
    morning = start + 8          # a daily slot due 8 s from now
    midday = start + 50          # a daily slot due at this New York time of day
    world.run("schedule", "set", "morning", "*-*-* " + local_clock_time(morning, "Europe/Berlin"),
              "--yes")
    world.run("schedule", "set", "midday", "*-*-* " + local_clock_time(midday, "America/New_York"),
              "--yes")
    world.run("schedule", "on", "midday")
    world.run("schedule", "set", "evening", "*:*:00", "--yes")
    # only the daemon (and the reminders it starts, which inherit its environment) runs under
    # the faked clock; this suite and every other nudge command read the real one
    log_path = os.path.join(world.dir, "daemon.log")
    log = open(log_path, "w")
    clock = NudgeClock(world.dir)
    daemon = subprocess.Popen([suite.nudge, "daemon"], env=dict(world.env, **clock.environment()),
                              stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    t0 = time.monotonic() - (time.time() - start)  # monotonic time at `start`
    faked = []  # what a process under the faked clock read, minus the real clock, at each step
    woke = []   # whether the daemon said it woke because the clock was set, after each step

    def step(seconds):
        said = open(log_path).read().count(CLOCK_SET_LINE)
        clock.step(seconds)
        faked.append(clock.reads() - time.time())
        woke.append(wait_for(lambda: open(log_path).read().count(CLOCK_SET_LINE) > said, 2))

    try:
        faked.append(clock.reads() - time.time())
        sleep_until(t0 + 13)
        step(-7200)
        back = start + 13 - 7200  # the daemon's wall clock right after the step
        sleep_until(t0 + 36)
        step(7200)
        sleep_until(t0 + 40)
        os.unlink(zone_link)  # the machine moves from Berlin to New York
        os.symlink("/usr/share/zoneinfo/America/New_York", zone_link)
        sleep_until(t0 + 54)
    finally:
        daemon.send_signal(signal.SIGTERM)
        code = daemon.wait(timeout=15)
        clock.close()
    machine_moved = machine_clock_offset() - machine_before
    case.check(f"nudge's faked clock (date under its preload) read "
               f"{[round(f, 3) for f in faked]} s off the real one (wanted 0, -7200, 0)",
               len(faked) == 3 and [round(f) for f in faked] == [0, -7200, 0])
    # an NTP daemon may slew the real clock by up to 0.5 ms a second; a step is seconds
    case.check(f"the machine's clock moved by {machine_moved:.6f} s against monotonic time",
               abs(machine_moved) < 0.05)
    woken = open(log_path).read().count(CLOCK_SET_LINE)
    case.check(f"the daemon woke on the clock-set event after each step: {woke} "
               f"({woken} wakes in all)", woke == [True, True])
    rows = json.loads(world.run("log", "--json", "--limit", "500").stdout)
    skipped = ("skipped-stale", "skipped-done", "duplicate")
    reminders = [r for r in rows if r["outcome"] not in skipped]
    per_elapse = {}
    for r in reminders:
        per_elapse.setdefault((r["slot"], epoch_of(r["elapse"])), []).append(r)
    repeated = {k: len(v) for k, v in per_elapse.items() if len(v) > 1}
    duplicates = [r for r in rows if r["outcome"] == "duplicate"]
    case.check(f"daemon exit {code}", code == 0)
    case.check(f"reminded twice: {repeated}, refused duplicates: {len(duplicates)}",
               not repeated and not duplicates)

    def on_time(slot, low, high):
        hits = [r for r in reminders if r["slot"] == slot and low <= epoch_of(r["elapse"]) <= high]
        late = [epoch_of(r["at"]) - epoch_of(r["elapse"]) for r in hits]
        return len(hits) == 1 and all(0 <= d <= 2.5 for d in late), late

    checks = [("morning", morning, morning, "the morning reminder"),
              # every minute: [back, back + 59] holds exactly one elapse (the one 5-9 s after
              # the step back)
              ("evening", back, back + 59, "the next reminder after stepping back"),
              ("midday", midday, midday, "the next reminder in the new zone")]
    for slot, low, high, what in checks:
        ok, late = on_time(slot, low, high)
        case.check(f"{what}: fired {len(late)} times, late by {late}", ok)
    mornings = [r for r in reminders if r["slot"] == "morning"]
    case.check(f"morning reminded {len(mornings)} times", len(mornings) == 1)
    case.note = (f"{len(reminders)} reminders over {len(per_elapse)} elapses, "
                 f"{sum(1 for r in rows if r['outcome'] == 'skipped-stale')} stale skipped, "
                 f"{woken} clock-set wakes, machine's clock moved {machine_moved * 1e6:+.1f} µs")
    return case


def wait_for(condition, seconds):
    """True as soon as `condition()` holds, False after `seconds` without it."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() >= end:
            return False
        time.sleep(0.02)
    return True


def sleep_until(monotonic):
    while time.monotonic() < monotonic:
        time.sleep(min(0.1, monotonic - time.monotonic()))
