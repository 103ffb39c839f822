#!/bin/sh
# htx counters writes <file>_with_counters.json.gz beside each selected
# rank's trace, never overwrites without --force, never touches the input,
# and the written file loads back with the counter events in it.
. "$(dirname "$0")/../lib.sh"
keep_going=1
use_data cli

mkdir "$tmp/job"
cp "$DATA/job/rank-0.json" "$DATA/job/rank-1.json.gz" "$tmp/job/"
expect 0 "$HTX" counters "$tmp/job" && empty err
has out "$tmp/job/rank-0_with_counters.json.gz"
has out "$tmp/job/rank-1_with_counters.json.gz"
cmp "$DATA/job/rank-0.json" "$tmp/job/rank-0.json" || fail "input rank-0.json changed"
cmp "$DATA/job/rank-1.json.gz" "$tmp/job/rank-1.json.gz" || fail "input rank-1.json.gz changed"
gzip -t "$tmp/job/rank-0_with_counters.json.gz" || fail "output is not gzip"
gzip -dc "$tmp/job/rank-0_with_counters.json.gz" >"$tmp/r0.json"
"$JSON_VALID" "$tmp/r0.json" || fail "output is not valid JSON"
grep -q '"ph":"C"' "$tmp/r0.json" || grep -q '"ph": "C"' "$tmp/r0.json" || fail "no counter events"
grep -q 'Queue Length' "$tmp/r0.json" || fail "no queue length counters"

# The written file loads back: same rank, same complete events.
expect 0 "$HTX" info --format=json "$tmp/job/rank-0.json" && mv "$tmp/out" "$tmp/in.json"
expect 0 "$HTX" info --format=json "$tmp/job/rank-0_with_counters.json.gz" && valid_json
grep -q '"events": 19' "$tmp/out" || fail "written file lost events"

# The counter events htx writes escape a trace's strings like every JSON
# htx writes: bytes that are not UTF-8 become \ufffd (the copied events
# stay as the input had them).
mkdir "$tmp/utf8"
sed 's/"pid": 0, "tid": 7/"pid": "gpu\xff\xfe0", "tid": 7/' "$DATA/job/rank-0.json" >"$tmp/utf8/r.json"
expect 0 "$HTX" counters "$tmp/utf8/r.json"
gzip -dc "$tmp/utf8/r_with_counters.json.gz" | grep -a '"ph":"C"' >"$tmp/utf8/counters.txt" ||
    fail "no counter events"
grep -q '"pid":"gpu\\ufffd\\ufffd0"' "$tmp/utf8/counters.txt" || fail "counter pid not escaped"
LC_ALL=C grep -q "$(printf '\377')" "$tmp/utf8/counters.txt" && fail "raw invalid UTF-8 in counter events"

# Refuses to overwrite without --force (bad usage), and says how.
before=$(cksum <"$tmp/job/rank-0_with_counters.json.gz")
expect 2 "$HTX" counters "$tmp/job/rank-0.json" && has err "rank-0_with_counters.json.gz"
[ "$before" = "$(cksum <"$tmp/job/rank-0_with_counters.json.gz")" ] || fail "overwrote without --force"
expect 0 "$HTX" counters --force "$tmp/job/rank-0.json"

# --rank narrows which files are written.
mkdir "$tmp/one"
cp "$DATA/job/rank-0.json" "$DATA/job/rank-1.json.gz" "$tmp/one/"
expect 0 "$HTX" counters --rank=1 "$tmp/one"
[ ! -e "$tmp/one/rank-0_with_counters.json.gz" ] || fail "--rank=1 wrote rank 0"
[ -e "$tmp/one/rank-1_with_counters.json.gz" ] || fail "--rank=1 did not write rank 1"
finish
