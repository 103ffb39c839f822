# Sourced by the cli shell tests: the pinned environment of tests/env.sh
# and small helpers that count failures instead of stopping at the first.
: "${HTX_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${HTX_BUILDDIR:=$HTX_SRCDIR/build}"
: "${HTX:=$HTX_BUILDDIR/src/htx}"
export HTX_SRCDIR HTX_BUILDDIR HTX
. "$HTX_SRCDIR/tests/env.sh"
tmp=$tmpdir
DATA=$HTX_SRCDIR/tests/data/cli
EXPECTED=$HTX_SRCDIR/tests/expected/cli
JSON_VALID=$HTX_BUILDDIR/tests/json_valid
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run CMD...: runs CMD with stdout in $tmp/out, stderr in $tmp/err; its exit
# status is in $status.
run() {
    set +e
    "$@" >"$tmp/out" 2>"$tmp/err"
    status=$?
    set -e
}

# expect STATUS CMD...: runs CMD and checks its exit status.
expect() {
    want=$1
    shift
    run "$@"
    if [ "$status" != "$want" ]; then
        fail "exit $status, want $want: $*"
        sed 's/^/  stderr: /' "$tmp/err" >&2
        return 1
    fi
    return 0
}

# same_as NAME [out|err]: the last command's stdout (or stderr) equals
# tests/expected/cli/NAME.
same_as() {
    if ! diff -u "$EXPECTED/$1" "$tmp/${2:-out}" >&2; then
        fail "${2:-out} differs from tests/expected/cli/$1"
    fi
}

# has out|err TEXT: the last command's stdout/stderr contains TEXT (fixed string).
has() {
    if ! grep -q -F -- "$2" "$tmp/$1"; then
        fail "$1 lacks '$2'"
        sed "s/^/  $1: /" "$tmp/$1" >&2
    fi
}

# empty out|err: the last command wrote nothing there.
empty() {
    if [ -s "$tmp/$1" ]; then
        fail "$1 is not empty"
        sed "s/^/  $1: /" "$tmp/$1" >&2
    fi
}

# valid_json: the last command's stdout is one valid JSON document.
valid_json() {
    if ! "$JSON_VALID" "$tmp/out"; then
        fail "stdout is not valid JSON"
    fi
}

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures check(s) failed" >&2
        exit 1
    fi
    exit 0
}
