#!/bin/sh
# htx diff --report: bad input exits 1, bad usage 2, with a message that
# names the side and what is wrong.
. "$(dirname "$0")/../lib.sh"
keep_going=1
use_data diff

C=$DATA/control
T=$DATA/test

expect 2 "$HTX" diff --report --control-rank=4 "$C" "$T" &&
    has_match err "control: no rank 4"
expect 2 "$HTX" diff --report --semantics=hta --test-iteration=9 "$C" "$T" &&
    has_match err "test: no iteration 9"
expect 2 "$HTX" diff --report "$C"
expect 1 "$HTX" diff --report "$C" "$tmp/missing" && has_match err "test"
printf '{"traceEvents": [' >"$tmp/broken.json"
expect 1 "$HTX" diff --report "$tmp/broken.json" "$T" && has_match err "control"
[ ! -s "$tmp/out" ] || { echo "FAIL: output on error" >&2; failures=$((failures + 1)); }
finish
