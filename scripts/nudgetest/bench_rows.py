"""Issue 39's row figures: `history --days 3650`, `export` and `import` on 10 years of history,
the binary under test against an older one (the start commit's) in the same hyperfine runs.

    from nudgetest.bench_rows import measure
    measure(new_nudge, old_nudge, env, runs, hyperfine, report)

`hyperfine(commands, runs, env, prepare=None, names=None)` returns each command's median in
seconds (scripts/bench's); `report(figure, value_text, target_text, ok)` records one figure.
"""

import datetime as dt
import json
import os
import shutil
import subprocess
import tempfile

# a fixed clock and zone, so the 10 years end on a known day whatever the date is
NOW = "2026-11-20T12:00:00+01:00"
from nudgetest.history import LAST_DAY, history_export  # noqa: E402




def _ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def _output(nudge, args, env):
    return subprocess.run([nudge, *args], env=env, check=True, capture_output=True).stdout


def _same_export(new_text, old_text):
    """Whether two exports hold the same, though written by different versions: export
    version 3 added `habits` (none here) after the start commit, which writes version 2. The
    bytes are compared with the new member and the version taken out of the new text."""
    new = json.loads(new_text)
    old = json.loads(old_text)
    if new.get("habits") != [] or (new.get("version"), old.get("version")) != (3, 2):
        return False
    lines = new_text.decode().split("\n")
    # the members are written in key order, `habits` between `format` and `help`
    at = lines.index('  "habits" : [')
    if lines[at + 1:at + 3] != ["", "  ],"]:
        return False
    lines = lines[:at] + lines[at + 3:]
    stripped = "\n".join(lines).replace('  "version" : 3\n}', '  "version" : 2\n}')
    return stripped.encode() == old_text


def measure(new_nudge, old_nudge, env, runs, hyperfine, report):
    """Builds the 10-year database, then times each command with both binaries in one
    interleaved hyperfine call and reports the goals: history and export at most 0.25x the old
    binary's (their output byte for byte the same), import of the 10 years at most 150 ms
    into an empty database and at most 50 ms again into one that holds it."""
    work = tempfile.mkdtemp(prefix="nudge-bench-rows-")
    try:
        doc = os.path.join(work, "ten-years.json")
        with open(doc, "w") as f:
            json.dump(history_export(10, LAST_DAY), f)
        # each binary reads a file it made itself (the old one cannot open a newer schema)
        db = os.path.join(work, "ten-years.sqlite3")
        old_db = os.path.join(work, "ten-years-old.sqlite3")
        renv = dict(env, NUDGE_DB=db, NUDGE_NOW=NOW, TZ="Europe/Berlin")
        oenv = dict(renv, NUDGE_DB=old_db)
        _output(new_nudge, ["import", doc], renv)
        _output(old_nudge, ["import", doc], oenv)

        for args, figure in [(["history", "--days", "3650"], "history --days 3650"),
                             (["export"], "export")]:
            new_text, old_text = _output(new_nudge, args, renv), _output(old_nudge, args, oenv)
            same = new_text == old_text
            if args == ["export"] and not same:
                same = _same_export(new_text, old_text)
            command = " ".join(args)
            new, old = hyperfine([f"env NUDGE_DB={db} {new_nudge} {command}",
                                  f"env NUDGE_DB={old_db} {old_nudge} {command}"], runs,
                                 dict(renv, NUDGE_DB=db), names=[f"{figure}: new", "old"])
            report(f"{figure} on 10 years vs the start commit's binary"
                   + ("" if same else " (OUTPUT DIFFERS)"),
                   f"{_ms(new)} vs {_ms(old)} = {new / old:.2f}x", "<= 0.25x, same output",
                   same and new / old <= 0.25)

        # into an empty database each run (the file and its WAL removed before each)
        fresh = os.path.join(work, "fresh.sqlite3")
        fenv = dict(renv, NUDGE_DB=fresh)
        prepare = f"rm -f {fresh} {fresh}-wal {fresh}-shm"
        new, old = hyperfine([f"{new_nudge} import {doc}", f"{old_nudge} import {doc}"], runs,
                             fenv, prepare=prepare, names=["import, fresh: new", "old"])
        report("import of 10 years into an empty database",
               f"{_ms(new)} (the start commit's {_ms(old)} = {new / old:.2f}x)", "<= 150 ms",
               new <= 0.150)

        # the same file again, into the database that holds it: nothing to write
        new, old = hyperfine([f"env NUDGE_DB={db} {new_nudge} import {doc}",
                              f"env NUDGE_DB={old_db} {old_nudge} import {doc}"], runs, renv,
                             names=["import again: new", "old"])
        report("import of the same 10 years again",
               f"{_ms(new)} (the start commit's {_ms(old)} = {new / old:.2f}x)", "<= 50 ms",
               new <= 0.050)
    finally:
        shutil.rmtree(work, ignore_errors=True)
