"""What every case uses: Case (one row of the table), World (its private home) and helpers."""

import datetime as dt
import hashlib
import os
import sqlite3
import subprocess
import tempfile
import time

from .checks import Checks


# the repository's root: this file is ROOT/scripts/nudgetest/world.py
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Case(Checks):
    """One row of the table: how often something was tried, how often it went wrong, how much
    acknowledged data was lost. A quiet tally of checks (nudgetest/checks.py):
    case.check(PROBLEM, OK) counts one run, and a failed one is remembered by PROBLEM, the
    words of what went wrong (the first 8 problems are kept, in `problems`)."""

    def __init__(self, name):
        super().__init__(quiet=True, keep=8)
        self.name = name
        self.lost = 0
        self.tried = None
        self.started = time.monotonic()
        self.seconds = 0.0

    @property
    def runs(self):
        """How often something was tried: the checks made, unless the case set it (a case
        that tries many times and checks the sum)."""
        return self.total if self.tried is None else self.tried

    @runs.setter
    def runs(self, count):
        self.tried = count

    @property
    def problems(self):
        """What went wrong, the first 8: failed checks and data lost."""
        return self.failures

    def lose(self, count, problem):
        """Records acknowledged data that is gone."""
        if count:
            self.lost += count
            if len(self.failures) < self.keep:
                self.failures.append("LOST: " + problem)


class World:
    """A private home for one case: data and config directories, the environment nudge sees."""

    def __init__(self, suite, name, tz="Europe/Berlin"):
        self.suite = suite
        self.dir = tempfile.mkdtemp(prefix=f"{name}-", dir=suite.work)
        self.data = os.path.join(self.dir, "data")
        self.db = os.path.join(self.data, "nudge", "nudge.sqlite3")
        self.env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": self.dir,
            "XDG_DATA_HOME": self.data,
            "XDG_CONFIG_HOME": os.path.join(self.dir, "config"),
            "TZ": tz,
            "LANG": "C.UTF-8",
            "NUDGE_SEED": "7",
            "NO_COLOR": "1",
        }

    def run(self, *args, now=None, env=None, timeout=60, stdin=subprocess.DEVNULL):
        """Runs nudge to completion."""
        return subprocess.run(
            [self.suite.nudge, *args],
            env=self.environment(now, env),
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def start(self, *args, now=None, env=None, prefix=()):
        """Starts nudge in the background."""
        return subprocess.Popen(
            [*prefix, self.suite.nudge, *args],
            env=self.environment(now, env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def environment(self, now, extra):
        env = dict(self.env)
        if now:
            env["NUDGE_NOW"] = now
        env.update(extra or {})
        return env

    def query(self, sql, *params):
        """Reads the database file directly (a second, independent reader)."""
        con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=30)
        try:
            return con.execute(sql, params).fetchall()
        finally:
            con.close()

    OLD_TABLES = {"prep": "prep", "review": "review", "checkin": "checkin", "need-help": "help_note"}

    def days_of(self, flow):
        """The days `flow` has an entry on (a list: a help note's day once per note), read
        whichever schema the file is at: one table per coach flow before schema 9."""
        old = self.OLD_TABLES.get(flow)
        if old and self.query("SELECT 1 FROM sqlite_master WHERE name = ?", old):
            return [r[0] for r in self.query(f"SELECT day FROM {old}")]
        return [r[0] for r in self.query("SELECT day FROM flow_entry WHERE flow = ?", flow)]

    def help_notes(self):
        """The words of every stored help note."""
        if self.query("SELECT 1 FROM sqlite_master WHERE name = 'help_note'"):
            return [r[0] for r in self.query("SELECT note FROM help_note")]
        return [r[0] for r in self.query(
            "SELECT json_extract(answers, '$.note') FROM flow_entry WHERE flow = 'need-help'")]

    def integrity(self):
        if not os.path.exists(self.db):
            return "ok"
        return self.query("PRAGMA integrity_check")[0][0]


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def one_line_error(result):
    """A refusal is exactly one `nudge: …` line on stderr."""
    lines = [l for l in result.stderr.splitlines() if l.strip()]
    return len(lines) == 1 and lines[0].startswith("nudge: ")


def iso(day, clock="21:30:00", offset="+01:00"):
    return f"{day.isoformat()}T{clock}{offset}"


def export_document(days, first, tag):
    """An import document with prep and review entries on `days` consecutive days."""
    prep, review = [], []
    for i in range(days):
        day = (first + dt.timedelta(days=i)).isoformat()
        saved = f"{day}T20:30:00+00:00"
        prep.append(
            {"day": day, "sticky_notes": True, "produce": i % 2 == 0, "water": True,
             "breakfast": False, "saved_at": saved}
        )
        review.append({"day": day, "why": f"why {tag} {i}", "swap": "tea", "commit_to": "drink tea",
                       "saved_at": saved})
    return {"format": "nudge-export", "version": 1, "settings": {}, "prep": prep,
            "review": review, "checkin": [], "help": [], "achievements": []}
