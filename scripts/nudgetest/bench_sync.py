"""What sync costs (issue 37): the today view with sync on and nothing new against sync off, a
fresh device taking in 10 years of another's history (a snapshot plus a log), and the size of a
device's files against its export.

    measure(nudge, env, runs, hyperfine, report)

is called by scripts/bench with its `hyperfine(commands, runs, env, prepare=None, names=None)`
(medians in seconds, the commands run alternately by one hyperfine call) and its
`report(figure, value_text, target_text, ok)`. Run alone,

    python3 scripts/nudgetest/bench_sync.py NUDGE [--runs N]

it measures with its own copies of both (hyperfine must be installed).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from nudgetest.history import LAST_DAY, history_export  # noqa: E402

ZONE = "Europe/Berlin"


def _env(env, db):
    e = dict(env, NUDGE_DB=db, TZ=ZONE, LANG="C.UTF-8", NO_COLOR="1",
             NUDGE_NOW=f"{LAST_DAY.isoformat()}T21:00:00+01:00")
    for key in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY"):
        e.pop(key, None)
    return e


def _run(nudge, env, *args):
    return subprocess.run([nudge, *args], env=env, check=True, capture_output=True, text=True)


def measure(nudge, env, runs, hyperfine, report):
    work = tempfile.mkdtemp(prefix="nudge-bench-sync-")
    try:
        doc = os.path.join(work, "ten-years.json")
        json.dump(history_export(10), open(doc, "w"))
        folder = os.path.join(work, "folder")
        os.mkdir(folder, 0o700)
        # the laptop: 10 years, joined (its files: a snapshot and a log)
        laptop = _env(env, os.path.join(work, "laptop.sqlite3"))
        _run(nudge, laptop, "import", doc)
        _run(nudge, laptop, "sync", "init", folder, "--name", "laptop")
        # a change after the snapshot, so the log holds one too
        _run(nudge, laptop, "pause", "--for", "2d")
        # the same 10 years without sync, to compare the today view with
        plain = _env(env, os.path.join(work, "plain.sqlite3"))
        _run(nudge, plain, "import", doc)
        # the desktop: its own copy of the history, joined, the laptop's files read once
        desktop = _env(env, os.path.join(work, "desktop.sqlite3"))
        _run(nudge, desktop, "import", doc)
        _run(nudge, desktop, "sync", "init", folder, "--name", "desktop")
        _run(nudge, desktop, "sync")

        # 1. the today view with sync on and nothing new vs sync off (same history)
        today_off = f"env NUDGE_DB={plain['NUDGE_DB']} {nudge}"
        today_on = f"env NUDGE_DB={desktop['NUDGE_DB']} {nudge}"
        on, off = hyperfine([today_on, today_off], runs, desktop,
                            names=["today view, sync on, nothing new", "today view, sync off"])
        extra = (on - off) * 1000
        report("today view on 10 years: sync on (nothing new) minus sync off",
               f"{on * 1000:.1f} - {off * 1000:.1f} ms = {extra:+.2f} ms", "<= 1 ms", extra <= 1.0)

        # 2. a fresh device takes in the laptop's 10 years (snapshot + log) at its join: a
        #    folder of the laptop's files alone (the desktop's would double what is read)
        alone = os.path.join(work, "laptop-alone")
        os.mkdir(alone, 0o700)
        laptop_id = json.loads(_run(nudge, laptop, "sync", "status", "--json").stdout)["device"]["id"]
        for name in os.listdir(folder):
            if laptop_id in name:
                shutil.copy2(os.path.join(folder, name), os.path.join(alone, name))
        fresh = os.path.join(work, "fresh.sqlite3")
        join_env = _env(env, fresh)
        (took,) = hyperfine(
            [f"{nudge} sync init {alone} --name fresh"], max(3, runs // 5), join_env,
            prepare=f"rm -f {fresh} {fresh}-wal {fresh}-shm",
            names=["sync init: take in 10 years"])
        report("a fresh device takes in 10 years of another's (snapshot + log)",
               f"{took * 1000:.0f} ms", "< 1000 ms", took < 1.0)
        # what it took in is the laptop's history
        a = json.loads(_run(nudge, laptop, "history", "--json", "--days", "3650").stdout)
        b = json.loads(_run(nudge, join_env, "history", "--json", "--days", "3650").stdout)
        report("the fresh device's 10-year history equals the laptop's", "same" if a == b
               else "differs", "same", a == b)

        # 3. the laptop's files against its export
        export = len(_run(nudge, laptop, "export").stdout.encode())
        files = [f for f in os.listdir(folder) if f.startswith("nudge-")]
        mine = _run(nudge, laptop, "sync", "status", "--json")
        device = json.loads(mine.stdout)["device"]["id"]
        size = sum(os.path.getsize(os.path.join(folder, f)) for f in files if device in f)
        report("the laptop's files (snapshot + log) vs its export, 10 years",
               f"{size / 1024:.0f} KiB vs {export / 1024:.0f} KiB = {size / export:.2f}x",
               "<= 3x", size <= 3 * export)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    import argparse
    import statistics

    parser = argparse.ArgumentParser()
    parser.add_argument("nudge")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()

    def hyperfine_alone(commands, runs, env, prepare=None, names=None):
        out = tempfile.mktemp(suffix=".json")
        cmd = ["hyperfine", "-N", "--warmup", "1", "--runs", str(runs), "--export-json", out]
        if prepare:
            cmd = ["hyperfine", "--warmup", "1", "--runs", str(runs), "--export-json", out,
                   "--prepare", prepare]
        subprocess.run(cmd + commands, env=env, check=True, capture_output=True)
        results = json.load(open(out))["results"]
        for name, result in zip(names or commands, results):
            print(f"   {name}: median {statistics.median(result['times']) * 1000:.2f} ms "
                  f"over {len(result['times'])} runs")
        return [statistics.median(r["times"]) for r in results]

    failed = []

    def report_alone(figure, value, target, ok):
        print(f"{'ok  ' if ok else 'MISS'} {figure}: {value} (goal {target})")
        if not ok:
            failed.append(figure)

    measure(os.path.abspath(args.nudge), dict(os.environ), args.runs, hyperfine_alone,
            report_alone)
    sys.exit(1 if failed else 0)
