# Sourced by the summary tests (after lib.sh): whether what htx prints from
# summaries is byte for byte what it prints from the traces. Expects $HTX
# and $tmp; the caller runs in the directory holding both.

what=--analysis=temporal,kernels,idle,overlap,utilization,collectives,stragglers   # what the tables, tiles and records answer
hta_what=--analysis=temporal,kernels,idle,overlap   # what they answer under HTA's semantics

# same_output TRACES SUMMARIES COMMAND...: the command prints the same
# stdout and stderr on both.
same_output() {
    local traces=$1 sums=$2
    shift 2
    "$HTX" "$@" "$traces" >"$tmp/t.out" 2>"$tmp/t.err"
    local trc=$?
    "$HTX" "$@" "$sums" >"$tmp/s.out" 2>"$tmp/s.err"
    local src=$?
    [ "$trc" = "$src" ] || fail "$*: exit $src on the summaries of $traces, $trc on the traces: $(head -3 "$tmp/s.err")"
    cmp -s "$tmp/t.out" "$tmp/s.out" ||
        fail "$*: the output from the summaries of $traces differs: $(diff "$tmp/t.out" "$tmp/s.out" | head -5)"
    cmp -s "$tmp/t.err" "$tmp/s.err" ||
        fail "$*: the messages from the summaries of $traces differ: $(diff "$tmp/t.err" "$tmp/s.err" | head -5)"
}

# same_report TRACES SUMMARIES [OPTIONS]: every format and semantics agree,
# with every analysis and with the tables' analyses only.
same_report() {
    local traces=$1 sums=$2 sem fmt
    shift 2
    for sem in htx hta; do
        for fmt in json csv text; do
            same_output "$traces" "$sums" report --format=$fmt --semantics=$sem $what "$@"
        done
        same_output "$traces" "$sums" report --format=json --semantics=$sem "$@"
    done
    same_output "$traces" "$sums" report --format=text "$@"
    same_output "$traces" "$sums" info --format=json "$@"
    for fmt in json text; do   # from the tables alone, and from the events
        "$HTX" report --format=$fmt $what "$@" "$traces" >"$tmp/t.out" 2>&1
        for events in skip load; do
            "$HTX" report --events=$events --format=$fmt $what "$@" "$sums" >"$tmp/s.out" 2>&1 ||
                fail "report --events=$events on $sums failed: $(head -3 "$tmp/s.out")"
            cmp -s "$tmp/t.out" "$tmp/s.out" ||
                fail "report --events=$events $fmt on $sums differs: $(diff "$tmp/t.out" "$tmp/s.out" | head -5)"
        done
    done
    same_hta_tables "$traces" "$sums" "$@"
}

# same_hta_tables TRACES SUMMARIES [OPTIONS]: under HTA's semantics, the
# stored analyses from the summaries' tables alone (--events=skip) are the
# report on the traces.
same_hta_tables() {
    local traces=$1 sums=$2 fmt
    shift 2
    for fmt in json csv; do
        "$HTX" report --semantics=hta --format=$fmt $hta_what "$@" "$traces" >"$tmp/t.out" 2>&1
        "$HTX" report --events=skip --semantics=hta --format=$fmt $hta_what "$@" "$sums" \
            >"$tmp/s.out" 2>&1 ||
            fail "report --semantics=hta --events=skip on $sums failed: $(head -3 "$tmp/s.out")"
        cmp -s "$tmp/t.out" "$tmp/s.out" ||
            fail "report --semantics=hta $fmt on $sums differs: $(diff "$tmp/t.out" "$tmp/s.out" | head -5)"
    done
}

# same_diff CONTROL TEST SUM-CONTROL SUM-TEST: diff --report from the
# summaries' ops by rank alone (--events=skip: no event read) prints what it
# prints from the traces, in every format (text but the paths it names),
# with the options those parts answer; those they do not are refused.
same_diff() {
    local opts fmt
    for opts in "" --device=gpu "--short-names --device=cpu" "--sort=delta --top=4" \
        --fail-on-regression=5 --rank=0 "--control-rank=0 --test-rank=0" --iteration=all; do
        for fmt in json csv text; do
            local trc=0 src=0
            # shellcheck disable=SC2086
            "$HTX" diff --report --format=$fmt $opts "$1" "$2" >"$tmp/t.out" 2>&1 || trc=$?
            # shellcheck disable=SC2086
            "$HTX" diff --report --events=skip --format=$fmt $opts "$3" "$4" >"$tmp/s.out" 2>&1 ||
                src=$?
            if [ $fmt = text ]; then   # the lines naming the paths given
                sed -i -E '/^(control |test    )/d' "$tmp/t.out" "$tmp/s.out"
            fi
            [ "$trc" = "$src" ] && cmp -s "$tmp/t.out" "$tmp/s.out" ||
                fail "diff $opts $fmt from the summaries $3 $4 (exit $src, $trc on the traces): $(diff "$tmp/t.out" "$tmp/s.out" | head -5)"
        done
    done
    expect 2 "$HTX" diff --report --events=skip --iteration=1 "$3" "$4" && has err "chosen iterations"
    expect 2 "$HTX" diff --report --events=skip --window=0:1ms "$3" "$4" && has err "a time window"
    expect 2 "$HTX" diff --report --events=skip "$1" "$4" && has err "name traces"
}
