#!/bin/sh
# Names with terminal escape sequences, control characters and bad Unicode
# never reach the terminal raw in text output, and JSON output stays valid.
. "$(dirname "$0")/../lib.sh"
keep_going=1
use_data cli
cd "$DATA"
esc=$(printf '\033')
bel=$(printf '\007')

no_raw_controls() {
    if grep -q "[$esc$bel]" "$tmp/out"; then
        fail "raw control character in the output of $1"
    fi
}

expect 0 "$HTX" info escape.json && no_raw_controls "info"
has out 'CUDA (\x1B]0;pwned\x07GPU \u{9B}31m é)'
expect 0 "$HTX" info --format=json escape.json && valid_json && no_raw_controls "info json"
has out '"device_name": "\u001b]0;pwned\u0007GPU \u009b31m é"'

# File names in a trace directory are hostile too: the warnings and errors
# on stderr that quote them escape their control characters.
mkdir "$tmp/names"
cp job/rank-0.json "$tmp/names/"
: > "$tmp/names/x${esc}]0;pwned${bel}.txt"
expect 0 "$HTX" info "$tmp/names" && has err 'x\x1B]0;pwned\x07.txt: skipped'
if grep -q "[$esc$bel]" "$tmp/err"; then
    fail "raw control character in a warning on stderr"
fi
expect 1 "$HTX" info "$tmp/names/x${esc}]0;pwned${bel}.txt" && has err 'x\x1B]0;pwned\x07.txt'
if grep -q "[$esc$bel]" "$tmp/err"; then
    fail "raw control character in an error on stderr"
fi

# Bidirectional controls (U+202E, U+2066) reorder the text around them: in
# text, CSV and JSON reports, diff --report and error messages they are
# escaped like the other controls.
rlo=$(printf '\342\200\256')
lri=$(printf '\342\201\246')
printf '{"traceEvents":[{"ph":"X","cat":"kernel","name":"gemm%s_fwd%s","ts":1,"dur":2,"pid":0,"tid":1,"args":{"stream":7}}]}' \
    "$rlo" "$lri" >"$tmp/bidi.json"
no_raw_bidi() {
    if grep -q "[$rlo$lri]" "$tmp/out" "$tmp/err"; then
        fail "raw bidirectional control in the output of $1"
    fi
}
expect 0 "$HTX" report --analysis=kernels "$tmp/bidi.json" && no_raw_bidi "report" &&
    has out 'gemm\u{202E}_fwd\u{2066}'
expect 0 "$HTX" report --analysis=kernels --format=csv "$tmp/bidi.json" && no_raw_bidi "csv"
expect 0 "$HTX" report --analysis=kernels --format=json "$tmp/bidi.json" && no_raw_bidi "json" &&
    valid_json && has out 'gemm\u202e_fwd\u2066'
expect 0 "$HTX" diff --report "$tmp/bidi.json" "$tmp/bidi.json" && no_raw_bidi "diff --report"
cp "$tmp/bidi.json" "$tmp/x${rlo}y.json"
expect 1 "$HTX" info "$tmp/x${rlo}y.json/" && no_raw_bidi "an error" && has err 'x\u{202E}y.json'
finish
