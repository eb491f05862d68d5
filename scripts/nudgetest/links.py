"""Hostile links and the terminal launch: generated links refused, no shell in the exec chain."""

import concurrent.futures
import datetime as dt
import json
import os
import random
import re
import signal
import subprocess
import time

from .processes import kill_marked
from .world import Case, World, sha256, one_line_error, iso


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
            case.check(f"{link[:60]!r}: exit {code} {err!r}", ok)
    after = snapshot(world.dir)
    changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
    case.check(f"files changed or created: {changed[:5]}", not changed)
    case.check("a command ran or a terminal started",
               not os.path.exists(pwned) and not os.path.exists(launched))
    kinds = sum(1 for l in links if any(ord(c) < 32 or ord(c) > 126 for c in l))
    case.note = (f"{len(links)} distinct links, {kinds} with control/non-ASCII characters, "
                 f"longest {max(len(l) for l in links)} chars")
    return case


SHELLS = {"sh", "bash", "dash", "zsh", "fish", "ksh", "csh", "tcsh", "busybox"}
MARK = "NUDGETEST_CASE"  # in the environment of what a case starts (see processes.marked)


def case_no_shell(suite):
    """`nudge open LINK` off a terminal starts a real terminal (xterm on Xvfb) with no shell
    anywhere in the process tree and the link as exactly one argv item."""
    case = Case("terminal launch traced (strace -f -e execve)")
    world = World(suite, "strace")
    world.env["DISPLAY"] = suite.display
    # inherited by the detached xterm and the nudge in it: found and ended by it below
    world.env[MARK] = world.dir
    world.run("config", "set", "terminal", "xterm -e")
    binary = os.path.realpath(suite.nudge)

    def role(path):
        """`nudge` for the binary under test whatever it is called (strace starts the path it
        was given, xterm is handed /proc/self/exe's target), else the program's name."""
        return "nudge" if os.path.realpath(path) == binary else os.path.basename(path)

    links = ["nudge://need-help?category=stress", "nudge://review", "nudge://celebrate?achievement=first-prep"]
    for link in links:
        trace = os.path.join(world.dir, "trace.txt")
        quoted = json.dumps(link)

        def chain():
            """(programs exec'd, the paths of those whose argv ends with the link as one item)
            so far."""
            seen = open(trace).read() if os.path.exists(trace) else ""
            calls = re.findall(r'execve\("([^"]+)", \[(.*?)\]', seen)
            programs = [os.path.basename(p) for p, _ in calls]
            carried = [p for p, argv in calls
                       if argv.endswith(f'"open", {quoted}')
                       or argv.endswith(f'"open", "--hold", {quoted}')]
            return programs, carried

        proc = subprocess.Popen(
            ["strace", "-f", "-qq", "-s", "4096", "-e", "trace=execve", "-o", trace,
             suite.nudge, "open", link], env=world.env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        try:
            # xterm runs `nudge open LINK` in its terminal, where the flow waits for answers.
            # Under load xterm can take many seconds to reach the X server and start its child,
            # so wait for the whole chain (not a count of execve lines) with a deadline far
            # beyond that.
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and len(chain()[1]) < 3:
                time.sleep(0.1)
            time.sleep(0.5)
        finally:
            # strace and nudge; the xterm nudge started in a session of its own, and the nudge
            # in it, die with strace (their tracer) or else by the mark in their environment
            os.killpg(proc.pid, signal.SIGKILL)
            kill_marked(MARK, world.dir)
            proc.wait(timeout=10)
        programs, carried = chain()
        shells = [p for p in programs if p in SHELLS]
        # the link is the last argv item of nudge, of xterm, and of the nudge xterm starts
        case.check(f"{link}: programs {programs}, shells {shells}, link carried by "
                   f"{[os.path.basename(p) for p in carried]} (nudge is {binary})",
                   not shells and [role(p) for p in carried] == ["nudge", "xterm", "nudge"])
    case.note = "exec chain: " + " -> ".join(programs)
    return case
