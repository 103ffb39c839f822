#!/bin/bash
# A summary made without its events finds its trace from any working
# directory: as recorded (relative to the working directory), relative to
# the summary's own directory (a job moved whole), or by the real path
# recorded at summarize time; when none is there, the error names every
# path it tried.
. "$(dirname "$0")/../lib.sh"
keep_going=1

gen=$HTX_BUILDDIR/tests/gen/htx-gen
[ -x "$gen" ] || fail "$gen is not built"
# same_file FILE: the last command's stdout is FILE's bytes.
same_file() {
    cmp -s "$1" "$tmp/out" || fail "the report differs: $(diff "$1" "$tmp/out" | head -5)"
}

mkdir "$tmp/a" "$tmp/elsewhere"
cd "$tmp/a"
"$gen" -q -o job -r 2 -i 2 -l 1
expect 0 "$HTX" report --analysis=launch --format=csv job && cp "$tmp/out" "$tmp/want"

# Given relative to the working directory, read from another one: the real path.
expect 0 "$HTX" summarize -o sums job/rank-0.pt.trace.json.gz job/rank-1.pt.trace.json.gz
cd "$tmp/elsewhere"
expect 0 "$HTX" report --analysis=launch --format=csv "$tmp/a/sums" && same_file "$tmp/want"

# Given relative to the summaries' directory, the whole job moved: the
# recorded real path is gone, the summary's directory still leads to it.
cd "$tmp/a/job"
mkdir ../near
expect 0 "$HTX" summarize -o ../near ../job/rank-0.pt.trace.json.gz ../job/rank-1.pt.trace.json.gz
mv "$tmp/a" "$tmp/b"
cd "$tmp/elsewhere"
expect 0 "$HTX" report --analysis=launch --format=csv "$tmp/b/near" && same_file "$tmp/want"

# Gone from everywhere: the error names what was tried.
mv "$tmp/b/job" "$tmp/b/gone"
expect 1 "$HTX" report --analysis=launch "$tmp/b/near" &&
    has err "rank-00000.htxs: its trace is not found (tried ../job/rank-0.pt.trace.json.gz here and beside the summary, then $tmp/a/job/rank-0.pt.trace.json.gz)"
finish
