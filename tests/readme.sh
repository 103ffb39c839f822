#!/bin/sh
# The README stays true: its first screen is the one htx draws now on the
# bundled sample (made in test mode, as a user's `make run` opens it), the
# view keys of its tour are views of the key table, it stays within
# DESIGN.md's 150 lines, and every document it points to exists.
# UPDATE=1 rewrites the README's screen instead (review it with git diff).
. "$(dirname "$0")/lib.sh"
keep_going=1

readme=$HTX_SRCDIR/README.md
[ -f "$readme" ] || fail "$readme is missing"
[ -x "$HTX" ] || fail "$HTX is not built"

# The screen sits between this marker line and the end of the fenced block
# after it; its size is on the marker: <!-- screen 19x100: ... -->.
marker='^<!-- screen [0-9]*x[0-9]*: '
size=$(grep -m 1 "$marker" "$readme" | sed 's/^<!-- screen \([0-9]*x[0-9]*\):.*/\1/')
[ -n "$size" ] || { fail "README.md has no '<!-- screen ROWSxCOLS: ... -->' line"; finish; }

# The block: the lines after the marker's opening fence, up to its closing one.
awk -v m="$marker" '
    state == 0 && $0 ~ m { state = 1; next }
    state == 1 && /^```/ { state = 2; next }
    state == 2 && /^```/ { exit }
    state == 2 { print }' "$readme" >"$tmp/want.screen"

# The first screen, no key pressed, from the source directory so that the
# title names assets/sample as `make run` does; a fresh cache (--no-cache)
# so that nothing left by an earlier run shows.
: >"$tmp/none.keys"
if ! (cd "$HTX_SRCDIR" && "$HTX" --no-cache --script "$tmp/none.keys" \
        --dump-screen "$tmp/got.screen" --size "$size" assets/sample) 2>"$tmp/err"; then
    fail "htx could not dump the sample's first screen: $(cat "$tmp/err")"
    finish
fi

if [ "${UPDATE:-0}" = 1 ]; then
    awk -v m="$marker" -v screen="$tmp/got.screen" '
        state == 0 && $0 ~ m { state = 1; print; next }
        state == 1 && /^```/ { state = 2; print; while ((getline l < screen) > 0) print l; next }
        state == 2 && /^```/ { state = 3 }
        state == 2 { next }
        { print }' "$readme" >"$tmp/README.md"
    cp "$tmp/README.md" "$readme"
    echo "rewrote the screen in $readme"
elif ! [ -s "$tmp/want.screen" ]; then
    fail "README.md: no screen in the fenced block after the marker (UPDATE=1 $0 writes it)"
elif ! diff -u "$tmp/want.screen" "$tmp/got.screen"; then
    fail "README.md's first screen differs from htx's (UPDATE=1 $0 rewrites it)"
fi

# The tour: each view key in its table's second column is a view of the key
# table, as the help overlay (made from that table) lists it: "view K: ...".
printf '?' >"$tmp/help.keys"
if (cd "$HTX_SRCDIR" && "$HTX" --no-cache --script "$tmp/help.keys" \
        --dump-screen "$tmp/help.screen" --size 200x120 assets/sample) 2>"$tmp/err"; then
    keys=$(awk -F'|' '/^\| [^|]*\? \|/ { print $3 }' "$readme" | grep -o '`[^` ]`' | tr -d '`')
    [ -n "$keys" ] || fail "README.md: no view key found in the tour's table"
    for key in $keys; do
        grep -q -F "view $key: " "$tmp/help.screen" ||
            fail "README.md's tour names view key '$key', which is no view in the key table"
    done
else
    fail "htx could not dump the help overlay: $(cat "$tmp/err")"
fi

lines=$(wc -l <"$readme")
[ "$lines" -le 150 ] || fail "README.md has $lines lines; at most 150 (DESIGN.md, Files)"

# Every local document the README names (a Markdown link or a `docs/...`
# path) is in the tree.
for doc in $(grep -o -E '\]\([^)#:]+\)|`(docs|man|contrib)/[^` ]+`' "$readme" |
        sed -e 's/^](//' -e 's/)$//' -e 's/`//g' | sort -u); do
    [ -e "$HTX_SRCDIR/$doc" ] || fail "README.md names $doc, which does not exist"
done
finish
