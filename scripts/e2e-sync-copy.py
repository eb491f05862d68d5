#!/usr/bin/env python3
"""`nudge sync` end to end, with the real binary and real databases: simulated devices, each
with its own database and its OWN copy of the shared folder, and this script copying the device
files between the copies the way a file-sync tool does (a temporary file renamed over the old
one, the modification time kept), including the copies a tool makes badly: cut in the middle of
a line, a byte changed, the same file twice, hostile files.

    scripts/e2e-sync-copy.py [PATH-TO-NUDGE]      (default: $NUDGE_BIN or .build/debug/nudge)

One line per check ("ok - ..." / "FAIL - ..."), then "N passed, N failed" (nudgetest/checks.py);
exits 1 when a check failed. KEEP=1 keeps the scratch folder. Standard library only (and
scripts/nudgetest); runs as any user.
"""

import datetime as dt
import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from nudgetest.checks import Checks  # noqa: E402  (needs the path above)

BIN = os.path.abspath(
    sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NUDGE_BIN", ".build/debug/nudge"))
SCRATCH = tempfile.mkdtemp(prefix="nudge-e2e-sync-")
MAX_RSS_KB = 100 * 1024

checks = Checks()
check = checks.check  # check(NAME, OK, DETAIL=""): one check's line, counted


def short(text, limit=600):
    text = text if isinstance(text, str) else repr(text)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


# ---------------------------------------------------------------------------------------------
# The wire format, to craft lines as another device (or an attacker) would write them

def framed(obj):
    """`CRC32HEX8 JSON\\n` with zlib's CRC-32 of the JSON bytes."""
    body = json.dumps(obj, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
    return b"%08x " % (zlib.crc32(body) & 0xFFFFFFFF) + body + b"\n"


def header_line(device, name, generation=0):
    return framed({"device": device, "generation": generation, "name": name, "nudge_sync": 1})


def change_line(wall, counter, device, key, value=None, seen=None):
    obj = {"c": f"{wall:013d}-{counter:05d}-{device}", "k": key}
    if value is not None:
        obj["v"] = value
    if seen:
        obj["s"] = seen
    return framed(obj)


def millis(iso):
    return int(dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


def lines_of(data):
    """A file's bytes as (offset, line with its newline) pairs; a last unfinished piece too."""
    out, at = [], 0
    while at < len(data):
        end = data.find(b"\n", at)
        end = len(data) if end < 0 else end + 1
        out.append((at, data[at:end]))
        at = end
    return out


# ---------------------------------------------------------------------------------------------
# Running nudge

class Result:
    def __init__(self, args, rc, out, err, rss_kb, seconds):
        self.args, self.rc, self.out, self.err = args, rc, out, err
        self.rss_kb, self.seconds = rss_kb, seconds

    @property
    def err_lines(self):
        return [line for line in self.err.splitlines() if line.strip()]

    def json(self):
        return json.loads(self.out)

    def __repr__(self):
        return (f"nudge {' '.join(self.args)} -> rc={self.rc} out={short(self.out, 300)!r} "
                f"err={short(self.err, 400)!r}")


def run_nudge(args, env, timeout=120):
    """Runs nudge to its end, with its own peak memory (wait4's rusage of this one child)."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([BIN] + list(args), stdin=subprocess.DEVNULL, stdout=out,
                                stderr=err, env=env, start_new_session=True)
        timer = threading.Timer(timeout, lambda: os.killpg(proc.pid, signal.SIGKILL))
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Result(list(args), proc.returncode, out.read().decode("utf-8", "replace"),
                      err.read().decode("utf-8", "replace"), usage.ru_maxrss,
                      time.monotonic() - started)


class Device:
    """One simulated computer: its own home, database, time zone and copy of the folder."""

    def __init__(self, test, name, tz="UTC"):
        self.name, self.tz = name, tz
        self.home = os.path.join(SCRATCH, f"{test}-{name}")
        os.makedirs(self.home)
        self.folder = os.path.join(self.home, "Sync")
        os.mkdir(self.folder)
        os.chmod(self.folder, 0o700)
        self.db = os.path.join(self.home, "nudge.sqlite3")
        self.id = None
        run_dir = os.path.join(self.home, "run")
        os.mkdir(run_dir)
        os.chmod(run_dir, 0o700)
        self.base_env = {
            "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "HOME": self.home,
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
            "XDG_STATE_HOME": os.path.join(self.home, ".local", "state"),
            "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
            "XDG_RUNTIME_DIR": run_dir,
            "NUDGE_DB": self.db,
            "NO_COLOR": "1",
            "TERM": "dumb",
        }

    def run(self, *args, now, tz=None, timeout=120):
        env = dict(self.base_env, NUDGE_NOW=now, TZ=tz or self.tz)
        return run_nudge(args, env, timeout)

    def must(self, *args, now, tz=None):
        """Runs a command that has to succeed (setup, not a check of its own)."""
        result = self.run(*args, now=now, tz=tz)
        if result.rc != 0:
            raise RuntimeError(f"{self.name}: {result!r}")
        return result

    def join(self, now):
        self.must("sync", "init", self.folder, "--name", self.name, now=now)
        self.id = self.must("sync", "status", "--json", now=now).json()["device"]["id"]
        return self

    def log(self):
        return os.path.join(self.folder, f"nudge-{self.id}.log")

    def snapshot(self):
        return os.path.join(self.folder, f"nudge-{self.id}.snapshot")

    def status(self, now):
        return self.must("sync", "status", "--json", now=now).json()

    def day(self, day, now):
        return self.must("show", day, "--json", now=now).json()

    def export(self, now):
        data = self.must("export", now=now).json()
        data.pop("settings", None)  # this computer's own (the terminal), never travels
        return data


def place(dst_folder, name, data, mtime=None):
    """Writes a file into a folder copy as a file-sync tool does: a temporary file, renamed."""
    tmp = os.path.join(dst_folder, f".syncthing.{name}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    if mtime is not None:
        os.utime(tmp, (mtime, mtime))
    os.replace(tmp, os.path.join(dst_folder, name))


def copy_files(src, dst):
    """Carries src's own device files (the newest of them: src writes them) to dst's copy."""
    carried = []
    for name in sorted(os.listdir(src.folder)):
        if not re.fullmatch(rf"nudge-{src.id}\.(log|snapshot)", name):
            continue
        path = os.path.join(src.folder, name)
        with open(path, "rb") as f:
            data = f.read()
        place(dst.folder, name, data, os.stat(path).st_mtime)
        carried.append(name)
    return carried


def exchange(a, b):
    """Both directions, as a file-sync tool would, before either runs nudge."""
    copy_files(a, b)
    copy_files(b, a)


def review_of(day_json):
    review = day_json.get("review")
    return None if review is None else {k: v for k, v in review.items() if k != "saved_at"}


# ---------------------------------------------------------------------------------------------
# The checks

def test_converge():
    """1. Flows on both devices while apart, files copied both ways: the same entries, streak
    and achievements on both."""
    a = Device("t1", "laptop").join("2026-11-18T20:00:00Z")
    b = Device("t1", "desktop").join("2026-11-18T20:00:30Z")
    a.must("prep", "--item", "sticky-notes=yes", "--item", "water=yes", "--no-input",
           "--no-animation", now="2026-11-19T21:00:00Z")
    a.must("review", "--why", "energy", "--swap", "fruit", "--commit-to", "eat fruit",
           "--no-input", "--no-animation", now="2026-11-20T07:00:00Z")
    a.must("checkin", "--followed", "yes", "--feel", "good", "--no-input", "--no-animation",
           now="2026-11-20T21:00:00Z")
    b.must("review", "--why", "sleep", "--challenge", "late-night-snacking", "--commit-to",
           "tea at 9", "--no-input", "--no-animation", now="2026-11-21T07:00:00Z")
    b.must("need-help", "--category", "habit", "--note", "chips at 4pm", "--no-input",
           "--no-animation", now="2026-11-21T16:00:00Z")
    b.must("checkin", "--followed", "no", "--blocker", "party", "--no-input", "--no-animation",
           now="2026-11-21T21:00:00Z")
    b.must("review", "--why", "sleep", "--commit-to", "walk", "--no-input", "--no-animation",
           now="2026-11-22T07:00:00Z")
    exchange(a, b)
    now = "2026-11-22T12:00:00Z"
    ra = a.run("sync", now=now)
    rb = b.run("sync", now=now)
    check("1. sync on each device exits 0 with nothing on stderr",
          ra.rc == 0 and rb.rc == 0 and not ra.err and not rb.err, f"{ra!r}; {rb!r}")
    check("1. each says what arrived from the other by name",
          "From desktop: 4 changes." in ra.out and "From laptop: 3 changes." in rb.out,
          f"{ra!r}; {rb!r}")
    ha = a.must("history", "--json", "--days", "14", now=now).json()
    hb = b.must("history", "--json", "--days", "14", now=now).json()
    days = {d["date"]: d for d in ha}
    check("1. laptop holds the desktop's entries (review, help note, check-in of 2026-11-21)",
          (days["2026-11-21"]["review"] or {}).get("why") == "sleep"
          and len(days["2026-11-21"]["help"]) == 1
          and days["2026-11-21"]["checkin"] is not None
          and (days["2026-11-22"]["review"] or {}).get("commit_to") == "walk",
          short(json.dumps(days.get("2026-11-21"))))
    check("1. history --json is the same on both", ha == hb,
          f"laptop {short(json.dumps(ha))} desktop {short(json.dumps(hb))}")
    ea, eb = a.export(now), b.export(now)
    check("1. export (minus this computer's settings) is the same on both", ea == eb,
          f"{short(json.dumps(ea))} vs {short(json.dumps(eb))}")
    sa = a.must("streak", "--json", now=now).json()
    sb = b.must("streak", "--json", now=now).json()
    check("1. streak --json is the same on both", sa == sb and sa["current"] >= 3,
          f"{sa} vs {sb}")
    aa = a.must("achievements", "--json", now=now).json()
    ab = b.must("achievements", "--json", now=now).json()
    earned = sorted(x["key"] for x in aa if x["earned_on"])
    check("1. achievements --json are the same on both (first prep, review, check-in, help)",
          aa == ab and {"first-prep", "first-review", "first-checkin", "first-help"} <= set(earned),
          f"{earned} vs {sorted(x['key'] for x in ab if x['earned_on'])}")
    # and nothing bounces back: another round has nothing new
    exchange(a, b)
    ra = a.run("sync", now="2026-11-22T12:05:00Z")
    rb = b.run("sync", now="2026-11-22T12:05:00Z")
    check("1. a second round after converging: 'Nothing new.' on both",
          ra.out.strip() == "Nothing new." and rb.out.strip() == "Nothing new.",
          f"{ra!r}; {rb!r}")


def test_partial_then_complete():
    """2. A's log cut in the middle of its second change line; 3. the same file twice."""
    a = Device("t2", "A").join("2026-11-25T06:00:00Z")
    b = Device("t2", "B").join("2026-11-25T06:00:10Z")
    a.must("review", "--why", "v1", "--commit-to", "c1", "--no-input", "--no-animation",
           now="2026-11-25T07:00:00Z")
    a.must("edit", "2026-11-25", "review", "--why", "v2", "--no-input", "--no-animation",
           now="2026-11-25T07:10:00Z")
    a.must("edit", "2026-11-25", "review", "--why", "v3", "--commit-to", "c3", "--no-input",
           "--no-animation", now="2026-11-25T07:20:00Z")
    with open(a.log(), "rb") as f:
        full = f.read()
    pieces = lines_of(full)
    check("2. A's log holds a header and 3 change lines of the same entry",
          len(pieces) == 4 and all(b'"k":"entry/2026-11-25/review"' in p for _, p in pieces[1:]),
          short(full.decode()))
    if len(pieces) != 4:
        return
    cut = pieces[2][0] + len(pieces[2][1]) // 2
    name = os.path.basename(a.log())
    place(b.folder, name, full[:cut])
    r = b.run("sync", now="2026-11-25T08:00:00Z")
    check("2. partial copy: exit 0, no error on stderr", r.rc == 0 and r.err == "", repr(r))
    check("2. partial copy: B takes line 1 ('From A: 1 change.')", "From A: 1 change." in r.out,
          repr(r))
    check("2. partial copy: B holds A's first value",
          review_of(b.day("2026-11-25", "2026-11-25T08:00:00Z")) == {"why": "v1",
                                                                      "commit_to": "c1",
                                                                      "day": "2026-11-25"},
          short(json.dumps(b.day("2026-11-25", "2026-11-25T08:00:00Z"))))
    check("2. partial copy: B says the unfinished line waits (nothing lost), on stdout",
          re.search(r"not finished|waits|taken once", r.out) is not None, repr(r))
    r = b.run("history", now="2026-11-25T08:01:00Z")
    check("2. a command run while the copy is unfinished: exit 0, quiet on stderr",
          r.rc == 0 and r.err == "", repr(r))
    place(b.folder, name, full)
    r = b.run("sync", now="2026-11-25T08:05:00Z")
    check("2. full copy: B takes the other 2 changes, exit 0, nothing on stderr",
          r.rc == 0 and r.err == "" and "From A: 2 changes." in r.out, repr(r))
    got = review_of(b.day("2026-11-25", "2026-11-25T08:05:00Z"))
    check("2. full copy: B ends with A's last value (v3/c3)",
          got == {"why": "v3", "commit_to": "c3", "day": "2026-11-25"}, str(got))
    check("2. A and B agree on the day",
          b.day("2026-11-25", "2026-11-25T08:05:00Z")
          == a.day("2026-11-25", "2026-11-25T08:05:00Z"))

    # 3. the same file copied again (a new inode, as a rename makes), then in place
    before = b.export("2026-11-25T08:10:00Z")
    place(b.folder, name, full, os.stat(a.log()).st_mtime)
    r1 = b.run("sync", now="2026-11-25T08:10:00Z")
    r2 = b.run("sync", now="2026-11-25T08:11:00Z")
    check("3. same file copied again: 'Nothing new.', exit 0",
          r1.rc == 0 and r1.out.strip() == "Nothing new." and r1.err == "", repr(r1))
    check("3. nudge sync run twice: 'Nothing new.' the second time",
          r2.rc == 0 and r2.out.strip() == "Nothing new." and r2.err == "", repr(r2))
    with open(os.path.join(b.folder, name), "wb") as f:  # in place: same inode, new time
        f.write(full)
    r3 = b.run("sync", now="2026-11-25T08:12:00Z")
    check("3. same file rewritten in place (same inode, new time): 'Nothing new.'",
          r3.rc == 0 and r3.out.strip() == "Nothing new." and r3.err == "", repr(r3))
    check("3. B's data unchanged by the repeated copies",
          b.export("2026-11-25T08:12:00Z") == before)
    copy_files(b, a)
    copy_files(b, a)
    a.run("sync", now="2026-11-25T08:13:00Z")
    r = a.run("sync", now="2026-11-25T08:14:00Z")
    check("3. A after B's file twice and sync twice: 'Nothing new.'",
          r.rc == 0 and r.out.strip() == "Nothing new.", repr(r))


def test_checksum_and_truncated():
    """4. A copy with one byte changed in one line and its last line cut."""
    a = Device("t4", "A").join("2026-11-22T06:00:00Z")
    b = Device("t4", "B").join("2026-11-22T06:00:10Z")
    for day, why in [("23", "w23"), ("24", "w24"), ("25", "w25"), ("26", "w26")]:
        a.must("review", "--why", why, "--commit-to", "c" + day, "--no-input", "--no-animation",
               now=f"2026-11-{day}T07:00:00Z")
    with open(a.log(), "rb") as f:
        full = f.read()
    pieces = lines_of(full)
    if not check("4. A's log holds a header and 4 change lines", len(pieces) == 5,
                 short(full.decode())):
        return
    bad_at, bad_line = pieces[2]
    corrupted = bytearray(full)
    where = bad_at + bad_line.index(b'"w24"') + 2
    corrupted[where] = ord("X")  # "w24" -> "wX4"
    cut = pieces[4][0] + len(pieces[4][1]) - 20
    name = os.path.basename(a.log())
    place(b.folder, name, bytes(corrupted[:cut]))
    r = b.run("sync", now="2026-11-26T08:00:00Z")
    check("4. exit code 0 with a bad line and an unfinished one", r.rc == 0, repr(r))
    expected = f"nudge: sync: {name}, line at byte {bad_at}: its checksum fails; skipped."
    check("4. exactly one stderr line, naming the file, the line's byte and the reason",
          r.err_lines == [expected], f"expected [{expected!r}], {r!r}")
    check("4. the other complete lines merge ('From A: 2 changes.')",
          "From A: 2 changes." in r.out, repr(r))
    now = "2026-11-26T08:00:00Z"
    got = {d: (review_of(b.day(f"2026-11-{d}", now)) or {}).get("why")
           for d in ("23", "24", "25", "26")}
    check("4. B holds 23 and 25, not the bad line's 24 nor the unfinished 26",
          got == {"23": "w23", "24": None, "25": "w25", "26": None}, str(got))
    # the copy completes (the tool's next pass carries the file as A wrote it)
    place(b.folder, name, full)
    r = b.run("sync", now="2026-11-26T08:05:00Z")
    check("4. completed copy: the finished line is taken, exit 0, nothing on stderr",
          r.rc == 0 and r.err == "" and "From A: 1 change." in r.out, repr(r))
    got = (review_of(b.day("2026-11-26", "2026-11-26T08:05:00Z")) or {}).get("why")
    check("4. completed copy: B holds 26", got == "w26", str(got))
    r = b.run("sync", now="2026-11-26T08:06:00Z")
    check("4. the skipped line is said once (the next sync is quiet)",
          r.rc == 0 and r.err == "", repr(r))
    recovered = (review_of(b.day("2026-11-24", "2026-11-26T08:06:00Z")) or {}).get("why")
    print(f"# note: after the intact copy arrived, the line once skipped for its checksum is "
          f"{'taken' if recovered == 'w24' else 'NOT taken (B lacks 2026-11-24 until a snapshot)'}",
          flush=True)


HOSTILE = {n: f"badc0ffee000000{n}" for n in range(1, 10)}


def test_hostile_folder():
    """5. A hostile folder: refused lines and files, each said once, nothing here changed."""
    b = Device("t5", "B")
    b.must("config", "set", "terminal", "xterm -e", now="2026-11-24T20:00:00Z")
    b.must("prep", "--item", "produce=yes", "--no-input", "--no-animation",
           now="2026-11-24T21:00:00Z")
    b.join("2026-11-24T21:01:00Z")
    b.must("review", "--why", "mine", "--commit-to", "stay", "--no-input", "--no-animation",
           now="2026-11-25T07:00:00Z")
    now = "2026-11-25T09:00:00Z"
    before_export = b.export(now)
    before_history = b.must("history", "--json", "--days", "30", now=now).json()
    now_ms = millis(now)
    pwned = os.path.join(SCRATCH, "t5-PWNED")
    review = {"answers": {"why": "attacker", "commit_to": "obey"},
              "saved_at": "2026-11-20T07:00:00+00:00"}
    expect = []  # (file, reason) per stderr line

    # 1: hostile lines in a well-formed file
    h1 = HOSTILE[1]
    lines = [header_line(h1, "Hostile")]
    future = change_line(now_ms + 86_400_000, 0, h1, "entry/2026-11-20/review", review)
    before2000 = change_line(millis("1999-06-01T00:00:00Z"), 0, h1, "entry/2026-11-20/review",
                             review)
    unknown = change_line(now_ms - 1000, 0, h1, "widget/x", {"value": "x"})
    terminal = change_line(now_ms - 900, 0, h1, "setting/terminal",
                           {"value": f"sh -c 'touch {pwned}'"})
    claim = change_line(now_ms - 800, 0, b.id, "entry/2026-11-20/review", review)
    for line, reason in [(future, "it is dated in the future"),
                         (before2000, "it is dated before 2000"),
                         (unknown, "unknown kind 'widget'"),
                         (terminal, "the setting 'terminal' does not travel"),
                         (claim, "it claims to be another device's change")]:
        expect.append((f"nudge-{h1}.log, line at byte {sum(map(len, lines))}: ", reason))
        lines.append(line)
    place(b.folder, f"nudge-{h1}.log", b"".join(lines))

    # 2: a file whose header claims this device's id, holding a change that would apply
    h2 = HOSTILE[2]
    place(b.folder, f"nudge-{h2}.log",
          header_line(b.id, "B") + change_line(now_ms - 500, 0, b.id, "entry/2026-11-20/review",
                                               review))
    expect.append((f"nudge-{h2}.log says it is device {b.id}'s", ""))

    # 3: a sparse 3 GB file
    h3 = HOSTILE[3]
    big = os.path.join(b.folder, f"nudge-{h3}.log")
    subprocess.run(["truncate", "-s", "3G", big], check=True)
    expect.append((f"nudge-{h3}.log is 3072 MiB", "skipped"))

    # 4: garbage under a device file's name (log and snapshot)
    rng = random.Random(4)
    h4 = HOSTILE[4]
    for ext in ("log", "snapshot"):
        garbage = bytes(rng.randrange(256) for _ in range(5000)).replace(b"\n", b"") + b"\n"
        place(b.folder, f"nudge-{h4}.{ext}", garbage)
        expect.append((f"nudge-{h4}.{ext}: ", "skipped"))

    # 9: one line of 8 MiB (longer than a line may be)
    h9 = HOSTILE[9]
    head = header_line(h9, "Long")
    place(b.folder, f"nudge-{h9}.log", head + b"0" * (8 << 20) + b"\n")
    expect.append((f"nudge-{h9}.log, line at byte {len(head)}: ", "longer than"))

    # ignored: names that are not a device file's, a symlink, a directory, a FIFO — each
    # holding (or pointing at) a change that would show if it were read
    def tempting(device):
        return header_line(device, "Sneaky") + change_line(now_ms - 100, 0, device,
                                                           "entry/2026-11-20/review", review)
    h5 = HOSTILE[5]
    for odd in ["notes.txt", "nudge-XYZ.log", f"nudge-{h5.upper()}.log", f"nudge-{h5}.log.tmp",
                f".nudge-{h5}.log", f"nudge-{h5}5.log", f"nudge-{h5[:-1]}.log",
                f"nudge-{h5}.snap", f"nudge-{h5}.LOG", f"Nudge-{h5}.log"]:
        place(b.folder, odd, tempting(h5))
    with open(os.path.join(b.folder, "random.bin"), "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(100_000)))
    h6 = HOSTILE[6]
    outside = os.path.join(SCRATCH, "t5-outside.log")
    with open(outside, "wb") as f:
        f.write(tempting(h6))
    os.symlink(outside, os.path.join(b.folder, f"nudge-{h6}.log"))
    os.symlink(outside, os.path.join(b.folder, f"nudge-{h6}.snapshot"))
    os.mkdir(os.path.join(b.folder, f"nudge-{HOSTILE[7]}.log"))
    os.mkfifo(os.path.join(b.folder, f"nudge-{HOSTILE[8]}.log"))
    # named as a device's file but none: never opened, said once (issue 56: it was silent)
    expect.append((f"nudge-{h6}.log is a symbolic link", "not read"))
    expect.append((f"nudge-{h6}.snapshot is a symbolic link", "not read"))
    expect.append((f"nudge-{HOSTILE[7]}.log is a directory", "not read"))
    expect.append((f"nudge-{HOSTILE[8]}.log is a FIFO", "not read"))

    r = b.run("sync", now=now, timeout=60)
    check("5. sync over the hostile folder exits 0", r.rc == 0, repr(r))
    check(f"5. one stderr line per refused line or file ({len(expect)})",
          len(r.err_lines) == len(expect), "\n    " + "\n    ".join(r.err_lines))
    for where, reason in expect:
        hit = [line for line in r.err_lines
               if line.startswith("nudge: sync: " + where) and reason in line]
        check(f"5. said once: {where}... {reason}".rstrip(". "), len(hit) == 1,
              f"stderr: {r.err_lines}")
    mentioned = [line for line in r.err_lines
                 if any(h in line for h in (h5, "XYZ", "notes", "random", h5.upper()))]
    check("5. names that are no device file's are ignored (never mentioned)",
          mentioned == [], str(mentioned))
    check("5. the symlinks, the directory and the FIFO were never read (nothing arrived)",
          "From " not in r.out, repr(r))
    check("5. nothing arrived from the hostile folder ('Nothing new.')",
          "From " not in r.out, repr(r))
    check(f"5. the 3 GB file is skipped quickly (whole sync {r.seconds:.2f}s < 5s)",
          r.seconds < 5, f"{r.seconds:.2f}s")
    check(f"5. memory stays small (max RSS {r.rss_kb // 1024} MiB < 100 MiB)",
          0 < r.rss_kb < MAX_RSS_KB, f"{r.rss_kb} KiB")
    terminal_now = b.must("config", "get", "terminal", now=now).out.strip()
    check("5. the terminal setting is unchanged", terminal_now == "xterm -e", terminal_now)
    check("5. no command named in the folder ran", not os.path.exists(pwned))
    check("5. the entries are intact (export and history --json as before)",
          b.export(now) == before_export
          and b.must("history", "--json", "--days", "30", now=now).json() == before_history)
    r2 = b.run("sync", now="2026-11-25T09:05:00Z", timeout=60)
    check("5. the next sync says nothing again (each refusal said once)",
          r2.rc == 0 and r2.err == "" and r2.out.strip() == "Nothing new.", repr(r2))
    r3 = b.run("doctor", now="2026-11-25T09:06:00Z", timeout=60)
    check("5. doctor still runs over the hostile folder (no crash, no hang)",
          r3.rc >= 0 and r3.rc != 134 and r3.rc != 139, repr(r3))
    os.unlink(big)


def test_forged_values():
    """5c. Values forged in a hostile device's file that an import refuses (issue 56): a
    saved_at of the least 64-bit number (it once crashed every command with SIGILL), an escape
    character, 5,000 characters, a saved_at days before its day, a help note of another day, a
    pause in year 0, a slot every microsecond, a flow no plan here defines. Each is refused and
    said once, nothing arrives, every command still runs, and the export imports into a new
    computer."""
    b = Device("t5c", "B")
    b.must("prep", "--item", "produce=yes", "--no-input", "--no-animation",
           now="2026-11-24T21:00:00Z")
    b.join("2026-11-24T21:01:00Z")
    b.must("review", "--why", "mine", "--commit-to", "stay", "--no-input", "--no-animation",
           now="2026-11-25T07:00:00Z")
    now = "2026-11-25T09:00:00Z"
    now_ms = millis(now)
    before_history = b.must("history", "--json", "--days", "30", now=now).json()
    before_schedule = b.must("schedule", "--json", now=now).json()
    before_export = b.export(now)

    def crashed(r):
        return r.rc < 0 or r.rc in (132, 134, 139)

    # 1: a saved_at of -2^63 seconds (@-9223372036854775808), in a well-formed file
    h1 = HOSTILE[1]
    head1 = header_line(h1, "Forger")
    least = change_line(now_ms - 60_000, 0, h1, "entry/2026-11-20/review",
                        {"answers": {"why": "x", "commit_to": "y"},
                         "saved_at": "@-9223372036854775808"})
    place(b.folder, f"nudge-{h1}.log", head1 + least)
    least_at = f"nudge: sync: nudge-{h1}.log, line at byte {len(head1)}: "

    # 2: one line each of the values an import refuses and sync used to take
    h2 = HOSTILE[2]
    forged = [
        ("an answer with an escape character", "entry/2026-11-20/review",
         {"answers": {"why": "a\u001b[2Jb", "commit_to": "y"},
          "saved_at": "2026-11-20T07:00:00+01:00"}, "control character"),
        ("a 5,000-character answer", "entry/2026-11-20/review",
         {"answers": {"why": "w" * 5000, "commit_to": "y"},
          "saved_at": "2026-11-20T07:00:00+01:00"}, "longer than"),
        ("a saved_at 6 days before its entry's day", "entry/2026-11-20/review",
         {"answers": {"why": "x", "commit_to": "y"}, "saved_at": "2026-11-14T07:00:00+01:00"},
         "comes before the entry's day"),
        ("a help note whose day is not its time's day", "entry/2026-11-18/need-help/n1",
         {"answers": {"category": "stress"}, "saved_at": "2026-11-20T10:00:00+01:00"},
         "does not match its time"),
        ("a pause of year 0", "pause/0000-01-01", {"last_day": "0000-01-02"},
         "outside the days Nudge keeps"),
        ("a slot every microsecond", "slot/morning",
         {"expression": "*-*-* 00:00:00/0.000001", "enabled": True}, "no reminder time"),
        ("an entry of a flow no plan defines (waits)", "entry/2026-11-20/walk",
         {"answers": {"minutes": "34"}, "saved_at": "2026-11-20T07:00:00+01:00"},
         "a flow no plan here defines"),
    ]
    data = header_line(h2, "Forger 2")
    expect = [("the saved_at @-9223372036854775808", least_at, "saved_at is not a time")]
    for i, (what, key, value, reason) in enumerate(forged):
        expect.append((what, f"nudge: sync: nudge-{h2}.log, line at byte {len(data)}: ", reason))
        data += change_line(now_ms - 50_000 + i * 1000, 0, h2, key, value)
    place(b.folder, f"nudge-{h2}.log", data)

    r = b.run("sync", now=now, timeout=60)
    check("5c. sync over forged values exits 0 (no crash)", r.rc == 0, repr(r))
    check(f"5c. one stderr line per forged value ({len(expect)})",
          len(r.err_lines) == len(expect), "\n    " + "\n    ".join(r.err_lines))
    for what, where, reason in expect:
        hit = [line for line in r.err_lines if line.startswith(where)]
        check(f"5c. refused and said once: {what}" + (f" ('{reason}')" if reason else ""),
              len(hit) == 1 and reason in hit[0], f"want {where!r}...{reason!r}; {r.err_lines}")
    check("5c. nothing arrived from the forged files", "From " not in r.out, repr(r))

    r = b.run("sync", now="2026-11-25T09:04:00Z", timeout=60)
    check("5c. the next sync says nothing again (each refusal said once)",
          r.rc == 0 and r.err == "" and r.out.strip() == "Nothing new.", repr(r))
    for args, must_be_0 in [((), True), (("sync",), True), (("sync", "status"), True),
                            (("export",), True), (("doctor",), False),
                            (("habit", "list"), True), (("history", "--json"), True)]:
        r = b.run(*args, now="2026-11-25T09:05:00Z", timeout=60)
        name = " ".join(("nudge",) + args)
        if must_be_0:
            check(f"5c. after the forged saved_at: {name} exits 0", r.rc == 0, repr(r))
        else:
            check(f"5c. after the forged saved_at: {name} runs (no crash)", not crashed(r),
                  repr(r))

    check("5c. history --json as before",
          b.must("history", "--json", "--days", "30", now=now).json() == before_history)
    check("5c. schedule --json as before (no slot every microsecond)",
          b.must("schedule", "--json", now=now).json() == before_schedule)
    check("5c. export as before (no pause of year 0, no forged entry)",
          b.export(now) == before_export)

    # the round trip: what this computer exports, a new computer imports
    path = os.path.join(b.home, "export.json")
    r = b.run("export", "-o", path, now=now)
    check("5c. nudge export -o FILE exits 0", r.rc == 0 and os.path.exists(path), repr(r))
    c = Device("t5c", "C")
    r = c.run("import", path, now="2026-11-25T09:10:00Z")
    check("5c. the export imports into a new computer (exit 0)", r.rc == 0, repr(r))


def test_forged_own_files():
    """5d. Joining again trusts no forged own file (issue 56): after 'sync leave', a
    nudge-<own id>.snapshot someone else put in the folder — mode 0644, or even 0600 — that
    turns the evening reminder off and adds an entry is not taken in by 'sync init', and
    says so; what the computer made itself still comes back."""
    b = Device("t5d", "B")
    b.join("2026-11-24T21:00:00Z")
    b.must("prep", "--item", "produce=yes", "--no-input", "--no-animation",
           now="2026-11-24T21:05:00Z")
    b.must("sync", now="2026-11-24T21:06:00Z")
    b.must("sync", "leave", now="2026-11-24T21:10:00Z")
    before_schedule = b.must("schedule", "--json", now="2026-11-24T21:11:00Z").json()
    before_history = b.must("history", "--json", "--days", "30", now="2026-11-24T21:11:00Z").json()
    now_ms = millis("2026-11-24T21:00:00Z")
    review = {"answers": {"why": "forged", "commit_to": "obey"},
              "saved_at": "2026-11-23T07:00:00+00:00"}
    forged = (header_line(b.id, "B", 7)
              + change_line(now_ms - 5000, 0, b.id, "slot/evening",
                            {"expression": "*-*-* 21:30:00", "enabled": False})
              + change_line(now_ms - 4000, 0, b.id, "entry/2026-11-23/review", review))
    for mode, said in [(0o644, "not its file"), (0o600, "hold what this database does not")]:
        place(b.folder, os.path.basename(b.snapshot()), forged)
        os.chmod(b.snapshot(), mode)
        r = b.run("sync", "init", b.folder, "--name", "B", now="2026-11-24T21:20:00Z")
        check(f"5d. sync init over a forged own snapshot (mode {mode:o}) exits 0", r.rc == 0,
              repr(r))
        check(f"5d. it says the forged own snapshot (mode {mode:o}) was not taken: '{said}'",
              said in r.err and "not taken" in r.err, repr(r))
        sched = b.must("schedule", "--json", now="2026-11-24T21:21:00Z").json()
        evening = [row for row in sched if row["slot"] == "evening"]
        check(f"5d. the evening reminder is still on (mode {mode:o})",
              evening and evening[0]["enabled"] is True and sched == before_schedule, str(sched))
        hist = b.must("history", "--json", "--days", "30", now="2026-11-24T21:21:00Z").json()
        check(f"5d. no forged entry was added (mode {mode:o})", hist == before_history,
              str(hist)[:300])
        with open(b.snapshot(), "rb") as f:
            snap = f.read()
        check(f"5d. the forged own snapshot is written anew from B's database (mode {mode:o})",
              b"forged" not in snap and b'"enabled":false' not in snap
              and os.stat(b.snapshot()).st_mode & 0o777 == 0o600, str(snap[:300]))
        # another computer reading B's files sees none of the forged values either
        c = Device("t5d", f"C{mode:o}")
        c.join("2026-11-24T21:23:00Z")
        copy_files(b, c)
        c.must("sync", now="2026-11-24T21:24:00Z")
        c_hist = json.dumps(c.must("history", "--json", "--days", "30",
                                   now="2026-11-24T21:24:00Z").json())
        c_sched = c.must("schedule", "--json", now="2026-11-24T21:24:00Z").json()
        check(f"5d. a second computer sees none of the forged values (mode {mode:o})",
              "forged" not in c_hist
              and [r["enabled"] for r in c_sched if r["slot"] == "evening"] == [True],
              c_hist[:300])
        b.must("sync", "leave", now="2026-11-24T21:22:00Z")


def test_own_log_replaced():
    """5b. This device's own log replaced by a symlink (file-sync tools carry symlinks): nothing
    is written through it, and what is made meanwhile waits and is written once the file is
    back, even when changes arrive meanwhile."""
    a = Device("t5b", "A").join("2026-11-25T06:00:00Z")
    b = Device("t5b", "B").join("2026-11-25T06:00:10Z")
    elsewhere = os.path.join(SCRATCH, "t5b-elsewhere")
    os.rename(b.log(), b.log() + ".kept")
    os.symlink(elsewhere, b.log())
    r = b.run("review", "--why", "B local", "--commit-to", "x", "--no-input", "--no-animation",
              now="2026-11-25T07:00:00Z")
    check("5b. a flow saves while B's own log is a symlink (exit 0)", r.rc == 0, repr(r))
    check("5b. nothing is written through the symlink", not os.path.exists(elsewhere))
    check("5b. B's change waits (pending 1)", b.status("2026-11-25T07:01:00Z")["pending"] == 1)
    a.must("review", "--why", "A", "--commit-to", "y", "--no-input", "--no-animation",
           "--day", "2026-11-24", now="2026-11-25T07:02:00Z")
    copy_files(a, b)
    r = b.run("sync", now="2026-11-25T07:05:00Z")
    check("5b. sync says in one 'nudge: sync:' line that B's log can't be written",
          r.rc != 0 and len(r.err_lines) == 1 and r.err.startswith("nudge: sync:")
          and os.path.basename(b.log()) in r.err, repr(r))
    check("5b. A's change is taken in meanwhile",
          (review_of(b.day("2026-11-24", "2026-11-25T07:05:00Z")) or {}).get("why") == "A")
    check("5b. B's own change still waits after changes arrived (pending 1)",
          b.status("2026-11-25T07:06:00Z")["pending"] == 1,
          f"pending {b.status('2026-11-25T07:06:00Z')['pending']}")
    os.unlink(b.log())
    os.rename(b.log() + ".kept", b.log())
    r = b.run("sync", now="2026-11-25T07:10:00Z")
    with open(b.log(), "rb") as f:
        wrote = f.read()
    check("5b. once B's log is a file again, B's change is written to it",
          r.rc == 0 and b"B local" in wrote, f"{r!r}; log: {short(wrote.decode())}")
    copy_files(b, a)
    a.run("sync", now="2026-11-25T07:15:00Z")
    got = (review_of(a.day("2026-11-25", "2026-11-25T07:15:00Z")) or {}).get("why")
    check("5b. and A receives it", got == "B local", str(got))


def test_open_folder():
    """6. A folder others can write is refused with what to do; the today view still works."""
    a = Device("t6", "A").join("2026-11-25T06:00:00Z")
    b = Device("t6", "B").join("2026-11-25T06:00:10Z")
    a.must("review", "--why", "x", "--commit-to", "y", "--no-input", "--no-animation",
           now="2026-11-25T07:00:00Z")
    copy_files(a, b)
    os.chmod(b.folder, 0o777)
    r = b.run("sync", now="2026-11-25T08:00:00Z")
    check("6. sync exits non-zero when others can write the folder", r.rc != 0, repr(r))
    check("6. with one line on stderr saying what to do (chmod go-w)",
          len(r.err_lines) == 1 and "chmod go-w" in r.err and b.folder in r.err, repr(r))
    r = b.run(now="2026-11-25T08:01:00Z")
    check("6. 'nudge' (the today view) still works: exit 0, quiet on stderr",
          r.rc == 0 and r.err == "", repr(r))
    r = b.run("review", "--why", "made while refused", "--commit-to", "z", "--no-input",
              "--no-animation", "--day", "2026-11-24", now="2026-11-25T08:02:00Z")
    check("6. a flow saves while the folder is refused (exit 0)", r.rc == 0, repr(r))
    got = (review_of(b.day("2026-11-25", "2026-11-25T08:02:00Z")) or {}).get("why")
    check("6. nothing was taken in from the refused folder", got is None, str(got))
    check("6. the change made meanwhile waits (sync status: pending 1)",
          b.status("2026-11-25T08:03:00Z")["pending"] == 1)
    os.chmod(b.folder, 0o700)
    r = b.run("sync", now="2026-11-25T08:05:00Z")
    check("6. after chmod go-w: sync exits 0 and takes in A's change",
          r.rc == 0 and "From A: 1 change." in r.out, repr(r))
    with open(b.log(), "rb") as f:
        wrote = f.read()
    check("6. the change that waited is written to B's log",
          b"made while refused" in wrote and b.status("2026-11-25T08:06:00Z")["pending"] == 0,
          short(wrote.decode()))


def test_conflict():
    """7. The same day's review on both while apart; B's (later) wins; take A's instead."""
    a = Device("t7", "A").join("2026-11-24T20:00:00Z")
    b = Device("t7", "B").join("2026-11-24T20:00:10Z")
    a.must("review", "--why", "A-why", "--commit-to", "A-commit", "--no-input", "--no-animation",
           now="2026-11-25T07:00:00Z")
    b.must("review", "--why", "B-why", "--commit-to", "B-commit", "--no-input", "--no-animation",
           now="2026-11-25T08:00:00Z")
    exchange(a, b)
    now = "2026-11-25T09:00:00Z"
    ra, rb = a.run("sync", now=now), b.run("sync", now=now)
    check("7. both syncs exit 0 and say a conflict was kept",
          ra.rc == 0 and rb.rc == 0 and "1 conflict kept" in ra.out and "1 conflict kept" in rb.out,
          f"{ra!r}; {rb!r}")
    want_b = {"why": "B-why", "commit_to": "B-commit", "day": "2026-11-25"}
    want_a = {"why": "A-why", "commit_to": "A-commit", "day": "2026-11-25"}
    check("7. both show B's (later) answers",
          review_of(a.day("2026-11-25", now)) == want_b
          and review_of(b.day("2026-11-25", now)) == want_b,
          f"A: {review_of(a.day('2026-11-25', now))} B: {review_of(b.day('2026-11-25', now))}")
    for dev in (a, b):
        conflicts = dev.status(now)["conflicts"]
        ok = (len(conflicts) == 1
              and conflicts[0]["key"] == "entry/2026-11-25/review"
              and conflicts[0]["kept"]["answers"] == {"why": "A-why", "commit_to": "A-commit"}
              and conflicts[0]["kept_from"] == "A" and conflicts[0]["won_from"] == "B")
        check(f"7. sync status --json on {dev.name} lists one conflict holding A's answers", ok,
              json.dumps(conflicts))
    cid = a.status(now)["conflicts"][0]["id"] if a.status(now)["conflicts"] else 1
    r = a.run("sync", "take", str(cid), now="2026-11-25T09:30:00Z")
    check("7. 'nudge sync take ID' on A exits 0", r.rc == 0, repr(r))
    check("7. A shows its own answers after take",
          review_of(a.day("2026-11-25", "2026-11-25T09:30:00Z")) == want_a,
          str(review_of(a.day("2026-11-25", "2026-11-25T09:30:00Z"))))
    exchange(a, b)
    now = "2026-11-25T09:40:00Z"
    rb = b.run("sync", now=now)
    ra = a.run("sync", now=now)
    check("7. after the next copy B shows A's answers",
          rb.rc == 0 and review_of(b.day("2026-11-25", now)) == want_a,
          f"{rb!r} {review_of(b.day('2026-11-25', now))}")
    check("7. and A still does", review_of(a.day("2026-11-25", now)) == want_a)
    check("7. the conflict is gone on both",
          a.status(now)["conflicts"] == [] and b.status(now)["conflicts"] == [],
          f"A {a.status(now)['conflicts']} B {b.status(now)['conflicts']}")
    exchange(a, b)
    ra, rb = a.run("sync", now="2026-11-25T09:50:00Z"), b.run("sync", now="2026-11-25T09:50:00Z")
    check("7. another round settles nothing new (no conflict comes back)",
          "conflict" not in ra.out + rb.out and a.status(now)["conflicts"] == []
          and b.status(now)["conflicts"] == [], f"{ra!r}; {rb!r}")


def test_delete_undo():
    """8. A delete and an undo travel."""
    a = Device("t8", "A").join("2026-11-25T06:00:00Z")
    b = Device("t8", "B").join("2026-11-25T06:00:10Z")
    a.must("review", "--why", "keep", "--commit-to", "me", "--no-input", "--no-animation",
           now="2026-11-25T07:00:00Z")
    copy_files(a, b)
    b.run("sync", now="2026-11-25T07:30:00Z")
    want = {"why": "keep", "commit_to": "me", "day": "2026-11-25"}
    check("8. B has A's review", review_of(b.day("2026-11-25", "2026-11-25T07:30:00Z")) == want)
    r = a.run("delete", "2026-11-25", "review", "--yes", now="2026-11-25T10:00:00Z")
    check("8. delete on A exits 0", r.rc == 0, repr(r))
    copy_files(a, b)
    r = b.run("sync", now="2026-11-25T10:10:00Z")
    check("8. the delete travels: gone on B",
          r.rc == 0 and "From A: 1 change." in r.out
          and b.day("2026-11-25", "2026-11-25T10:10:00Z")["review"] is None, repr(r))
    r = a.run("undo", now="2026-11-25T10:20:00Z")
    check("8. undo on A exits 0", r.rc == 0, repr(r))
    copy_files(a, b)
    r = b.run("sync", now="2026-11-25T10:30:00Z")
    got = review_of(b.day("2026-11-25", "2026-11-25T10:30:00Z"))
    check("8. the undo travels: back on B with its answers", r.rc == 0 and got == want,
          f"{r!r} {got}")
    check("8. no conflict on B", b.status("2026-11-25T10:30:00Z")["conflicts"] == [])
    sa = a.must("streak", "--json", now="2026-11-25T10:30:00Z").json()
    sb = b.must("streak", "--json", now="2026-11-25T10:30:00Z").json()
    check("8. same streak on both after delete and undo", sa == sb, f"{sa} vs {sb}")
    # a reminder time and a habit's day, each undone on A: one journal, the same travel
    a.must("schedule", "set", "evening", "20:15", now="2026-11-25T11:00:00Z")
    a.must("habit", "add", "Floss", now="2026-11-25T11:01:00Z")
    a.must("habit", "done", "floss", now="2026-11-25T11:02:00Z")
    copy_files(a, b)
    b.run("sync", now="2026-11-25T11:10:00Z")

    def evening(d, now):
        rows = d.must("schedule", "--json", now=now).json()
        return next(s["expression"] for s in rows if s["slot"] == "evening")

    def floss_today(d, now):
        habits = d.must("habit", "list", "--json", now=now).json()
        return next((h.get("today") for h in habits if h["name"] == "Floss"), "missing")

    check("8. B has A's evening time and Floss done",
          "20:15" in evening(b, "2026-11-25T11:10:00Z")
          and floss_today(b, "2026-11-25T11:10:00Z") == "done",
          f"{evening(b, '2026-11-25T11:10:00Z')} {floss_today(b, '2026-11-25T11:10:00Z')}")
    a.must("undo", now="2026-11-25T11:20:00Z")  # the day done
    a.must("undo", now="2026-11-25T11:20:01Z")  # the habit added
    a.must("undo", now="2026-11-25T11:20:02Z")  # the evening time
    copy_files(a, b)
    r = b.run("sync", now="2026-11-25T11:30:00Z")
    check("8. the undos travel: B's evening back at 21:30, Floss gone",
          r.rc == 0 and "21:30" in evening(b, "2026-11-25T11:30:00Z")
          and floss_today(b, "2026-11-25T11:30:00Z") == "missing",
          f"{r!r} {evening(b, '2026-11-25T11:30:00Z')} {floss_today(b, '2026-11-25T11:30:00Z')}")
    check("8. still no conflict on B", b.status("2026-11-25T11:30:00Z")["conflicts"] == [])


def test_time_zones():
    """9. A review made at 07:00 in Tokyo stays on its day in New York."""
    a = Device("t9", "Tokyo", tz="Asia/Tokyo").join("2026-11-25T12:00:00Z")
    b = Device("t9", "NewYork", tz="America/New_York").join("2026-11-25T12:00:10Z")
    now_a = "2026-11-25T22:00:00Z"  # 07:00 on 2026-11-26 in Tokyo
    a.must("review", "--why", "tokyo", "--commit-to", "rice", "--no-input", "--no-animation",
           now=now_a)
    check("9. A files the review on its local day 2026-11-26",
          (review_of(a.day("2026-11-26", now_a)) or {}).get("why") == "tokyo")
    copy_files(a, b)
    now_b = "2026-11-25T22:10:00Z"  # 17:10 on 2026-11-25 in New York
    r = b.run("sync", now=now_b)
    check("9. B (New York, still 2026-11-25 there) takes it in", r.rc == 0 and
          "From Tokyo: 1 change." in r.out, repr(r))
    exported = b.export(now_b)["review"]
    check("9. on B the entry stays on 2026-11-26 (export)",
          [e["day"] for e in exported] == ["2026-11-26"], json.dumps(exported))
    check("9. on B nothing lands on 2026-11-25",
          b.day("2026-11-25", now_b)["review"] is None)
    hist = b.must("history", "--json", "--days", "3", now="2026-11-26T15:00:00Z").json()
    on = {d["date"]: (d["review"] or {}).get("why") for d in hist}
    check("9. B's history (its 2026-11-26) shows it on 2026-11-26",
          on.get("2026-11-26") == "tokyo" and on.get("2026-11-25") is None, str(on))
    b.must("review", "--why", "newyork", "--commit-to", "bagel", "--no-input", "--no-animation",
           now="2026-11-27T12:00:00Z")  # 07:00 on 2026-11-27 in New York, 21:00 in Tokyo
    copy_files(b, a)
    r = a.run("sync", now="2026-11-27T12:10:00Z")
    check("9. and back: New York's 07:00 review of 2026-11-27 stays on 2026-11-27 in Tokyo",
          r.rc == 0 and (review_of(a.day("2026-11-27", "2026-11-27T12:10:00Z")) or {})
          .get("why") == "newyork", repr(r))
    check("9. both export the same entries",
          a.export("2026-11-27T12:10:00Z") == b.export("2026-11-27T12:10:00Z"))


def test_snapshot():
    """10. Thousands of changes: A writes a snapshot and starts a new log; C joins from it."""
    a = Device("t10", "A").join("2026-11-20T06:00:00Z")
    b = Device("t10", "B").join("2026-11-20T06:00:10Z")
    a.must("review", "--why", "first", "--commit-to", "one", "--no-input", "--no-animation",
           now="2026-11-20T07:00:00Z")
    copy_files(a, b)
    b.must("sync", now="2026-11-20T07:30:00Z")  # B has read A's generation 0 log
    b.must("review", "--why", "from B", "--commit-to", "b", "--no-input", "--no-animation",
           now="2026-11-21T07:00:00Z")
    copy_files(b, a)

    day0 = dt.date(2019, 1, 1)
    reviews, preps = [], []
    for n in range((dt.date(2026, 11, 19) - day0).days):
        d = (day0 + dt.timedelta(days=n)).isoformat()
        reviews.append({"day": d, "why": f"reason {n}", "commit_to": f"step {n % 97}",
                        "saved_at": f"{d}T07:00:00+00:00"})
        if n % 3 == 0:
            preps.append({"day": d, "sticky_notes": True, "produce": n % 2 == 0, "water": True,
                          "breakfast": False, "saved_at": f"{d}T21:00:00+00:00"})
    export = {"format": "nudge-export", "version": 3, "achievements": [], "checkin": [],
              "flows": [], "habits": [], "help": [], "pauses": [], "plans": {}, "prep": preps,
              "review": reviews, "schedule": [], "settings": {}}
    path = os.path.join(SCRATCH, "t10-export.json")
    with open(path, "w") as f:
        json.dump(export, f)
    r = a.run("import", path, now="2026-11-21T12:00:00Z", timeout=300)
    check(f"10. A imports {len(reviews) + len(preps)} entries ({r.seconds:.1f}s)", r.rc == 0,
          repr(r))
    now = "2026-11-21T12:05:00Z"
    a.must("sync", now=now)
    snap_exists = os.path.exists(a.snapshot())
    with open(a.log(), "rb") as f:
        log = f.read()
    log_lines = lines_of(log)
    header = json.loads(log_lines[0][1].split(b" ", 1)[1]) if log_lines else {}
    check("10. A wrote a snapshot and started a new log generation",
          snap_exists and header.get("generation", 0) >= 1 and len(log_lines) - 1 < 2000,
          f"snapshot {snap_exists}, log header {header}, {len(log_lines) - 1} change lines")
    a.must("checkin", "--followed", "yes", "--feel", "after the snapshot", "--no-input",
           "--no-animation", now="2026-11-21T12:10:00Z")  # a change in the new generation
    ours = os.path.getsize(a.log()) + (os.path.getsize(a.snapshot()) if snap_exists else 0)
    theirs = len(a.must("export", now=now).out.encode())
    ratio = ours / theirs
    check(f"10. A's files stay small: log+snapshot {ours // 1024} KiB vs export "
          f"{theirs // 1024} KiB (ratio {ratio:.2f} <= 2)", ratio <= 2, f"{ratio:.2f}")

    c = Device("t10", "C")
    copy_files(a, c)
    copy_files(b, c)
    r = c.run("sync", "init", c.folder, "--name", "C", now="2026-11-21T13:00:00Z", timeout=300)
    c.id = c.status("2026-11-21T13:00:00Z")["device"]["id"] if r.rc == 0 else None
    check(f"10. a fresh device C joins the folder and takes in snapshot + logs "
          f"({r.seconds:.1f}s, max RSS {r.rss_kb // 1024} MiB)",
          r.rc == 0 and r.err == "" and "From A:" in r.out, repr(r))
    now = "2026-11-21T13:05:00Z"
    ha = a.must("history", "--json", "--days", "3650", now=now).json()
    hc = c.must("history", "--json", "--days", "3650", now=now).json()
    check("10. C's history (10 years) is identical to A's", ha == hc and
          sum(1 for d in ha if d["review"]) >= len(reviews),
          f"A {sum(1 for d in ha if d['review'])} reviews, C {sum(1 for d in hc if d['review'])}")
    ea, ec = a.export(now), c.export(now)
    check("10. C's export (entries, achievements) is identical to A's", ea == ec,
          f"A: {len(ea['review'])} reviews {len(ea['prep'])} preps; "
          f"C: {len(ec['review'])} reviews {len(ec['prep'])} preps")
    day = c.day("2026-11-21", now)
    check("10. C has A's change made after the snapshot and B's review",
          (day.get("checkin") or {}).get("feel") == "after the snapshot"
          and (review_of(day) or {}).get("why") == "from B", short(json.dumps(day)))
    sa = a.must("streak", "--json", now=now).json()
    sc = c.must("streak", "--json", now=now).json()
    check("10. same streak on A and C", sa == sc, f"{sa} vs {sc}")

    copy_files(a, b)
    r = b.run("sync", now=now, timeout=300)
    check("10. B, which had read A's old generation, takes in the snapshot and the new log",
          r.rc == 0 and r.err == "" and b.export(now) == ea, repr(r))

    # the same snapshot and log copied again (new inodes, as a rename makes): nothing new
    copy_files(a, c)
    r = c.run("sync", now="2026-11-21T13:10:00Z", timeout=300)
    check("10. A's snapshot and log copied again to C: C's data unchanged",
          r.rc == 0 and c.export(now) == ea, repr(r))
    check("10. A's snapshot and log copied again to C: 'Nothing new.'",
          r.out.strip() == "Nothing new.", repr(r))

    # a second batch of thousands of changes (every review edited): generation 2, and A's
    # files stay as small as one snapshot of what it holds
    for entry in reviews:
        entry["why"] += " (again)"
        entry["saved_at"] = entry["saved_at"].replace("T07:00", "T08:00")
    with open(path, "w") as f:
        json.dump(export, f)
    r = a.run("import", path, now="2026-11-22T12:00:00Z", timeout=300)
    a.must("sync", now="2026-11-22T12:05:00Z")
    with open(a.log(), "rb") as f:
        header = json.loads(lines_of(f.read())[0][1].split(b" ", 1)[1])
    again = os.path.getsize(a.log()) + os.path.getsize(a.snapshot())
    check(f"10. after a second batch (import {r.seconds:.1f}s): generation "
          f"{header.get('generation')}, files {again // 1024} KiB (were {ours // 1024} KiB)",
          r.rc == 0 and header.get("generation", 0) >= 2 and again <= ours * 1.2,
          f"{r!r}; header {header}")
    now = "2026-11-22T13:00:00Z"
    copy_files(a, b)
    copy_files(a, c)
    rb, rc_ = b.run("sync", now=now, timeout=300), c.run("sync", now=now, timeout=300)
    ea = a.export(now)
    check("10. B and C take in generation 2 and hold what A holds",
          rb.rc == 0 and rc_.rc == 0 and b.export(now) == ea and c.export(now) == ea,
          f"{rb!r}; {rc_!r}")


TESTS = [test_converge, test_partial_then_complete, test_checksum_and_truncated,
         test_hostile_folder, test_forged_values, test_forged_own_files, test_own_log_replaced,
         test_open_folder,
         test_conflict, test_delete_undo, test_time_zones, test_snapshot]


def test_doctor():
    """doctor says whether sync is on and when each computer last wrote, and warns when nothing
    arrived for days while this computer wrote (file times set from the fixed now: no test reads
    the real date)."""
    def sync_check(device, now):
        r = device.run("doctor", "--json", now=now)
        found = [c for c in (r.json() if r.out.strip() else []) if c.get("name") == "sync"]
        return found[0] if found else None

    off = Device("t11", "Off")
    got = sync_check(off, "2026-11-25T07:00:00Z")
    check("11. doctor without sync: 'off', fine", got is not None and got["ok"]
          and got["detail"].startswith("off"), str(got))
    a = Device("t11", "A").join("2026-11-25T06:00:00Z")
    b = Device("t11", "B").join("2026-11-25T06:00:10Z")
    copy_files(b, a)
    now = "2026-11-25T07:00:00Z"
    # the files' times are real ones: doctor compares them with the wall clock, not NUDGE_NOW
    wall = time.time()
    for device, age_days in ((a, 0), (b, 1)):
        t = wall - age_days * 86400 - 60
        for path in (device.log(),):
            os.utime(path, (t, t))
            os.utime(os.path.join(a.folder, os.path.basename(path)), (t, t))
    got = sync_check(a, now)
    check("11. doctor with sync: on, the other computer named and when it last wrote",
          got is not None and got["ok"] and "on as 'A'" in got["detail"]
          and "B last changed its files a day ago" in got["detail"], str(got))
    # B's files untouched for 5 days while A wrote an hour ago: a warning with what to check
    t = wall - 5 * 86400
    os.utime(os.path.join(a.folder, os.path.basename(b.log())), (t, t))
    got = sync_check(a, now)
    check("11. doctor warns when nothing arrived for days while this computer wrote",
          got is not None and not got["ok"] and "for 5 days" in got["detail"]
          and "Syncthing" in (got.get("fix") or ""), str(got))


TESTS.append(test_doctor)


def test_rejoin_take_undo_own_files():
    """12. A computer that leaves and joins again keeps its id, and its old answers never beat
    what was done meanwhile; `sync take` is undone by `nudge undo`; its own log deleted from the
    folder is written again as a snapshot that a new computer takes everything from."""
    a = Device("t12", "A").join("2026-11-25T06:00:00Z")
    b = Device("t12", "B").join("2026-11-25T06:00:10Z")
    b.must("review", "--why", "old", "--commit-to", "b", "--no-input", "--no-animation",
           now="2026-11-25T07:00:00Z")
    exchange(a, b)
    a.must("sync", now="2026-11-25T07:10:00Z")
    b_id = b.id
    b.must("sync", "leave", now="2026-11-25T08:00:00Z")
    a.must("review", "--why", "newer", "--commit-to", "a", "--no-input", "--no-animation",
           now="2026-11-25T09:00:00Z")
    copy_files(a, b)
    r = b.run("sync", "init", b.folder, "--name", "B", now="2026-11-25T10:00:00Z")
    check("12. B joins again (exit 0) with the same id", r.rc == 0
          and b.status("2026-11-25T10:00:00Z")["device"]["id"] == b_id, repr(r))
    exchange(a, b)
    a.must("sync", now="2026-11-25T10:05:00Z")
    for device in (a, b):
        got = (review_of(device.day("2026-11-25", "2026-11-25T10:06:00Z")) or {}).get("why")
        check(f"12. {device.name} keeps the review done meanwhile ('newer'), not B's old one",
              got == "newer", str(got))
    names = [d["name"] for d in a.status("2026-11-25T10:06:00Z")["devices"]]
    check("12. A lists B once", names == ["B"], str(names))

    # a conflict, taken on B, then undone there
    a.must("review", "--why", "from a", "--commit-to", "a", "--no-input", "--no-animation",
           now="2026-11-25T11:00:00Z")
    b.must("review", "--why", "from b", "--commit-to", "b", "--no-input", "--no-animation",
           now="2026-11-25T11:05:00Z")
    exchange(a, b)
    a.must("sync", now="2026-11-25T11:10:00Z")
    b.must("sync", now="2026-11-25T11:10:00Z")
    conflicts = b.status("2026-11-25T11:11:00Z")["conflicts"]
    check("12. B keeps A's review as a conflict", len(conflicts) == 1
          and conflicts[0]["kept"]["answers"]["why"] == "from a", str(conflicts))
    if conflicts:
        r = b.run("sync", "take", str(conflicts[0]["id"]), now="2026-11-25T11:12:00Z")
        got = (review_of(b.day("2026-11-25", "2026-11-25T11:12:00Z")) or {}).get("why")
        check("12. take makes A's version B's", r.rc == 0 and got == "from a", f"{r!r} {got}")
        r = b.run("undo", now="2026-11-25T11:13:00Z")
        got = (review_of(b.day("2026-11-25", "2026-11-25T11:13:00Z")) or {}).get("why")
        check("12. nudge undo takes the take back", r.rc == 0 and got == "from b", f"{r!r} {got}")

    # A's own log deleted from its folder: written again; a new computer takes all of it
    os.unlink(a.log())
    r = a.run("sync", now="2026-11-25T12:00:00Z")
    check("12. A's own log gone: nudge sync writes A's files again and says so",
          r.rc == 0 and "missing" in r.out and os.path.exists(a.log())
          and os.path.exists(a.snapshot()), repr(r))
    c = Device("t12", "C")
    copy_files(a, c)
    c.join("2026-11-25T12:10:00Z")
    got = (review_of(c.day("2026-11-25", "2026-11-25T12:10:00Z")) or {}).get("why")
    want = (review_of(a.day("2026-11-25", "2026-11-25T12:10:00Z")) or {}).get("why")
    check("12. a new computer takes A's review from the rewritten files", got == want,
          f"{got} vs {want}")


TESTS.append(test_rejoin_take_undo_own_files)


def test_review_findings():
    """13. A file of junk lines costs little and says little; a change from a clock that runs
    fast is taken once this clock gets there; a line an earlier write left cut off never takes
    the next change with it; pauses made apart export and import back."""
    a = Device("t13", "A").join("2026-11-25T06:00:00Z")
    b = Device("t13", "B").join("2026-11-25T06:00:10Z")
    # 200,000 empty lines in a device file
    junk = "badc0ffee0000077"
    data = header_line(junk, "junk") + b"\n" * 200_000
    place(a.folder, f"nudge-{junk}.log", data)
    r = a.run("sync", now="2026-11-25T06:30:00Z")
    said = [l for l in r.err_lines if f"nudge-{junk}.log" in l]
    check("13. 200,000 junk lines: sync exits 0 quickly with at most 21 lines said of the file",
          r.rc == 0 and len(said) <= 21 and r.seconds < 10 and r.rss_kb < 100_000,
          f"rc={r.rc} lines={len(said)} {r.seconds:.1f}s {r.rss_kb} KB")
    check("13. the last of them counts the rest", said and "more lines skipped" in said[-1],
          str(said[-1:]))
    os.unlink(os.path.join(a.folder, f"nudge-{junk}.log"))

    # B's clock runs 2 hours fast: its review waits on A until A's clock gets there
    b.must("review", "--why", "fast clock", "--commit-to", "b", "--no-input", "--no-animation",
           now="2026-11-25T09:00:00Z")
    copy_files(b, a)
    r = a.run("sync", now="2026-11-25T07:00:00Z")
    check("13. a change dated 2 h ahead is said, not taken yet",
          r.rc == 0 and "taken once this clock gets there" in r.err
          and review_of(a.day("2026-11-25", "2026-11-25T07:00:00Z")) is None, repr(r))
    r = a.run("sync", now="2026-11-25T09:30:00Z")
    got = (review_of(a.day("2026-11-25", "2026-11-25T09:30:00Z")) or {}).get("why")
    check("13. once this clock gets there, it is taken", got == "fast clock", f"{r!r} {got}")

    # a cut-off line at the end of A's log (a write cut short), then a change of A's
    with open(a.log(), "ab") as f:
        f.write(b'0badbeef {"c":"17955')
    a.must("checkin", "--feel", "after the cut", "--no-input", "--no-animation",
           now="2026-11-25T22:00:00Z")
    copy_files(a, b)
    r = b.run("sync", now="2026-11-25T22:05:00Z")
    got = (b.day("2026-11-25", "2026-11-25T22:05:00Z").get("checkin") or {}).get("feel")
    check("13. the change written after a cut-off line arrives (the cut line alone is skipped)",
          got == "after the cut" and "checksum" in r.err, f"{r!r} {got}")

    # pauses made apart that overlap: an export of the merged days imports back
    a.must("pause", "--from", "2026-11-20", "--until", "2026-11-23", "--yes",
           now="2026-11-25T23:00:00Z")
    b.must("pause", "--from", "2026-11-22", "--until", "2026-11-24", "--yes",
           now="2026-11-25T23:00:00Z")
    exchange(a, b)
    a.must("sync", now="2026-11-25T23:05:00Z")
    export = a.must("export", now="2026-11-25T23:06:00Z").out
    c = Device("t13", "C")
    path = os.path.join(c.home, "export.json")
    with open(path, "w") as f:
        f.write(export)
    r = c.run("import", path, now="2026-11-25T23:07:00Z")
    check("13. an export with pauses two computers made apart imports back (exit 0)",
          r.rc == 0, repr(r))


TESTS.append(test_review_findings)


def test_old_copy_and_rejoin_conflicts():
    """14. An older copy of a computer's own log put back (a folder restored from a stick):
    it writes everything again, and what it made after still arrives; a computer that joins
    again keeps the same conflicts as the other."""
    a = Device("t14", "A").join("2026-11-25T06:00:00Z")
    b = Device("t14", "B").join("2026-11-25T06:00:10Z")
    with open(b.log(), "rb") as f:
        old = f.read()
    b.must("review", "--why", "first", "--commit-to", "b", "--no-input", "--no-animation",
           now="2026-11-25T07:00:00Z")
    copy_files(b, a)
    a.must("sync", now="2026-11-25T07:05:00Z")
    place(b.folder, os.path.basename(b.log()), old)  # the old copy comes back
    # two changes after it: the log grows past where A had read it to
    b.must("prep", "--item", "water=yes", "--no-input", "--no-animation",
           now="2026-11-25T20:59:00Z")
    b.must("checkin", "--feel", "after the old copy", "--no-input", "--no-animation",
           now="2026-11-25T21:00:00Z")
    copy_files(b, a)
    r = a.run("sync", now="2026-11-25T21:05:00Z")
    got = (a.day("2026-11-25", "2026-11-25T21:05:00Z").get("checkin") or {}).get("feel")
    check("14. after an older copy of B's log came back, B's next change still reaches A",
          got == "after the old copy", f"{r!r} {got}")

    # a conflict on the 24th, settled on B by a later edit; B leaves and joins again
    a.must("review", "--why", "a24", "--commit-to", "a", "--day", "2026-11-24", "--no-input",
           "--no-animation", now="2026-11-25T22:00:00Z")
    b.must("review", "--why", "b24", "--commit-to", "b", "--day", "2026-11-24", "--no-input",
           "--no-animation", now="2026-11-25T22:01:00Z")
    exchange(a, b)
    a.must("sync", now="2026-11-25T22:05:00Z")
    b.must("sync", now="2026-11-25T22:05:00Z")
    b.must("review", "--why", "b24 again", "--commit-to", "b", "--day", "2026-11-24",
           "--no-input", "--no-animation", now="2026-11-25T22:10:00Z")
    exchange(a, b)
    a.must("sync", now="2026-11-25T22:15:00Z")
    b.must("sync", now="2026-11-25T22:15:00Z")

    def kept(device, now):
        return sorted((c["key"], c["kept_made_at"]) for c in device.status(now)["conflicts"])

    before_a, before_b = kept(a, "2026-11-25T22:16:00Z"), kept(b, "2026-11-25T22:16:00Z")
    check("14. both keep the same conflicts before B leaves", before_a == before_b,
          f"{before_a} vs {before_b}")
    b.must("sync", "leave", now="2026-11-25T22:20:00Z")
    b.must("sync", "init", b.folder, "--name", "B", now="2026-11-25T22:30:00Z")
    exchange(a, b)
    a.must("sync", now="2026-11-25T22:35:00Z")
    b.must("sync", now="2026-11-25T22:35:00Z")
    after_a, after_b = kept(a, "2026-11-25T22:36:00Z"), kept(b, "2026-11-25T22:36:00Z")
    check("14. after B joins again both keep the same conflicts as before",
          after_a == after_b == before_a, f"A {after_a}, B {after_b}, before {before_a}")


TESTS.append(test_old_copy_and_rejoin_conflicts)


# the commands whose JSON both computers must agree on once they have synced (what the person
# sees of their history; `sync status` is each computer's own)
SHARED_VIEWS = [("streak", "--json"), ("week", "--json"), ("history", "--json"),
                ("achievements", "--json"), ("pause", "list", "--all", "--json"),
                ("habit", "list", "--json"), ("plan", "list", "--json")]


def shared_views(device, now, days):
    views = {" ".join(v): device.must(*v, now=now).json() for v in SHARED_VIEWS}
    # a plan file is in each computer's own home: the same file by its name
    for plan in views["plan list --json"]:
        if plan.get("file"):
            plan["file"] = os.path.basename(plan["file"])
    for day in days:
        views[f"show {day}"] = device.day(day, now)
    views["export"] = device.export(now)
    views["export"].pop("exported_at", None)
    return views


def test_conflict_take_achievements():
    """15. The issue's 31 December: both check in while apart, the laptop's (later) wins and
    earns "10 swaps"; the listing shows only the fields that differ, in the flow's words; the
    today view, show and the day's flow say the conflict; the desktop takes its own version:
    the laptop's "swap followed" goes (said), "10 swaps" is taken back there and, once synced,
    on the laptop too: every command's JSON is the same on both."""
    a = Device("t15", "laptop")
    days = [f"2026-12-{d:02d}" for d in range(21, 31)]
    for day in days[:-1]:
        a.must("review", "--commit-to", "walk", "--no-input", "--no-animation", now=f"{day}T07:00:00Z")
        a.must("checkin", "--followed", "yes", "--no-input", "--no-animation",
               now=f"{day}T21:00:00Z")
    a.join("2026-12-30T08:00:00Z")
    b = Device("t15", "desktop").join("2026-12-30T08:00:10Z")
    exchange(a, b)
    b.must("sync", now="2026-12-30T08:01:00Z")
    a.must("sync", now="2026-12-30T08:01:00Z")
    day = days[-1]
    b.must("checkin", "--feel", "tired", "--no-input", "--no-animation", now=f"{day}T20:00:00Z")
    a.must("review", "--commit-to", "walk", "--no-input", "--no-animation", now=f"{day}T07:00:00Z")
    a.must("checkin", "--followed", "yes", "--feel", "tired", "--no-input", "--no-animation",
           now=f"{day}T21:00:00Z")
    exchange(a, b)
    now = f"{day}T21:30:00Z"
    a.must("sync", now=now)
    b.must("sync", now=now)
    for dev in (a, b):
        earned = [x["key"] for x in dev.must("achievements", "--json", now=now).json() if x["earned_on"]]
        check(f"15. {dev.name} earned '10 swaps' with the laptop's check-in", "swaps-10" in earned,
              str(earned))
    conflicts = b.status(now)["conflicts"]
    check("15. the desktop keeps its own check-in as the conflict",
          len(conflicts) == 1 and conflicts[0]["kept_from"] == "desktop", json.dumps(conflicts))
    if not conflicts:
        return
    differs = conflicts[0].get("differs")
    check("15. the listing's JSON names only the field that differs, by its question",
          differs == [{"field": "followed", "label": "Did you follow your swap?",
                       "won": "yes"}], json.dumps(differs))
    listing = b.must("sync", "status", now=now).out
    check("15. sync status shows the differing question in words, not an unchanged one",
          "Did you follow your swap?: kept nothing, won 'yes'" in listing
          and "How did today go?" not in listing and "followed:" not in listing, listing)
    today = b.must(now=now).out
    check("15. the desktop's today view says the laptop's check-in won and how to take its own",
          "Sync conflict: laptop's End-of-day check-in of 2026-12-30 won over desktop's" in today
          and f"nudge sync take {conflicts[0]['id']}" in today, today)
    shown = b.must("show", day, now=now).out
    check("15. show says the conflict under the day", "Sync conflict: laptop's" in shown, shown)
    cid = conflicts[0]["id"]
    r = b.run("sync", "take", str(cid), now=f"{day}T21:40:00Z")
    check("15. take says what it changes and the achievement it takes back",
          r.rc == 0 and "Did you follow your swap?: now nothing (was 'yes')" in r.out
          and "Achievement taken back: 10 swaps" in r.out, repr(r))
    exchange(a, b)
    now = f"{day}T21:50:00Z"
    ra = a.run("sync", now=now)
    b.must("sync", now=now)
    check("15. the laptop's sync says nothing of a conflict and says the achievement taken back",
          ra.rc == 0 and "conflict" not in ra.out
          and "Achievement taken back: 10 swaps (what arrived no longer reaches it)." in ra.out,
          repr(ra))
    for dev in (a, b):
        earned = [x["key"] for x in dev.must("achievements", "--json", now=now).json() if x["earned_on"]]
        check(f"15. {dev.name} no longer holds '10 swaps'", "swaps-10" not in earned, str(earned))
    va, vb = shared_views(a, now, days), shared_views(b, now, days)
    differing = [k for k in va if va[k] != vb.get(k)]
    check(f"15. every command's JSON is the same on both ({len(va)} views)", differing == [],
          "; ".join(f"{k}: A {short(json.dumps(va[k]), 300)} B {short(json.dumps(vb.get(k)), 300)}"
                    for k in differing))


TESTS.append(test_conflict_take_achievements)


def test_habits_and_plans_travel():
    """16. Habits (definitions, checks, amounts, skips, archive, removal) and plan choices
    travel: the desktop said "No habits yet" while the laptop had three, the sleep plan was on
    on one and off on the other. A day of a habit not known yet waits until it is; a forged
    habit is refused in one line."""
    a = Device("t16", "laptop")
    t = "2026-12-10T08:00:00Z"
    start = "2026-12-01T08:00:00Z"
    a.must("habit", "add", "Read", "--target", "20", "--unit", "pages", now=start)
    a.must("habit", "add", "Stretch", "--every", "3/week", "--at", "18:00", now=start)
    a.must("habit", "add", "Floss", now=start)
    for d in ("2026-12-07", "2026-12-08", "2026-12-09"):
        a.must("habit", "done", "read", "--value", "12", "--day", d, now=t)
    a.must("habit", "done", "read", "--value", "10", "--day", "2026-12-09", now=t)
    a.must("habit", "skip", "stretch", "--day", "2026-12-08", now=t)
    a.must("habit", "done", "floss", "--day", "2026-12-09", now=t)
    a.must("plan", "on", "sleep", now=t)
    a.join(t)
    b = Device("t16", "desktop").join("2026-12-10T08:00:10Z")
    exchange(a, b)
    now = "2026-12-10T08:05:00Z"
    b.must("sync", now=now)
    a.must("sync", now=now)
    days = [f"2026-12-{d:02d}" for d in range(7, 11)]
    va, vb = shared_views(a, now, days), shared_views(b, now, days)
    differing = [k for k in va if va[k] != vb.get(k)]
    check(f"16. after one copy every command's JSON is the same on both ({len(va)} views)",
          differing == [],
          "; ".join(f"{k}: A {short(json.dumps(va[k]), 400)} B {short(json.dumps(vb.get(k)), 400)}"
                    for k in differing))
    names = [h["name"] for h in vb["habit list --json"]]
    check("16. the desktop lists the laptop's three habits", names == ["Read", "Stretch", "Floss"],
          str(names))
    check("16. the amounts arrived as they add up (22 pages on the 9th)",
          "22" in json.dumps(b.day("2026-12-09", now)), json.dumps(b.day("2026-12-09", now)))
    plans = {p["name"]: p["on"] for p in vb["plan list --json"]}
    check("16. the sleep plan is on on the desktop too", plans.get("sleep") is True, str(plans))
    # the desktop's changes travel back: a tick, an archive, a removal, the plan off
    later = "2026-12-10T09:00:00Z"
    b.must("habit", "done", "floss", now=later)
    b.must("habit", "archive", "stretch", now=later)
    b.must("plan", "off", "sleep", now=later)
    exchange(a, b)
    now = "2026-12-10T09:05:00Z"
    a.must("sync", now=now)
    b.must("sync", now=now)
    va, vb = shared_views(a, now, days), shared_views(b, now, days)
    differing = [k for k in va if va[k] != vb.get(k)]
    check("16. the desktop's tick, archive and plan off reach the laptop: the same JSON",
          differing == [],
          "; ".join(f"{k}: A {short(json.dumps(va[k]), 400)} B {short(json.dumps(vb.get(k)), 400)}"
                    for k in differing))
    plans = {p["name"]: p["on"] for p in va["plan list --json"]}
    check("16. the sleep plan is off on the laptop", plans.get("sleep") is False, str(plans))
    b.must("habit", "remove", "floss", "--yes", now="2026-12-10T09:10:00Z")
    exchange(a, b)
    now = "2026-12-10T09:15:00Z"
    a.must("sync", now=now)
    names = [h["name"] for h in a.must("habit", "list", "--json", now=now).json()]
    check("16. a habit removed on the desktop is gone on the laptop", "Floss" not in names,
          str(names))
    # forged lines in the desktop's log: a habit named like a command, a day of a habit no
    # computer has (it waits), then that habit (the day is taken in the same exchange)
    uid = "0123456789abcdef"
    wall = millis("2026-12-10T09:20:00Z")
    forged = [
        change_line(wall, 0, b.id, "habit/fedcba9876543210",
                    {"habit": {"name": "list", "question": "?", "every": "daily",
                               "since": "2026-12-01", "archived": False, "days": []}}),
        change_line(wall + 1, 0, b.id, f"habitday/{uid}/2026-12-09",
                    {"done": True, "saved_at": "2026-12-09T20:00:00Z"}),
    ]
    with open(b.log(), "ab") as f:
        f.write(b"".join(forged))
    copy_files(b, a)
    r = a.run("sync", now="2026-12-10T09:21:00Z")
    check("16. a habit named like a command is refused in one line, the unknown habit's day waits",
          r.rc == 0 and "'nudge habit add' takes here" in r.out + r.err
          and "its habit has not arrived here yet" in r.out + r.err, repr(r))
    with open(b.log(), "ab") as f:
        f.write(change_line(wall + 2, 0, b.id, f"habit/{uid}",
                            {"habit": {"name": "Walk", "question": "Did you walk?",
                                       "every": "daily", "since": "2026-12-01",
                                       "archived": False, "days": []}}))
    copy_files(b, a)
    now = "2026-12-10T09:22:00Z"
    r = a.run("sync", now=now)
    shown = a.day("2026-12-09", now)
    check("16. once its habit arrives the waiting day is taken",
          r.rc == 0 and any(h.get("name") == "Walk" and h.get("state") == "done" for h in shown.get("habits", [])),
          f"{r!r} {json.dumps(shown.get('habits'))}")
    names = [h["name"] for h in a.must("habit", "list", "--json", now=now).json()]
    check("16. the forged habit named 'list' is not there", "list" not in names, str(names))
    # a folder of forged habits: no more than the 100 Nudge keeps are taken, the rest said
    many = b"".join(
        change_line(wall + 10 + i, 0, b.id, f"habit/{i:016x}",
                    {"habit": {"name": f"Forged {i}", "question": "?", "every": "daily",
                               "since": "2026-12-01", "archived": False, "days": []}})
        for i in range(1, 121))
    with open(b.log(), "ab") as f:
        f.write(many)
    copy_files(b, a)
    r = a.run("sync", now="2026-12-10T09:23:00Z")
    kept = len(a.export("2026-12-10T09:23:00Z")["habits"])
    check("16. forged habits past the 100 Nudge keeps are refused, said",
          r.rc == 0 and kept == 100 and "more than the 100 habits Nudge keeps" in r.err,
          f"{kept} kept; {short(r.err, 300)}")


TESTS.append(test_habits_and_plans_travel)


WALK_PLAN = """format = 1
[plan]
name = "walking"
title = "Walking"
on = true
[[flow]]
id = "walk"
title = "Lunch walk"
first = "First walk"
[[flow.question]]
id = "minutes"
ask = "How many minutes?"
kind = "number"
required = true
"""


def plan_folder(device):
    return os.path.join(device.home, ".config", "nudge", "plans")


def test_plan_files_travel():
    """17. A plan file of one's own travels: the laptop's walking.plan arrives in the desktop's
    plans folder (0600), the entries of its flow are read against it (not raw 'walk / minutes:
    34'), an edit of it travels too; a forged plan file whose flow takes a command's word is
    refused in one line and never written."""
    a = Device("t17", "laptop")
    os.makedirs(plan_folder(a), mode=0o700)
    with open(os.path.join(plan_folder(a), "walking.plan"), "w") as f:
        f.write(WALK_PLAN)
    os.chmod(os.path.join(plan_folder(a), "walking.plan"), 0o600)
    t = "2026-12-10T12:00:00Z"
    a.must("walk", "--answer", "minutes=34", "--no-input", "--no-animation", now=t)
    a.join(t)
    b = Device("t17", "desktop").join("2026-12-10T12:00:10Z")
    exchange(a, b)
    now = "2026-12-10T12:05:00Z"
    r = b.run("sync", now=now)
    path = os.path.join(plan_folder(b), "walking.plan")
    check("17. the laptop's plan file is in the desktop's plans folder, 0600",
          r.rc == 0 and os.path.exists(path) and open(path).read() == WALK_PLAN
          and (os.stat(path).st_mode & 0o777) == 0o600, repr(r))
    shown = b.must("show", "2026-12-10", now=now).out
    check("17. the desktop shows the walk in its flow's words", "Lunch walk" in shown
          and "How many minutes?: 34" in shown, shown)
    listed = [p["name"] for p in b.must("plan", "list", "--json", now=now).json()]
    check("17. the desktop lists the walking plan", "walking" in listed, str(listed))
    va, vb = shared_views(a, now, ["2026-12-10"]), shared_views(b, now, ["2026-12-10"])
    differing = [k for k in va if va[k] != vb.get(k)]
    check("17. every command's JSON is the same on both", differing == [],
          "; ".join(f"{k}: A {short(json.dumps(va[k]), 300)} B {short(json.dumps(vb.get(k)), 300)}"
                    for k in differing))
    # an edit on the desktop (a new title) reaches the laptop
    edited = WALK_PLAN.replace('title = "Lunch walk"', 'title = "Walk at noon"')
    with open(path, "w") as f:
        f.write(edited)
    later = "2026-12-10T13:00:00Z"
    b.must("sync", now=later)
    exchange(a, b)
    a.must("sync", now=later)
    check("17. an edit of the file on the desktop reaches the laptop's folder",
          open(os.path.join(plan_folder(a), "walking.plan")).read() == edited)
    # the desktop's plans folder others may write: a new edit waits (said), is not taken as the
    # desktop's own stale file, and is written once the folder is the person's again
    os.chmod(plan_folder(b), 0o777)
    newer = edited.replace('title = "Walk at noon"', 'title = "Noon walk"')
    with open(os.path.join(plan_folder(a), "walking.plan"), "w") as f:
        f.write(newer)
    t2 = "2026-12-10T13:05:00Z"
    a.must("sync", now=t2)
    exchange(a, b)
    r = b.run("sync", now=t2)
    check("17. a plan file that can't be written yet is said, and the folder's file is left",
          "is not yours alone" in r.err and open(path).read() == edited, repr(r))
    os.chmod(plan_folder(b), 0o700)
    b.must("sync", now="2026-12-10T13:06:00Z")
    exchange(a, b)
    a.must("sync", now="2026-12-10T13:06:00Z")
    check("17. once the folder is the person's the waiting file is written, and the laptop keeps it",
          open(path).read() == newer
          and open(os.path.join(plan_folder(a), "walking.plan")).read() == newer)
    # a plan file the person keeps as a link stays a link (said), not replaced by a file
    target = os.path.join(b.home, "my-walking.plan")
    os.replace(path, target)
    os.symlink(target, path)
    newest = newer.replace('title = "Noon walk"', 'title = "Walk"')
    with open(os.path.join(plan_folder(a), "walking.plan"), "w") as f:
        f.write(newest)
    a.must("sync", now="2026-12-10T13:07:00Z")
    exchange(a, b)
    r = b.run("sync", now="2026-12-10T13:07:00Z")
    check("17. a plan file that is a link is not replaced, and that is said",
          os.path.islink(path) and "is a link" in r.err, repr(r))
    # a forged plan file: its flow takes the word of a command
    forged = WALK_PLAN.replace('name = "walking"', 'name = "evil"').replace('id = "walk"', 'id = "sync"')
    wall = millis("2026-12-10T13:10:00Z")
    with open(b.log(), "ab") as f:
        f.write(change_line(wall, 0, b.id, "planfile/evil", {"plan_text": forged}))
    copy_files(b, a)
    r = a.run("sync", now="2026-12-10T13:11:00Z")
    check("17. a forged plan file naming a command is refused in one line and not written",
          r.rc == 0 and "the plan file evil.plan is not one the plans folder takes" in r.err
          and not os.path.exists(os.path.join(plan_folder(a), "evil.plan")), repr(r))


TESTS.append(test_plan_files_travel)


def test_same_habit_on_both():
    """18. Both computers had "Read" before they synced (each its own id): they end with one
    habit under one id, its days as both recorded them, on both; editing it works."""
    a = Device("t18", "laptop")
    b = Device("t18", "desktop")
    a.must("habit", "add", "Read", now="2026-12-01T08:00:00Z")
    b.must("habit", "add", "read", now="2026-12-02T08:00:00Z")
    a.must("habit", "done", "read", "--day", "2026-12-03", now="2026-12-05T08:00:00Z")
    b.must("habit", "done", "read", "--day", "2026-12-04", now="2026-12-05T08:00:00Z")
    a.join("2026-12-05T09:00:00Z")
    b.join("2026-12-05T09:00:10Z")
    for minute in range(1, 4):
        exchange(a, b)
        now = f"2026-12-05T09:0{minute}:30Z"
        a.must("sync", now=now)
        b.must("sync", now=now)
    now = "2026-12-05T09:10:00Z"
    for dev in (a, b):
        habits = dev.must("habit", "list", "--json", now=now).json()
        check(f"18. {dev.name} lists one Read", [h["name"].lower() for h in habits] == ["read"],
              json.dumps(habits))
        done = sorted(d["day"] for h in dev.export(now)["habits"] for d in h["days"])
        check(f"18. {dev.name} has both computers' days", done == ["2026-12-03", "2026-12-04"],
              str(done))
    uids = [h.get("uid") for dev in (a, b) for h in dev.export(now)["habits"]]
    check("18. under one id on both", len(uids) == 2 and uids[0] == uids[1], str(uids))
    r = a.run("habit", "edit", "read", "--rename", "Reading", now=now)
    check("18. the merged habit can be renamed", r.rc == 0, repr(r))
    exchange(a, b)
    b.must("sync", now="2026-12-05T09:11:00Z")
    names = [h["name"] for h in b.must("habit", "list", "--json", now="2026-12-05T09:11:00Z").json()]
    check("18. the rename reaches the desktop", names == ["Reading"], str(names))


TESTS.append(test_same_habit_on_both)


def main():
    if not os.access(BIN, os.X_OK):
        check(f"no nudge binary at {BIN}", False)
        return checks.finish()
    print(f"# nudge: {BIN}; scratch: {SCRATCH}", flush=True)
    started = time.monotonic()
    try:
        # ONLY=name runs the tests whose names hold it (a quicker round while working)
        for test in [t for t in TESTS if os.environ.get("ONLY", "") in t.__name__]:
            t0 = time.monotonic()
            try:
                test()
            except Exception as error:  # a setup step failed: the test's checks can't run
                check(f"{test.__name__} ran to its end", False, f"{type(error).__name__}: {error}")
            print(f"# {test.__name__}: {time.monotonic() - t0:.1f}s", flush=True)
    finally:
        if os.environ.get("KEEP") == "1":
            print(f"# kept {SCRATCH}")
        else:
            shutil.rmtree(SCRATCH, ignore_errors=True)
    print(f"# total {time.monotonic() - started:.1f}s")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
