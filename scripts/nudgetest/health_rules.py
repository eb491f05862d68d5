#!/usr/bin/env python3
"""The night rule of the README's "Last night, from a watch", written again from its text
alone, not from the Swift: issue 53's second implementation, which HealthRulesDifferentialTests
holds `HealthNight` to.

    python3 scripts/nudgetest/health_rules.py < samples.json > nights.json

Input: {"days": ["2026-11-20", ...], "samples": [{"stage": "HKCategoryValueSleepAnalysisAsleepCore",
"start": MICROSECONDS, "end": MICROSECONDS, "offset": SECONDS, "source": "...", "device": "..."|null,
"kind": "sleep"|...}, ...], "order": null|["source", ...]}.
Output: one entry per day, null where the rule finds no night, else its source, first and last
asleep instants (microseconds), asleep and in-bed minutes, and each stage's minutes.
"""
import datetime as dt
import json
import sys

ASLEEP = {
    "HKCategoryValueSleepAnalysisAsleepCore",
    "HKCategoryValueSleepAnalysisAsleepDeep",
    "HKCategoryValueSleepAnalysisAsleepREM",
    "HKCategoryValueSleepAnalysisAsleepUnspecified",
}
EPOCH = dt.date(1970, 1, 1)


def union_minutes(spans):
    """Minutes covered by the union of (start, end) spans in microseconds."""
    covered = 0
    last_end = None
    for start, end in sorted(spans):
        if last_end is None or start > last_end:
            covered += end - start
            last_end = end
        elif end > last_end:
            covered += end - last_end
            last_end = end
    return covered / 60_000_000


def night(day, samples, order):
    """The README's night of the morning `day`, or None."""
    morning = (dt.date.fromisoformat(day) - EPOCH).days * 86400
    noon_before, noon = morning - 12 * 3600, morning + 12 * 3600
    sleep = []
    for s in samples:
        if s["kind"] != "sleep":
            continue
        # the clock the export wrote it with: its start's wall time, in whole seconds
        wall = s["start"] // 1_000_000 + s["offset"]
        if noon_before <= wall < noon:
            sleep.append(s)
    if order is None:
        names = {s["source"] for s in sleep}
        watches = {s["source"] for s in sleep
                   if "Watch" in s["source"] or "Watch" in (s.get("device") or "")}
        order = sorted(watches) + sorted(names - watches)
    chosen = next((name for name in order
                   if any(s["source"] == name and s["stage"] in ASLEEP for s in sleep)), None)
    if chosen is None:
        return None
    mine = [s for s in sleep if s["source"] == chosen]
    asleep = [s for s in mine if s["stage"] in ASLEEP]
    stages = {}
    for stage in sorted({s["stage"] for s in mine}):
        minutes = union_minutes([(s["start"], s["end"]) for s in mine if s["stage"] == stage])
        if minutes > 0:
            stages[stage] = minutes
    return {
        "source": chosen,
        "start": min(s["start"] for s in asleep),
        "wake": max(s["end"] for s in asleep),
        "asleep": union_minutes([(s["start"], s["end"]) for s in asleep]),
        "in_bed": union_minutes([(s["start"], s["end"]) for s in mine]),
        "stages": stages,
    }


def main():
    given = json.load(sys.stdin)
    nights = {day: night(day, given["samples"], given.get("order")) for day in given["days"]}
    json.dump(nights, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
