#!/usr/bin/env python3
"""Nudge's reliability and security suite: nothing lost, no hang, no way in.

Runs the real `nudge` binary against real SQLite files, a real notification server (dunst under
Xvfb in a private D-Bus session), real kills (SIGKILL at random moments and, through strace's
fault injection, at every write of a save and of a migration), a real full disk (a small tmpfs),
a real read-only directory (a read-only bind mount), libFuzzer, strace, and real steps of the
machine's clock (root; stepped back afterwards). Prints
one row per case: runs, failures, data lost. Exit status 1 when any case failed or lost data.

    python3 scripts/reliability.py .build/debug/nudge [--only NAME] [--seed N] [--keep]
"""

import argparse
import concurrent.futures
import datetime as dt
import hashlib
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Case:
    """One row of the table: how often something was tried, how often it went wrong."""

    def __init__(self, name):
        self.name = name
        self.runs = 0
        self.failures = 0
        self.lost = 0
        self.problems = []
        self.started = time.monotonic()
        self.seconds = 0.0

    def check(self, ok, problem):
        """Counts one run; a failed one is remembered with what went wrong."""
        self.runs += 1
        if not ok:
            self.failures += 1
            if len(self.problems) < 8:
                self.problems.append(problem)
        return ok

    def fail(self, problem):
        return self.check(False, problem)

    def lose(self, count, problem):
        """Records acknowledged data that is gone."""
        if count:
            self.lost += count
            if len(self.problems) < 8:
                self.problems.append("LOST: " + problem)


class World:
    """A private home for one case: data and config directories, the environment nudge sees."""

    def __init__(self, suite, name, tz="Europe/Berlin"):
        self.suite = suite
        self.dir = tempfile.mkdtemp(prefix=f"{name}-", dir=suite.work)
        self.data = os.path.join(self.dir, "data")
        self.db = os.path.join(self.data, "nudge", "nudge.sqlite3")
        self.env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": self.dir,
            "XDG_DATA_HOME": self.data,
            "XDG_CONFIG_HOME": os.path.join(self.dir, "config"),
            "TZ": tz,
            "LANG": "C.UTF-8",
            "NUDGE_SEED": "7",
            "NO_COLOR": "1",
        }

    def run(self, *args, now=None, env=None, timeout=60, stdin=subprocess.DEVNULL):
        """Runs nudge to completion."""
        return subprocess.run(
            [self.suite.nudge, *args],
            env=self.environment(now, env),
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def start(self, *args, now=None, env=None, prefix=()):
        """Starts nudge in the background."""
        return subprocess.Popen(
            [*prefix, self.suite.nudge, *args],
            env=self.environment(now, env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def environment(self, now, extra):
        env = dict(self.env)
        if now:
            env["NUDGE_NOW"] = now
        env.update(extra or {})
        return env

    def query(self, sql, *params):
        """Reads the database file directly (a second, independent reader)."""
        con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=30)
        try:
            return con.execute(sql, params).fetchall()
        finally:
            con.close()

    def integrity(self):
        if not os.path.exists(self.db):
            return "ok"
        return self.query("PRAGMA integrity_check")[0][0]


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def one_line_error(result):
    """A refusal is exactly one `nudge: …` line on stderr."""
    lines = [l for l in result.stderr.splitlines() if l.strip()]
    return len(lines) == 1 and lines[0].startswith("nudge: ")


def iso(day, clock="21:30:00", offset="+01:00"):
    return f"{day.isoformat()}T{clock}{offset}"


def kill_at_random(world, args, now, longest, rng):
    """Starts a command and SIGKILLs it after a random delay up to `longest` seconds; returns
    (killed, result code)."""
    proc = world.start(*args, now=now)
    time.sleep(rng.uniform(0, longest))
    if proc.poll() is None:
        proc.kill()
        proc.wait()
        return True, proc.returncode
    proc.wait()
    return False, proc.returncode


def recomputed_matches(world, now):
    """Streak and achievements as stored equal those of a fresh database rebuilt from the
    entries alone (the export without its achievements, imported into an empty file)."""
    exported = world.run("export", now=now)
    if exported.returncode != 0:
        return False, "export failed: " + exported.stderr.strip()
    doc = json.loads(exported.stdout)
    doc.pop("achievements", None)
    fresh = World(world.suite, "recompute")
    path = os.path.join(fresh.dir, "entries.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    imported = fresh.run("import", path, now=now)
    if imported.returncode != 0:
        return False, "import into a fresh database failed: " + imported.stderr.strip()
    for command in (["achievements", "--json"], ["streak", "--json"]):
        a, b = world.run(*command, now=now), fresh.run(*command, now=now)
        if a.returncode != 0 or a.stdout != b.stdout:
            return False, f"{' '.join(command)} differs from a recomputation"
    shutil.rmtree(fresh.dir, ignore_errors=True)
    return True, ""


def export_document(days, first, tag):
    """An import document with prep and review entries on `days` consecutive days."""
    prep, review = [], []
    for i in range(days):
        day = (first + dt.timedelta(days=i)).isoformat()
        saved = f"{day}T20:30:00+00:00"
        prep.append(
            {"day": day, "sticky_notes": True, "produce": i % 2 == 0, "water": True,
             "breakfast": False, "saved_at": saved}
        )
        review.append({"day": day, "why": f"why {tag} {i}", "swap": "tea", "saved_at": saved})
    return {"format": "nudge-export", "version": 1, "settings": {}, "prep": prep,
            "review": review, "checkin": [], "help": [], "achievements": []}


# MARK: - 1. Crash safety


def case_crash_random(suite):
    """SIGKILL at random moments of flows, imports and `done` clicks; after each kill the file
    is intact, every acknowledged write is there, and achievements equal a recomputation."""
    case = Case("kill -9 at random moments (flows, import, done)")
    rng = random.Random(suite.seed)
    world = World(suite, "crash")
    desktop = suite.desktop()
    desktop.start_dunst(action="done")
    world.env.update(desktop.env)
    acked = {"prep": set(), "review": set(), "checkin": set(), "note": set()}
    first = dt.date(2024, 1, 1)
    docs = []
    for j in range(12):
        path = os.path.join(world.dir, f"import-{j}.json")
        with open(path, "w") as f:
            json.dump(export_document(10, dt.date(2023, 1, 1) + dt.timedelta(days=12 * j), j), f)
        docs.append((path, dt.date(2023, 1, 1) + dt.timedelta(days=12 * j)))
    kills, i, target, committed = 0, 0, suite.kills, 0
    killed_ops = {}
    last_day = first
    while kills < target and i < target * 4:
        day = first + dt.timedelta(days=i)
        last_day = day
        op = rng.choice(["prep", "review", "checkin", "note", "import", "done"])
        if op == "prep":
            killed, code = kill_at_random(
                world, ["prep", "--item", "water=yes", "--item", "produce=yes", "--no-input",
                        "--no-animation"], iso(day), 0.06, rng)
            key = ("prep", day.isoformat())
        elif op == "review":
            killed, code = kill_at_random(
                world, ["review", "--why", f"w{i}", "--swap", "tea", "--commit-to", "tea",
                        "--no-input",
                        "--no-animation"], iso(day, "08:00:00"), 0.06, rng)
            key = ("review", day.isoformat())
        elif op == "checkin":
            killed, code = kill_at_random(
                world, ["checkin", "--followed", "yes", "--no-input", "--no-animation"],
                iso(day, "13:00:00"), 0.06, rng)
            key = ("checkin", day.isoformat())
        elif op == "note":
            killed, code = kill_at_random(
                world, ["need-help", "--category", "habit", "--note", f"note-{i}", "--no-input",
                        "--no-animation"], iso(day, "15:00:00"), 0.06, rng)
            key = ("note", f"note-{i}")
        elif op == "import":
            path, start = docs[i % len(docs)]
            killed, code = kill_at_random(world, ["import", path], iso(day), 0.12, rng)
            key = ("import", start)
        else:
            killed, code = kill_done_click(world, desktop, day, rng)
            key = ("prep-done", day.isoformat())
        i += 1
        kills += killed
        if killed:
            killed_ops[op] = killed_ops.get(op, 0) + 1
        if not killed and code == 0:
            if key[0] == "import":
                for n in range(10):
                    acked["prep"].add((key[1] + dt.timedelta(days=n)).isoformat())
                    acked["review"].add((key[1] + dt.timedelta(days=n)).isoformat())
            elif key[0] == "prep-done":
                acked["prep"].add(key[1])
            else:
                acked[key[0]].add(key[1])
        elif not killed and code not in (0,):
            case.fail(f"{op} on {day} exited {code} without being killed")
            continue
        if not killed:
            continue
        verdict = world.integrity()
        ok = verdict == "ok"
        missing = 0
        if ok and os.path.exists(world.db):
            have = {
                "prep": {r[0] for r in world.query("SELECT day FROM prep")},
                "review": {r[0] for r in world.query("SELECT day FROM review")},
                "checkin": {r[0] for r in world.query("SELECT day FROM checkin")},
                "note": {r[0] for r in world.query("SELECT note FROM help_note")},
            }
            missing = sum(len(acked[k] - have[k]) for k in acked)
            kind = {"prep-done": "prep"}.get(key[0], key[0])
            if kind in have and key[1] in have[kind]:
                committed += 1
            case.lose(missing, f"{missing} acknowledged entries missing after killing {op}")
        same, why = (True, "")
        if ok and os.path.exists(world.db) and kills % suite.recompute_every == 0:
            same, why = recomputed_matches(world, iso(last_day + dt.timedelta(days=1)))
        case.check(ok and same and missing == 0,
                   f"after killing {op}: integrity {verdict!r} {why}")
    same, why = recomputed_matches(world, iso(last_day + dt.timedelta(days=1)))
    case.check(same, "final: " + why)
    litter = [n for n in os.listdir(os.path.dirname(world.db)) if ".creating-" in n]
    case.check(not litter, f"abandoned temporary files left behind: {litter}")
    if kills < target:
        case.fail(f"only {kills} kills landed in {i} attempts")
    kinds = " ".join(f"{k} {v}" for k, v in sorted(killed_ops.items()))
    case.note = (f"{kills} kills ({kinds}; {committed} after their commit), "
                 f"{sum(len(v) for v in acked.values())} acknowledged entries")
    desktop.stop()
    return case


def kill_done_click(world, desktop, day, rng):
    """Posts the evening reminder, clicks its `done` button, kills nudge while it saves."""
    proc = world.start("notify", "evening", "--wait", "20", now=iso(day))
    if not desktop.wait_displayed(1, 10):
        proc.kill()
        proc.wait()
        return False, -1
    desktop.click()
    time.sleep(rng.uniform(0, 0.05))
    if proc.poll() is None:
        proc.kill()
        proc.wait()
        desktop.close_all()
        return True, proc.returncode
    proc.wait()
    desktop.close_all()
    return False, proc.returncode


def write_syscalls(suite, world, args, now, calls):
    """How many times a command makes each of `calls` (strace -c on an unkilled run)."""
    out = os.path.join(world.dir, "count.txt")
    env = world.environment(now, None)
    subprocess.run(["strace", "-f", "-qq", "-c", "-U", "name,calls", "-e", "trace=" + ",".join(calls),
                    "-o", out, suite.nudge, *args], env=env, capture_output=True, timeout=60)
    counts = {}
    for line in open(out):
        parts = line.split()
        if len(parts) == 2 and parts[0] in calls and parts[1].isdigit():
            counts[parts[0]] = int(parts[1])
    return counts


def kill_at_write(suite, world, args, now, call, n):
    """Runs a command under strace, which SIGKILLs it at its n-th `call`."""
    env = world.environment(now, None)
    result = subprocess.run(
        ["strace", "-f", "-qq", "-o", "/dev/null", "-e", f"trace={call}",
         "-e", f"inject={call}:signal=KILL:when={n}", suite.nudge, *args],
        env=env, capture_output=True, text=True, timeout=60)
    return result.returncode


WRITE_CALLS = ["pwrite64", "write", "fdatasync", "fsync", "ftruncate", "unlink", "link",
               "openat", "rename"]


def case_crash_each_write(suite):
    """A save killed at each of its writes, syncs, truncations and file operations in turn:
    every time the file is intact and holds all earlier saves, and the next save works."""
    case = Case("kill -9 at every write syscall of a save")
    world = World(suite, "each-write")
    first = dt.date(2025, 3, 1)
    for i in range(3):
        world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                  now=iso(first + dt.timedelta(days=i)))
    args = ["review", "--why", "w", "--swap", "tea", "--commit-to", "tea", "--no-input",
            "--no-animation"]
    day = first + dt.timedelta(days=3)
    probe = World(suite, "each-write-probe")
    shutil.copytree(world.data, probe.data)
    counts = write_syscalls(suite, probe, args, iso(day, "08:00:00"), WRITE_CALLS)
    for call, count in sorted(counts.items()):
        for n in range(1, count + 1):
            trial = World(suite, "each-write-trial")
            shutil.copytree(world.data, trial.data)
            kill_at_write(suite, trial, args, iso(day, "08:00:00"), call, n)
            verdict = trial.integrity()
            preps = {r[0] for r in trial.query("SELECT day FROM prep")}
            case.lose(3 - len(preps), f"earlier preps gone after a kill at {call} #{n}")
            again = trial.run(*args, now=iso(day, "08:00:00"))
            reviews = trial.query("SELECT count(*) FROM review")[0][0]
            case.check(verdict == "ok" and again.returncode == 0 and reviews == 1,
                       f"kill at {call} #{n}: integrity {verdict!r}, retry exit "
                       f"{again.returncode} {again.stderr.strip()}")
            shutil.rmtree(trial.dir, ignore_errors=True)
    case.note = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    return case


# MARK: - 2. Concurrency


def case_concurrency(suite):
    """A firing plus 4 writers × 500 saves at once: no busy error, exact counts."""
    case = Case(f"concurrency: firing + 4 CLIs x {suite.writes} writes")
    world = World(suite, "concurrency")
    world.run("schedule", now="2026-11-20T06:00:00+01:00")
    errors = []

    def writer(w):
        bad = 0
        for k in range(suite.writes):
            r = world.run("need-help", "--category", "other", "--note", f"w{w}-{k}",
                          "--no-input", "--no-animation", now="2026-11-20T12:00:00+01:00")
            if r.returncode != 0 or r.stderr.strip():
                bad += 1
                errors.append(f"writer {w} save {k}: exit {r.returncode} {r.stderr.strip()}")
        return bad

    def firings():
        outcomes = []
        for d in range(suite.writes // 10):
            day = dt.date(2026, 1, 1) + dt.timedelta(days=d)
            r = world.run("notify", "morning", "--scheduled", "--json",
                          now=iso(day, "07:00:05"))
            outcomes.append(r.returncode)
            if r.returncode not in (0, 69) or "locked" in r.stderr or "busy" in r.stderr:
                errors.append(f"firing {day}: exit {r.returncode} {r.stderr.strip()}")
        return outcomes

    with concurrent.futures.ThreadPoolExecutor(5) as pool:
        fire = pool.submit(firings)
        bad = sum(pool.map(writer, range(4)))
        fired = fire.result()
    notes = world.query("SELECT count(*) FROM help_note")[0][0]
    claims = world.query("SELECT count(*) FROM reminder_claim")[0][0]
    case.check(bad == 0 and not errors, "; ".join(errors[:3]))
    case.check(notes == 4 * suite.writes, f"{notes} notes, expected {4 * suite.writes}")
    case.lose(max(0, 4 * suite.writes - notes), "notes")
    case.check(claims == len(fired), f"{claims} claims for {len(fired)} firings")
    case.runs = 4 * suite.writes + len(fired)
    case.note = f"{notes} notes, {claims} firings claimed"
    return case


def case_fresh_creators(suite):
    """8 processes creating the same new database at the same moment all succeed."""
    case = Case("concurrency: 8 processes create one new database")
    for round_ in range(suite.creator_rounds):
        world = World(suite, "create")
        procs = [world.start("prep", "--item", "water=yes", "--no-input", "--no-animation",
                             now=iso(dt.date(2026, 1, 1) + dt.timedelta(days=k)))
                 for k in range(8)]
        results = [(p.wait(), p.stderr.read()) for p in procs]
        preps = world.query("SELECT count(*) FROM prep")[0][0]
        fails = [f"exit {c}: {e.strip()}" for c, e in results if c != 0]
        case.check(not fails and preps == 8 and world.integrity() == "ok",
                   f"round {round_}: {fails[:2]} preps={preps}")
        case.lose(8 - preps if not fails else 0, "creator saves")
        shutil.rmtree(world.dir, ignore_errors=True)
    return case


def case_reader_holds(suite):
    """A reader holding a transaction open (and a writer holding the lock for 3 s) does not
    make writers fail."""
    case = Case("concurrency: open reader / 3 s writer vs saves")
    world = World(suite, "reader")
    world.run("today", now="2026-11-20T08:00:00+01:00")
    reader = sqlite3.connect(world.db, isolation_level=None, timeout=30)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM prep").fetchall()
    for k in range(20):
        r = world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                      now=iso(dt.date(2026, 2, 1) + dt.timedelta(days=k)))
        case.check(r.returncode == 0, f"save {k} with an open reader: {r.stderr.strip()}")
    reader.execute("COMMIT")
    holder = sqlite3.connect(world.db, isolation_level=None, timeout=30)
    holder.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    proc = world.start("checkin", "--followed", "yes", "--no-input", "--no-animation",
                       now="2026-02-01T13:00:00+01:00")
    time.sleep(3)
    holder.execute("COMMIT")
    code = proc.wait()
    waited = time.monotonic() - started
    case.check(code == 0 and waited >= 3, f"save behind a 3 s writer: exit {code}")
    reader.close()
    holder.close()
    return case


# MARK: - 3. Bad files


def case_bad_files(suite):
    """Garbage, truncated, zero-length and newer files: exit 65, one line, bytes unchanged,
    and a fresh start once the file is moved away."""
    case = Case("bad files: garbage, truncated, empty, newer")
    good = World(suite, "good")
    for k in range(30):
        good.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                 now=iso(dt.date(2026, 1, 1) + dt.timedelta(days=k)))
    good.run("today", now="2026-02-01T08:00:00+01:00")
    con = sqlite3.connect(good.db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    real = open(good.db, "rb").read()
    rng = random.Random(suite.seed)
    newer = World(suite, "newer-src")
    shutil.copytree(good.data, newer.data)
    con = sqlite3.connect(newer.db)
    con.execute("PRAGMA user_version = 9")
    con.close()
    kinds = {
        "garbage": bytes(rng.getrandbits(8) for _ in range(8192)),
        "text": b"my shopping list\nmilk\n" * 100,
        "zero-length": b"",
        "truncated-header": real[:50],
        "truncated": real[: len(real) // 3],
        "newer": open(newer.db, "rb").read(),
        "other-sqlite": sqlite_of_another_program(suite),
    }
    small = os.path.join(suite.work, "small-export.json")
    with open(small, "w") as f:
        json.dump(export_document(3, dt.date(2025, 1, 1), "small"), f)
    for kind, content in kinds.items():
        world = World(suite, "bad-" + kind)
        os.makedirs(os.path.dirname(world.db), mode=0o700)
        with open(world.db, "wb") as f:
            f.write(content)
        before = sha256(world.db)
        for args in (["today"], ["streak", "--json"],
                     ["prep", "--item", "water=yes", "--no-input", "--no-animation"],
                     ["import", small]):
            r = world.run(*args, now="2026-02-01T21:30:00+01:00")
            unchanged = sha256(world.db) == before
            extra = [n for n in os.listdir(os.path.dirname(world.db)) if n != "nudge.sqlite3"]
            case.check(r.returncode == 65 and one_line_error(r) and unchanged and not extra,
                       f"{kind} / {args[0]}: exit {r.returncode}, {r.stderr.strip()[:120]!r}, "
                       f"unchanged={unchanged}, new files={extra}")
            case.lose(0 if unchanged else 1, f"{kind} file was changed by {args[0]}")
        os.rename(world.db, world.db + ".bad")
        r = world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                      now="2026-02-01T21:30:00+01:00")
        case.check(r.returncode == 0, f"{kind}: no fresh start after moving it away: {r.stderr}")
    return case


def sqlite_of_another_program(suite):
    path = os.path.join(suite.work, "other.sqlite3")
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE contacts (name TEXT)")
    con.execute("INSERT INTO contacts VALUES ('Ada')")
    con.commit()
    con.close()
    return open(path, "rb").read()


def mount(*args):
    subprocess.run(["mount", *args], check=True, capture_output=True)


def case_read_only(suite):
    """A read-only data directory (a read-only bind mount, which binds root too): reads work,
    writes fail with one line and exit 73, nothing changes; writable again → saves work."""
    case = Case("bad files: read-only data directory")
    world = World(suite, "readonly")
    for k in range(5):
        world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                  now=iso(dt.date(2026, 1, 1) + dt.timedelta(days=k)))
    folder = os.path.dirname(world.db)
    fresh = World(suite, "readonly-fresh")
    os.makedirs(fresh.data)
    mount("--bind", folder, folder)
    mount("--bind", fresh.data, fresh.data)
    try:
        mount("-o", "remount,bind,ro", folder)
        mount("-o", "remount,bind,ro", fresh.data)
        before = {n: sha256(os.path.join(folder, n)) for n in os.listdir(folder)}
        r = world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                      now="2026-01-10T21:30:00+01:00")
        case.check(r.returncode == 73 and one_line_error(r),
                   f"save into a read-only directory: exit {r.returncode} {r.stderr.strip()!r}")
        r = world.run("streak", "--json", now="2026-01-06T08:00:00+01:00")
        case.note = f"a read there exits {r.returncode}"
        case.check(r.returncode in (0, 73) and (r.returncode == 0 or one_line_error(r)),
                   f"read from a read-only directory: exit {r.returncode} {r.stderr.strip()!r}")
        r = fresh.run("today", now="2026-01-06T08:00:00+01:00")
        case.check(r.returncode == 73 and one_line_error(r),
                   f"first run on a read-only disk: exit {r.returncode} {r.stderr.strip()!r}")
        after = {n: sha256(os.path.join(folder, n)) for n in os.listdir(folder)}
        case.lose(0 if before == after else 1, "files changed on a read-only mount")
    finally:
        subprocess.run(["umount", folder], capture_output=True)
        subprocess.run(["umount", fresh.data], capture_output=True)
    r = world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                  now="2026-01-10T21:30:00+01:00")
    preps = world.query("SELECT count(*) FROM prep")[0][0]
    case.check(r.returncode == 0 and preps == 6, f"writable again: exit {r.returncode}, {preps}")
    case.lose(max(0, 6 - preps) if r.returncode == 0 else 0, "preps")
    return case


def case_disk_full(suite):
    """A full disk (a 1 MiB tmpfs filled up): the save fails with one line and exit 73, the
    file stays intact with every earlier entry, and saves work once space is freed."""
    case = Case("bad files: full disk (tmpfs)")
    for attempt in range(suite.full_disk_runs):
        world = World(suite, "full")
        os.makedirs(world.data)
        mount("-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", world.data)
        try:
            days = [dt.date(2026, 1, 1) + dt.timedelta(days=k) for k in range(10)]
            for day in days:
                world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                          now=iso(day))
            filler = os.path.join(world.data, "filler")
            fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                while True:
                    os.write(fd, b"\0" * 4096)
            except OSError:
                pass
            finally:
                os.close(fd)
            failures = 0
            codes = set()
            for k in range(20 + attempt * 20):
                r = world.run("need-help", "--category", "habit", "--note", "x" * 900 + str(k),
                              "--no-input", "--no-animation", now="2026-01-11T12:00:00+01:00")
                if r.returncode != 0:
                    failures += 1
                    codes.add(r.returncode)
                    if not (r.returncode == 73 and one_line_error(r) and "full" in r.stderr):
                        case.fail(f"disk full: exit {r.returncode} {r.stderr.strip()!r}")
            case.check(failures > 0 and codes <= {73}, f"no save failed on a full disk ({codes})")
            r = world.run("streak", "--json", now="2026-01-11T12:00:00+01:00")
            case.check(r.returncode == 0 or (r.returncode == 73 and one_line_error(r)),
                       f"a read on a full disk: exit {r.returncode} {r.stderr.strip()!r}")
            case.note = f"a read on the full disk exits {r.returncode}"
            os.unlink(filler)
            case.check(world.integrity() == "ok", "integrity after a full disk")
            preps = world.query("SELECT count(*) FROM prep")[0][0]
            case.lose(10 - preps, "preps saved before the disk filled up")
            r = world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                          now=iso(dt.date(2026, 1, 11)))
            case.check(r.returncode == 0, f"after freeing space: {r.stderr.strip()}")
        finally:
            subprocess.run(["umount", world.data], capture_output=True)
    return case


# MARK: - 4. Hostile links and input

ROUTES = ["prep", "review", "checkin", "today", "streak", "achievements", "need-help", "celebrate"]
CATEGORIES = ["stress", "habit", "physical", "other"]
ACHIEVEMENTS = ["first-prep", "first-review", "first-checkin", "first-help", "streak-3",
                "streak-7", "streak-14", "streak-30", "streak-100", "morning-week",
                "perfect-week", "swaps-10"]


def valid_links():
    """Every link the grammar (deeplinks/GRAMMAR.md) accepts."""
    links = set()
    for route in ROUTES:
        queries = [""]
        if route == "need-help":
            queries += [f"?category={c}" for c in CATEGORIES]
        if route == "celebrate":
            queries += [f"?achievement={a}" for a in ACHIEVEMENTS]
        for slash in ("", "/"):
            for q in queries:
                links.add(f"nudge://{route}{slash}{q}")
    return links


def hostile_links(count, rng, canary):
    """`count` distinct links that the grammar refuses, built from valid ones by inserting,
    replacing and appending hostile pieces."""
    valid = sorted(valid_links())
    pieces = [
        ";", "|", "&", "&&", "||", ">", "<", "'", '"', "\\", " ", "\t", "*", "?", "#", "!", "~",
        f"$(touch {canary})", f"`touch {canary}`", f";touch {canary}", f"|touch {canary}",
        f"&touch {canary}&", "${IFS}", "$HOME", "-e", "--help", "-", "+", "--", "+x",
        "%00", "%0a", "%0d%0a", "%20", "%2e%2e", "%2f", "%3b", "%", "\n", "\r", "\x1b[2J",
        "\x7f", "\u202e", "\u2066", "\u200b", "\ufeff", "\u00e9", "\u0301", "\U0001f525",
        "..", "../", "/..", "/../../etc/passwd", "//", "@evil.example", ":80", "=", "&x=1",
        "?category=stress", "?achievement=x", "?category=", "?=", "??", "/prep",
        "\x01", "\x02", "\x08", "\x0b", "\x0c", "\x1f",
    ]
    schemes = ["http://", "https://", "file://", "javascript:", "NUDGE://", "Nudge://",
               "nudge:", "nudge:/", "nudge:///", "xnudge://", " nudge://", "-nudge://",
               "+nudge://", "nudge//", "data:text/html,"]

    def mutate(link):
        kind = rng.randrange(9)
        if kind == 0:  # insert a piece anywhere
            at = rng.randrange(len(link) + 1)
            return link[:at] + rng.choice(pieces) + link[at:]
        if kind == 1:  # another scheme
            return rng.choice(schemes) + link[len("nudge://"):]
        if kind == 2:  # a leading - or +
            return rng.choice(["-", "+", "--", "-e ", "--help=", "+x"]) + link
        if kind == 3:  # unknown host
            host = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz-.0123456789")
                           for _ in range(rng.randrange(1, 12)))
            return f"nudge://{host}"
        if kind == 4:  # unknown or repeated key
            key = rng.choice(["cmd", "exec", "category", "achievement", "x", "", "Category"])
            return f"{link}{'&' if '?' in link else '?'}{key}={rng.choice(CATEGORIES)}"
        if kind == 5:  # huge
            return link + "a" * rng.choice([257, 4096, 65536])
        if kind == 6:  # replace one character by a random one outside the alphabet
            at = rng.randrange(len(link))
            char = chr(rng.choice([rng.randrange(1, 32), rng.randrange(127, 0x3000),
                                   rng.randrange(32, 127)]))
            return link[:at] + char + link[at + 1:]
        if kind == 7:  # append random printable noise
            return link + "".join(chr(rng.randrange(33, 127)) for _ in range(rng.randrange(1, 9)))
        return link.upper() if rng.random() < 0.5 else link.replace("://", "://../", 1)

    out = set()
    while len(out) < count:
        link = rng.choice(valid)
        for _ in range(rng.choice([1, 1, 2, 3])):
            link = mutate(link)
        link = link.replace("\x00", "")
        if link and link not in valid and len(link.encode()) < 131072:  # the kernel's argv limit
            out.add(link)
    return sorted(out)


def snapshot(folder):
    """Every file under a folder with its content hash and modification time."""
    seen = {}
    for base, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(base, name)
            st = os.lstat(path)
            seen[path] = (sha256(path) if os.path.isfile(path) else "", st.st_mtime_ns)
    return seen


def case_hostile_links(suite):
    """10,000 generated hostile links: each refused with exit 65 and one line, no file
    touched, no terminal started, no command run."""
    case = Case(f"hostile links ({suite.links} generated)")
    rng = random.Random(suite.seed)
    world = World(suite, "links")
    canary_dir = os.path.join(world.dir, "canary")
    os.makedirs(canary_dir)
    pwned = os.path.join(canary_dir, "pwned")
    for k in range(3):
        world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                  now=iso(dt.date(2026, 1, 1) + dt.timedelta(days=k)))
    launched = os.path.join(canary_dir, "terminal-started")
    world.env["DISPLAY"] = suite.display  # an accepted link would start the "terminal" below
    world.run("config", "set", "terminal", f"/usr/bin/touch {launched}")
    with open(os.path.join(canary_dir, "keep.txt"), "w") as f:
        f.write("canary\n")
    before = snapshot(world.dir)
    links = hostile_links(suite.links, rng, pwned)

    def try_link(link):
        r = subprocess.run([suite.nudge, "open", link], env=world.env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, errors="replace", timeout=30)
        ok = r.returncode == 65 and one_line_error(r) and "refusing the link" in r.stderr
        return ok, link, r.returncode, r.stderr.strip()[:100]

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for ok, link, code, err in pool.map(try_link, links):
            case.check(ok, f"{link[:60]!r}: exit {code} {err!r}")
    after = snapshot(world.dir)
    changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
    case.check(not changed, f"files changed or created: {changed[:5]}")
    case.check(not os.path.exists(pwned) and not os.path.exists(launched),
               "a command ran or a terminal started")
    kinds = sum(1 for l in links if any(ord(c) < 32 or ord(c) > 126 for c in l))
    case.note = (f"{len(links)} distinct links, {kinds} with control/non-ASCII characters, "
                 f"longest {max(len(l) for l in links)} chars")
    return case


def case_fuzz_config(suite):
    """Random values for every setting: accepted (and then every command still works) or
    refused with exit 64 and one line; the database stays intact."""
    case = Case("fuzzed config values")
    rng = random.Random(suite.seed)
    world = World(suite, "config")
    world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
              now="2026-01-01T21:30:00+01:00")
    keys = ["rollover-hour", "celebrations", "terminal", "staleness.morning",
            "staleness.midday", "staleness.evening", "no-such-key", "", "ROLLOVER-HOUR"]
    pieces = ["0", "12", "13", "-1", "4", "99999999999999999999", "1e3", "0x10", " 5", "5 ",
              "on", "off", "true", "yes", "", " ", "\t", "nan", "inf", "-0", "2h", "90m",
              "1h30min", "0s", "-5m", "25h", "100000d", "xterm -e", "'unterminated", '"',
              "\\", "$(touch x)", "\u202e", "\u00e9", "\x1b", "\x7f", "a" * 2000, "🔥"]
    accepted = 0
    for k in range(suite.config_values):
        key = rng.choice(keys)
        value = "".join(rng.choice(pieces) for _ in range(rng.choice([1, 1, 2, 3])))
        r = world.run("config", "set", key, value)
        if r.returncode == 0:
            accepted += 1
            checks = [world.run("today", now="2026-01-02T08:00:00+01:00"),
                      world.run("config", "list"),
                      world.run("schedule", "--json", now="2026-01-02T08:00:00+01:00")]
            bad = [c for c in checks if c.returncode != 0]
            case.check(not bad, f"after {key}={value[:40]!r}: "
                       + "; ".join(c.stderr.strip() for c in bad))
        else:
            case.check(r.returncode == 64 and one_line_error(r),
                       f"{key}={value[:40]!r}: exit {r.returncode} {r.stderr.strip()[:100]!r}")
    case.check(world.integrity() == "ok", "integrity")
    preps = world.query("SELECT count(*) FROM prep")[0][0]
    case.lose(1 - preps, "the prep saved before")
    case.note = f"{accepted} accepted, {suite.config_values - accepted} refused"
    return case


def mutate_document(doc, rng):
    """A broken or odd variant of a valid export document (JSON-level or byte-level)."""
    kind = rng.randrange(6)
    d = json.loads(json.dumps(doc))
    odd = [None, True, -1, 0, 1.5, 10 ** 30, "", "x", "2026-02-30", "2026-13-01", "9999-12-31",
           "0000-01-01", "2026-01-01T99:00:00+00:00", [], {}, "\u202e", "a" * 5000, "stress"]
    if kind == 0:  # delete a field somewhere
        section = rng.choice(["prep", "review", "checkin", "help", "settings", "format",
                              "version", "achievements"])
        if isinstance(d.get(section), list) and d[section]:
            entry = rng.choice(d[section])
            if entry:
                entry.pop(rng.choice(list(entry)), None)
        else:
            d.pop(section, None)
    elif kind == 1:  # replace a value by an odd one
        section = rng.choice(["prep", "review", "checkin", "help", "achievements"])
        if d.get(section):
            entry = rng.choice(d[section])
            entry[rng.choice(list(entry))] = rng.choice(odd)
        else:
            d[rng.choice(["version", "format", "settings"])] = rng.choice(odd)
    elif kind == 2:  # a setting with an odd value
        d["settings"] = {rng.choice(["rollover-hour", "celebrations", "terminal", "bogus"]):
                         rng.choice(["13", "-1", "on", "", "x", "5", "4"])}
    elif kind == 3:  # duplicate an entry (same day, same id)
        section = rng.choice(["prep", "review", "help"])
        if d.get(section):
            d[section].append(dict(rng.choice(d[section])))
    text = json.dumps(d)
    if kind == 4:  # truncated bytes
        return text.encode()[: rng.randrange(len(text))]
    if kind == 5:  # flipped bytes
        data = bytearray(text.encode())
        for _ in range(rng.randrange(1, 6)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    return text.encode()


def case_fuzz_import(suite):
    """Mutated export documents: imported (exit 0) or refused (exit 65, one line) with the
    database exactly as before."""
    case = Case("fuzzed import documents")
    rng = random.Random(suite.seed)
    world = World(suite, "import")
    for k in range(10):
        world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                  now=iso(dt.date(2026, 1, 1) + dt.timedelta(days=k)))
    world.run("need-help", "--category", "stress", "--note", "n", "--no-input",
              "--no-animation", "--breathing-seconds", "0", now="2026-01-03T12:00:00+01:00")
    base = json.loads(world.run("export").stdout)
    base["prep"] += export_document(20, dt.date(2025, 6, 1), "fuzz")["prep"]
    accepted = 0
    path = os.path.join(world.dir, "doc.json")
    for k in range(suite.import_docs):
        with open(path, "wb") as f:
            f.write(mutate_document(base, rng))
        before = world.run("export").stdout
        r = world.run("import", path, now="2026-01-20T12:00:00+01:00")
        after = world.run("export").stdout
        if r.returncode == 0:
            accepted += 1
            case.check(world.integrity() == "ok", f"doc {k}: integrity after import")
        else:
            case.check(r.returncode == 65 and one_line_error(r) and before == after,
                       f"doc {k}: exit {r.returncode} {r.stderr.strip()[:100]!r} "
                       f"unchanged={before == after}")
    preps = world.query("SELECT count(*) FROM prep WHERE day >= '2026-01-01'")[0][0]
    case.lose(10 - preps, "preps saved before the imports")
    case.note = f"{accepted} imported, {suite.import_docs - accepted} refused unchanged"
    return case


def case_libfuzzer(suite):
    """libFuzzer (-sanitize=fuzzer,address) on the link router, the calendar parser and the
    import decoder, each for a bounded time from a seed corpus: zero crashes."""
    case = Case(f"libFuzzer: link, calendar, import ({suite.fuzz_seconds} s each)")
    r = subprocess.run([os.path.join(ROOT, "scripts", "fuzz"), str(suite.fuzz_seconds)],
                       capture_output=True, text=True, cwd=ROOT, timeout=900)
    lines = [l for l in r.stdout.splitlines() if l.startswith("fuzz ")]
    for line in lines:
        case.check(", 0 crashes (exit 0)" in line, line + " " + r.stdout[-300:])
    case.check(len(lines) == 3 and r.returncode == 0, f"scripts/fuzz exit {r.returncode} "
               + r.stderr[-300:])
    case.note = "; ".join(l.split(":", 1)[1].split(" in ")[0].strip() + " " + l.split()[1]
                          for l in lines)
    return case


# MARK: - 5. No shell, least privilege


SHELLS = {"sh", "bash", "dash", "zsh", "fish", "ksh", "csh", "tcsh", "busybox"}


def case_no_shell(suite):
    """`nudge open LINK` off a terminal starts a real terminal (xterm on Xvfb) with no shell
    anywhere in the process tree and the link as exactly one argv item."""
    case = Case("terminal launch traced (strace -f -e execve)")
    world = World(suite, "strace")
    world.env["DISPLAY"] = suite.display
    world.run("config", "set", "terminal", "xterm -e")
    links = ["nudge://need-help?category=stress", "nudge://review", "nudge://celebrate?achievement=first-prep"]
    for link in links:
        trace = os.path.join(world.dir, "trace.txt")
        proc = subprocess.Popen(
            ["strace", "-f", "-qq", "-s", "4096", "-e", "trace=execve", "-o", trace,
             suite.nudge, "open", link], env=world.env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        quoted = json.dumps(link)

        def chain():
            """(programs exec'd, those whose argv ends with the link as one item) so far."""
            seen = open(trace).read() if os.path.exists(trace) else ""
            calls = re.findall(r'execve\("([^"]+)", \[(.*?)\]', seen)
            programs = [os.path.basename(p) for p, _ in calls]
            carried = [os.path.basename(p) for p, argv in calls
                       if argv.endswith(f'"open", {quoted}')
                       or argv.endswith(f'"open", "--hold", {quoted}')]
            return programs, carried

        # xterm runs `nudge open LINK` in its terminal, where the flow waits for answers. Under
        # load xterm can take many seconds to reach the X server and start its child, so wait
        # for the whole chain (not a count of execve lines) with a deadline far beyond that.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(chain()[1]) < 3:
            time.sleep(0.1)
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        programs, carried = chain()
        shells = [p for p in programs if p in SHELLS]
        # the link is the last argv item of nudge, of xterm, and of the nudge xterm starts
        case.check(not shells and carried == ["nudge", "xterm", "nudge"],
                   f"{link}: programs {programs}, shells {shells}, link carried by {carried}")
    case.note = "exec chain: " + " -> ".join(programs)
    return case


def case_permissions(suite):
    """The data directory is 0700 and the database (and its -wal, -shm) 0600, whatever the
    umask; the export file is written 0600 too."""
    case = Case("permissions: data dir 0700, database 0600")
    for umask in (0o000, 0o022, 0o077):
        world = World(suite, f"umask{umask:o}")
        old = os.umask(umask)
        try:
            world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                      now="2026-01-01T21:30:00+01:00")
            r = world.run("export", "-o", os.path.join(world.dir, "out.json"))
        finally:
            os.umask(old)
        folder = os.path.dirname(world.db)
        modes = {folder: 0o700}
        for name in os.listdir(folder):
            modes[os.path.join(folder, name)] = 0o600
        for path, want in modes.items():
            have = stat_mode(path)
            case.check(have == want, f"umask {umask:03o}: {path} is {have:o}, want {want:o}")
        have = stat_mode(os.path.join(world.dir, "out.json"))
        case.check(r.returncode == 0 and have & 0o077 == 0,
                   f"umask {umask:03o}: export file mode {have:o}")
    return case


def stat_mode(path):
    return os.stat(path).st_mode & 0o777


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
    for args in commands:
        trace = os.path.join(world.dir, "sockets.txt")
        subprocess.run(["strace", "-f", "-qq", "-e", "trace=socket,connect", "-o", trace,
                        suite.nudge, *args], env=world.environment("2026-01-01T21:30:00+01:00", None),
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        found = set(re.findall(r"socket\((AF_[A-Z0-9]+)", open(trace).read()))
        families |= found
        case.check(found <= {"AF_UNIX"}, f"{args[0]}: opened {sorted(found)}")
    desktop.stop()
    case.note = f"{len(commands)} commands, socket families seen: {sorted(families) or 'none'}"
    return case


# MARK: - 6. Notification faults


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
            if fault != "hung":
                desktop.start_dunst()
            started = time.monotonic()
            proc = world.start("notify", "morning", "--wait", "60",
                               now="2026-01-05T07:00:05+01:00")
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
                case.check(again and once and code == 0 and outcomes == ["shown", "dismissed"],
                           f"restarted: shown again {again}, once {once}, exit {code}, "
                           f"log {outcomes}")
            else:
                timings.append(took)
                case.check(code == 69 and took <= 3.0 and outcomes[-1:] == ["undelivered"],
                           f"{fault}: exit {code} after {took:.2f} s, log {outcomes}")
            if fault == "hung":
                subprocess.run(["pkill", "-f", "^/bin/sleep 600$"], capture_output=True)
                desktop.start_dunst()
            elif desktop.dunst is None:
                desktop.start_dunst()
            proc = world.start("notify", "evening", "--wait", "3",
                               now="2026-01-05T21:30:05+01:00")
            shown = desktop.wait_displayed(1, 5)
            desktop.close_all()
            proc.wait(timeout=15)
            log = json.loads(world.run("log", "--json").stdout or "[]")
            case.check(shown and [e["outcome"] for e in log][-2:] == ["shown", "dismissed"],
                       f"{fault}: next reminder shown={shown}, log {[e['outcome'] for e in log]}")
            desktop.stop()
    case.note = f"returned after {min(timings):.2f}-{max(timings):.2f} s"
    return case


# MARK: - 7. Migrations


def make_v1_database(path, days):
    """A schema-1 file (scripts/fixtures/nudge-schema-v1.sql) with `days` days of entries."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    con = sqlite3.connect(path)
    con.executescript(open(os.path.join(ROOT, "scripts", "fixtures", "nudge-schema-v1.sql")).read())
    first = dt.date(2025, 1, 1)
    with con:
        for i in range(days):
            day = (first + dt.timedelta(days=i)).isoformat()
            con.execute("INSERT INTO prep VALUES (?, 1, 1, 1, 0, NULL, ?)", (day, day + "T20:30:00+00:00"))
            con.execute("INSERT INTO review (day, why, swap, saved_at) VALUES (?, 'why', 'tea', ?)",
                        (day, day + "T07:00:00+00:00"))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def schema_state(world):
    """(user_version, tables) as an independent reader sees them."""
    version = world.query("PRAGMA user_version")[0][0]
    tables = {r[0] for r in world.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return version, tables


V1_TABLES = {"prep", "review", "checkin", "help_note", "setting"}
V3_TABLES = V1_TABLES | {"achievement", "state", "slot_schedule", "reminder_claim", "reminder_log",
                         "sqlite_sequence"}


def case_migration_kills(suite):
    """Upgrading a schema-1 file with a year of entries, killed at each of its writes in turn:
    the file opens at schema 1 (as it was) or 3 (complete), never in between, and the next
    run finishes the upgrade with every entry and the achievements."""
    case = Case("migration v1 -> v3 killed at every write")
    days = 400
    template = World(suite, "migrate-template")
    make_v1_database(template.db, days)
    args = ["streak", "--json"]
    now = "2026-02-05T08:00:00+01:00"
    probe = World(suite, "migrate-probe")
    shutil.copytree(template.data, probe.data)
    counts = write_syscalls(suite, probe, args, now, WRITE_CALLS)
    seen = {}
    for call, count in sorted(counts.items()):
        for n in range(1, count + 1):
            trial = World(suite, "migrate-trial")
            shutil.copytree(template.data, trial.data)
            kill_at_write(suite, trial, args, now, call, n)
            version, tables = schema_state(trial)
            intact = trial.integrity() == "ok"
            consistent = (version, tables) in ((1, V1_TABLES), (3, V3_TABLES))
            seen[version] = seen.get(version, 0) + 1
            preps = trial.query("SELECT count(*) FROM prep")[0][0]
            case.lose(days - preps, f"preps after a kill at {call} #{n}")
            again = trial.run(*args, now=now)
            version2, tables2 = schema_state(trial)
            earned = trial.query("SELECT count(*) FROM achievement")[0][0] if version2 == 3 else 0
            case.check(intact and consistent and again.returncode == 0 and version2 == 3
                       and tables2 == V3_TABLES and earned >= 5,
                       f"kill at {call} #{n}: version {version} tables {sorted(tables)}, "
                       f"then exit {again.returncode} version {version2}, {earned} achievements")
            shutil.rmtree(trial.dir, ignore_errors=True)
    case.note = ("killed at " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
                 + "; left at " + ", ".join(f"v{k}: {v}" for k, v in sorted(seen.items())))
    return case


# MARK: - 8. Time faults


def epoch_of(text):
    return dt.datetime.fromisoformat(text).timestamp()


def step_clock(seconds):
    """Steps the machine's real wall clock (CLOCK_REALTIME) by `seconds`; monotonic time goes
    on. Needs root (CI runs as root); the suite steps back what it stepped."""
    subprocess.run(["date", "-s", f"@{time.time() + seconds:.6f}"], check=True,
                   capture_output=True)


def local_clock_time(epoch, zone):
    """`HH:MM:SS` of an instant in a zone (a calendar expression's time of day)."""
    env = dict(os.environ, TZ=zone)
    return subprocess.run(["date", "-d", f"@{epoch}", "+%H:%M:%S"], env=env,
                          capture_output=True, text=True, check=True).stdout.strip()


def case_time_faults(suite):
    """`nudge daemon` while the machine's clock steps back two hours (and forward again) and
    the time zone changes under it: each elapse reminds once, and the next reminder comes at
    its right instant, in the new zone after the change."""
    case = Case("time faults: clock -2 h / +2 h, zone change")
    world = World(suite, "time")
    zone_link = os.path.join(world.dir, "localtime")
    os.symlink("/usr/share/zoneinfo/Europe/Berlin", zone_link)
    world.env["TZ"] = ":" + zone_link
    start = int(time.time())
    morning = start + 8          # a daily slot due 8 s from now
    midday = start + 50          # a daily slot due at this New York time of day
    world.run("schedule", "set", "morning", "*-*-* " + local_clock_time(morning, "Europe/Berlin"))
    world.run("schedule", "set", "midday", "*-*-* " + local_clock_time(midday, "America/New_York"))
    world.run("schedule", "on", "midday")
    world.run("schedule", "set", "evening", "*:*:0/20")
    log = open(os.path.join(world.dir, "daemon.log"), "w")
    daemon = subprocess.Popen([suite.nudge, "daemon"], env=world.env, stdin=subprocess.DEVNULL,
                              stdout=log, stderr=log)
    t0 = time.monotonic() - (time.time() - start)  # monotonic time at `start`
    offset = 0
    try:
        sleep_until(t0 + 13)
        step_clock(-7200)
        offset = -7200
        back = start + 13 - 7200  # the wall clock right after the step
        sleep_until(t0 + 36)
        step_clock(7200)
        offset = 0
        sleep_until(t0 + 40)
        os.unlink(zone_link)  # the machine moves from Berlin to New York
        os.symlink("/usr/share/zoneinfo/America/New_York", zone_link)
        sleep_until(t0 + 54)
    finally:
        if offset:
            step_clock(-offset)
        daemon.send_signal(signal.SIGTERM)
        code = daemon.wait(timeout=15)
    rows = json.loads(world.run("log", "--json", "--limit", "500").stdout)
    skipped = ("skipped-stale", "skipped-done", "duplicate")
    reminders = [r for r in rows if r["outcome"] not in skipped]
    per_elapse = {}
    for r in reminders:
        per_elapse.setdefault((r["slot"], epoch_of(r["elapse"])), []).append(r)
    repeated = {k: len(v) for k, v in per_elapse.items() if len(v) > 1}
    duplicates = [r for r in rows if r["outcome"] == "duplicate"]
    case.check(code == 0, f"daemon exit {code}")
    case.check(not repeated and not duplicates,
               f"reminded twice: {repeated}, refused duplicates: {len(duplicates)}")

    def on_time(slot, low, high):
        hits = [r for r in reminders if r["slot"] == slot and low <= epoch_of(r["elapse"]) <= high]
        late = [epoch_of(r["at"]) - epoch_of(r["elapse"]) for r in hits]
        return len(hits) == 1 and all(0 <= d <= 2.5 for d in late), late

    checks = [("morning", morning, morning, "the morning reminder"),
              ("evening", back, back + 20, "the next reminder after stepping back"),
              ("midday", midday, midday, "the next reminder in the new zone")]
    for slot, low, high, what in checks:
        ok, late = on_time(slot, low, high)
        case.check(ok, f"{what}: fired {len(late)} times, late by {late}")
    mornings = [r for r in reminders if r["slot"] == "morning"]
    case.check(len(mornings) == 1, f"morning reminded {len(mornings)} times")
    case.note = (f"{len(reminders)} reminders over {len(per_elapse)} elapses, "
                 f"{sum(1 for r in rows if r['outcome'] == 'skipped-stale')} stale skipped")
    return case


def sleep_until(monotonic):
    while time.monotonic() < monotonic:
        time.sleep(min(0.1, monotonic - time.monotonic()))


# MARK: - The desktop: Xvfb, a private D-Bus session, dunst

SESSION_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <servicedir>{services}</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class Desktop:
    """A private D-Bus session on the suite's Xvfb display, with dunst when asked. Only the
    services in its own folder can be activated (never the system's dunst)."""

    def __init__(self, suite, activatable=None):
        self.suite = suite
        self.dir = tempfile.mkdtemp(prefix="desktop-", dir=suite.work)
        services = os.path.join(self.dir, "services")
        os.makedirs(services)
        if activatable:
            with open(os.path.join(services, "org.freedesktop.Notifications.service"), "w") as f:
                f.write("[D-BUS Service]\nName=org.freedesktop.Notifications\n"
                        f"Exec={activatable}\n")
        config = os.path.join(self.dir, "session.conf")
        with open(config, "w") as f:
            f.write(SESSION_CONFIG.format(services=services))
        out = subprocess.run(
            ["dbus-daemon", f"--config-file={config}", "--fork", "--print-address=1",
             "--print-pid=1"], capture_output=True, text=True, check=True).stdout.split()
        self.address, self.bus_pid = out[0], int(out[1])
        self.env = {"DBUS_SESSION_BUS_ADDRESS": self.address, "DISPLAY": suite.display}
        self.dunst = None

    def start_dunst(self, action="open"):
        config = os.path.join(self.dir, "dunstrc")
        with open(config, "w") as f:
            f.write("[global]\n    font = DejaVu Sans Mono 10\n"
                    f"[nudge]\n    appname = nudge\n    action_name = {action}\n")
        env = dict(os.environ, **self.env)
        self.dunst = subprocess.Popen(["dunst", "-config", config], env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if self.ctl("count", "displayed").isdigit():
                return
            time.sleep(0.05)
        raise RuntimeError("dunst did not start")

    def kill_dunst(self):
        if self.dunst:
            self.dunst.kill()
            self.dunst.wait()
            self.dunst = None

    def ctl(self, *args):
        r = subprocess.run(["dunstctl", *args], env=dict(os.environ, **self.env),
                           capture_output=True, text=True, timeout=10)
        return r.stdout.strip()

    def displayed(self):
        count = self.ctl("count", "displayed")
        return int(count) if count.isdigit() else -1

    def wait_displayed(self, n, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.displayed() == n:
                return True
            time.sleep(0.02)
        return False

    def click(self):
        self.ctl("action", "0")

    def close_all(self):
        self.ctl("close-all")

    def stop(self):
        self.kill_dunst()
        try:
            os.kill(self.bus_pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


# MARK: - The suite


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
        self.display = f":{80 + os.getpid() % 9}"
        self.xvfb = subprocess.Popen(["Xvfb", self.display, "-screen", "0", "1024x768x24"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)

    def desktop(self, **kw):
        return Desktop(self, **kw)

    def close(self):
        self.xvfb.kill()
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
        print(f"{c.name:<{width}}  {c.runs:>6}  {c.failures:>8}  {c.lost:>9}  "
              f"{c.seconds:>5.0f}s  {getattr(c, 'note', '')}")
    failures = sum(c.failures for c in results)
    lost = sum(c.lost for c in results)
    print(f"{'total':<{width}}  {sum(c.runs for c in results):>6}  {failures:>8}  {lost:>9}  "
          f"{time.monotonic() - started:>5.0f}s")
    sys.exit(1 if failures or lost else 0)


if __name__ == "__main__":
    main()
