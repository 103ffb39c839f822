#!/bin/sh
# The trace generator (tests/gen): deterministic, valid JSON whose
# traceEvents agree with its own counts, sized as asked, assets/ in sync with
# it, and, once `htx info` exists, the loader's counts equal the generator's.
. "$(dirname "$0")/lib.sh"

gen=$HTX_BUILDDIR/tests/gen/htx-gen
jcheck=$HTX_BUILDDIR/tests/gen/json-check
[ -x "$gen" ] || fail "$gen is not built"
[ -x "$jcheck" ] || fail "$jcheck is not built"

# A number field of a one-line JSON object: field NAME LINE
field() {
    printf '%s\n' "$2" | tr -d ' ' | sed -n "s/.*\"$1\":\([0-9-]*\).*/\1/p"
}

# An array field, spaces removed: array NAME LINE
array() {
    printf '%s\n' "$2" | tr -d ' ' | sed -n "s/.*\"$1\":\(\[[^]]*\]\).*/\1/p"
}

echo "# same seed, same bytes; another seed, other bytes"
for d in a b; do
    "$gen" -q --seed=5 -r 2 -i 2 -l 2 --frac --plain -o "$tmpdir/$d"
done
"$gen" -q --seed=6 -r 2 -i 2 -l 2 --frac --plain -o "$tmpdir/c"
for r in 0 1; do
    cmp "$tmpdir/a/rank-$r.pt.trace.json" "$tmpdir/b/rank-$r.pt.trace.json" ||
        fail "two runs with --seed=5 differ (rank $r)"
done
if cmp -s "$tmpdir/a/rank-0.pt.trace.json" "$tmpdir/c/rank-0.pt.trace.json"; then
    fail "--seed=5 and --seed=6 wrote the same trace"
fi

echo "# assets/ is what tests/gen/assets.sh makes"
sh "$HTX_SRCDIR/tests/gen/assets.sh" "$gen" "$tmpdir/assets" --stats > "$tmpdir/stats"
(cd "$tmpdir/assets" && find sample diff -type f | sort) > "$tmpdir/want.list"
(cd "$HTX_SRCDIR/assets" && find sample diff -type f | sort) > "$tmpdir/have.list"
diff -u "$tmpdir/have.list" "$tmpdir/want.list" ||
    fail "assets/ file list differs from a fresh run: run 'make assets'"
while read -r f; do
    # Compare the JSON: gzip's bytes may differ with another zlib version.
    gzip -dcf "$HTX_SRCDIR/assets/$f" > "$tmpdir/have.json"
    gzip -dcf "$tmpdir/assets/$f" > "$tmpdir/want.json"
    cmp "$tmpdir/have.json" "$tmpdir/want.json" ||
        fail "assets/$f differs from a fresh run: run 'make assets'"
done < "$tmpdir/want.list"
echo "ok: $(wc -l < "$tmpdir/want.list") asset files"

echo "# valid JSON with as many traceEvents as the generator wrote"
while read -r line; do
    path=$(printf '%s\n' "$line" | sed -n 's/.*"path": "\([^"]*\)".*/\1/p')
    n=$("$jcheck" "$path" | sed -n 's/.*: \([0-9]*\) traceEvents$/\1/p')
    want=$(( $(field events "$line") + $(field flows "$line") + $(field metadata "$line") + 3 ))
    [ "$n" = "$want" ] || fail "$path: $n traceEvents, the generator counted $want"
done < "$tmpdir/stats"
"$jcheck" "$tmpdir/a/rank-0.pt.trace.json" > /dev/null || fail "--frac output is not valid JSON"
printf '{"traceEvents": [1,]}' > "$tmpdir/bad.json"
if "$jcheck" "$tmpdir/bad.json" 2>/dev/null; then fail "json-check accepted invalid JSON"; fi
echo "ok: $(wc -l < "$tmpdir/stats") files"

echo "# --compact writes one-line JSON; the pair differs as htx-gen --help says"
"$gen" -q --compact --plain -r 2 -i 1 -l 1 -o "$tmpdir/compact"
"$jcheck" "$tmpdir/compact/rank-1.pt.trace.json" > /dev/null || fail "--compact output is not valid JSON"
[ "$(wc -l < "$tmpdir/compact/rank-1.pt.trace.json")" = 1 ] || fail "--compact wrote several lines"
grep -q '"rank":1,' "$tmpdir/compact/rank-1.pt.trace.json" || fail "--compact: no \"rank\":1"
# count NAME FILE: events named NAME in a gzip trace
count() {
    gzip -dc "$2" | grep -c "\"name\": \"$1\"" || true
}
control=$tmpdir/assets/diff/control/rank-0.pt.trace.json.gz
test=$tmpdir/assets/diff/test/rank-0.pt.trace.json.gz
for op in aten::dropout aten::native_dropout NativeDropoutBackward0; do
    if [ "$(count "$op" "$control")" = 0 ] || [ "$(count "$op" "$test")" != 0 ]; then
        fail "$op should be in control only"
    fi
done
for op in aten::rms_norm aten::pow aten::mean aten::rsqrt; do
    if [ "$(count "$op" "$control")" != 0 ] || [ "$(count "$op" "$test")" = 0 ]; then
        fail "$op should be in test only"
    fi
done
[ "$(count aten::add "$test")" -gt "$(count aten::add "$control")" ] || fail "aten::add should increase"
[ "$(count aten::zero_ "$test")" -lt "$(count aten::zero_ "$control")" ] || fail "aten::zero_ should decrease"
echo "ok"

echo "# --size gives a file of about that size"
"$gen" -q --plain -r 1 --size=3M -o "$tmpdir/sized"
bytes=$(wc -c < "$tmpdir/sized/rank-0.pt.trace.json")
if [ "$bytes" -lt 2500000 ] || [ "$bytes" -gt 3500000 ]; then
    fail "--size=3M wrote $bytes bytes"
fi
echo "ok: $bytes bytes"

echo "# htx info counts what the generator wrote"
if [ ! -x "$HTX" ]; then
    echo "note: $HTX not built: skipping the loader cross-check"
    exit 0
fi
status=0
"$HTX" info --format=json "$tmpdir/assets/sample" > "$tmpdir/info.json" 2> "$tmpdir/info.err" || status=$?
if [ "$status" = 2 ]; then
    echo "note: htx info is not available yet (exit 2): skipping the loader cross-check"
    exit 0
fi
[ "$status" = 0 ] || fail "htx info failed ($status): $(cat "$tmpdir/info.err")"
tr -d ' \n\t' < "$tmpdir/info.json" | sed 's/},{/}\n{/g' > "$tmpdir/info.lines"
grep '/sample/' "$tmpdir/stats" | while read -r line; do
    rank=$(field rank "$line")
    got=$(grep "\"rank\":${rank}[,}]" "$tmpdir/info.lines") || fail "htx info has no rank $rank"
    for k in world_size kernels memcpy memset cpu_ops runtime user_annotations gpu_user_annotations; do
        [ "$(field $k "$got")" = "$(field $k "$line")" ] ||
            fail "rank $rank: htx info $k=$(field $k "$got"), generator wrote $(field $k "$line")"
    done
    for k in streams iterations; do
        [ "$(array $k "$got")" = "$(array $k "$line")" ] ||
            fail "rank $rank: htx info $k=$(array $k "$got"), generator wrote $(array $k "$line")"
    done
    # "events": every complete event; whether the "Trace" span counts is the loader's choice.
    ev=$(field events "$line")
    case $(field events "$got") in
    "$ev" | "$((ev + 1))") ;;
    *) fail "rank $rank: htx info events=$(field events "$got"), generator wrote $ev" ;;
    esac
done
echo "ok: htx info agrees on $(grep -c '/sample/' "$tmpdir/stats") ranks"
