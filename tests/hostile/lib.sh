# Sourced by the hostile-input tests (tests/hostile/*.sh): every case runs
# htx once on inputs generated into the test's temporary directory, under a
# time limit, and checks that it neither crashed nor hung, that the exit
# status is the expected one (1 = bad input, 0 = loaded, with warnings),
# that its messages name the problem, that no sanitizer complained and that
# no raw ESC byte reached the terminal output. A case that fails is
# reported and the others still run; finish() sets the test's result.
. "$(dirname "$0")/../env.sh"

HOSTILE_TIMEOUT=${HOSTILE_TIMEOUT:-10}
cases=0
problems=0
out=$tmpdir/out
err=$tmpdir/err

command -v timeout >/dev/null || fail "timeout (coreutils) not found"
[ -x "$HTX" ] || fail "$HTX not built"

# Whether htx was built with AddressSanitizer (its shadow memory needs far
# more address space than any ulimit -v a test could set).
htx_is_asan() {
    grep -q -a -m1 '__asan_init' "$HTX"
}

# run_htx ARGS...: htx with stdin closed, under the time limit; sets $status
# and leaves the output in $out and $err. Set HTX_ULIMIT_V (KiB) to cap the
# address space.
run_htx() {
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
    problems=$((problems + 1))
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

# expect NAME STATUS REGEX ARGS...: one case. htx ARGS must exit with
# STATUS, and its stderr (or, for warnings, its stdout) must match the
# extended REGEX (empty: no check).
expect() {
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

finish() {
    echo "$cases cases, $problems failed"
    [ "$problems" = 0 ]
}
