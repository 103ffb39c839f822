#!/bin/bash
# htx summarize on every set of real traces in ../shared: a report, info and
# diff --report from the summaries are byte for byte those from the traces
# (tests/summary/compare.sh). Under AddressSanitizer, where each run costs
# seconds, the sets up to SAN_SAMPLE_BYTES (every kind the corpus has but
# the largest diff pair, which the other builds run).
. "$(dirname "$0")/../lib.sh"
keep_going=1
. "$(dirname "$0")/compare.sh"

[ -d "$HTX_SHARED/traces" ] || skip "$HTX_SHARED/traces absent: the real traces are skipped"
SAN_SAMPLE_BYTES=${SAN_SAMPLE_BYTES:-1000000}
sample=0
htx_is_asan && sample=1
cd "$tmp"
in_sample() {   # DIR: a set this run takes
    [ "$sample" = 0 ] || [ "$(cat "$1"/*.json* | wc -c)" -le "$SAN_SAMPLE_BYTES" ]
}
# Each set, then diff --report between the summaries of a pair.
for set in $(cd "$HTX_SHARED/traces" && find . -name '*.json.gz' | xargs -n1 dirname | sort -u); do
    name=shared-$(echo "${set#./}" | tr / -)
    in_sample "$HTX_SHARED/traces/$set" || { echo "not in the sample: $set"; continue; }
    cp -r "$HTX_SHARED/traces/$set" "$name"
    expect 0 "$HTX" summarize -o "sum-$name" "$name"
    same_report "$name" "sum-$name"
done
for pair in diff diff_small; do
    [ -d "shared-$pair-control" ] && [ -d "shared-$pair-test" ] || continue
    for sem in htx hta; do
        "$HTX" diff --report --format=json --semantics=$sem "shared-$pair-control" "shared-$pair-test" >"$tmp/t.out" 2>&1 ||
            fail "diff --report on $pair failed"
        "$HTX" diff --report --format=json --semantics=$sem "sum-shared-$pair-control" "sum-shared-$pair-test" >"$tmp/s.out" 2>&1 ||
            fail "diff --report on the summaries of $pair failed: $(head -3 "$tmp/s.out")"
        cmp -s "$tmp/t.out" "$tmp/s.out" || fail "diff --report $pair $sem differs on summaries"
    done
    same_diff "shared-$pair-control" "shared-$pair-test" "sum-shared-$pair-control" "sum-shared-$pair-test"
done
finish
