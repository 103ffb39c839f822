#!/bin/sh
# Bad input exits 1 with a message naming the file and what is wrong, and
# prints nothing on stdout. One broken rank file among good ones is a
# warning: the others still load.
. "$(dirname "$0")/../lib.sh"
keep_going=1
use_data cli
cd "$DATA"

for cmd in info report counters; do
    expect 1 "$HTX" $cmd "$tmp/missing" && empty out && has err "htx: " && has err "$tmp/missing"
done
expect 1 "$HTX" info bad/not-json.json && empty out && has err "bad/not-json.json"
expect 1 "$HTX" info bad/truncated.json.gz && empty out && has err "bad/truncated.json.gz"
expect 1 "$HTX" info bad/no-events.json && empty out && has err "bad/no-events.json"
mkdir "$tmp/empty"
expect 1 "$HTX" info "$tmp/empty" && empty out && has err "$tmp/empty"

# A job with one corrupt rank: exit 0, the good rank on stdout, a warning.
mkdir "$tmp/job"
cp job/rank-0.json "$tmp/job/"
cp bad/truncated.json.gz "$tmp/job/rank-1.json.gz"
expect 0 "$HTX" info --format=json "$tmp/job" && valid_json
has out '"rank": 0'
has out '"failed"'
has err "htx: warning: "
has err "rank-1.json.gz"
expect 0 "$HTX" info "$tmp/job" && has out "failed: $tmp/job/rank-1.json.gz"

# Two files claiming one rank is an error naming both.
mkdir "$tmp/twice"
cp job/rank-0.json "$tmp/twice/a.json"
cp job/rank-0.json "$tmp/twice/b.json"
expect 1 "$HTX" info "$tmp/twice" && empty out && has err "a.json" && has err "b.json"

# $HTX_MAX_INPUT_SIZE: only plain sizes; a sign or spaces are usage errors
# (strtoull would read " -1" as 2^64-1), and the largest size is no limit.
for bad in " -1" "+5M" " 64M"; do
    HTX_MAX_INPUT_SIZE=$bad expect 2 "$HTX" info job/rank-0.json && empty out &&
        has err "HTX_MAX_INPUT_SIZE"
done
HTX_MAX_INPUT_SIZE=18446744073709551615 expect 0 "$HTX" info job/rank-0.json && has out "rank 0"
finish
