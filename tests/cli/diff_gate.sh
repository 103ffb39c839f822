#!/bin/sh
# htx diff --report --fail-on-regression: exit 3 and what crossed the line.
# Test vs control: gemm_kernel +50%, relu_kernel new (5 us), GPU total +47.7%.
. "$(dirname "$0")/../lib.sh"
keep_going=1
use_data diff

C=$DATA/control
T=$DATA/test

expect 0 "$HTX" diff --report "$C" "$T"
# the new 5 us kernel is above the default floor of 0
expect 3 "$HTX" diff --report --fail-on-regression=60 "$C" "$T" &&
    has_match err "kernel relu_kernel" && has_match out "Regressions beyond the threshold"
# a 10 us floor hides it, and +47.7% / +50% stay below 60%
expect 0 "$HTX" diff --report --fail-on-regression=60 --min-duration=10us "$C" "$T" &&
    has_match out "nothing grew beyond the threshold"
# at 40% the total and gemm_kernel cross
expect 3 "$HTX" diff --report --fail-on-regression=40% --min-duration=10us "$C" "$T" &&
    has_match err "total GPU time" && has_match err "kernel gemm_kernel: 200.000 us -> 300.000 us"
if grep -q relu_kernel "$tmp/err"; then
    echo "FAIL: relu_kernel is below the floor" >&2
    failures=$((failures + 1))
fi
# JSON output stays a document with the regressions table
expect 3 "$HTX" diff --report --format=json --fail-on-regression=40 --min-duration=10us \
    "$C" "$T" && has_match out '"regressions": \[' && has_match out '"growth": 50'
# faster is never a regression
expect 0 "$HTX" diff --report --fail-on-regression=0 "$T" "$T"
expect 0 "$HTX" diff --report --fail-on-regression=10 "$T" "$C"
expect 2 "$HTX" diff --report --fail-on-regression=fast "$C" "$T"
finish
