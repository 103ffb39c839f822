#!/bin/sh
# End to end on a real pty: `htx diff CONTROL TEST` in tmux opens the diff
# view, `a` keeps the added ops, `s` cycles the sort back to Δ duration, and
# Enter opens the row's instances on both timelines.
. "$(dirname "$0")/../lib.sh"

tmux_start

cd "$HTX_SRCDIR/tests/data/diff"
tmux_open "htx-diff-$$" 160 45 "'$HTX' diff --no-mouse control test"
wait_for "added 2  deleted 0  increased 1"

keys A
wait_for "showing 2 "
pane | grep -q "gemm_kernel" && fail "gemm_kernel is not an added op"
wait_for "A  aten::relu"

# one step at a time, each waited for: count, name, then Δ duration again
keys s
wait_for "sort: count change"
keys s
wait_for "sort: name"
keys s
wait_for "sort: duration change"
# by Δ duration: aten::relu (+8 us) above relu_kernel (+5 us)
pane | awk '/A  aten::relu/ { r = NR } /A  relu_kernel/ { k = NR } END { exit !(r && k && r < k) }' ||
    fail "not sorted by duration change"

keys Enter
wait_for "never runs"
wait_for "1 call, 8 us in total"

keys Escape q
session_gone() { ! tmux has-session -t "$session" 2>/dev/null; }
wait_until 5 session_gone || fail "q did not quit"
exit 0
