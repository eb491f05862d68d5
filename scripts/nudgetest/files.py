"""Bad files and disks: garbage, truncated and newer databases, read-only, full, permissions."""

import datetime as dt
import json
import os
import random
import shutil
import sqlite3
import subprocess

from .world import Case, World, sha256, one_line_error, iso, export_document


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
    con.execute("PRAGMA user_version = 99")
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
            case.check(f"{kind} / {args[0]}: exit {r.returncode}, {r.stderr.strip()[:120]!r}, "
                       f"unchanged={unchanged}, new files={extra}",
                       r.returncode == 65 and one_line_error(r) and unchanged and not extra)
            case.lose(0 if unchanged else 1, f"{kind} file was changed by {args[0]}")
        os.rename(world.db, world.db + ".bad")
        r = world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                      now="2026-02-01T21:30:00+01:00")
        case.check(f"{kind}: no fresh start after moving it away: {r.stderr}", r.returncode == 0)
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
        case.check(f"save into a read-only directory: exit {r.returncode} {r.stderr.strip()!r}",
                   r.returncode == 73 and one_line_error(r))
        # a database on read-only media still shows and exports
        for args in (["streak", "--json"], ["show", "2026-01-03"], ["history", "--days", "9"],
                     ["export"]):
            r = world.run(*args, now="2026-01-06T08:00:00+01:00")
            case.check(f"{' '.join(args)} from a read-only directory: exit {r.returncode} "
                       f"{r.stderr.strip()!r}", r.returncode == 0 and r.stdout.strip())
        case.check("the export from read-only media has the preps", '"water" : true' in r.stdout)
        r = fresh.run("today", now="2026-01-06T08:00:00+01:00")
        case.check(f"first run on a read-only disk: exit {r.returncode} {r.stderr.strip()!r}",
                   r.returncode == 73 and one_line_error(r))
        after = {n: sha256(os.path.join(folder, n)) for n in os.listdir(folder)}
        case.lose(0 if before == after else 1, "files changed on a read-only mount")
    finally:
        subprocess.run(["umount", folder], capture_output=True)
        subprocess.run(["umount", fresh.data], capture_output=True)
    r = world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                  now="2026-01-10T21:30:00+01:00")
    preps = len(world.days_of("prep"))
    case.check(f"writable again: exit {r.returncode}, {preps}", r.returncode == 0 and preps == 6)
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
            case.check(f"no save failed on a full disk ({codes})", failures > 0 and codes <= {73})
            r = world.run("streak", "--json", now="2026-01-11T12:00:00+01:00")
            case.check(f"a read on a full disk: exit {r.returncode} {r.stderr.strip()!r}",
                       r.returncode == 0 or (r.returncode == 73 and one_line_error(r)))
            case.note = f"a read on the full disk exits {r.returncode}"
            os.unlink(filler)
            case.check("integrity after a full disk", world.integrity() == "ok")
            preps = len(world.days_of("prep"))
            case.lose(10 - preps, "preps saved before the disk filled up")
            r = world.run("prep", "--item", "water=yes", "--no-input", "--no-animation",
                          now=iso(dt.date(2026, 1, 11)))
            case.check(f"after freeing space: {r.stderr.strip()}", r.returncode == 0)
        finally:
            subprocess.run(["umount", world.data], capture_output=True)
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
            case.check(f"umask {umask:03o}: {path} is {have:o}, want {want:o}", have == want)
        have = stat_mode(os.path.join(world.dir, "out.json"))
        case.check(f"umask {umask:03o}: export file mode {have:o}",
                   r.returncode == 0 and have & 0o077 == 0)
    return case


def stat_mode(path):
    return os.stat(path).st_mode & 0o777
