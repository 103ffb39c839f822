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
# htx: a time marker beside HTA's count category (gemm_kernel: same count,
# 1.5x per call), the per-call change in %, and --sort=delta --top=N
expect 0 "$HTX" diff --report --sort=delta --top=3 "$C" "$T" &&
    same_as_masked htx_delta_top3.txt
expect 0 "$HTX" diff --report --format=csv --device=gpu "$C" "$T"
grep -q '^gemm_kernel,2,200,2,300,0,100,=,100,150,50,50,slower' "$tmp/out" ||
    fail "gemm_kernel lacks its time marker"
expect 0 "$HTX" diff --report --semantics=hta --format=csv --sort=delta --top=1 "$C" "$T"
[ "$(wc -l <"$tmp/out")" -ge 3 ] && ! grep -q 'time_change' "$tmp/out" &&
    sed -n 3p "$tmp/out" | grep -q '^gemm_kernel,' ||
    fail "hta --sort=delta --top=1"
expect 2 "$HTX" diff --report --sort=size "$C" "$T"
expect 2 "$HTX" diff --report --top=0 "$C" "$T"
# The text diff fits the width (COLUMNS; 100 in the tests): call counts go
# first, then names are cut; notes are prose and may wrap.
COLUMNS=80 expect 0 "$HTX" diff --report "$C" "$T"
long=$(grep -v '^note: ' "$tmp/out" | while IFS= read -r l; do printf '%s' "$l" | wc -m; done |
    sort -n | tail -1)
[ "$long" -le 80 ] || fail "a line of $long columns at COLUMNS=80"
grep -q 'ctl calls' "$tmp/out" && fail "counts kept at 80 columns"
COLUMNS=200 expect 0 "$HTX" diff --report "$C" "$T"
grep -q 'ctl calls' "$tmp/out" || fail "counts dropped at 200 columns"
# without COLUMNS and without a terminal: 100
(unset COLUMNS; "$HTX" diff --report "$C" "$T" >"$tmp/out" 2>&1) || fail "diff --report without COLUMNS"
long=$(grep -v '^note: ' "$tmp/out" | while IFS= read -r l; do printf '%s' "$l" | wc -m; done |
    sort -n | tail -1)
[ "$long" -le 100 ] || fail "a line of $long columns by default"
# Two runs that number their steps differently (htx-gen --first-step): the
# steps pair by position, so the ops that changed top the delta ranking
# instead of every step listed as deleted and added; HTA matches by name.
gen=$HTX_BUILDDIR/tests/gen/htx-gen
[ -x "$gen" ] || fail "$gen is not built"
"$gen" -q -r 1 -i 3 -l 2 --plain -o "$tmp/steps/control" &&
    "$gen" -q -r 1 -i 3 -l 2 --plain --seed=2 --first-step=11 -o "$tmp/steps/test" ||
    fail "htx-gen"
(cd "$tmp/steps" && COLUMNS=100 "$HTX" diff --report --sort=delta --top=6 control test) \
    >"$tmp/out" 2>&1 || fail "diff of renumbered steps"
same_as_masked htx_renumbered_steps.txt
(cd "$tmp/steps" && "$HTX" diff --report --semantics=hta --format=csv --control-iteration=1 \
    --test-iteration=11 control test) >"$tmp/out" 2>&1 || fail "hta diff of renumbered steps"
grep -q '^ProfilerStep#11,' "$tmp/out" || fail "HTA's diff pairs the steps by name"
finish
