"""Concurrency: writers and a firing at once, racing creators, a reader or writer holding on."""

import concurrent.futures
import datetime as dt
import shutil
import sqlite3
import time

from .world import Case, World, iso


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
    notes = len(world.help_notes())
    claims = world.query("SELECT count(*) FROM reminder_claim")[0][0]
    case.check("; ".join(errors[:3]), bad == 0 and not errors)
    case.check(f"{notes} notes, expected {4 * suite.writes}", notes == 4 * suite.writes)
    case.lose(max(0, 4 * suite.writes - notes), "notes")
    case.check(f"{claims} claims for {len(fired)} firings", claims == len(fired))
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
        preps = len(world.days_of("prep"))
        fails = [f"exit {c}: {e.strip()}" for c, e in results if c != 0]
        case.check(f"round {round_}: {fails[:2]} preps={preps}",
                   not fails and preps == 8 and world.integrity() == "ok")
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
    reader.execute("SELECT count(*) FROM flow_entry").fetchall()
    for k in range(20):
        r = world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                      now=iso(dt.date(2026, 2, 1) + dt.timedelta(days=k)))
        case.check(f"save {k} with an open reader: {r.stderr.strip()}", r.returncode == 0)
    reader.execute("COMMIT")
    holder = sqlite3.connect(world.db, isolation_level=None, timeout=30)
    holder.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    proc = world.start("checkin", "--feel", "fine", "--no-input", "--no-animation",
                       now="2026-02-01T13:00:00+01:00")
    time.sleep(3)
    holder.execute("COMMIT")
    code = proc.wait()
    waited = time.monotonic() - started
    case.check(f"save behind a 3 s writer: exit {code}", code == 0 and waited >= 3)
    reader.close()
    holder.close()
    return case
