#!/bin/sh
# The man page: groff finds nothing to warn about, every option of
# `htx --help` is documented (and every documented option is accepted), and
# every command of EXAMPLES runs on the bundled sample traces.
: "${HTX_SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$(dirname "$0")/lib.sh"
keep_going=1
use_data cli
MAN=$HTX_SRCDIR/man/htx.1

# 1. groff -ww prints nothing.
if ! command -v groff >/dev/null 2>&1; then
    fail "groff not found (Debian: apt-get install groff-base)"
else
    groff -mandoc -ww -z "$MAN" >"$tmp/groff" 2>&1 || fail "groff exited $?"
    if [ -s "$tmp/groff" ]; then
        fail "groff warnings:"
        cat "$tmp/groff" >&2
    fi
fi

# 2. Options: --help and the OPTIONS section list the same ones.
"$HTX" --help | grep -o -E -- '--[a-z][a-z0-9-]*' | sed 's/^--//; s/^\[no-\]//' |
    sort -u >"$tmp/help-opts"
grep -o -E '^\.It Fl -[a-z][a-z0-9-]*|Fl -[a-z][a-z0-9-]*' "$MAN" | sed 's/.*Fl -//' |
    sort -u >"$tmp/man-opts"
for o in $(cat "$tmp/help-opts"); do
    grep -q -x -- "$o" "$tmp/man-opts" || fail "--$o is in --help but not in man/htx.1"
done
for o in $(cat "$tmp/man-opts"); do
    grep -q -x -- "$o" "$tmp/help-opts" || fail "--$o is in man/htx.1 but not in --help"
    run "$HTX" "--$o" /dev/null/x
    if grep -q "unknown option" "$tmp/err"; then
        fail "man/htx.1 documents --$o, which htx does not accept"
    fi
done

# SEMANTICS has one entry per flag of struct semantics.
flags=$(sed -n '/^struct semantics {/,/^};/p' "$HTX_SRCDIR/src/model/semantics.h" | grep -c '^ *bool ')
items=$(sed -n '/^\.Sh SEMANTICS/,/^\.Sh /p' "$MAN" | grep -c '^\.It ')
[ "$flags" -gt 0 ] && [ "$flags" = "$items" ] ||
    fail "SEMANTICS lists $items entries, src/model/semantics.h has $flags flags"

# 3. EXAMPLES: each .Dl line runs, in a copy of the sample traces.
copy_sample() { # copy_sample DEST CANDIDATE...
    dest=$1
    shift
    for src in "$@"; do
        if [ -d "$src" ]; then
            mkdir -p "$(dirname "$dest")"
            cp -R "$src" "$dest"
            return 0
        fi
    done
    fail "none of $* exists for $dest"
}
copy_sample "$tmp/ex/assets/sample" "$HTX_SRCDIR/assets/sample"
# the counters example writes next to its input: its own copy, ./traces
copy_sample "$tmp/ex/traces" "$HTX_SRCDIR/assets/sample"
copy_sample "$tmp/ex/assets/diff/control" "$HTX_SRCDIR/assets/diff/control"
copy_sample "$tmp/ex/assets/diff/test" "$HTX_SRCDIR/assets/diff/test"

sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$MAN" | sed -n 's/^\.Dl //p' | sed 's/\\-/-/g' \
    >"$tmp/examples"
[ -s "$tmp/examples" ] || fail "no examples found"
n=0
while read -r prog args; do
    n=$((n + 1))
    [ "$prog" = htx ] || { fail "example does not start with htx: $prog $args"; continue; }
    case " $args " in
    " counters "*assets/*) fail "the counters example writes into the source tree: $args" ;;
    esac
    case " $args " in
    " info "* | " report "* | " counters "* | " check "* | *" --report "*) ui= ;;
    *) ui="--script /dev/null --dump-screen $tmp/screen --force --size 30x100" ;;
    esac
    # shellcheck disable=SC2086
    (cd "$tmp/ex" && "$HTX" $args $ui) >"$tmp/out" 2>"$tmp/err" </dev/null && status=0 || status=$?
    want=0
    case " $args " in *" --fail-on-regression"* | " check "*) [ "$status" = 3 ] && want=3 ;; esac
    if [ "$status" != "$want" ]; then
        fail "example exits $status: htx $args"
        sed 's/^/  stderr: /' "$tmp/err" >&2
        continue
    fi
    case " $args " in *" --format=json "*) valid_json ;; esac
done <"$tmp/examples"
[ "$n" -ge 5 ] || fail "only $n examples"
finish
