#!/bin/sh
# htx diff --report: the three formats, both semantics, device filters and
# short names on a tiny control/test pair (tests/data/diff).
. "$(dirname "$0")/diff_lib.sh"

# relative paths, so that the outputs do not depend on where the tree is
cd "$DATA"
C=control
T=test

expect_status 0 "$HTX" diff --report --semantics=hta "$C" "$T" && expect_output hta.txt
expect_status 0 "$HTX" diff --report --semantics=hta --format=json "$C" "$T" &&
    expect_output hta.json
expect_status 0 "$HTX" diff --report --semantics=hta --format=csv --device=gpu "$C" "$T" &&
    expect_output hta_gpu.csv
expect_status 0 "$HTX" diff --report --format=csv --device=cpu "$C" "$T" &&
    expect_output htx_cpu.csv
expect_status 0 "$HTX" diff --report --format=json --control-iteration=2 --test-iteration=2 \
    "$C" "$T" && expect_output htx_iter2.json
expect_status 0 "$HTX" diff --report --semantics=hta --short-names --device=gpu "$C" "$T" &&
    expect_output hta_short_gpu.txt
# the same trace on both sides: nothing changes, and HTA keeps integer columns
expect_status 0 "$HTX" diff --report --semantics=hta --format=csv "$C" "$C" &&
    expect_output hta_same.csv
finish
