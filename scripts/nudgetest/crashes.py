"""Crash safety: SIGKILL at random moments, at every write of a save and of a migration."""

import datetime as dt
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import time

from .world import ROOT, Case, World, iso, export_document


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
                world, ["checkin", "--feel", "fine", "--no-input", "--no-animation"],
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
                "prep": set(world.days_of("prep")),
                "review": set(world.days_of("review")),
                "checkin": set(world.days_of("checkin")),
                "note": set(world.help_notes()),
            }
            missing = sum(len(acked[k] - have[k]) for k in acked)
            kind = {"prep-done": "prep"}.get(key[0], key[0])
            if kind in have and key[1] in have[kind]:
                committed += 1
            case.lose(missing, f"{missing} acknowledged entries missing after killing {op}")
        same, why = (True, "")
        if ok and os.path.exists(world.db) and kills % suite.recompute_every == 0:
            same, why = recomputed_matches(world, iso(last_day + dt.timedelta(days=1)))
        case.check(f"after killing {op}: integrity {verdict!r} {why}",
                   ok and same and missing == 0)
    same, why = recomputed_matches(world, iso(last_day + dt.timedelta(days=1)))
    case.check("final: " + why, same)
    litter = [n for n in os.listdir(os.path.dirname(world.db)) if ".creating-" in n]
    case.check(f"abandoned temporary files left behind: {litter}", not litter)
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
            preps = set(trial.days_of("prep"))
            case.lose(3 - len(preps), f"earlier preps gone after a kill at {call} #{n}")
            again = trial.run(*args, now=iso(day, "08:00:00"))
            reviews = len(trial.days_of("review"))
            case.check(f"kill at {call} #{n}: integrity {verdict!r}, retry exit "
                       f"{again.returncode} {again.stderr.strip()}",
                       verdict == "ok" and again.returncode == 0 and reviews == 1)
            shutil.rmtree(trial.dir, ignore_errors=True)
    case.note = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    return case


# MARK: - Migrations


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
# the schema version the Swift store writes (AppDatabase.schemaVersion), read from its source so
# a new version is never left behind here
LATEST = int(re.search(r"schemaVersion = (\d+)", open(os.path.join(
    ROOT, "Sources", "NudgeStore", "AppDatabase.swift")).read()).group(1))
LATEST_TABLES = {"setting", "achievement", "slot_schedule", "reminder_claim", "reminder_log",
                             "sqlite_sequence", "draft", "change_journal", "pause", "snooze",
                             "slot_trigger", "reward_state", "said_note", "flow_entry",
                             "plan_choice", "streak_checkpoint", "habit", "habit_check",
                             "sync_self", "sync_key", "sync_dirty",
                             "sync_peer", "sync_conflict", "sync_identity",
                             "sync_outbox", "sync_later",
                             "sync_brought", "plan_file", "habit_alias"}


def case_migration_kills(suite):
    """Upgrading a schema-1 file with a year of entries, killed at each of its writes in turn:
    the file opens at schema 1 (as it was) or the latest (complete), never in between, and the next
    run finishes the upgrade with every entry and the achievements."""
    case = Case(f"migration v1 -> v{LATEST} killed at every write")
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
            consistent = (version, tables) in ((1, V1_TABLES), (LATEST, LATEST_TABLES))
            seen[version] = seen.get(version, 0) + 1
            preps = len(trial.days_of("prep"))
            case.lose(days - preps, f"preps after a kill at {call} #{n}")
            again = trial.run(*args, now=now)
            version2, tables2 = schema_state(trial)
            earned = trial.query("SELECT count(*) FROM achievement")[0][0] if version2 == LATEST else 0
            case.check(f"kill at {call} #{n}: version {version} tables {sorted(tables)}, "
                       f"then exit {again.returncode} version {version2}, {earned} achievements",
                       intact and consistent and again.returncode == 0 and version2 == LATEST
                       and tables2 == LATEST_TABLES and earned >= 5)
            shutil.rmtree(trial.dir, ignore_errors=True)
    case.note = ("killed at " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
                 + "; left at " + ", ".join(f"v{k}: {v}" for k, v in sorted(seen.items())))
    return case
