#!/usr/bin/env python3
"""Every command of `nudge`, fed odd arguments: it answers, it never crashes.

Discovers the command tree from the binary itself (`nudge --help`, then `nudge PATH --help` for
every SUBCOMMANDS entry, recursively, plus the FLOWS OF PLANS a plan adds, e.g. `sleep`), with
each command's positional arguments (ARGUMENTS), options (OPTIONS: `--name <value>` takes a
value, a bare `--name` is a flag), their `(values: …)` and a flow's question ids (QUESTIONS).
Then runs every command with generated odd values (dots, empty, huge and negative numbers,
Unicode, control characters, invalid UTF-8, 10,000 characters, odd `nudge://` links, `--`,
newlines, …): each value as each positional argument, as each option's value (and as the
value of each `KEY=` of `--item`/`--answer`), plus a few random multi-argument combinations,
all chosen deterministically from --seed.

Every run must exit 0, 1, 64, 65, 66, 69, 73 or 75 and write at most one line on stderr: never
a trap (132/134/139, a signal), never a stack on stderr, never a timeout. A command that its
help says runs until stopped (`daemon`) is given a few seconds, then SIGTERM: it must stop
cleanly then, and its stderr may hold its log lines.

Each run has a fresh copy of a seeded home (HOME, XDG_* dirs, NUDGE_DB in it, a prep, a review,
a craving note, habits, the sleep plan on, a planned pause), NUDGE_NOW fixed, TZ=Europe/Berlin,
stdin /dev/null, no DISPLAY/WAYLAND_DISPLAY/D-Bus, XDG_RUNTIME_DIR an empty private directory
(no systemd user manager), and terminal programs on PATH replaced by a canary that records
being started (a started terminal is a failure too).

    python3 scripts/e2e-odd-args.py PATH/TO/nudge [--seed N] [--quick] [--jobs N] [--keep]

Prints each failure (argv, exit code, stderr), then the distinct failures with their counts and
`N passed, F failed (R runs of M commands; …)`, each run a check (nudgetest/checks.py); exits 1
when any run failed. Standard library only (and scripts/nudgetest).
"""

import argparse
import collections
import concurrent.futures
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nudgetest.checks import Checks  # noqa: E402  (needs the path above)

NOW = "2026-12-10T09:00:00+01:00"  # a Thursday morning; NUDGE_NOW wants an offset (or @EPOCH)
TZ = "Europe/Berlin"
ALLOWED = {0, 1, 64, 65, 66, 69, 73, 75}
TIMEOUT = 20.0  # seconds for an ordinary run
FOREVER_GRACE = 3.0  # seconds a run-until-stopped command runs before SIGTERM
TERMINALS = ["fake-term", "x-terminal-emulator", "xterm", "gnome-terminal", "konsole",
             "xfce4-terminal", "alacritty", "kitty", "foot", "wezterm", "urxvt", "terminator",
             "lxterminal", "mate-terminal", "tilix", "st", "ptyxis", "kgx"]
# a log line of swift-log's stream handler: allowed on stderr of a run-until-stopped command
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\S+ (trace|debug|info|notice|warning|error|critical) ")

# ---------------------------------------------------------------------------------------------
# Odd values

LONG = "x" * 10_000
ODD_VALUES = [
    # dots: plan/habit slot names and paths
    "a.b", "walking.noon", "habit.h1", "walk.noon", ".", "..", "...", "../../x",
    # empty and whitespace
    "", " ", "   \t ", "\n", "a\nb", "line\r\nbreak",
    # numbers
    "0", "-0", "-1", "-3d", "1", "99999999999999999999", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "1e300", "nan", "inf", "0x10", "3.5", "1_000",
    # times and days
    "@-9223372036854775808", "@99999999999", "@", "25:00", "24:00", "23:60", "-1:00", "7:30 xm",
    "2026-02-30", "0000-01-01", "9999-12-31", "10000-01-01", "*:*:*", "Mon..Sun 99:99",
    # Unicode and control characters (no NUL: argv cannot carry one)
    "ünïcødé", "🔥💧🏃‍♀️", "\u200fright-to-left\u200e", "e\u0301\u0301\u0301\u0301",
    "\x1b[31mred\x1b[0m", "\x07\x08\x7f", "\u2028\u2029", "\ufeff", "\udcff\udcfe",  # bad UTF-8
    # length
    LONG,
    # nudge:// links
    "nudge://", "nudge:", "nudge://review", "NUDGE://REVIEW", "nudge://need-help?category=%00",
    "nudge://habit?name=" + "%ff" * 3, "nudge://review?day=..%2F..%2Fx",
    "nudge://need-help?category=stress&category=habit", "nudge://" + "a" * 5000,
    "nudge://celebrate?achievement=streak-100", "nudge://habit?name=read&value=-1",
    # the parser's own words and shell-ish text
    "--", "-", "-x", "--no-such-option", "=", "x=", "=yes", "'", '"', "\\", "%s%n%x",
    "$(touch pwned)", "`id`", "a;b|c&d",
]
# the few kept by --quick: one of each kind that has found bugs before, the rest drawn by seed
QUICK_CORE = ["", ".", "..", "habit.h1", "-1", "0", "99999999999999999999",
              "-9223372036854775808", "@-9223372036854775808", "25:00", "ünïcødé", "\n",
              "\udcff\udcfe", LONG, "nudge://", "--"]

# a value for a positional argument that is not the one being made odd, by its placeholder name
# (a value list in the help, when there is one, wins)
FILLERS = {"name": "read", "day": "yesterday", "expression": "9pm", "expressions": "9pm",
           "folder": "shared", "file": "export.json", "id": "1", "pause": "1"}


# ---------------------------------------------------------------------------------------------
# The command tree, from the help

class Command:
    def __init__(self, path, help_text):
        self.path = list(path)  # words after `nudge`
        self.help = help_text
        self.subcommands = []  # names
        self.positionals = []  # (name, values, variadic, optional)
        self.options = []  # (name, takes_value, values)
        self.keys = {}  # option -> keys for its KEY=VALUE form (--item water=…, --answer wake=…)
        self.forever = bool(re.search(r"until stopped|Stops on SIGTERM", help_text))

    @property
    def label(self):
        return " ".join(["nudge"] + self.path)


SECTION = re.compile(r"^([A-Z][A-Z ]*[A-Z])(?: \(.*\))?:")


def sections(text):
    """{SECTION NAME: [lines]} of a help text."""
    out, current = {}, None
    for line in text.splitlines():
        m = SECTION.match(line)
        if m:
            current = m.group(1)
            out.setdefault(current, [line[m.end():]])
        elif current:
            out[current].append(line)
    return out


def entries(lines):
    """Groups an indented section into entries: (first line, the whole entry's text)."""
    out = []
    for line in lines:
        # an entry starts at column 2 (a question: `  * id` or `    id`, its text under it)
        if re.match(r"^  ([^ ]|[* ] \w)", line) and not line.startswith("  See "):
            out.append([line, line])
        elif out and line.strip():
            out[-1][1] += " " + line.strip()
    return out


def values_of(text):
    m = re.search(r"\(values: ([^)]*)\)", text)
    return [v.strip() for v in m.group(1).split(",")] if m else []


def parse_help(path, text):
    cmd = Command(path, text)
    sec = sections(text)
    usage = " ".join(sec.get("USAGE", []))
    for key in ("SUBCOMMANDS", "FLOWS OF PLANS"):
        for first, _ in entries(sec.get(key, [])):
            m = re.match(r"^  ([a-z][\w-]*)(?: \(default\))?(?:\s{2,}|$)", first)
            if m:
                cmd.subcommands.append(m.group(1))
    for first, whole in entries(sec.get("ARGUMENTS", [])):
        m = re.match(r"^  <([\w-]+)>", first)
        if m:
            name = m.group(1)
            variadic = bool(re.search(rf"<{name}> \.\.\.", usage))
            optional = bool(re.search(rf"\[<{name}>", usage))
            cmd.positionals.append((name, values_of(whole), variadic, optional))
    for first, whole in entries(sec.get("OPTIONS", [])):
        m = re.match(r"^  (?:-\w, )?(--[\w-]+)(?: <([^>]+)>)?", first)
        if m:
            cmd.options.append((m.group(1), m.group(2) is not None, values_of(whole)))
            if m.group(2) and "=" in m.group(2):
                keys = sorted({v.split("=")[0] for v in values_of(whole) if "=" in v})
                cmd.keys[m.group(1)] = keys
    questions = [re.match(r"^  [* ] ([\w-]+)", f).group(1)
                 for f, _ in entries(sec.get("QUESTIONS", [])) if re.match(r"^  [* ] [\w-]+", f)]
    for option in cmd.keys:
        cmd.keys[option] = cmd.keys[option] or questions
    return cmd


def discover(nudge, env_for):
    """Walks the help tree breadth first. env_for() gives a fresh run environment."""
    tree, queue = [], [[]]
    while queue:
        path = queue.pop(0)
        r = run([nudge] + path + ["--help"], env_for(), TIMEOUT)
        if r.rc != 0 or "USAGE:" not in r.out:
            sys.exit(f"discovery: `{' '.join(['nudge'] + path)} --help` failed "
                     f"(exit {r.rc}): {r.err[:300]!r}")
        cmd = parse_help(path, r.out)
        tree.append(cmd)
        queue.extend(path + [s] for s in cmd.subcommands)
    # argument-parser's own `help` is not listed under SUBCOMMANDS: `nudge help WORDS…`
    r = run([nudge, "help", "help"], env_for(), TIMEOUT)
    if r.rc == 0 and "USAGE: nudge help" in r.out:
        tree.append(parse_help(["help"], r.out))
    return tree


# ---------------------------------------------------------------------------------------------
# Running nudge in a private world

class Result:
    def __init__(self, rc, out, err, seconds, note=""):
        self.rc, self.out, self.err, self.seconds, self.note = rc, out, err, seconds, note


def run(argv, env, timeout, cwd=None, forever=False):
    """Runs argv in its own process group. A run-until-stopped command gets SIGTERM after
    FOREVER_GRACE seconds and must then end within `timeout`; anything else gets `timeout`."""
    started = time.monotonic()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=cwd, start_new_session=True)
    note = ""
    try:
        out, err = proc.communicate(timeout=FOREVER_GRACE if forever else timeout)
    except subprocess.TimeoutExpired:
        if forever:
            os.killpg(proc.pid, signal.SIGTERM)
            note = "sigterm"
            try:
                out, err = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                note = "timeout"
        else:
            note = "timeout"
        if note == "timeout":
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
    finally:
        try:  # whatever it started (a daemon's reminders) goes too
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return Result(proc.returncode, out.decode("utf-8", "replace"),
                  err.decode("utf-8", "replace"), time.monotonic() - started, note)


class Worlds:
    """A seeded template home, copied for every run."""

    def __init__(self, nudge, root):
        self.nudge, self.root = nudge, root
        self.bin = os.path.join(root, "bin")
        self.template = os.path.join(root, "template")
        os.makedirs(self.bin)
        for name in TERMINALS:  # a terminal that starts leaves a mark and does nothing else
            path = os.path.join(self.bin, name)
            with open(path, "w") as f:
                f.write('#!/bin/sh\necho "$0 $*" >> "${NUDGE_ODD_CANARY:-/dev/null}"\n')
            os.chmod(path, 0o755)
        self.counter = 0
        self.lock = threading.Lock()

    def env(self, home):
        env = {
            "PATH": f"{self.bin}:/usr/local/bin:/usr/bin:/bin",
            "HOME": home,
            "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
            "XDG_CONFIG_HOME": os.path.join(home, ".config"),
            "XDG_CACHE_HOME": os.path.join(home, ".cache"),
            "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
            "XDG_RUNTIME_DIR": os.path.join(home, "run"),  # empty: no user manager, no bus
            "NUDGE_DB": os.path.join(home, ".local", "share", "nudge", "nudge.sqlite3"),
            "NUDGE_NOW": NOW,
            "NUDGE_SEED": "7",
            "NUDGE_ODD_CANARY": os.path.join(home, "terminal-started"),
            "TERMINAL": "fake-term",
            "TZ": TZ,
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
            "TERM": "dumb",
        }
        return env

    def make_home(self, home):
        for d in (".local/share/nudge", ".config", "run", "work/cwd"):
            os.makedirs(os.path.join(home, d), exist_ok=True)
        os.chmod(os.path.join(home, "run"), 0o700)

    def seed(self):
        """The template: real commands, so the database has entries, habits and a pause."""
        home = self.template
        self.make_home(home)
        env = self.env(home)
        cwd = os.path.join(home, "work", "cwd")
        steps = [
            ["config", "set", "terminal", "fake-term -e"],
            ["prep", "--item", "water=yes", "--item", "produce=no", "--other", "oats",
             "--no-input", "--no-animation", "--day", "yesterday"],
            ["prep", "--item", "water=yes", "--item", "breakfast=yes", "--no-input",
             "--no-animation"],
            ["review", "--why", "health", "--challenge", "sugary-drinks", "--swap", "tea",
             "--commit-to", "drink tea", "--commit-from", "soda", "--no-input", "--no-animation"],
            ["need-help", "--category", "habit", "--note", "chips", "--no-input",
             "--no-animation"],
            ["habit", "add", "read", "--target", "20", "--unit", "pages", "--at", "9pm"],
            ["habit", "add", "walk", "--every", "weekdays"],
            ["habit", "done", "read", "--value", "5", "--no-animation"],
            ["habit", "skip", "walk"],
            ["plan", "on", "sleep"],
            ["sleep", "--answer", "bedtime=23:00", "--answer", "wake=07:00", "--answer",
             "rested=3", "--no-input", "--no-animation"],
            ["pause", "add", "--from", "2026-12-20", "--for", "3d"],
            ["export", "-o", "export.json"],
        ]
        for step in steps:
            r = run([self.nudge] + step, env, TIMEOUT, cwd=cwd)
            if r.rc != 0:
                sys.exit(f"seeding: `nudge {' '.join(step)}` exited {r.rc}: {r.err.strip()[:300]}")

    def fresh(self):
        """A new private home, a copy of the template; returns (home, env, cwd)."""
        with self.lock:
            self.counter += 1
            n = self.counter
        home = os.path.join(self.root, f"run-{n}")
        shutil.copytree(self.template, home, symlinks=True)
        return home, self.env(home), os.path.join(home, "work", "cwd")


# ---------------------------------------------------------------------------------------------
# What to run

def filler(positional):
    name, values, _, _ = positional
    return values[0] if values else FILLERS.get(name, "x")


def required_fillers(cmd):
    """Values for the required positionals, so an option reaches the command's own checks."""
    return [filler(p) for p in cmd.positionals if not p[3]]


def plan_runs(cmd, odd, rng, combos):
    """The argv lists (after `nudge`) to try for one command."""
    runs = []
    # each odd value as each positional (as the only one when the command takes none)
    slots = cmd.positionals or [("-", [], False, True)]
    for i in range(len(slots)):
        before = [filler(p) for p in slots[:i]]
        runs += [cmd.path + before + [v] for v in odd]
    base = cmd.path + required_fillers(cmd)
    for name, takes_value, _ in cmd.options:
        if name in ("--help", "--version"):
            continue
        if not takes_value:  # a flag given a value it does not take
            runs.append(base + [name, rng.choice(odd)])
            continue
        runs += [base + [name, v] for v in odd]
        runs.append(base + [name])  # its value missing
        for key in cmd.keys.get(name, []):  # a third of the values each, drawn by seed
            runs += [base + [name, f"{key}={v}"] for v in rng.sample(odd, max(8, len(odd) // 3))]
    # random combinations: odd values, the command's options, words from its help
    words = [s for s in cmd.subcommands] + [w for p in cmd.positionals for w in p[1]]
    words += [w for o in cmd.options for w in o[2]] + ["yesterday", "prep", "review", "help"]
    for _ in range(combos):
        argv = list(base if rng.random() < 0.7 else cmd.path)
        for _ in range(rng.randint(1, 5)):
            kind = rng.random()
            if kind < 0.4 or not cmd.options:
                argv.append(rng.choice(odd) if kind < 0.3 or not words else rng.choice(words))
            else:
                name, takes_value, values = rng.choice(cmd.options)
                if name in ("--help", "--version"):
                    continue
                value = rng.choice(odd + values)
                if takes_value and name in cmd.keys and cmd.keys[name]:
                    value = f"{rng.choice(cmd.keys[name])}={value}"
                if takes_value and rng.random() < 0.3:
                    argv.append(f"{name}={value}")
                else:
                    argv += [name, value] if takes_value else [name]
        runs.append(argv)
    # one of each, in a stable order
    seen, unique = set(), []
    for argv in runs:
        key = tuple(argv)
        if key not in seen:
            seen.add(key)
            unique.append(argv)
    return unique


# ---------------------------------------------------------------------------------------------
# Checking one run

def stderr_lines(err):
    return err.rstrip("\n").split("\n") if err.strip() else []


def problems(cmd, r, home):
    """What is wrong with one run (empty when nothing)."""
    found = []
    lines = stderr_lines(r.err)
    if r.note == "timeout":
        found.append(f"timeout ({TIMEOUT:.0f} s" + (" after SIGTERM)" if cmd.forever else ")"))
    elif r.rc < 0 and not (r.note == "sigterm" and r.rc == -signal.SIGTERM):
        found.append(f"killed by signal {-r.rc}")
    elif r.rc not in ALLOWED:
        found.append(f"exit {r.rc}")
    if cmd.forever:  # its log, and a line for each reminder it could not post, are on
        # stderr (one per slot that fired: as many as fired in its seconds): only a trap's
        # stack is wrong
        lines = [l for l in lines if not LOG_LINE.match(l) and not l.startswith("nudge: ")]
    if len(lines) > 1:
        found.append(f"{len(lines)} lines on stderr")
    if os.path.exists(os.path.join(home, "terminal-started")):
        with open(os.path.join(home, "terminal-started")) as f:
            found.append("a terminal was started: " + f.read().strip()[:100])
    return found


def short(text, limit):
    return text if len(text) <= limit else text[:limit] + f"…({len(text)} chars)"


def show_argv(argv):
    return short(" ".join(repr(a) if (not a or re.search(r"[^\w./:@=+,-]", a)) else a
                          for a in ["nudge"] + argv), 240)


def signature(cmd, r, found):
    """Groups failures with one cause: the command, the kind, stderr's first line with the
    argument echoed in it blurred."""
    first = stderr_lines(r.err)[0] if r.err.strip() else ""
    first = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", first)
    first = re.sub(r"\d+", "N", first)[:120]
    kinds = ", ".join(re.sub(r"\d+ lines", "N lines", f.split(":")[0]) for f in found)
    return (cmd.label, kinds, first)


# ---------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("nudge", help="the nudge binary to test")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="fewer values and combinations")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 2))
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = ap.parse_args()
    nudge = os.path.abspath(args.nudge)
    rng = random.Random(args.seed)
    started = time.monotonic()

    if args.quick:
        odd = QUICK_CORE + rng.sample([v for v in ODD_VALUES if v not in QUICK_CORE], 4)
        combos = 4
    else:
        odd, combos = ODD_VALUES, 12

    root = tempfile.mkdtemp(prefix="nudge-odd-args-")
    worlds = Worlds(nudge, root)
    worlds.seed()

    def env_for():
        home, env, _ = worlds.fresh()
        return env

    tree = discover(nudge, env_for)
    names = [c.label for c in tree]
    print(f"discovered {len(tree)} commands: " + ", ".join(n[6:] or "(root)" for n in names))
    assert len(tree) >= 30, f"only {len(tree)} commands found in the help: is its parsing broken?"
    for must in (["prep"], ["habit", "add"], ["schedule", "set"], ["daemon"]):
        assert any(c.path == must for c in tree), f"`nudge {' '.join(must)}` not discovered"
    forever = [c.label for c in tree if c.forever]
    if forever:
        print(f"run until stopped (SIGTERM after {FOREVER_GRACE:.0f} s is expected, "
              f"log lines allowed on stderr): {', '.join(forever)}")

    work = []
    for cmd in tree:
        crng = random.Random(f"{args.seed}:{cmd.label}")
        work += [(cmd, argv) for argv in plan_runs(cmd, odd, crng, combos)]
    rng.shuffle(work)  # the slow ones spread over the workers
    print(f"{len(work)} runs planned with {len(odd)} odd values, {args.jobs} at a time", flush=True)

    checks = Checks(quiet=True)  # a run is a check; its failure is printed below, by group
    groups = collections.OrderedDict()
    codes = collections.Counter()
    slowest = []
    lock = threading.Lock()

    def one(item):
        cmd, argv = item
        home, env, cwd = worlds.fresh()
        try:
            r = run([nudge] + argv, env, TIMEOUT, cwd=cwd, forever=cmd.forever)
            found = problems(cmd, r, home)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        with lock:
            codes[f"{r.rc}{' (' + r.note + ')' if r.note else ''}"] += 1
            slowest.append((r.seconds, show_argv(argv)))
            if not checks.check(show_argv(argv), not found, "; ".join(found)):
                sig = signature(cmd, r, found)
                groups.setdefault(sig, []).append(argv)
                if len(groups[sig]) <= 3:  # the rest of a group only counted
                    err = "\n      ".join(short(l, 200) for l in stderr_lines(r.err)[:6])
                    print(f"FAIL {show_argv(argv)}\n  exit {r.rc}{' (' + r.note + ')' if r.note else ''}"
                          f" — {'; '.join(found)}\n      {err}", flush=True)
            if checks.total % 2000 == 0:
                print(f"... {checks.total}/{len(work)} runs, {checks.failed} failures, "
                      f"{time.monotonic() - started:.0f} s", flush=True)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(one, work))

    elapsed = time.monotonic() - started
    if groups:
        print(f"\n{len(groups)} distinct failures:")
        for (label, kinds, first), argvs in groups.items():
            print(f"  {len(argvs):5d}× {label}: {kinds}: {first!r}\n"
                  f"         e.g. {show_argv(argvs[0])}")
    print("exit codes: " + ", ".join(f"{c}×{n}" for c, n in codes.most_common()))
    slowest.sort(reverse=True)
    print("slowest runs: " + "; ".join(f"{s:.1f} s {a[:80]}" for s, a in slowest[:5]))
    if args.keep:
        print(f"scratch kept: {root}")
    else:
        shutil.rmtree(root, ignore_errors=True)
    sys.exit(checks.finish(f"{len(work)} runs of {len(tree)} commands; {elapsed:.0f} s, "
                           f"seed {args.seed}{', quick' if args.quick else ''}"))


if __name__ == "__main__":
    main()
