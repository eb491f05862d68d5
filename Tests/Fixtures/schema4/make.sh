#!/bin/bash
# Makes this fixture with the binary of the first packaged release (commit 27b1e8e, schema 4):
#   git worktree add /tmp/old 27b1e8e && (cd /tmp/old && swift build)
#   Tests/Fixtures/schema4/make.sh /tmp/old/.build/debug/nudge
set -euo pipefail
old=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
export HOME=$work TZ=Europe/Berlin NUDGE_SEED=4 NUDGE_DB=$work/nudge.sqlite3
at() { NUDGE_NOW=$1 "$old" "${@:2}" --no-animation > /dev/null; }
for d in 14 15 16 17 18; do
  at "2026-11-${d}T07:30:00+01:00" review --no-input --why "energy for the kids" \
    --challenge sugary-drinks --swap "sparkling water" --commit-to "drink water" \
    --commit-from "cola"
  at "2026-11-${d}T21:00:00+01:00" checkin --no-input --followed $([ $d = 16 ] && echo no || echo yes) \
    --feel "steady"
  at "2026-11-${d}T21:30:00+01:00" prep --no-input --item water=yes --item produce=yes
done
at 2026-11-16T15:00:00+01:00 need-help --no-input --category habit --note "office cake"
at 2026-11-18T21:40:00+01:00 prep --no-input --item breakfast=yes --other "oats soaking"
NUDGE_NOW=2026-11-18T22:00:00+01:00 "$old" schedule set morning '*-*-* 06:45:00' > /dev/null
NUDGE_NOW=2026-11-18T22:00:00+01:00 "$old" config set snooze 15m > /dev/null
now=2026-11-19T09:00:00+01:00
NUDGE_NOW=$now "$old" history --days 10 --json > "$here/history.json"
for command in streak achievements; do NUDGE_NOW=$now "$old" $command --json > "$here/$command.json"; done
NUDGE_NOW=$now "$old" schedule list --json > "$here/schedule.json"
NUDGE_NOW=$now "$old" config list --json > "$here/config.json"
# the file alone: its WAL folded in
sqlite3 "$NUDGE_DB" 'PRAGMA wal_checkpoint(TRUNCATE);' > /dev/null
cp "$NUDGE_DB" "$here/nudge.sqlite3"
rm -rf "$work"
