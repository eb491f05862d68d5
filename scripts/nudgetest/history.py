"""The history the benchmarks read: an export document of daily flows, ending on a fixed day."""

import datetime as dt

# the histories' last day: fixed, so no figure depends on the real date (the benchmarks fix
# "now" with NUDGE_NOW too)
LAST_DAY = dt.date(2026, 11, 20)


def history_export(years, last=LAST_DAY):
    """An export document with `years` years of daily prep, review and check-in (and a help
    note every third day), the last on `last`."""
    prep, review, checkin, help_ = [], [], [], []
    for i in range(years * 365):
        day = (last - dt.timedelta(days=i)).isoformat()
        at = f"{day}T20:30:00+00:00"
        prep.append({"day": day, "sticky_notes": True, "produce": True, "water": True,
                     "breakfast": False, "saved_at": at})
        review.append({"day": day, "why": "energy", "swap": "tea instead of soda",
                       "commit_to": "drink tea", "saved_at": at})
        checkin.append({"day": day, "followed": i % 2 == 0, "saved_at": at})
        if i % 3 == 0:
            help_.append({"id": f"note-{i}", "day": day, "category": "stress", "note": "walked",
                          "at": at})
    return {"format": "nudge-export", "version": 1, "settings": {}, "prep": prep,
            "review": review, "checkin": checkin, "help": help_}
