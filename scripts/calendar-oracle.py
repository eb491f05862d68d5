#!/usr/bin/env python3
"""Compares `nudge schedule normalize/preview` with `systemd-analyze calendar`, the oracle.

Generates calendar expressions x time zones x base times (DST change days of several years
included) and checks that the normalized form and every next elapse agree exactly, and that
what systemd rejects nudge rejects (exit 65). Prints one line per mismatch and a final
"N passed, N failed"; exits non-zero on any mismatch.

usage: calendar-oracle.py NUDGE [--quick] [--seed N] [--random N]
"""
import calendar, datetime, os, random, subprocess, sys

args = sys.argv[1:]
nudge = args[0]
quick = "--quick" in args
seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
extra = int(args[args.index("--random") + 1]) if "--random" in args else (100 if quick else 400)
rng = random.Random(seed)

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
    env = dict(os.environ, TZ=tz, LC_ALL="C")
    r = subprocess.run(["systemd-analyze", "calendar", f"--base-time=@{base}", f"--iterations={n}", expr],
                       env=env, capture_output=True, text=True)
    if r.returncode != 0:
        return None, None
    norm, times = None, []
    in_utc = "(in UTC):" in r.stdout
    for line in r.stdout.splitlines():
        line = line.strip()
        if line.startswith("Normalized form:"):
            norm = line.split(":", 1)[1].strip()
        elif line.startswith("Next elapse: never"):
            pass
        elif line.startswith("(in UTC):") or (not in_utc and (line.startswith("Next elapse:") or line.startswith("Iter. #"))):
            stamp = line.split(":", 1)[1].strip()  # "Mon 2026-03-30 00:30:00 UTC"
            dt = datetime.datetime.strptime(stamp, "%a %Y-%m-%d %H:%M:%S UTC")
            times.append(calendar.timegm(dt.timetuple()))
    return norm, times

def ours(expr, tz, base, n):
    env = dict(os.environ, TZ=tz)
    r = subprocess.run([nudge, "schedule", "preview", "--from", f"@{base}", "--count", str(n), "--epoch", "--", expr],
                       env=env, capture_output=True, text=True)
    if r.returncode == 65:
        return None, None
    if r.returncode != 0:
        return "error", r.stderr.strip()
    norm = subprocess.run([nudge, "schedule", "normalize", "--", expr], env=env, capture_output=True, text=True)
    return norm.stdout.strip(), [int(x) for x in r.stdout.split()]

passed = failed = 0
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

# the last base times systemd can compute from (9999-12-30 23:59:59 UTC) and the first it
# cannot
for zone in ["UTC", "Europe/Berlin", "Pacific/Kiritimati"]:
    for base in (253402214399, 253402214400, 253402300799):
        for expr in ["*-*-* 12:00", "minutely", "9999-12-31"]:
            cases.append((expr, zone, base))

n = 6
for expr, zone, base in cases:
    want = oracle(expr, zone, base, n)
    got = ours(expr, zone, base, n)
    if want == got:
        passed += 1
    else:
        failed += 1
        print(f"MISMATCH TZ={zone} base=@{base} {expr!r}\n  systemd: {want}\n  nudge:   {got}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
