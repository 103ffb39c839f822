#!/bin/bash
# Part of `make check-valgrind` (tests/valgrind-wrap.sh sets HTX_VALGRIND=1
# for shell tests): `htx info` and `htx report` under valgrind memcheck over
# real trace sets in ../shared/traces, generated traces of several shapes,
# and a few broken inputs (error paths must not leak either). Any memory
# error or definite or indirect leak fails. In a plain `make check` it is
# skipped: valgrind is slow, and ASan covers the suite.
#
# By default it runs a sample that keeps CI short: every real set of at most
# VG_SAMPLE_BYTES compressed (each kind of trace the corpus has: AMD, CPU
# only, NCCL, two ranks, a diff pair) and the small generated traces.
# HTX_VALGRIND_FULL=1 (make check-valgrind-full) runs every real set and the
# larger generated traces too.
. "$(dirname "$0")/../lib.sh"

[ "${HTX_VALGRIND:-}" = 1 ] || skip "runs under make check-valgrind (HTX_VALGRIND=1)"
command -v valgrind >/dev/null || fail "valgrind not found (Debian: apt-get install valgrind)"
gen=$HTX_BUILDDIR/tests/gen/htx-gen
[ -x "$gen" ] || fail "$gen is not built"
VG_TIMEOUT=${VG_TIMEOUT:-900}
VG_SAMPLE_BYTES=${VG_SAMPLE_BYTES:-1000000}
full=${HTX_VALGRIND_FULL:-0}
echo "memcheck: $([ "$full" = 1 ] && echo "every trace" || echo "the sample (HTX_VALGRIND_FULL=1 for every trace)")"

# vg NAME STATUS ARGS...: htx ARGS under memcheck must exit with STATUS and
# valgrind must report nothing.
vg() {
    case_name=$1
    local want=$2 start=$SECONDS
    shift 2
    cases=$((cases + 1))
    set +e
    timeout -k 5 "$VG_TIMEOUT" valgrind --quiet --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
        --track-origins=yes --num-callers=30 --log-file="$tmpdir/vg.log" \
        "$HTX" "$@" >"$out" 2>"$err" </dev/null
    status=$?
    set -e
    if [ -s "$tmpdir/vg.log" ] || [ "$status" = 99 ]; then
        problem "valgrind reports errors (htx $*)"
        head -60 "$tmpdir/vg.log" >&2
    elif [ "$status" != "$want" ]; then
        problem "exit status $status, expected $want (htx $*)"
    else
        echo "ok: $case_name ($((SECONDS - start)) s)"
    fi
}

# ---- real traces ----
if [ -d "$HTX_SHARED/traces" ]; then
    while read -r dir; do
        name=${dir#"$HTX_SHARED/traces/"}
        bytes=$(cat "$dir"/*.json* | wc -c)
        if [ "$full" != 1 ] && [ "$bytes" -gt "$VG_SAMPLE_BYTES" ]; then
            echo "not in the sample: $name ($bytes bytes)"
            continue
        fi
        vg "$name: info" 0 info --format=json "$dir"
        vg "$name: report" 0 report "$dir"
    done < <(find "$HTX_SHARED/traces" -name '*.json*' -exec dirname {} \; | sort -u)
    vg "diff_small: diff --report" 0 diff --report "$HTX_SHARED/traces/diff_small/control" \
        "$HTX_SHARED/traces/diff_small/test"
else
    echo "note: ../shared not found: skipping the real traces (generated ones still run)"
fi

# ---- generated traces ----
"$gen" -q -r 2 -s 100K -o "$tmpdir/g100k"
"$gen" -q -r 2 -s 1M --seed=2 -o "$tmpdir/g1m"
"$gen" -q -r 4 -i 2 -l 2 --frac --compact --plain-ranks=1,3 --seed=4 -o "$tmpdir/gmixed"
"$gen" -q -r 2 -i 2 -l 2 --pair --seed=5 -o "$tmpdir/gpair"
sizes="g100k gmixed"
if [ "$full" = 1 ]; then
    "$gen" -q -r 1 -s 8M --seed=3 -o "$tmpdir/g8m"
    sizes="g100k g1m g8m gmixed"
fi
for d in $sizes; do
    vg "generated $d: info" 0 info "$tmpdir/$d"
    vg "generated $d: report" 0 report --format=json "$tmpdir/$d"
done
vg "generated pair: diff --report" 0 diff --report "$tmpdir/gpair/control" "$tmpdir/gpair/test"
vg "generated 1M: counters" 0 counters "$tmpdir/g1m/rank-0.pt.trace.json.gz"

# ---- error paths ----
f=$tmpdir/g1m/rank-0.pt.trace.json.gz
head -c $(($(wc -c <"$f") / 2)) "$f" >"$tmpdir/cut.json.gz"
vg "truncated gzip" 1 info "$tmpdir/cut.json.gz"
gzip -dc "$f" | head -c 300000 >"$tmpdir/cut.json"
vg "truncated JSON" 1 report "$tmpdir/cut.json"
mkdir "$tmpdir/mixed"
printf '%s' "$(good_trace)" >"$tmpdir/mixed/rank-0.json"
printf '{"traceEvents":[{"ph":"X","cat":"kernel","name":"\\u001b[2J","ts":1,"dur":2,"pid":0,"tid":1,"args":{"stream":7,"a":[[[[1]]]]}},1,"x",{"ts":"bad"}]}' \
    >"$tmpdir/mixed/rank-1.json"
cp "$tmpdir/cut.json" "$tmpdir/mixed/rank-2.json"
vg "a job with malformed events and a broken rank" 0 report "$tmpdir/mixed"
printf '{"traceEvents":[{"args":%s}]}' "$(repeat 1000 '[')$(repeat 1000 ']')" >"$tmpdir/deep.json"
vg "nesting beyond the limit" 1 info "$tmpdir/deep.json"
vg "rank that is not loaded" 2 report --rank=7 "$tmpdir/g100k"

finish
