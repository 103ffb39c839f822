# The one shell library of the tests, sourced by every shell test:
#     . "$(dirname "$0")/../lib.sh"     (from a tests/<folder>/ test)
# It gives
#   - a pinned environment (locale, time zone, terminal, size), the paths
#     make check passes in (HTX_SRCDIR, HTX_BUILDDIR, HTX, HTX_SHARED) and a
#     private temporary directory ($tmpdir, also $tmp) removed however the
#     test ends, with HOME inside it;
#   - failing: `fail` reports and stops the test, unless the test set
#     keep_going=1, in which case it counts and `finish` ends the test with
#     the verdict; `skip` (exit 77) and `need_shared`;
#   - running htx and checking what it printed (`run`, `expect`, `same_as`,
#     `same_as_masked`, `has`, `has_match`, `empty`, `valid_json`), with
#     `use_data NAME` choosing tests/data/NAME and tests/expected/NAME;
#   - a real terminal (`tmux_start`, `tmux_open`, `pane`, `keys`,
#     `wait_for`, `tmux_close`: tmux on a server of the test's own);
#   - hostile-input cases (`expect_case`, `expect_stderr`: time limit, no
#     crash, no sanitizer report, no raw ESC) and small trace builders.
set -eu

export LC_ALL=C.UTF-8 TZ=UTC TERM=xterm-256color
export COLUMNS=100 LINES=30
unset LANG LANGUAGE NO_COLOR 2>/dev/null || true
unset XDG_CONFIG_HOME 2>/dev/null || true  # no user config file in the tests
unset XDG_CACHE_HOME 2>/dev/null || true   # the TUI's cache (app/cache.h) goes under $HOME, below

# make check sets these (Makefile.am TESTS_ENVIRONMENT); running a test by
# hand from the build directory works too.
HTX_SRCDIR=${HTX_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
HTX_BUILDDIR=${HTX_BUILDDIR:-$(pwd)}
HTX=${HTX:-$HTX_BUILDDIR/src/htx}
HTX_SHARED=$HTX_SRCDIR/../shared
export HTX_SRCDIR HTX_BUILDDIR HTX HTX_SHARED
JSON_VALID=$HTX_BUILDDIR/tests/json_valid

tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/htx-test.XXXXXX")
tmp=$tmpdir
trap 'rm -rf "$tmpdir"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
export HOME="$tmpdir/home"
mkdir -p "$HOME"

# ---- verdicts ----------------------------------------------------------------

keep_going=0
failures=0
cases=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
    [ "$keep_going" = 1 ] || exit 1
}

# Automake's test driver reads exit status 77 as SKIP and 99 as a hard error.
skip() {
    echo "SKIP: $*"
    exit 77
}

# The ../shared folder with the real traces, or a clear note and SKIP.
need_shared() {
    [ -d "$HTX_SHARED/traces" ] || skip "../shared not found: skipping $1"
}

finish() {
    [ "$cases" = 0 ] || echo "$cases cases, $failures failed"
    if [ "$failures" -ne 0 ]; then
        echo "$failures check(s) failed" >&2
        exit 1
    fi
    exit 0
}

# ---- running htx and checking its output --------------------------------------

# use_data NAME: inputs from tests/data/NAME, expected outputs in
# tests/expected/NAME.
use_data() {
    DATA=$HTX_SRCDIR/tests/data/$1
    EXPECTED=$HTX_SRCDIR/tests/expected/$1
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
# $EXPECTED/NAME.
same_as() {
    if ! diff -u "$EXPECTED/$1" "$tmp/${2:-out}" >&2; then
        fail "${2:-out} differs from $EXPECTED/$1"
    fi
}

# same_as_masked NAME: as same_as for stdout, with the version number masked
# so that a release does not touch the expected files.
same_as_masked() {
    sed -e 's/"htx_version": "[^"]*"/"htx_version": "X"/' -e 's/^htx [0-9][^ ]* diff:/htx X diff:/' \
        "$tmp/out" >"$tmp/out.masked"
    if ! diff -u "$EXPECTED/$1" "$tmp/out.masked" >&2; then
        fail "output differs from $EXPECTED/$1"
    fi
}

# has out|err TEXT: the last command's stdout/stderr contains TEXT (fixed
# string); has_match out|err REGEX: a line matches the basic REGEX.
has() {
    if ! grep -q -F -- "$2" "$tmp/$1"; then
        fail "$1 lacks '$2'"
        sed "s/^/  $1: /" "$tmp/$1" >&2
        return 1
    fi
}

has_match() {
    if ! grep -q -- "$2" "$tmp/$1"; then
        fail "$1 lacks '$2'"
        sed "s/^/  $1: /" "$tmp/$1" >&2
        return 1
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

# ---- a real terminal: tmux ------------------------------------------------------

# tmux_start: a tmux server of this test's own, its socket in $tmpdir (never
# the one of a tmux the tests run in, nor another test's: a test that ends
# its server must not end a neighbour's), killed when the test ends. One
# session lives as long as the test, so that a session ending never stops
# the server while the next one starts (a client that meets a server on its
# way out fails with "server exited unexpectedly"). A missing tmux is a
# failure, not a skip: the README's set-up installs it.
tmux_start() {
    command -v tmux >/dev/null 2>&1 || { keep_going=0; fail "tmux is not installed (make deps)"; }
    unset TMUX TMUX_PANE
    trap 'tmux kill-server 2>/dev/null || true; rm -rf "$tmpdir"' EXIT
    tmux new-session -d -s "keep-$$" "sleep 3600"
}

tmux() {
    command tmux -f /dev/null -S "$tmpdir/tmux.socket" "$@"
}

# tmux_open SESSION COLS ROWS COMMAND: a new session running COMMAND in a
# shell, now the current one ($session) for pane, keys and wait_for.
tmux_open() {
    session=$1
    tmux new-session -d -s "$1" -x "$2" -y "$3" "$4"
}

pane() {
    tmux capture-pane -p -t "$session"
}

keys() {
    tmux send-keys -t "$session" "$@"
}

# wait_until SECONDS COMMAND...: runs COMMAND every 0.1 s until it
# succeeds; 1 if it has not within SECONDS. tmux shows what a program wrote
# on its own time, so a check of the pane or the terminal waits for it.
wait_until() {
    _tries=$(($1 * 10))
    shift
    while ! "$@"; do
        [ "$_tries" -gt 0 ] || return 1
        sleep 0.1
        _tries=$((_tries - 1))
    done
}

# pane_shows TEXT: the pane shows TEXT (a fixed string) now.
pane_shows() {
    pane | grep -q -F -- "$1"
}

# wait_for TEXT [SECONDS]: waits (default 20 s) until the pane shows TEXT;
# fails with the pane if it never does.
wait_for() {
    wait_until "${2:-20}" pane_shows "$1" && return 0
    pane >&2
    fail "the pane never showed '$1'"
    return 1
}

# tmux_close: ends the current session (its process gets SIGHUP). A caller
# that told htx to quit waits for it to be gone first (wait_for "htx-exit=0"):
# under AddressSanitizer a SIGHUP that meets LeakSanitizer's check at exit
# can leave the process spinning, orphaned, for the rest of the run.
tmux_close() {
    tmux kill-session -t "$session" 2>/dev/null || true
}

# ---- hostile-input cases --------------------------------------------------------
#
# Every case runs htx once, under a time limit, and checks that it neither
# crashed nor hung, that the exit status is the expected one, that its
# messages name the problem, that no sanitizer complained and that no raw
# ESC byte reached the terminal output. A failed case is counted and the
# others still run (hostile tests set keep_going=1 and end with finish).

HOSTILE_TIMEOUT=${HOSTILE_TIMEOUT:-10}
out=$tmpdir/out
err=$tmpdir/err

# Whether htx was built with AddressSanitizer (its shadow memory needs far
# more address space than any ulimit -v a test could set).
htx_is_asan() {
    grep -q -a -m1 '__asan_init' "$HTX"
}

# run_htx ARGS...: htx with stdin closed, under the time limit; sets $status
# and leaves the output in $out and $err. Set HTX_ULIMIT_V (KiB) to cap the
# address space.
run_htx() {
    command -v timeout >/dev/null || fail "timeout (coreutils) not found"
    set +e
    if [ -n "${HTX_ULIMIT_V:-}" ]; then
        (ulimit -v "$HTX_ULIMIT_V" && exec timeout -k 2 "$HOSTILE_TIMEOUT" "$HTX" "$@") \
            >"$out" 2>"$err" </dev/null
    else
        timeout -k 2 "$HOSTILE_TIMEOUT" "$HTX" "$@" >"$out" 2>"$err" </dev/null
    fi
    status=$?
    set -e
}

problem() {
    echo "FAIL: $case_name: $*" >&2
    head -c 2000 "$err" | sed 's/^/    stderr: /' >&2
    failures=$((failures + 1))
}
# The checks every case makes after run_htx, whatever it expects.
sane_run() {
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then
        problem "did not finish within ${HOSTILE_TIMEOUT}s"
    elif [ "$status" -ge 128 ]; then
        problem "killed by signal $((status - 128))"
    elif grep -q -E 'AddressSanitizer|LeakSanitizer|runtime error:|Sanitizer' "$err"; then
        problem "sanitizer report"
    elif grep -q -a "$(printf '\033')" "$out" "$err"; then
        problem "a raw ESC byte reached the output"
    else
        return 0
    fi
    return 1
}

# expect_case NAME STATUS REGEX ARGS...: one case. htx ARGS must exit with
# STATUS, and its stderr (or, for warnings, its stdout) must match the
# extended REGEX (empty: no check).
expect_case() {
    case_name=$1
    local want=$2 pattern=$3
    shift 3
    cases=$((cases + 1))
    run_htx "$@"
    sane_run || return 0
    if [ "$status" != "$want" ]; then
        problem "exit status $status, expected $want (htx $*)"
    elif [ -n "$pattern" ] && ! grep -q -a -E -- "$pattern" "$err" "$out"; then
        problem "no message matching /$pattern/ (htx $*)"
    else
        echo "ok: $case_name"
    fi
}

# expect_stderr NAME STATUS REGEX ARGS...: like expect, but the message must
# be on stderr (bad input is reported there, never on stdout).
expect_stderr() {
    case_name=$1
    local want=$2 pattern=$3
    shift 3
    cases=$((cases + 1))
    run_htx "$@"
    sane_run || return 0
    if [ "$status" != "$want" ]; then
        problem "exit status $status, expected $want (htx $*)"
    elif ! grep -q -a -E -- "$pattern" "$err"; then
        problem "stderr does not match /$pattern/ (htx $*)"
    elif [ "$want" != 0 ] && [ -s "$out" ]; then
        problem "bad input, yet something was written to stdout"
    else
        echo "ok: $case_name"
    fi
}

# A small, valid, real-shaped trace: a launch, kernels on two streams, a
# memcpy, an annotation, iterations and flows.
good_trace() {
    cat <<'EOF'
{"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":0,"world_size":2},
"deviceProperties":[{"id":0,"name":"NVIDIA A100"}],
"traceEvents":[
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":100,"dur":400},
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":110,"dur":80},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":120,"dur":10,"args":{"correlation":7}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":140,"dur":10,"args":{"correlation":8}},
{"ph":"X","cat":"kernel","name":"ampere_sgemm_128x64_tn","pid":0,"tid":7,"ts":130,"dur":50,"args":{"stream":7,"correlation":7}},
{"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce","pid":0,"tid":20,"ts":150,"dur":100,"args":{"stream":20,"correlation":8}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH","pid":0,"tid":7,"ts":200,"dur":4,"args":{"stream":7,"correlation":9,"bytes":4096,"memory bandwidth (GB/s)":1.5}},
{"ph":"X","cat":"gpu_user_annotation","name":"fwd","pid":0,"tid":7,"ts":130,"dur":60,"args":{"stream":7}},
{"ph":"s","id":7,"pid":1,"tid":1,"ts":120,"cat":"ac2g","name":"ac2g"},
{"ph":"f","id":7,"pid":0,"tid":7,"ts":130,"cat":"ac2g","name":"ac2g","bp":"e"},
{"name":"thread_name","ph":"M","ts":100,"pid":1,"tid":1,"args":{"name":"main"}},
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#2","pid":1,"tid":1,"ts":500,"dur":100}
],
"displayTimeUnit":"ms"}
EOF
}

# trace_with EVENTS [TOP-LEVEL MEMBERS]: a document around the given
# traceEvents elements (JSON text), with optional extra members.
trace_with() {
    printf '{%s"traceEvents":[%s]}' "${2:+$2,}" "$1"
}

# repeat N TEXT: TEXT N times, without a newline.
repeat() {
    local n=$1 s=$2
    printf '%*s' "$n" '' | sed "s/ /$(printf '%s' "$s" | sed 's/[\/&]/\\&/g')/g"
}

