"""Fuzzing: random setting values, mutated import documents, libFuzzer (scripts/fuzz)."""

import datetime as dt
import json
import os
import random
import subprocess

from .world import ROOT, Case, World, one_line_error, iso, export_document


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
            case.check(f"after {key}={value[:40]!r}: " + "; ".join(c.stderr.strip() for c in bad),
                       not bad)
        else:
            case.check(f"{key}={value[:40]!r}: exit {r.returncode} {r.stderr.strip()[:100]!r}",
                       r.returncode == 64 and one_line_error(r))
    case.check("integrity", world.integrity() == "ok")
    preps = len(world.days_of("prep"))
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
            case.check(f"doc {k}: integrity after import", world.integrity() == "ok")
        else:
            case.check(f"doc {k}: exit {r.returncode} {r.stderr.strip()[:100]!r} "
                       f"unchanged={before == after}",
                       r.returncode == 65 and one_line_error(r) and before == after)
    preps = len([d for d in world.days_of("prep") if d >= "2026-01-01"])
    case.lose(10 - preps, "preps saved before the imports")
    case.note = f"{accepted} imported, {suite.import_docs - accepted} refused unchanged"
    return case


def case_libfuzzer(suite):
    """libFuzzer (-sanitize=fuzzer,address) on the link router, the calendar parser, the
    import decoder, the plain-time parser, the line editor and every time parser (issue 56),
    each for a bounded time from a seed corpus: zero crashes."""
    case = Case(f"libFuzzer: link, calendar, import, plaintime, lineeditor, time "
                f"({suite.fuzz_seconds} s each)")
    r = subprocess.run([os.path.join(ROOT, "scripts", "fuzz"), str(suite.fuzz_seconds)],
                       capture_output=True, text=True, cwd=ROOT, timeout=900)
    lines = [l for l in r.stdout.splitlines() if l.startswith("fuzz ")]
    for line in lines:
        case.check(line + " " + r.stdout[-300:], ", 0 crashes (exit 0)" in line)
    case.check(f"scripts/fuzz exit {r.returncode} " + r.stderr[-300:],
               len(lines) == 6 and r.returncode == 0)
    case.note = "; ".join(l.split(":", 1)[1].split(" in ")[0].strip() + " " + l.split()[1]
                          for l in lines)
    return case
