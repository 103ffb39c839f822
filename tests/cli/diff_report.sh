#!/bin/sh
# htx diff --report: the three formats, both semantics, device filters and
# short names on a tiny control/test pair (tests/data/diff).
. "$(dirname "$0")/../lib.sh"
keep_going=1
use_data diff

# relative paths, so that the outputs do not depend on where the tree is
cd "$DATA"
C=control
T=test

expect 0 "$HTX" diff --report --semantics=hta "$C" "$T" && same_as_masked hta.txt
expect 0 "$HTX" diff --report --semantics=hta --format=json "$C" "$T" &&
    same_as_masked hta.json
expect 0 "$HTX" diff --report --semantics=hta --format=csv --device=gpu "$C" "$T" &&
    same_as_masked hta_gpu.csv
expect 0 "$HTX" diff --report --format=csv --device=cpu "$C" "$T" &&
    same_as_masked htx_cpu.csv
expect 0 "$HTX" diff --report --format=json --control-iteration=2 --test-iteration=2 \
    "$C" "$T" && same_as_masked htx_iter2.json
expect 0 "$HTX" diff --report --semantics=hta --short-names --device=gpu "$C" "$T" &&
    same_as_masked hta_short_gpu.txt
# the same trace on both sides: nothing changes, and HTA keeps integer columns
expect 0 "$HTX" diff --report --semantics=hta --format=csv "$C" "$C" &&
    same_as_masked hta_same.csv
finish
