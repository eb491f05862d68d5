"""Costs that grow with time (issue 39): the today view and `nudge streak` must not grow with
the years of history behind them, and a year of real use must keep the database small.

    measure(nudge, env, runs, hyperfine, report)

is called by scripts/bench with its `hyperfine(commands, runs, env, prepare=None, names=None)`
(medians in seconds, the commands run alternately by one hyperfine call) and its
`report(figure, value_text, target_text, ok)`. Run alone,

    python3 scripts/nudgetest/bench_growth.py NUDGE [--runs N] [--year-only] [--keep]

it measures with its own copies of both (hyperfine must be installed).
"""

import datetime as dt
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

# the last day of the histories and of the year of use: fixed, so the figures never depend on
# the real date (NUDGE_NOW fixes "now" for every command run here)
# run alone too (python3 scripts/nudgetest/bench_growth.py): scripts/ on the path
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from nudgetest.history import LAST_DAY, history_export  # noqa: E402
ZONE = "Europe/Berlin"




def _env(env, db, now=None):
    e = dict(env, NUDGE_DB=db, TZ=ZONE, LANG="C.UTF-8", NO_COLOR="1")
    for key in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY"):
        e.pop(key, None)
    if now:
        e["NUDGE_NOW"] = now
    else:
        e.pop("NUDGE_NOW", None)
    return e


def history_database(nudge, env, work, years, last=LAST_DAY):
    """A database holding `years` years of history up to `last`, imported the way a user would."""
    db = os.path.join(work, f"history-{years}y.sqlite3")
    doc = os.path.join(work, f"history-{years}y.json")
    with open(doc, "w") as f:
        json.dump(history_export(years, last), f)
    subprocess.run([nudge, "import", doc], env=_env(env, db, f"{last}T21:00:00+01:00"),
                   check=True, capture_output=True)
    os.unlink(doc)
    return db


def _at(day, clock):
    """NUDGE_NOW for `clock` (HH:MM) local time on `day` (Berlin: +01:00 in winter, +02:00 in
    summer; an approximation is fine, the app reads the instant in its zone)."""
    offset = "+02:00" if 4 <= day.month <= 10 else "+01:00"
    return f"{day.isoformat()}T{clock}:00{offset}"


def year_of_use(nudge, env, db, days=365, last=LAST_DAY, reminders=False):
    """A year of real use through the real flows, as a person runs them off a terminal: each
    evening's prep, each morning's Morning Focus, each night's check-in (with some days
    skipped, some answers changed later in the day, and an undo now and then), a craving note
    every third day, and a scheduled reminder on two days (`nudge notify SLOT --scheduled`, as
    the timers run it; with no desktop it is printed and logged undelivered). `reminders`:
    both timers' reminders every day instead (a log line and a claim each)."""
    first = last - dt.timedelta(days=days - 1)
    challenges = ["skipping-meals", "late-night-snacking", "sugary-drinks", "on-the-go",
                  "emotional-eating"]
    swaps = ["sparkling water", "a short walk", "an apple", "herbal tea", "a handful of nuts"]
    feels = ["proud", "okay", "tired", "calm", "good"]

    def run(day, clock, *args):
        subprocess.run([nudge, *args], env=_env(env, db, _at(day, clock)),
                       stdin=subprocess.DEVNULL, capture_output=True)  # a refusal is use too

    for i in range(days):
        day = first + dt.timedelta(days=i)
        skipped = i % 29 == 17  # a day now and then with nothing done
        if reminders or i in (100, 250):
            run(day, "07:00", "notify", "morning", "--scheduled")
        if not skipped:
            c = i % len(challenges)
            run(day, "07:10", "review", "--why", "energy for my kids", "--challenge",
                challenges[c], "--swap", swaps[c], "--commit-to", "drink " + swaps[c],
                "--commit-from", "soda", "--no-input")
            if i % 7 == 3:  # changed mind at lunch: the swap edited, then the edit undone
                run(day, "12:30", "edit", "review", "--swap", "green tea", "--no-input")
                run(day, "12:31", "undo")
        if i % 3 == 0:
            run(day, "15:00", "need-help", "--category", ["stress", "habit", "physical"][i % 9 // 3],
                "--note", "long meeting, wanted cake", "--no-input")
        if reminders or i in (100, 250):
            run(day, "21:30", "notify", "evening", "--scheduled")
        if not skipped:
            run(day, "21:35", "prep", "--item", "sticky-notes=yes", "--item", "produce=yes",
                "--item", "water=yes", "--item", f"breakfast={'yes' if i % 2 else 'no'}",
                "--no-input")
            run(day, "22:00", "checkin", "--followed", "yes" if i % 4 else "no", "--feel",
                feels[i % len(feels)], "--blocker", "office cake", "--no-input")
            if i % 10 == 4:  # a prep item fixed later that night
                run(day, "23:10", "prep", "--item", "breakfast=yes", "--no-input")
    return db


def size_breakdown(db):
    """The file's bytes by table and index (dbstat), with free pages, and row counts."""
    con = sqlite3.connect(db)
    try:
        by_name = dict(con.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"))
    except sqlite3.OperationalError:  # no dbstat compiled in
        by_name = {}
    page = con.execute("PRAGMA page_size").fetchone()[0]
    free = con.execute("PRAGMA freelist_count").fetchone()[0] * page
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    rows = {t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    con.close()
    return by_name, free, rows


def measure(nudge, env, runs, hyperfine, report):
    """Builds 1- and 10-year databases, times the today view and `streak` on each (one
    interleaved hyperfine run a pair), runs a year of real use and reports the file's size."""
    work = tempfile.mkdtemp(prefix="nudge-growth-")
    try:
        one = history_database(nudge, env, work, 1)
        ten = history_database(nudge, env, work, 10)
        # "now" is the evening of the histories' last day, so both streaks run to today
        now = f"{LAST_DAY}T21:00:00+01:00"
        loads = os.getloadavg()
        for what, args in (("today view", ""), ("streak", " streak")):
            names = [f"{what} 10 years", f"{what} 1 year"]
            commands = [f"env NUDGE_DB={ten} {nudge}{args}", f"env NUDGE_DB={one} {nudge}{args}"]
            t10, t1 = hyperfine(commands, runs, _env(env, one, now), names=names)
            report(f"{what}: 10 years vs 1 year of history",
                   f"{t10 * 1000:.1f} ms vs {t1 * 1000:.1f} ms = {t10 / t1:.3f}x "
                   f"(load {loads[0]:.2f})", "<= 1.05x", t10 / t1 <= 1.05)
        # the same pairs in instructions (callgrind), which the machine's load cannot blur
        if shutil.which("valgrind"):
            for what, args in (("today view", []), ("streak", ["streak"])):
                counts = []
                for db in (ten, one):
                    e = _env(env, db, now)
                    subprocess.run([nudge, *args], env=e, capture_output=True)
                    p = subprocess.run(["valgrind", "--tool=callgrind",
                                        "--callgrind-out-file=/dev/null", nudge, *args],
                                       env=e, capture_output=True, text=True)
                    counts.append(int(re.search(r"Collected : (\d+)", p.stderr).group(1)))
                report(f"{what}: instructions on 10 years vs 1 year (callgrind)",
                       f"{counts[0]:,} vs {counts[1]:,} = {counts[0] / counts[1]:.4f}x",
                       "<= 1.05x", counts[0] / counts[1] <= 1.05)
        year = os.path.join(work, "year-of-use.sqlite3")
        year_of_use(nudge, env, year)
        # what a person's file holds once nudge has closed it: the WAL checkpointed into it
        subprocess.run([nudge, "streak"], env=_env(env, year, _at(LAST_DAY, "22:30")),
                       capture_output=True)
        size = os.path.getsize(year)
        wal = year + "-wal"
        wal_size = os.path.getsize(wal) if os.path.exists(wal) else 0
        by_name, free, rows = size_breakdown(year)
        top = ", ".join(f"{n} {b // 1024} KiB" for n, b in
                        sorted(by_name.items(), key=lambda kv: -kv[1])[:4])
        report("a year of real use through the real flows: database size (no VACUUM)",
               f"{size / 1024:.0f} KiB (WAL {wal_size // 1024} KiB; {top}; free {free // 1024} "
               f"KiB; {rows.get('flow_entry', 0)} entries, {rows.get('change_journal', 0)} "
               f"journal rows, {rows.get('reminder_log', 0)} log rows)",
               "<= 250 KiB", size <= 250 * 1024)
    finally:
        if not os.environ.get("NUDGE_GROWTH_KEEP"):
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("kept", work)


def _hyperfine(commands, runs, env, prepare=None, names=None):
    out = tempfile.mktemp(suffix=".json")
    args = ["hyperfine", "-N", "--warmup", "3", "--runs", str(runs), "--export-json", out,
            "--style", "none"]
    if prepare:
        args += ["--prepare", prepare]
    for i, command in enumerate(commands):
        if names:
            args += ["-n", names[i]]
        args.append(command)
    subprocess.run(args, check=True, env=env, stdout=subprocess.DEVNULL)
    with open(out) as f:
        results = json.load(f)["results"]
    os.unlink(out)
    return [r["median"] for r in results]


def _report(figure, value, target, ok):
    print(f"{'PASS' if ok else 'MISS'}  {figure}: {value}  (target {target})", flush=True)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("nudge")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--year-only", metavar="DB",
                        help="only run the year of use into DB and print its size breakdown")
    args = parser.parse_args()
    nudge = os.path.abspath(args.nudge)
    if args.year_only:
        year_of_use(nudge, dict(os.environ), args.year_only)
        subprocess.run([nudge, "streak"], capture_output=True,
                       env=_env(dict(os.environ), args.year_only, _at(LAST_DAY, "22:30")))
        print(os.path.getsize(args.year_only), size_breakdown(args.year_only))
        sys.exit(0)
    measure(nudge, dict(os.environ), args.runs, _hyperfine, _report)
