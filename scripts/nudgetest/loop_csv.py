"""Loop Habit Tracker's "Export as CSV" for tests, written the way Loop writes it.

    python3 scripts/nudgetest/loop_csv.py OUT.zip|OUT_DIR [--old] [--today YYYY-MM-DD]

Loop 2 (github.com/iSoron/uhabits, uhabits-core/.../core/io/HabitsCSVExporter.kt, commit
035b392e): a zip named "Loop Habits CSV DATE.zip" holding
  - Habits.csv: HabitList.writeCSV, header Position,Name,Question,Description,NumRepetitions,
    Interval,Color; the position "%03d"; opencsv's CSVWriter with quotes only where a field
    needs them (applyQuotesToAll = false) and "\n" line ends;
  - for each habit, the folder "%03d NAME" (sanitizeFilename: [^ a-zA-Z0-9._-] removed, at most
    100 characters, trimmed) with Scores.csv (Date,Score) and Checkmarks.csv (Date,Value,Notes):
    computedEntries.getKnown(), newest first, the value Entry.formattedValue (YES_MANUAL,
    YES_AUTO, NO, SKIP, UNKNOWN for 2, 1, 0, 3, -1, else the number: a measurable habit's
    amount in thousandths);
  - Checkmarks.csv and Scores.csv of every habit: "Date," then each name and a comma; a row a
    day, newest first, every value followed by a comma.
--old writes what Loop 1 wrote (uhabits-core .../models/HabitList.writeCSV and
CheckmarkList.writeCSV, before 2.0): Habits.csv without a Question column (the question was the
description), each Checkmarks.csv as date,value lines without a header, values as numbers (2
checked, 1 implicitly checked, 0 unchecked); and, as a spreadsheet saving it again would, a
UTF-8 byte order mark and CRLF line ends.
"""

import argparse
import datetime as dt
import os
import re
import zipfile

# name, question, numerator, denominator, measurable, entries: day offset -> (value, note)
HABITS = [
    ("Meditate", "Did you meditate today?", 1, 1, False,
     {0: (2, "calm, \"finally\""), 1: (2, ""), 2: (0, "too\nlate"), 3: (3, ""), 5: (2, "")}),
    ("Gym", "Did you go to the gym?", 3, 7, False, {0: (2, ""), 1: (1, ""), 2: (2, "legs")}),
    ("Read", "How many pages?", 1, 1, True, {0: (20000, "on the train"), 1: (0, ""), 2: (3, ""),
                                              4: (12500, "")}),
]

NAMES = {2: "YES_MANUAL", 1: "YES_AUTO", 0: "NO", 3: "SKIP", -1: "UNKNOWN"}


def field(text):
    return '"' + text.replace('"', '""') + '"' if re.search(r'[,"\n\r]', text) else text


def line(fields, end):
    return ",".join(field(f) for f in fields) + end


def files(today, old):
    end = "\r\n" if old else "\n"
    bom = "\ufeff" if old else ""
    out = {}
    header = ["Position", "Name", "Description", "NumRepetitions", "Interval", "Color"] if old \
        else ["Position", "Name", "Question", "Description", "NumRepetitions", "Interval", "Color"]
    text = bom + line(header, end)
    for i, (name, question, num, den, measurable, entries) in enumerate(HABITS):
        # Loop 1 had no question: its description was what it asked
        row = ["%03d" % (i + 1), name] + ([question] if old else [question, ""]) + [
            str(num), str(den), "#FF8F00"]
        text += line(row, end)
        folder = ("%03d %s" % (i + 1, re.sub(r"[^ a-zA-Z0-9._-]+", "", name)[:100])).strip()
        # Loop 1's CheckmarkList.writeCSV wrote date,value lines and no header
        marks = bom if old else line(["Date", "Value", "Notes"], end)
        for offset in sorted(entries):
            value, note = entries[offset]
            day = (today - dt.timedelta(days=offset)).isoformat()
            shown = str(value) if old or (measurable and value not in NAMES) else NAMES[value]
            marks += line([day, shown] + ([] if old else [note]), end)
        out[folder + "/Checkmarks.csv"] = marks
        out[folder + "/Scores.csv"] = "Date,Score\n"
    out["Habits.csv"] = text
    out["Checkmarks.csv"] = "Date," + "".join(h[0] + "," for h in HABITS) + "\n"
    out["Scores.csv"] = out["Checkmarks.csv"]
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--old", action="store_true")
    parser.add_argument("--today", default="2026-11-20")
    args = parser.parse_args()
    made = files(dt.date.fromisoformat(args.today), args.old)
    if args.out.endswith(".zip"):
        with zipfile.ZipFile(args.out, "w", zipfile.ZIP_DEFLATED) as z:
            for name, text in made.items():
                z.writestr(name, text.encode("utf-8"))
    else:
        for name, text in made.items():
            path = os.path.join(args.out, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)


if __name__ == "__main__":
    main()
