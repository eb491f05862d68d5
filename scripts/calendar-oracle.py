#!/usr/bin/env python3
"""Compares `nudge schedule normalize/preview` with `systemd-analyze calendar`, the oracle.

Generates calendar expressions x time zones x base times and checks that the normalized form
and every next elapse agree exactly, and that what systemd rejects nudge rejects (exit 65):
15 zones on their DST days, every zone file of the machine around its transitions since 1970
(a sample; all of them with --full), `right/` zones around leap seconds, POSIX TZ strings
(with and without rules), odd @EPOCH forms, fractional seconds, base times to 9999. Prints one
line per mismatch and a final "N passed, N failed" (nudgetest/checks.py); exits non-zero on any
mismatch.

usage: calendar-oracle.py NUDGE [--quick] [--full] [--zones Z1,Z2…] [--seed N] [--random N] [--jobs N]
(--zones: only the transition cases, of these zone files)
"""
import calendar, concurrent.futures, datetime, functools, os, random, struct, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nudgetest.checks import Checks  # noqa: E402  (needs the path above)

args = sys.argv[1:]
nudge = args[0]
quick = "--quick" in args
full = "--full" in args
seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
extra = int(args[args.index("--random") + 1]) if "--random" in args else (100 if quick else 400)
jobs = int(args[args.index("--jobs") + 1]) if "--jobs" in args else 4
only_zones = args[args.index("--zones") + 1].split(",") if "--zones" in args else None
rng = random.Random(seed)
ZONEINFO = "/usr/share/zoneinfo"


def tzif(path):
    """(transitions, leap second records) of a TZif file, from its 64-bit block."""
    data = open(path, "rb").read()
    if data[:4] != b"TZif":
        return [], []
    def counts(at):
        return struct.unpack(">6l", data[at + 20:at + 44])
    isut, isstd, leap, timecnt, typecnt, charcnt = counts(0)
    if data[4] < 0x32:
        return list(struct.unpack(f">{timecnt}l", data[44:44 + 4 * timecnt])), []
    at = 44 + timecnt * 5 + typecnt * 6 + charcnt + leap * 8 + isstd + isut
    isut, isstd, leap, timecnt, typecnt, charcnt = counts(at)
    p = at + 44
    transitions = list(struct.unpack(f">{timecnt}q", data[p:p + 8 * timecnt]))
    p += timecnt * 9 + typecnt * 6 + charcnt
    leaps = [struct.unpack(">ql", data[p + 12 * k:p + 12 * k + 12]) for k in range(leap)]
    return transitions, leaps


RIGHT_LEAPS = tzif(os.path.join(ZONEINFO, "right/UTC"))[1] if os.path.exists(os.path.join(ZONEINFO, "right/UTC")) else []


def leap_time(posix):
    """The time_t of a `right/` zone whose leap-aware gmtime shows `posix` (what glibc's
    gmtime prints under such a TZ)."""
    t = posix
    for _ in range(3):
        correction = 0
        for transition, change in RIGHT_LEAPS:
            if transition <= t:
                correction = change
        t = posix + correction
    return t


def zone_files():
    """Every zone file of the machine (no right/ or posix/ copies, no aliases to the same bytes)."""
    seen, names = set(), []
    for root, dirs, files in os.walk(ZONEINFO):
        rel = os.path.relpath(root, ZONEINFO)
        if rel.split(os.sep)[0] in ("right", "posix", "Etc") and rel != ".":
            dirs[:] = []
            continue
        for f in files:
            path = os.path.join(root, f)
            name = os.path.relpath(path, ZONEINFO)
            if "." in f or f in ("posixrules", "localtime", "Factory", "leapseconds", "tzdata.zi", "leap-seconds.list", "SECURITY"):
                continue
            try:
                data = open(path, "rb").read()
            except OSError:
                continue
            if data[:4] != b"TZif" or data in seen:
                continue
            seen.add(data)
            names.append(name)
    return sorted(names)


ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata",
         "Europe/London", "America/Sao_Paulo", "Pacific/Auckland", "Asia/Tokyo",
         "America/Los_Angeles", "Europe/Dublin", "Australia/Lord_Howe", "America/St_Johns",
         "Africa/Casablanca", "Asia/Tehran"]

FIXED = [
    "07:00", "21:30", "12:30", "12:15", "Mon..Fri 07:00", "Sat,Sun 09:00", "daily", "hourly",
    "minutely", "weekly", "monthly", "yearly", "annually", "quarterly", "semiannually",
    "*-*-* 02:30", "*-*-* 02:00", "*-*-* 01:30", "*-*-* 03:00", "*-*-* 00:00", "*-*-* 23:59:59",
    "*:0/15", "*:*:0/5", "*-*-* *:00/20:00", "*-*~1 18:00", "*-*~03 12:00", "*-02~1",
    "Mon,Wed *-*~03 12:00", "Fri *-*-13", "*-02-29 12:00", "*-02-30", "2024-*-* 07:00",
    "22-1-1", "69-12-31", "70-01-01", "2199-12-31 23:59:59", "Mon-Fri 08:00", "Tue..Thu,Sat 6:15",
    "*-1..3-1 0:0", "*-*-1/10 04:00", "1..5:00", "10:00..30/10", "*-*-* 02:30 UTC",
    "*-*-* 02:30 Europe/Berlin", "*-*-* 07:00 America/New_York", "Sat..Sun 9:00 Europe/London",
    "*-*-* 12:00 Asia/Kolkata", "@1700000000", "*-*-* *:*:30", "*-*-* 0/6:00", "*-12-25",
    # '@' read as strtoll reads it; fractional seconds (six digits, the seventh rounds)
    "@ 1700000000", "@+1700000000", "@-5", "@-0", "@ +5", "@+ 5", "@5 ", "@ 5 UTC",
    "*:*:0/0.5", "02:30:00.000000", "*:*:1.25", "*:*:0..10/2.5", "*:*:00.0000005",
    "*:*:1.1234567", "12:00:00.", "*:*:59.9999995", "*-*-* 07:00:30.75",
    "monday", "Sun 03:00", "*-*-* 2,14:30", "*-3,10-* 02:30", "*-*-* 02:30:15",
    # weekdays over day ranges: nudge jumps to the next matching weekday where systemd steps
    "Sat *-*-1..7 12:00 UTC", "Mon *-*-25..31 00:00", "Sun *-*-* 00:00", "Fri..Sat *-02-20..31 02:30",
    "Wed *-*-28..31,1..3 23:30", "Tue,Thu *-*~1..9 00:30", "Sun 2026-*-* 00:00 America/Santiago",
    # rejected by systemd
    "xx", "25:00", "12:60", "*-13-01", "*-*-32", "Mon..", "Mon,,Tue 07:00", "07", "7:0:0:0",
    "*-*~30", "12:00 Mars/Phobos", "Mon-Sun-Tue", "*:*:61", "12:00:00.5", "-1:00", "1969-12-31",
    "*-*-* 12:00 UTC UTC", "hourly daily", "", "*/5", "12:00/0", "0..23/25:00", "2200-01-01",
]

WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Monday", "friday", "SAT"]

def rand_component(lo, hi, width=2):
    k = rng.random()
    if k < 0.25:
        return "*"
    if k < 0.5:
        return str(rng.randint(lo, hi)).zfill(rng.choice([1, width]))
    if k < 0.65:
        a = rng.randint(lo, hi); b = rng.randint(a, hi)
        return f"{a}..{b}"
    if k < 0.8:
        a = rng.randint(lo, hi)
        return f"{a}/{rng.randint(1, max(1, hi - lo))}"
    if k < 0.9:
        return ",".join(str(rng.randint(lo, hi)) for _ in range(rng.randint(2, 3)))
    a = rng.randint(lo, hi); b = rng.randint(a, hi)
    return f"{a}..{b}/{rng.randint(1, 5)}"

def rand_expr():
    parts = []
    if rng.random() < 0.3:
        a, b = sorted(rng.sample(range(7), 2))
        days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        parts.append(rng.choice([days[a], f"{days[a]}..{days[b]}", f"{days[a]},{days[b]}"]))
    if rng.random() < 0.6:
        sep = "~" if rng.random() < 0.15 else "-"
        year = rng.choice(["*", "*", str(rng.randint(2025, 2030)), f"{rng.randint(25,27)}..{rng.randint(28,31)}"])
        parts.append(f"{year}-{rand_component(1, 12)}{sep}{rand_component(1, 28 if sep == '~' else 31)}")
    time = f"{rand_component(0, 23)}:{rand_component(0, 59)}"
    if rng.random() < 0.4:
        time += ":" + rand_component(0, 59)
    parts.append(time)
    if rng.random() < 0.15:
        parts.append(rng.choice(["UTC", "Europe/Berlin", "America/New_York", "Australia/Sydney"]))
    return " ".join(parts)

def dst_bases(zone, years):
    """Base times just before, inside and after each offset change (via python's zoneinfo)."""
    try:
        from zoneinfo import ZoneInfo
    except ImportError:
        return []
    tz = ZoneInfo(zone)
    bases = []
    for year in years:
        t = calendar.timegm((year, 1, 1, 0, 0, 0))
        end = calendar.timegm((year + 1, 1, 1, 0, 0, 0))
        prev = datetime.datetime.fromtimestamp(t, tz).utcoffset()
        while t < end:
            off = datetime.datetime.fromtimestamp(t, tz).utcoffset()
            if off != prev:
                # refine to the hour of the change, then bases around it
                for d in (-6 * 3600, -3 * 3600 - 1, -1800, -1, 0, 1799, 3600, 2 * 3600 + 1):
                    bases.append(t - 3 * 3600 + d)
                prev = off
            t += 3 * 3600
    return bases

def oracle(expr, tz, base, n):
    return oracle_many([expr], tz, base, n)[0]


def oracle_many(exprs, tz, base, n):
    """systemd-analyze calendar of several expressions in one process (one block each)."""
    env = dict(os.environ, TZ=tz, LC_ALL="C")
    r = subprocess.run(["systemd-analyze", "calendar", f"--base-time=@{base}", f"--iterations={n}", *exprs],
                       env=env, capture_output=True, text=True)
    if r.returncode != 0:
        return [(None, None)] * len(exprs) if len(exprs) == 1 else None
    # a block per expression, an empty line between them ("Original form:" only when it differs)
    blocks = r.stdout.strip("\n").split("\n\n") if len(exprs) > 1 else [r.stdout]
    if len(blocks) != len(exprs):
        return None
    return [parse_block(block, tz) for block in blocks]


def parse_block(text, tz):
    """The normalized form and elapses of one expression's block of systemd-analyze output.
    Each elapse is a local line ("Next elapse:", "Iter. #N:"), followed by its "(in UTC):" line
    unless glibc's `timezone` and `daylight` say UTC at that time (a zone whose rule has offset
    0, e.g. America/Danmarkshavn since 1996, Africa/Sao_Tome's GMT0): then the local one."""
    norm, times, pending = None, [], None
    # under a right/ TZ glibc's gmtime hides the leap seconds the time_t counts
    right = tz.lstrip(":").startswith("right/")

    def epoch(line, local):
        stamp = line.split(":", 1)[1].strip()  # "Mon 2026-03-30 00:30:00 UTC"
        day, clock, abbreviation = stamp.split()[1:4]
        y, mo, d = map(int, day.split("-"))
        h, mi, sec = map(int, clock.split(":"))
        posix = calendar.timegm((y, mo, d, h, mi, 0)) + sec
        if local and abbreviation not in ("UTC", "GMT"):
            posix = local_to_epoch(tz, y, mo, d, h, mi, sec, abbreviation)
        if right:  # a :60 second is the leap second right after :59
            posix = leap_time(posix - 1) + 1 if sec == 60 else leap_time(posix)
        return posix

    for line in text.splitlines():
        line = line.strip()
        if line.startswith("Normalized form:"):
            norm = line.split(":", 1)[1].strip()
        elif line.startswith("Next elapse: never"):
            pass
        elif line.startswith("Next elapse:") or line.startswith("Iter. #"):
            if pending:
                times.append(epoch(pending, True))
            pending = line
        elif line.startswith("(in UTC):") and pending:
            times.append(epoch(line, False))
            pending = None
    if pending:
        times.append(epoch(pending, True))
    return norm, times


def local_to_epoch(tz, y, mo, d, h, mi, sec, abbreviation):
    """The instant a zone shows as this wall-clock time with this abbreviation."""
    from zoneinfo import ZoneInfo
    zone = ZoneInfo(tz.lstrip(":"))
    for fold in (0, 1):
        local = datetime.datetime(y, mo, d, h, mi, min(sec, 59), tzinfo=zone, fold=fold)
        if local.tzname() == abbreviation:
            return int(local.timestamp()) + max(0, sec - 59)
    return int(datetime.datetime(y, mo, d, h, mi, min(sec, 59), tzinfo=zone).timestamp())


@functools.lru_cache(maxsize=None)
def our_normalized(expr, tz):
    env = dict(os.environ, TZ=tz)
    norm = subprocess.run([nudge, "schedule", "normalize", "--", expr], env=env, capture_output=True, text=True)
    return norm.stdout.strip()


def ours(expr, tz, base, n):
    return ours_many([expr], tz, base, n)[0]


def ours_many(exprs, tz, base, n):
    """nudge schedule preview of several expressions in one process (blocks split by a blank line)."""
    env = dict(os.environ, TZ=tz)
    r = subprocess.run([nudge, "schedule", "preview", "--from", f"@{base}", "--count", str(n), "--epoch", "--", *exprs],
                       env=env, capture_output=True, text=True)
    if len(exprs) > 1 and (r.returncode != 0 or r.stderr):
        return None  # refused, or one had no elapse (an empty block): the caller asks each alone
    if r.returncode == 65:
        return [(None, None)] * len(exprs)
    if r.returncode != 0:
        return [("error", r.stderr.strip())] * len(exprs)
    blocks = r.stdout.strip("\n").split("\n\n") if len(exprs) > 1 else [r.stdout]
    if len(blocks) != len(exprs):
        return None
    return [(our_normalized(e, tz), [int(x) for x in b.split()]) for e, b in zip(exprs, blocks)]


def transition_bases(zone, count=None):
    """Base times around a zone file's transitions since 1970 (all, or `count` at random)."""
    transitions = [t for t in tzif(os.path.join(ZONEINFO, zone))[0] if t >= 0]
    if count is not None and len(transitions) > count:
        transitions = rng.sample(transitions, count)
    bases = []
    for t in transitions:
        bases += [t - 3601, t - 1, t + 1]
    return bases


checks = Checks(quiet=True)  # one check per expression, zone and base time: a mismatch printed here
years = [2024, 2026, 2027, 2031] if quick else [2023, 2024, 2025, 2026, 2027, 2030, 2038, 2041]
zones = ZONES
exprs = FIXED + [rand_expr() for _ in range(extra)]
cases = []
for zone in zones:
    bases = dst_bases(zone, years)
    bases += [calendar.timegm((y, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))) for y in years]
    for expr in exprs:
        if quick:
            chosen = rng.sample(bases, min(1 if expr not in FIXED else 2, len(bases)))
        else:
            chosen = rng.sample(bases, min(4, len(bases)))
        for base in chosen:
            cases.append((expr, zone, base))
# the repeated and the skipped hour, every zone with DST, every expression that names 01-03 h
for zone in zones:
    for base in dst_bases(zone, years)[:16]:
        for expr in ["*-*-* 02:30", "*-*-* 01:30", "*-*-* 02:00", "*-*-* 03:00", "*:0/30", "*:*:0/20"]:
            cases.append((expr, zone, base))
# every zone file around its transitions since 1970: a sample, or all with --full
AROUND = ["*-*-* 02:30", "*:0/15", "*-*-* 00:00", "*-*~1 23:30"]
all_zones = zone_files()
sampled = all_zones if full else rng.sample(all_zones, 40 if quick else 120)
if only_zones:
    cases, sampled, full = [], only_zones, True
for zone in sampled:
    for base in transition_bases(zone, None if full else 3):
        # all of them: one systemd-analyze and one nudge for the four expressions
        cases.append((tuple(AROUND), zone, base) if full else (rng.choice(AROUND), zone, base))
# right/ zones, named as TZ and in the expression, around leap seconds and elsewhere
leap_days = [calendar.timegm((1972, 6, 30, 23, 59, 0)), calendar.timegm((2016, 12, 31, 23, 58, 0)),
             calendar.timegm((1998, 12, 31, 23, 0, 0)), calendar.timegm((2026, 3, 29, 0, 30, 0))]
for tz in [] if only_zones else ["right/UTC", "right/Europe/Berlin", ":right/America/New_York", "UTC", "Europe/Berlin"]:
    for expr in ["*:*:0/20", "*-*-* 23:59:59", "*-*-* 00:00", "*-*-* 02:30", "*-*-* 23:59:60",
                 "12:00 right/Europe/Berlin", "*:*:00 right/UTC", "*-*-* 07:00 right/America/New_York"]:
        for base in leap_days:
            cases.append((expr, tz, base))
# POSIX TZ strings: with rules, without (glibc borrows posixrules), odd forms
POSIX = ["AAA5BBB", "AAA5BBB,", "AAA-1BBB", "AAA3BBB2", "EST5EDT", "CET-1CEST,M3.5.0,M10.5.0/3",
         "<+03>-3", "IST-1GMT0,M10.5.0,M3.5.0/1", "AAA3BBB,J60/2,J300/2", "AAA3BBB,60/2,300/2",
         "XXX-10:30YYY-11,M10.1.0,M4.1.0/3", "UTC0", "AAA5BBB,M3.2.0/-1,M11.1.0/25", "<-0330>3:30"]
posix_bases = [calendar.timegm((y, m, 1, 0, 0, 0)) for y in (1975, 1987, 1990, 2006, 2026, 2040)
               for m in (3, 4, 10, 11)]
for tz in [] if only_zones else POSIX:
    for base in (posix_bases if not quick else rng.sample(posix_bases, 8)):
        for expr in ["*-*-* 01:30", "*-*-* 02:30", "*:0/30", "*-*-* 12:00"]:
            cases.append((expr, tz, base))
# rule-less strings far from New York's offsets: posixrules' transitions, moved (or not) as
# glibc moves them, can land many hours away from New York's: every half hour within 18 hours
# of each transition of a few years
RULELESS = ["AAA-10BBB", "<+03>-3<+04>", "AAA-10BBB-12", "<-02>2<-01>", "XXX3YYY"]
ruleless_bases = [t + k * 3 * 3600 for t in tzif(os.path.join(ZONEINFO, "posixrules"))[0]
                  if calendar.timegm((1990, 1, 1, 0, 0, 0)) <= t < calendar.timegm((1991, 1, 1, 0, 0, 0))
                  or calendar.timegm((2026, 1, 1, 0, 0, 0)) <= t < calendar.timegm((2027, 1, 1, 0, 0, 0))
                  for k in range(-6, 7)]
for tz in [] if only_zones else RULELESS:
    for base in (ruleless_bases if not quick else rng.sample(ruleless_bases, 12)):
        cases.append(("*:0/30", tz, base))
# years to 9999: the last base times systemd computes from and the first it cannot
for zone in [] if only_zones else ["UTC", "Europe/Berlin", "Pacific/Kiritimati"]:
    for base in (calendar.timegm((2199, 12, 31, 0, 0, 0)), calendar.timegm((5000, 6, 1, 0, 0, 0)),
                 253402214399, 253402214400, 253402300799):
        for expr in ["*-*-* 12:00", "minutely", "9999-12-31", "2199-12-31 23:00"]:
            cases.append((expr, zone, base))

n = 6


def compare(case):
    """A case (a tuple of expressions is asked of both in one process each): (case, want, got) per expression."""
    exprs, zone, base = case
    if isinstance(exprs, tuple):
        wants, gots = oracle_many(exprs, zone, base, n), ours_many(exprs, zone, base, n)
        # one expression refused or without an elapse makes the blocks unreliable: ask each alone
        if wants is not None and gots is not None:
            return [((e, zone, base), w, g) for e, w, g in zip(exprs, wants, gots)]
        return [((e, zone, base), oracle(e, zone, base, n), ours(e, zone, base, n)) for e in exprs]
    return [(case, oracle(exprs, zone, base, n), ours(exprs, zone, base, n))]


started = time.monotonic()
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    for results in pool.map(compare, cases):
        for (expr, zone, base), want, got in results:
            if not checks.check(f"TZ={zone} base=@{base} {expr!r}", want == got):
                print(f"MISMATCH TZ={zone} base=@{base} {expr!r}\n  systemd: {want}\n  nudge:   {got}")
sys.exit(checks.finish(f"{checks.total} cases: {len(sampled)} of {len(all_zones)} zone files"
                       f" around their transitions{', all' if full else ''}; "
                       f"{time.monotonic() - started:.0f} s, {jobs} jobs"))
