#!/bin/sh
# htx info on a small two-rank job (rank 0 from distributedInfo, rank 1 from
# its file name, gzip, old category names, one malformed event): text and
# JSON goldens, and the JSON parses.
. "$(dirname "$0")/../lib.sh"
keep_going=1
use_data cli
cd "$DATA"

expect 0 "$HTX" info job && same_as info-job.txt && empty err
expect 0 "$HTX" info --format=json job && same_as info-job.json && valid_json && empty err
expect 0 "$HTX" info --format json job/rank-1.json.gz job/rank-0.json && same_as info-job.json
expect 0 "$HTX" info --rank=1 --format=json job && valid_json
has out '"rank": 1'
if grep -q '"rank": 0' "$tmp/out"; then
    fail "--rank=1 still shows rank 0"
fi
# A file without any rank hint gets the next free number, with a warning.
cp job/rank-0.json "$tmp/a.json"
sed -e 's/"rank": 0, //' job/rank-0.json >"$tmp/norank.json"
expect 0 "$HTX" info --format=json "$tmp/norank.json" && valid_json
has out '"rank_source": "defaulted"'
finish
