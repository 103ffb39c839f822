#!/bin/sh
# End to end on a real pty: `htx diff CONTROL TEST` in tmux opens the diff
# view, `a` keeps the added ops, `s` cycles the sort back to Δ duration, and
# Enter opens the row's instances on both timelines. A missing tmux is a
# failure (STYLE.md §6), not a skip.
. "$(dirname "$0")/../lib.sh"

command -v tmux >/dev/null 2>&1 || fail "tmux is not installed (make deps)"
session=htx-diff-$$
export TMUX_TMPDIR=$tmpdir
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$tmpdir"' EXIT

screen() {
    tmux capture-pane -p -t "$session"
}

# wait_for TEXT: polls the screen for up to 10 s.
wait_for() {
    i=0
    while [ $i -lt 100 ]; do
        if screen | grep -q -- "$1"; then
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    screen >&2
    fail "the screen never showed '$1'"
}

cd "$HTX_SRCDIR/tests/data/diff"
tmux new-session -d -s "$session" -x 160 -y 45 "'$HTX' diff --no-mouse control test"
wait_for "added 2  deleted 0  increased 1"

tmux send-keys -t "$session" A
wait_for "showing 2 "
screen | grep -q "gemm_kernel" && fail "gemm_kernel is not an added op"
screen | grep -q "A  aten::relu" || fail "aten::relu missing"

# one step at a time, each waited for: count, name, then Δ duration again
tmux send-keys -t "$session" s
wait_for "sort: count change"
tmux send-keys -t "$session" s
wait_for "sort: name"
tmux send-keys -t "$session" s
wait_for "sort: duration change"
# by Δ duration: aten::relu (+8 us) above relu_kernel (+5 us)
screen | awk '/A  aten::relu/ { r = NR } /A  relu_kernel/ { k = NR } END { exit !(r && k && r < k) }' ||
    fail "not sorted by duration change"

tmux send-keys -t "$session" Enter
wait_for "never runs"
wait_for "1 call, 8 us in total"

tmux send-keys -t "$session" Escape q
i=0
while tmux has-session -t "$session" 2>/dev/null && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
tmux has-session -t "$session" 2>/dev/null && fail "q did not quit"
exit 0
