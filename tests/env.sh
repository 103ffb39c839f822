# Sourced by every shell test (". "$(dirname "$0")/env.sh""): a pinned
# environment, the paths make check passes in, and a private temporary
# directory that is removed however the test ends.
set -eu

export LC_ALL=C.UTF-8 TZ=UTC TERM=xterm-256color
export COLUMNS=100 LINES=30
unset LANG LANGUAGE NO_COLOR 2>/dev/null || true

# make check sets these (Makefile.am TESTS_ENVIRONMENT); running a test by
# hand from a build directory works too.
HTX_SRCDIR=${HTX_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
HTX_BUILDDIR=${HTX_BUILDDIR:-$(pwd)}
HTX=${HTX:-$HTX_BUILDDIR/src/htx}
HTX_SHARED=$HTX_SRCDIR/../shared
export HTX_SRCDIR HTX_BUILDDIR HTX HTX_SHARED

tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/htx-test.XXXXXX")
trap 'rm -rf "$tmpdir"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
export HOME="$tmpdir/home"
unset XDG_CONFIG_HOME 2>/dev/null || true  # no user config file in the tests
mkdir -p "$HOME"

# Automake's test driver reads exit status 77 as SKIP and 99 as a hard error.
skip() {
    echo "SKIP: $*"
    exit 77
}

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# The ../shared folder with the real traces, or a clear note and SKIP.
need_shared() {
    [ -d "$HTX_SHARED/traces" ] || skip "../shared not found: skipping $1"
}
