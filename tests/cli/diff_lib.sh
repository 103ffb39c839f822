# Sourced by the diff shell tests: the pinned environment of tests/env.sh and
# small helpers.
HTX_SRCDIR=${HTX_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$HTX_SRCDIR/tests/env.sh"
DATA=$HTX_SRCDIR/tests/data/diff
EXPECTED=$HTX_SRCDIR/tests/expected/diff
tmp=$tmpdir
failures=0

# expect_status WANT CMD...: runs CMD (stdout to $tmp/out, stderr to $tmp/err)
# and checks its exit status.
expect_status() {
    want=$1
    shift
    set +e
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    set -e
    if [ "$got" != "$want" ]; then
        echo "FAIL: exit $got, want $want: $*" >&2
        sed 's/^/  stderr: /' "$tmp/err" >&2
        failures=$((failures + 1))
        return 1
    fi
    return 0
}

# expect_output FILE: the last command's stdout equals the expected file.
# The version number is masked so that a release does not touch the files.
expect_output() {
    sed -e 's/"htx_version": "[^"]*"/"htx_version": "X"/' -e 's/^htx [0-9][^ ]* diff:/htx X diff:/' \
        "$tmp/out" >"$tmp/out.masked"
    if ! diff -u "$EXPECTED/$1" "$tmp/out.masked" >&2; then
        echo "FAIL: output differs from $1" >&2
        failures=$((failures + 1))
    fi
}

# expect_grep WHERE PATTERN: the last command's out/err contains PATTERN.
expect_grep() {
    if ! grep -q -- "$2" "$tmp/$1"; then
        echo "FAIL: $1 lacks '$2'" >&2
        sed "s/^/  $1: /" "$tmp/$1" >&2
        failures=$((failures + 1))
    fi
}

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures check(s) failed" >&2
        exit 1
    fi
    exit 0
}
