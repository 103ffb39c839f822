#!/bin/sh
# Screen dumps of the diff view (STYLE.md §6.3): each
# tests/expected/diff/screens/NAME.keys is a key script for
# `htx diff --script`; its "# args:" line holds the rest of the command line
# (run from tests/data/diff, or with "# dir: gen" from a directory where
# htx-gen made "control" and "test", two runs whose steps are numbered
# 1-3 and 11-13). The dumped screen must equal NAME.screen.
# UPDATE=1 rewrites the expected screens instead (review them with git diff).
. "$(dirname "$0")/../lib.sh"

dir=$HTX_SRCDIR/tests/expected/diff/screens
[ -x "$HTX" ] || fail "$HTX is not built"

gen=$HTX_BUILDDIR/tests/gen/htx-gen
[ -x "$gen" ] || fail "$gen is not built"
"$gen" -q -r 1 -i 3 -l 2 -o "$tmpdir/gen/control" &&
    "$gen" -q -r 1 -i 3 -l 2 --seed=2 --first-step=11 -o "$tmpdir/gen/test" ||
    fail "htx-gen: the renumbered pair"

failed=0
count=0
for keys in "$dir"/*.keys; do
    name=$(basename "$keys" .keys)
    args=$(sed -n 's/^# args: //p' "$keys" | head -n 1)
    from=$HTX_SRCDIR/tests/data/diff
    [ "$(sed -n 's/^# dir: //p' "$keys" | head -n 1)" = gen ] && from=$tmpdir/gen
    out=$tmpdir/$name.screen
    status=0
    # shellcheck disable=SC2086 # args is a word list on purpose
    (cd "$from" &&
        timeout 60 "$HTX" diff --script "$keys" --dump-screen "$out" $args) \
        > "$tmpdir/$name.out" 2> "$tmpdir/$name.err" || status=$?
    count=$((count + 1))
    if [ "$status" != 0 ]; then
        echo "FAIL: $name: exit status $status" >&2
        cat "$tmpdir/$name.err" >&2
        failed=$((failed + 1))
        continue
    fi
    if [ "${UPDATE:-0}" = 1 ]; then
        cp "$out" "$dir/$name.screen"
        continue
    fi
    if ! diff -u "$dir/$name.screen" "$out" >&2; then
        echo "FAIL: $name: screen differs (UPDATE=1 $0 rewrites it)" >&2
        failed=$((failed + 1))
    fi
done
[ "$count" -gt 0 ] || fail "no screen scripts in $dir"
echo "$((count - failed)) of $count diff screens match"
[ "$failed" -eq 0 ]
