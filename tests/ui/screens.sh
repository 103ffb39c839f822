#!/bin/sh
# Screen-dump tests (STYLE.md §6.3): each tests/ui/NAME.keys is a key script
# for `htx --script`; its "# args:" line holds the rest of the command line
# (run from tests/data/ui, so paths in it are relative to that directory).
# A "# dir: gen" line runs it from a directory of generated jobs instead
# (htx-gen; made once below), where "coll" is a 4-rank collectives job with
# a straggler and "train" a one-rank training job.
# The dumped screen must equal tests/ui/NAME.screen (diff -u).
# UPDATE=1 rewrites the expected screens instead (review them with git diff).
. "$(dirname "$0")/../lib.sh"

ui=$HTX_SRCDIR/tests/ui
data=$HTX_SRCDIR/tests/data/ui
[ -x "$HTX" ] || fail "$HTX is not built"

gen=$HTX_BUILDDIR/tests/gen/htx-gen
[ -x "$gen" ] || fail "$gen is not built"
"$gen" -q -r 4 -i 3 --per-step=2 --straggler=2:2:1:400 -o "$tmpdir/gen/coll" ||
    fail "htx-gen: the collectives job"
"$gen" -q -r 1 -i 2 -l 2 -o "$tmpdir/gen/train" || fail "htx-gen: the training job"

failed=0
count=0
for keys in "$ui"/*.keys; do
    name=$(basename "$keys" .keys)
    args=$(sed -n 's/^# args: //p' "$keys" | head -n 1)
    dir=$data
    [ "$(sed -n 's/^# dir: //p' "$keys" | head -n 1)" = gen ] && dir=$tmpdir/gen
    want_status=$(sed -n 's/^# status: //p' "$keys" | head -n 1)
    out=$tmpdir/$name.screen
    status=0
    # Each screen from the traces themselves: a cache warmed by the screens
    # before would show in the diagnostics (tests/summary/cache.sh tests it).
    export XDG_CACHE_HOME=$tmpdir/cache-$name
    # shellcheck disable=SC2086 # args is a word list on purpose
    (cd "$dir" && timeout 60 "$HTX" --script "$keys" --dump-screen "$out" $args) \
        > "$tmpdir/$name.stdout" 2> "$tmpdir/$name.stderr" || status=$?
    count=$((count + 1))
    if [ "$status" != "${want_status:-0}" ]; then
        echo "FAIL: $name: exit status $status, want ${want_status:-0}" >&2
        cat "$tmpdir/$name.stderr" >&2
        failed=$((failed + 1))
        continue
    fi
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$out" "$ui/$name.screen"
        continue
    fi
    if ! diff -u "$ui/$name.screen" "$out"; then
        echo "FAIL: $name: screen differs (UPDATE=1 $0 rewrites it)" >&2
        failed=$((failed + 1))
    fi
done
[ "$count" -gt 0 ] || fail "no screen scripts in $ui"
echo "$((count - failed)) of $count screens match"
[ "$failed" -eq 0 ]
