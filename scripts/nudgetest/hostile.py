"""Hostile input, class by class (issue "Trust"): files that would run a command or forge a
streak, input without end, values no later command can read, databases that are not what
they seem, text that rearranges the screen, test hooks left in production. Each case runs the
real binary and checks what a person would see and what is stored."""

import datetime as dt
import json
import os
import re
import shutil
import stat
import subprocess
import time

from .world import Case, World, one_line_error, iso, sha256

NOW = "2026-11-20T21:30:00+01:00"


def write_json(world, name, document):
    path = os.path.join(world.dir, name)
    with open(path, "w") as f:
        json.dump(document, f)
    return path


def base_document():
    return {"format": "nudge-export", "version": 1, "settings": {}, "prep": [], "review": [],
            "checkin": [], "help": [], "achievements": []}


def prep(day, saved=None, **items):
    entry = {"day": day, "sticky_notes": False, "produce": False, "water": False,
             "breakfast": False, "saved_at": saved or f"{day}T21:00:00+01:00"}
    entry.update(items)
    return entry


def database_bytes(world):
    """The database and its WAL as they are on disk (what 'nothing changed' compares)."""
    return {n: sha256(os.path.join(os.path.dirname(world.db), n))
            for n in sorted(os.listdir(os.path.dirname(world.db)))}


def case_hostile_files(suite):
    """Import documents that try to name a command, claim achievements, or carry entries the
    flows would refuse: the command is never taken, claims are ignored, bad documents are
    refused whole (65, one line naming the path) with the database byte for byte as before."""
    case = Case("hostile: files that run a command or forge a streak")
    world = World(suite, "hostile-files")
    world.run("config", "set", "terminal", "xterm -e", now=NOW)
    canary = os.path.join(world.dir, "canary")
    # 1. a setting that names a command is skipped, and said
    doc = base_document()
    doc["settings"] = {"terminal": f"sh -c 'touch {canary}'", "snooze": "5m"}
    doc["prep"] = [prep("2026-11-19", water=True)]
    r = world.run("import", write_json(world, "terminal.json", doc), now=NOW)
    case.check(f"import with a terminal setting: exit {r.returncode} {r.stdout!r} {r.stderr!r}",
               r.returncode == 0 and "Skipped terminal" in r.stdout)
    r = world.run("config", "get", "terminal", now=NOW)
    case.check(f"terminal after import: {r.stdout!r}", r.stdout.strip() == "xterm -e")
    fresh = World(suite, "hostile-files-fresh")
    r = fresh.run("import", write_json(fresh, "terminal.json", doc), "--json", now=NOW)
    report = json.loads(r.stdout) if r.returncode == 0 else {}
    case.check(f"--json report: {r.stdout!r}",
               report.get("settings_skipped") == ["terminal"]
               and report.get("settings_added") == ["snooze=5m"])
    r = fresh.run("config", "get", "terminal", now=NOW)
    case.check(f"a fresh database took the file's terminal: {r.stdout!r}", r.stdout.strip() == "")
    case.check("the file's command ran", not os.path.exists(canary))
    # 2. claimed achievements are ignored: only what the entries earn
    doc = base_document()
    doc["prep"] = [prep("2026-11-18", water=True)]
    doc["achievements"] = [{"key": k, "earned_on": "2026-11-18"}
                           for k in ("streak-100", "perfect-week", "swaps-10", "streak-30")]
    r = fresh.run("import", write_json(fresh, "claims.json", doc), now=NOW)
    earned = json.loads(fresh.run("achievements", "--json", now=NOW).stdout)
    held = sorted(a["key"] for a in earned if a["earned_on"])
    case.check(f"achievements after claims: {held}", r.returncode == 0 and held == ["first-prep"])
    streak = json.loads(fresh.run("streak", "--json", now=NOW).stdout)
    case.check(f"a claimed streak counted: {streak}", streak["longest"] <= 2)
    # 3. documents the flows would refuse: refused whole, first offending path named
    bad = []
    d = base_document(); d["prep"] = [prep("2026-11-19")]
    bad.append((d, "prep[0] has no item ready"))
    d = base_document(); d["review"] = [{"day": "2026-11-19", "why": "x",
                                         "saved_at": "2026-11-19T08:00:00+01:00"}]
    bad.append((d, "review[0] has no commitment"))
    d = base_document(); d["prep"] = [prep("9999-12-31", water=True)]
    bad.append((d, "9999-12-31"))
    d = base_document(); d["prep"] = [prep("2026-11-19", water=True,
                                           saved="2026-11-01T21:00:00+01:00")]
    bad.append((d, "comes before the entry's day"))
    d = base_document(); d["help"] = [{"id": "n1", "day": "2026-11-01", "category": "stress",
                                       "at": "2026-11-19T15:00:00+01:00"}]
    bad.append((d, "help[0].day 2026-11-01 does not match its time"))
    d = base_document(); d["help"] = [{"id": "a\u202eb", "day": "2026-11-19",
                                       "category": "stress", "at": "2026-11-19T15:00:00+01:00"}]
    bad.append((d, "help[0].id must be"))
    d = base_document(); d["prep"] = [prep("2026-11-19", water=True, other="x" * 1001)]
    bad.append((d, "prep[0].other is longer than 1000"))
    d = base_document(); d["pauses"] = [{"first_day": "2026-11-19", "last_day": "2027-12-31"}]
    bad.append((d, "pauses[0] must end"))
    d = base_document(); d["prep"] = [prep("2026-11-19", water=True),
                                      prep("2026-11-18", water=True), prep("2026-11-19")]
    bad.append((d, "prep[2].day repeats"))
    d = base_document(); d["prep"] = [prep("2027-01-01", water=True)]
    bad.append((d, "prep[0].day is 2027-01-01, a day no flow can have saved yet"))
    d = base_document(); d["help"] = [{"id": "n9", "day": "2026-11-19", "category": "stress",
                                       "at": "2026-11-19T15:00:00+01:00"},
                                      {"id": "n8", "day": "2026-12-01", "category": "habit",
                                       "at": "2026-12-01T15:00:00+01:00"}]
    bad.append((d, "help[1].day is 2026-12-01"))
    before = database_bytes(world)
    for k, (document, expected) in enumerate(bad):
        r = world.run("import", write_json(world, f"bad{k}.json", document), now=NOW)
        case.check(f"bad document {k}: exit {r.returncode} {r.stderr.strip()!r} "
                   f"(expected {expected!r})",
                   r.returncode == 65 and one_line_error(r) and expected in r.stderr)
    case.lose(0 if database_bytes(world) == before else 1, "a refused import changed the file")
    # 4. a newer but emptier entry never replaces a fuller one
    world.run("review", "--why", "health", "--swap", "water", "--commit-to", "drink water",
              "--commit-from", "soda", "--no-input", "--no-animation",
              now="2026-11-20T08:00:00+01:00")
    d = base_document()
    d["review"] = [{"day": "2026-11-20", "commit_to": "x",
                    "saved_at": "2026-11-20T20:00:00+01:00"}]
    r = world.run("import", write_json(world, "emptier.json", d), now=NOW)
    shown = json.loads(world.run("show", "2026-11-20", "--json", now=NOW).stdout)
    case.check(f"emptier import: {r.stdout!r} {shown}",
               r.returncode == 0 and "Kept yours" in r.stdout
               and shown["review"]["why"] == "health")
    return case


def case_hostile_streams(suite):
    """Input without end: a stream that never ends, a document nested a million deep, a line of
    megabytes piped in, a paste of thousands of characters into a prompt: each bounded."""
    case = Case("hostile: input without end")
    world = World(suite, "hostile-streams")
    world.run("prep", "--item", "water=yes", "--no-input", "--no-animation", now=NOW)
    before = database_bytes(world)
    env = world.environment(NOW, None)
    # an endless stream: refused once past the limit, not read to its end
    t0 = time.monotonic()
    r = subprocess.run(f"yes | '{suite.nudge}' import -", shell=True, env=env,
                       capture_output=True, text=True, timeout=120)
    case.check(f"yes | import -: exit {r.returncode} {r.stderr.strip()!r}",
               r.returncode == 65 and one_line_error(r) and "MiB" in r.stderr)
    case.note = f"endless stream refused in {time.monotonic() - t0:.1f}s"
    r = world.run("import", "/dev/zero", now=NOW)
    case.check(f"import /dev/zero: exit {r.returncode} {r.stderr.strip()!r}",
               r.returncode == 66 and one_line_error(r) and "character device" in r.stderr)
    fifo = os.path.join(world.dir, "fifo")
    os.mkfifo(fifo)
    r = world.run("import", fifo, now=NOW, timeout=10)
    case.check(f"import FIFO: exit {r.returncode}", r.returncode == 66 and "FIFO" in r.stderr)
    deep = os.path.join(world.dir, "deep.json")
    with open(deep, "w") as f:
        f.write("[" * 1_000_000 + "]" * 1_000_000)
    r = world.run("import", deep, now=NOW)
    case.check(f"nested a million deep: exit {r.returncode} {r.stderr.strip()!r}",
               r.returncode == 65 and one_line_error(r) and "nest deeper" in r.stderr)
    many = os.path.join(world.dir, "many.json")
    with open(many, "w") as f:
        f.write('{"format": "nudge-export", "version": 1, "x": [' + "0," * 2_500_000 + '0]}')
    r = world.run("import", many, now=NOW)
    case.check(f"2,500,000 values under an unknown key: exit {r.returncode} {r.stderr.strip()!r}",
               r.returncode == 65 and one_line_error(r) and "values" in r.stderr)
    big = os.path.join(world.dir, "big.json")
    with open(big, "w") as f:
        f.write('{"format": "nudge-export", "x": "' + "a" * (70 << 20) + '"}')
    r = world.run("import", big, now=NOW)
    case.check(f"a 70 MiB file: exit {r.returncode}", r.returncode == 65 and "MiB" in r.stderr)
    os.unlink(big)
    case.lose(0 if database_bytes(world) == before else 1, "a refused stream changed the file")
    # export -o -: standard output, as import - is standard input
    r = world.run("export", "-o", "-", now=NOW)
    case.check(f"export -o -: exit {r.returncode}",
               r.returncode == 0 and json.loads(r.stdout)["format"] == "nudge-export"
               and not os.path.exists(os.path.join(world.dir, "-")))
    # a paste into a prompt: taken whole (newlines inside it become spaces), or refused as too
    # long, in bounded time
    with Tmux(world, env) as tmux:
        for length, accepted in ((900, True), (6000, False)):
            tmux.start(f"'{suite.nudge}' need-help --category other; echo EXIT=$?")
            tmux.wait_for("What's happening?")
            text = ("x" * 59 + "\n") * (length // 60)
            tmux.paste(text.rstrip("\n"))
            t0 = time.monotonic()
            tmux.keys("Enter")
            screen = tmux.wait_for("EXIT=" if accepted else "longer than 1000", timeout=60)
            took = time.monotonic() - t0
            if not accepted:  # asked again; Ctrl-D leaves
                tmux.keys("C-d")
                screen += tmux.wait_for("EXIT=")
            ok = ("EXIT=0" in screen) if accepted else ("longer than 1000" in screen)
            case.check(f"a paste of {length} characters: {screen[-300:]!r}", ok)
            case.note += f"; paste {length}: {took:.1f}s"
    notes = json.loads(world.run("history", "--json", "--days", "1", now=NOW).stdout)[0]["help"]
    case.check(f"the pasted note: {notes!r}"[:300],
               len(notes) == 1 and len(notes[0]["note"]) == 899
               and "\n" not in notes[0]["note"])
    return case


def case_hostile_values(suite):
    """Values no later command can read: a clock at the ends of the calendar, garbage TZ
    offsets, pauses near 9999; refused where made, or stored so export and import take them
    back."""
    case = Case("hostile: values no later command can read")
    world = World(suite, "hostile-values")
    for now in ("9999-12-31T23:00:00+00:00", "0001-01-01T00:00:00+00:00", "@-62135596800",
                "@999999999999"):
        r = world.run("pause", "--for", "5d", now=now)
        case.check(f"NUDGE_NOW={now}: exit {r.returncode} {r.stderr.strip()!r}",
                   r.returncode == 64 and one_line_error(r) and "1970" in r.stderr)
    r = world.run("pause", "--for", "365d", now="9998-12-31T12:00:00+00:00")
    case.check(f"a year's pause from 9998-12-31: {r.stderr.strip()!r}", r.returncode == 0)
    r = world.run("streak", "--json", now="9998-12-31T12:00:00+00:00")
    case.check(f"streak after it: exit {r.returncode} {r.stderr.strip()!r}", r.returncode == 0)
    for tz in ("ABC99999999999999999999", "<+99>-99:99", "XYZ-24:59:59ABC",
               "LMT-0:17:30", ":/dev/zero", ":" + world.dir):
        w = World(suite, "hostile-tz")
        r = w.run("need-help", "--category", "stress", "--note", "tz", "--no-input",
                  "--no-animation", now="2026-11-20T12:00:00Z", env={"TZ": tz})
        exported = w.run("export", env={"TZ": tz}, now="2026-11-20T12:00:00Z")
        back = World(suite, "hostile-tz-back")
        path = write_json(back, "doc.json", json.loads(exported.stdout or "{}"))
        again = back.run("import", path, now="2026-11-21T12:00:00Z")
        case.check(f"TZ={tz}: save {r.returncode}, export {exported.returncode}, import "
                   f"{again.returncode} {again.stderr.strip()!r}",
                   r.returncode == 0 and exported.returncode == 0 and again.returncode == 0)
    # a database an older Nudge left holding a day it can no longer reach still opens to show,
    # export and repair
    world.run("prep", "--item", "water=yes", "--no-input", "--no-animation", now=NOW)
    con = __import__("sqlite3").connect(world.db)
    con.execute("INSERT INTO pause (first_day, last_day) VALUES ('9999-12-30', '10000-01-04')")
    con.commit()
    con.close()
    for args in (["streak"], ["show"], ["history"], ["export"], ["today"]):
        r = world.run(*args, now=NOW)
        case.check(f"{' '.join(args)} with a pause to 10000-01-04: exit {r.returncode} "
                   f"{r.stderr.strip()!r}", r.returncode == 0)
    return case


def case_hostile_databases(suite):
    """Databases that are not what they seem: names SQLite treats specially, FIFOs, devices and
    dangling links (refused at once), export -o onto a device, a second database beside the
    installed timers, a database deleted while a flow is open."""
    case = Case("hostile: databases that are not what they seem")
    world = World(suite, "hostile-db")
    save = ["prep", "--item", "water=yes", "--no-input", "--no-animation"]
    os.makedirs(world.dir + "/cwd")
    for name in (":memory:", "file:nudge.db?mode=memory", "file::memory:", "x/", ""):
        r = subprocess.run([suite.nudge, *save], env=world.environment(NOW, {"NUDGE_DB": name}),
                           cwd=world.dir + "/cwd", capture_output=True, text=True, timeout=30)
        case.check(f"NUDGE_DB={name}: exit {r.returncode} {r.stdout!r} {r.stderr!r}",
                   r.returncode == 73 and one_line_error(r) and "saved" not in r.stdout)
    case.check("a special name created files", os.listdir(world.dir + "/cwd") == [])
    fifo = os.path.join(world.dir, "fifo")
    os.mkfifo(fifo)
    os.symlink(world.dir + "/nowhere", world.dir + "/dangling")
    for path, code in ((fifo, 65), ("/dev/null", 65), (world.dir + "/dangling", 73),
                       (world.dir, 65)):
        r = world.run(*save, now=NOW, env={"NUDGE_DB": path}, timeout=10)
        case.check(f"NUDGE_DB={path}: exit {r.returncode} {r.stderr.strip()!r}",
                   r.returncode == code and one_line_error(r))
    case.check("/dev/null is no longer a device", stat.S_ISCHR(os.stat("/dev/null").st_mode))
    # export -o never replaces a device or a non-regular file
    world.run(*save, now=NOW)
    for target in ("/dev/null", fifo, world.dir):
        r = world.run("export", "-o", target, now=NOW, timeout=10)
        case.check(f"export -o {target}: exit {r.returncode} {r.stderr.strip()!r}",
                   r.returncode == 73 and one_line_error(r))
    case.check("export replaced a device or a FIFO",
               stat.S_ISCHR(os.stat("/dev/null").st_mode) and stat.S_ISFIFO(os.stat(fifo).st_mode))
    link = os.path.join(world.dir, "backup-link.json")
    real = os.path.join(world.dir, "backup.json")
    open(real, "w").close()
    os.symlink(real, link)
    r = world.run("export", "-o", link, now=NOW)
    case.check(f"export through a link: exit {r.returncode}",
               r.returncode == 0 and os.path.islink(link) and os.path.getsize(real) > 0)
    # a second database never rewrites the installed timers
    units = os.path.join(world.dir, "config", "systemd", "user")
    r = world.run("install", now=NOW)
    timer = os.path.join(units, "nudge-morning.timer")
    before = {n: sha256(os.path.join(dp, n)) for dp, _, ns in os.walk(units) for n in ns}
    other = {"NUDGE_DB": os.path.join(world.dir, "other.sqlite3")}
    r = world.run("schedule", "set", "morning", "05:00", "--yes", now=NOW, env=other)
    case.check(f"schedule set on a second database: exit {r.returncode} {r.stderr.strip()!r}",
               r.returncode == 0 and "keep their times" in r.stderr)
    r = world.run("install", now=NOW, env=other)
    case.check(f"install for a second database: exit {r.returncode} {r.stderr.strip()!r}",
               r.returncode == 64 and one_line_error(r))
    after = {n: sha256(os.path.join(dp, n)) for dp, _, ns in os.walk(units) for n in ns}
    case.check("a second database changed the units", os.path.exists(timer) and before == after)
    # the database deleted while a flow is open: the save goes to a new database, said plainly
    env = world.environment(NOW, None)
    with Tmux(world, env) as tmux:
        tmux.start(f"'{suite.nudge}' prep --no-animation 2> {world.dir}/err; echo EXIT=$?")
        tmux.wait_for("Sticky notes")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(world.db + suffix):
                os.unlink(world.db + suffix)
        tmux.keys("a", "Enter")
        tmux.wait_for("Anything else")
        tmux.keys("Enter")
        screen = tmux.wait_for("EXIT=")
        err = open(f"{world.dir}/err").read()
    history = world.run("history", "--json", "--days", "1", now=NOW)
    saved = json.loads(history.stdout)[0]["prep"] if history.returncode == 0 else None
    case.check(f"deleted mid-flow: {screen[-200:]!r} {err!r} {saved!r}",
               "EXIT=0" in screen and "was deleted" in err and saved and saved["water"])
    return case


def case_no_sqlite(suite):
    """SQLite is loaded when a database is first opened: without the library (hidden in a mount
    namespace of its own) a command that needs the database says what to install in one line
    (73) and changes nothing; --help and a calendar preview, which need none, still work."""
    case = Case("no SQLite library: one line saying what to install")
    world = World(suite, "no-sqlite")
    r = world.run("prep", "--item", "water=yes", "--no-input", "--no-animation", now=NOW)
    case.check(f"first save: exit {r.returncode} {r.stderr!r}", r.returncode == 0)
    before = database_bytes(world)
    found = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    library = re.search(r"libsqlite3\.so\.0 \([^)]*\) => (\S+)", found)
    case.check("ldconfig -p names no libsqlite3.so.0", library is not None)
    if library is None:
        return case
    real = os.path.realpath(library.group(1))
    empty = os.path.join(world.dir, "empty.so")
    open(empty, "w").close()

    def hidden(*args):
        # the library replaced by an empty file for this process only (unshare -m)
        script = 'mount --bind "$1" "$2" && shift 2 && exec "$@"'
        return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", empty, real,
                               suite.nudge, *args],
                              env=world.environment(NOW, None), stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=30)

    for args in (["today"], ["prep", "--item", "water=no", "--no-input", "--no-animation"],
                 ["streak", "--json"], ["export"]):
        r = hidden(*args)
        case.check(f"{' '.join(args)} without SQLite: exit {r.returncode} {r.stdout!r} "
                   f"{r.stderr.strip()!r}",
                   r.returncode == 73 and one_line_error(r)
                   and "Cannot load SQLite" in r.stderr
                   and "apt-get install libsqlite3-0" in r.stderr and r.stdout == "")
    r = hidden("--help")
    case.check(f"--help without SQLite: exit {r.returncode} {r.stderr.strip()!r}",
               r.returncode == 0 and "prep" in r.stdout)
    r = hidden("schedule", "preview", "Mon..Fri 07:00", "--from", "@1700000000", "--count", "2")
    case.check(f"preview without SQLite: exit {r.returncode} {r.stdout!r} {r.stderr.strip()!r}",
               r.returncode == 0 and r.stdout.splitlines() == [
                   "2023-11-15T07:00:00+01:00", "2023-11-16T07:00:00+01:00"])
    case.check("the database changed without SQLite", database_bytes(world) == before)
    r = world.run("history", "--json", "--days", "1", now=NOW)
    case.check(f"with SQLite back: exit {r.returncode} {r.stdout[:200]!r}",
               r.returncode == 0 and json.loads(r.stdout)[0]["prep"]["water"] is True)
    return case


def case_hostile_text(suite):
    """Text that rearranges the screen: escapes, bidi overrides and isolates, separators and
    zero-width characters at the edges are shown escaped, kept exactly in the database and
    the export, and never reach the terminal raw."""
    case = Case("hostile: text that rearranges the screen")
    world = World(suite, "hostile-text")
    texts = ["a\u202eevil\u202c", "x\u2066y\u2069", "one\u2028two\u2029three",
             "\u200bwater\u200b", "\u061cmark\u200f"]
    for k, text in enumerate(texts):
        r = world.run("need-help", "--category", "other", "--note", text, "--no-input",
                      "--no-animation", now=f"2026-11-20T1{k}:00:00+01:00")
        case.check(f"note {text!r}: exit {r.returncode} {r.stderr!r}", r.returncode == 0)
    hostile = re.compile("[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f"
                         "\u202a-\u202e\u2066-\u2069\u2028\u2029]")
    for args in (["show"], ["history", "--full"], ["history"], ["week"], ["today"]):
        r = world.run(*args, now="2026-11-20T22:00:00+01:00", env={"COLUMNS": "200"})
        case.check(f"{' '.join(args)} printed a raw control: {r.stdout[:200]!r}",
                   r.returncode == 0 and not hostile.search(r.stdout))
    r = world.run("show", now="2026-11-20T22:00:00+01:00", env={"COLUMNS": "200"})
    case.check(f"show does not escape visibly: {r.stdout[:300]!r}",
               "\\u{202E}" in r.stdout and "\\u{200B}water\\u{200B}" in r.stdout)
    exported = json.loads(world.run("export", now=NOW).stdout)
    notes = sorted(n["note"] for n in exported["help"])
    case.check(f"the export changed the text: {notes!r}", notes == sorted(texts))
    stored = sorted(world.help_notes())
    case.check(f"the database changed the text: {stored!r}", stored == sorted(texts))
    # what a person types on the command line comes back escaped in the error too
    r = world.run("show", "\x1b[2J\x1b]0;title\x07", now=NOW)
    case.check(f"an error echoed a raw escape: {r.stderr!r}",
               r.returncode == 64 and one_line_error(r) and "\x1b" not in r.stderr
               and "\\u{001B}" in r.stderr)
    r = world.run("need-help", "--category", "other", "--note", "\x1b[31mred", "--no-input",
                  now=NOW)
    case.check(f"an escape in a note: {r!r}", r.returncode == 64 and "\x1b" not in r.stderr)
    return case


def case_test_hooks(suite):
    """A test hook left in production: the reminders `nudge daemon` starts get neither
    NUDGE_NOW nor NUDGE_SEED (traced with strace -f -v), and a long snooze does not trap."""
    case = Case("hostile: test hooks in production")
    world = World(suite, "hostile-hooks")
    for args in (["schedule", "set", "midday", "*:*", "--yes"], ["schedule", "on", "midday"],
                 ["schedule", "off", "morning"], ["schedule", "off", "evening"]):
        world.run(*args, now=None)
    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()
    trace = os.path.join(world.dir, "trace")
    env = world.environment(now, {"NUDGE_SEED": "7"})
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    r = subprocess.run(["strace", "-f", "-qq", "-v", "-s", "256", "-e", "trace=execve", "-o",
                        trace, suite.nudge, "daemon", "--exit-after", "5"], env=env,
                       capture_output=True, text=True, timeout=60)
    lines = [l for l in open(trace) if "execve(" in l and '"notify"' in l]
    case.check(f"the daemon started no firing: {r.stderr[-300:]!r}", r.returncode == 0 and lines)
    leaked = [l for l in lines if "NUDGE_NOW=" in l or "NUDGE_SEED=" in l]
    case.check(f"a firing got a test variable: {leaked[:1]!r}"[:300], not leaked)
    case.note = f"{len(lines)} firings traced"
    # a long wait is bounded, never a trap (a UInt32 of microseconds overflows at 71 minutes)
    r = world.run("notify", "demo", "--wait", "1e300", now=NOW)
    case.check(f"--wait 1e300: exit {r.returncode}", r.returncode == 64 and one_line_error(r))
    r = world.run("daemon", "--exit-after", "1e300", now=NOW)
    case.check(f"--exit-after 1e300: exit {r.returncode}", r.returncode == 64 and one_line_error(r))
    return case


class Tmux:
    """A private tmux server driving one window: start a command, wait for text, type."""

    def __init__(self, world, env):
        self.base = f"hostile-{os.getpid()}-{id(self)}"
        self.socket = self.base
        self.starts = 0
        self.env = env
        self.world = world

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)

    def start(self, command):
        """Runs `command` in a new server of its own (the last one is ended)."""
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        self.starts += 1
        self.socket = f"{self.base}-{self.starts}"
        exports = " ".join(f"{k}='{v}'" for k, v in self.env.items())
        subprocess.run(["tmux", "-L", self.socket, "new-session", "-d", "-x", "120", "-y", "50",
                        f"env -i {exports} bash -c \"{command}; sleep 600\""], check=True)

    def screen(self):
        return subprocess.run(["tmux", "-L", self.socket, "capture-pane", "-p", "-J", "-S",
                               "-200"], capture_output=True, text=True).stdout

    def wait_for(self, text, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        return self.screen()

    def keys(self, *keys):
        subprocess.run(["tmux", "-L", self.socket, "send-keys", *keys], check=True)

    def paste(self, text):
        """Pastes `text` as a terminal does (bracketed, when the program asked for it)."""
        subprocess.run(["tmux", "-L", self.socket, "load-buffer", "-"], input=text, text=True,
                       check=True)
        subprocess.run(["tmux", "-L", self.socket, "paste-buffer", "-p", "-d"], check=True)
