#!/bin/sh
# htx diff --report: bad input exits 1, bad usage 2, with a message that
# names the side and what is wrong.
. "$(dirname "$0")/diff_lib.sh"

C=$DATA/control
T=$DATA/test

expect_status 2 "$HTX" diff --report --control-rank=4 "$C" "$T" &&
    expect_grep err "control: no rank 4"
expect_status 2 "$HTX" diff --report --semantics=hta --test-iteration=9 "$C" "$T" &&
    expect_grep err "test: no iteration 9"
expect_status 2 "$HTX" diff --report "$C"
expect_status 1 "$HTX" diff --report "$C" "$tmp/missing" && expect_grep err "test"
printf '{"traceEvents": [' >"$tmp/broken.json"
expect_status 1 "$HTX" diff --report "$tmp/broken.json" "$T" && expect_grep err "control"
[ ! -s "$tmp/out" ] || { echo "FAIL: output on error" >&2; failures=$((failures + 1)); }
finish
