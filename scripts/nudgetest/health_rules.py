#!/usr/bin/env python3
"""The rules of the README's "Last night, from a watch", written again from its text alone, not
from the Swift: issue 53's second implementation, which HealthRulesDifferentialTests holds
`HealthNight` to. The night rule ("Which night", "One source a night", "Asleep", "Real
lengths"), and, with "full": true, the recovery signals, the day and the baselines.

    python3 scripts/nudgetest/health_rules.py < samples.json > nights.json

Input: {"days": ["2026-11-20", ...], "samples": [SAMPLE, ...], "order": null|["source", ...],
"full": true|false (optional, default false)}, where a SAMPLE is
    {"kind": "sleep"|"hrv"|"resting_heart_rate"|"respiratory_rate"|"wrist_temperature"
             |"steps"|"active_energy"|(anything else: ignored),
     "stage": "HKCategoryValueSleepAnalysis..." (sleep samples; others may omit it),
     "value": NUMBER (every kind but sleep; sleep samples may omit it),
     "start": MICROSECONDS, "end": MICROSECONDS (UTC, since 1970),
     "offset": SECONDS (the UTC offset its export wrote it with),
     "source": "...", "device": "..."|null}.
"order" (for every rule) lists the sources first to last; a source it does not list is never
read. When null each rule computes the README's default: a source whose name or device contains
"Watch" first, then the others, each group by the UTF-8 bytes of its name.

Output without "full" (exactly as before issue 53's signals): {DAY: NIGHT|null, ...}, one entry
per day of "days", null where the rule finds no night, else
    NIGHT = {"source", "start", "wake" (first and last asleep instants, microseconds),
             "asleep", "in_bed" (minutes), "stages": {STAGE: minutes, ...}}.

Output with "full": true: the same object, each non-null NIGHT gaining
    "signals": {SIGNAL: null | {"value": weighted mean, "sample_count", "capped_count",
                                "source"}}
for SIGNAL in hrv, resting_heart_rate, respiratory_rate, wrist_temperature, and two more
top-level keys (no date can be spelled "days" or "baselines"):
    "days": {LOCAL_DAY: {"steps": number|null, "active_energy_kcal": number|null}, ...}
        every local day in which some hour was taken for steps or active energy;
    "baselines": {DAY: {NAME: {"value", "ema", "mean", "std", "delta", "z"}, ...}, ...}
        for DAY in "days" and NAME in the four signals and "sleep_duration" (asleep minutes);
        "value" is DAY's own night's, the others read the nights of DAY-30 .. DAY-1 (their
        nights found by the same rule, whether or not those mornings are in "days").

How the README's words are read here:
- Signals: the night window is [start, wake] of the night. A sample with length overlaps it when
  start < wake and end > start (touching an edge is no overlap); a sample without length (start
  == end) when start <= its instant <= wake. The default order is computed over every sample of
  the four signal kinds that overlaps the window; each signal then takes the first source in the
  order with any sample of its kind there. Each value is capped to its plausible range (a value
  outside it counted in capped_count; one on the bound is not) and weighted by max(1, its length
  in seconds).
- The day: each sample's value is spread evenly over [start, end) and split into hours of its
  own clock (start + offset); a sample without length puts its whole value into the hour of its
  instant. A source "wrote" an hour when a sample of its, of that kind, covers part of that hour
  with positive length (or, without length, lies in it), whatever its value (a 0 counts). The
  default order is computed over every steps and active energy sample of the input. A day is
  the sum of its taken hours, in increasing hour order.
- Baselines: the history is oldest first; ema is seeded with the oldest and then
  ema += 0.25 * (v - ema) over every later night of the 30 (null without any); mean and std
  (n - 1) need at least 3 nights; delta = value - mean; z = delta / std when std > 0.
"""
import datetime as dt
import json
import math
import sys

ASLEEP = {
    "HKCategoryValueSleepAnalysisAsleepCore",
    "HKCategoryValueSleepAnalysisAsleepDeep",
    "HKCategoryValueSleepAnalysisAsleepREM",
    "HKCategoryValueSleepAnalysisAsleepUnspecified",
}
EPOCH = dt.date(1970, 1, 1)

# each recovery signal and its plausible range, both ends included
SIGNALS = {
    "hrv": (5.0, 250.0),
    "resting_heart_rate": (25.0, 150.0),
    "respiratory_rate": (4.0, 40.0),
    "wrist_temperature": (30.0, 42.0),
}
ACTIVITY = {"steps": "steps", "active_energy": "active_energy_kcal"}
HOUR = 3_600_000_000  # microseconds
EMA_ALPHA = 0.25
BASELINE_DAYS = 30
BASELINE_MIN = 3


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


def default_order(samples):
    """The README's default order of the sources of `samples`: a Watch (by its name or its
    device) first, then the others, each group by the UTF-8 bytes of the name."""
    names = {s["source"] for s in samples}
    watches = {s["source"] for s in samples
               if "Watch" in s["source"] or "Watch" in (s.get("device") or "")}
    by_bytes = lambda name: name.encode("utf-8")
    return sorted(watches, key=by_bytes) + sorted(names - watches, key=by_bytes)


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


def in_window(s, first, last):
    """Whether sample `s` overlaps the night window [first, last] (microseconds)."""
    if s["end"] <= s["start"]:  # without length: it must lie in the window
        return first <= s["start"] <= last
    return s["start"] < last and s["end"] > first


def signals(the_night, samples, order):
    """The four recovery signals of a night found by `night`."""
    first, last = the_night["start"], the_night["wake"]
    near = [s for s in samples if s["kind"] in SIGNALS and in_window(s, first, last)]
    if order is None:
        order = default_order(near)
    found = {}
    for name, (low, high) in SIGNALS.items():
        of_kind = [s for s in near if s["kind"] == name]
        chosen = next((src for src in order if any(s["source"] == src for s in of_kind)), None)
        if chosen is None:
            found[name] = None
            continue
        mine = sorted((s for s in of_kind if s["source"] == chosen),
                      key=lambda s: (s["start"], s["end"], float(s["value"])))
        weighted = weights = 0.0
        capped = 0
        for s in mine:
            value = float(s["value"])
            if value < low or value > high:
                capped += 1
                value = min(max(value, low), high)
            weight = max(1.0, (s["end"] - s["start"]) / 1_000_000)
            weighted += weight * value
            weights += weight
        found[name] = {"value": weighted / weights, "sample_count": len(mine),
                       "capped_count": capped, "source": chosen}
    return found


def hour_shares(s):
    """{local hour index: share of the value} of one activity sample, on its own clock."""
    shift = s["offset"] * 1_000_000
    start, end = s["start"] + shift, s["end"] + shift
    value = float(s["value"])
    if end <= start:  # without length: all of it in the hour of its instant
        return {start // HOUR: value}
    shares = {}
    for hour in range(start // HOUR, (end - 1) // HOUR + 1):
        covered = min(end, (hour + 1) * HOUR) - max(start, hour * HOUR)
        if covered > 0:
            shares[hour] = value * covered / (end - start)
    return shares


def activity_days(samples, order):
    """{local day: {"steps", "active_energy_kcal"}}: the README's day rule."""
    activity = [s for s in samples if s["kind"] in ACTIVITY]
    if order is None:
        order = default_order(activity)
    rank = {name: i for i, name in enumerate(order)}
    # (kind, hour) -> {source: [shares, in the samples' order]}
    written = {}
    for s in sorted(activity, key=lambda s: (s["start"], s["end"], float(s["value"]))):
        for hour, share in hour_shares(s).items():
            written.setdefault((s["kind"], hour), {}).setdefault(s["source"], []).append(share)
    # (kind, local day) -> [(hour, total of the hour)]
    taken = {}
    for (kind, hour), by_source in written.items():
        listed = [src for src in by_source if src in rank]
        if not listed:
            continue
        chosen = min(listed, key=rank.__getitem__)
        total = 0.0
        for share in by_source[chosen]:
            total += share
        taken.setdefault((kind, hour // 24), []).append((hour, total))
    days = {}
    for (kind, ordinal), hours in taken.items():
        day = (EPOCH + dt.timedelta(days=ordinal)).isoformat()
        entry = days.setdefault(day, {field: None for field in ACTIVITY.values()})
        total = 0.0
        for _, amount in sorted(hours):
            total += amount
        entry[ACTIVITY[kind]] = total
    return days


def baseline(value, history):
    """The README's baseline of one signal of a morning, `history` its nights oldest first."""
    ema = None
    for v in history:
        ema = v if ema is None else ema + EMA_ALPHA * (v - ema)
    mean = std = None
    if len(history) >= BASELINE_MIN:
        mean = sum(history) / len(history)
        std = math.sqrt(sum((v - mean) ** 2 for v in history) / (len(history) - 1))
    delta = None if value is None or mean is None else value - mean
    z = delta / std if delta is not None and std is not None and std > 0 else None
    return {"value": value, "ema": ema, "mean": mean, "std": std, "delta": delta, "z": z}


def full_output(given):
    samples, order = given["samples"], given.get("order")
    cache = {}

    def night_of(day):
        """The night of `day` with its signals, once."""
        if day not in cache:
            found = night(day, samples, order)
            if found is not None:
                found["signals"] = signals(found, samples, order)
            cache[day] = found
        return cache[day]

    def measure(found, name):
        if found is None:
            return None
        if name == "sleep_duration":
            return found["asleep"]
        signal = found["signals"][name]
        return None if signal is None else signal["value"]

    out = {day: night_of(day) for day in given["days"]}
    baselines = {}
    for day in given["days"]:
        morning = dt.date.fromisoformat(day)
        before = [(morning - dt.timedelta(days=k)).isoformat()
                  for k in range(BASELINE_DAYS, 0, -1)]  # oldest first
        baselines[day] = {}
        for name in list(SIGNALS) + ["sleep_duration"]:
            history = [v for v in (measure(night_of(d), name) for d in before) if v is not None]
            baselines[day][name] = baseline(measure(night_of(day), name), history)
    out["days"] = activity_days(samples, order)
    out["baselines"] = baselines
    return out


def main():
    given = json.load(sys.stdin)
    if given.get("full"):
        json.dump(full_output(given), sys.stdout, sort_keys=True)
        return
    nights = {day: night(day, given["samples"], given.get("order")) for day in given["days"]}
    json.dump(nights, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
