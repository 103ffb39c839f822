#!/bin/sh
# End to end on a real pty (STYLE.md §6.4): htx on the sample job in a
# 120x40 tmux pane; wait for the main screen; visit every view with its key
# and check what it shows; open the help; resize to 60x15 and back; Ctrl-C;
# then the process must be gone and the pane back to a normal shell screen
# (alternate screen off, cursor visible). A missing tmux is a failure, not a
# skip: the README's set-up installs it.
HTX_SRCDIR=${HTX_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$HTX_SRCDIR/tests/env.sh"

command -v tmux >/dev/null 2>&1 || fail "tmux is not installed (make deps)"
[ -x "$HTX" ] || fail "$HTX is not built"
sample=$HTX_SRCDIR/assets/sample
[ -d "$sample" ] || fail "$sample is missing"

session=htx-ui-$$
export TMUX_TMPDIR=$tmpdir
trap 'tmux kill-server 2>/dev/null; rm -rf "$tmpdir"' EXIT

screen() {
    tmux capture-pane -p -t "$session"
}

# wait_for TEXT [SECONDS]: polls the screen (default 20 s).
wait_for() {
    i=0
    n=$((${2:-20} * 10))
    while [ $i -lt $n ]; do
        if screen | grep -q -F -- "$1"; then
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    screen >&2
    fail "the screen never showed '$1'"
}

keys() {
    tmux send-keys -t "$session" "$@"
}

# The top kernel by total time, from the same analysis headless: view 3
# must show (the start of) its name.
top=$("$HTX" report --analysis=kernels --format=json "$sample" |
    sed -n 's/.*{"name": "\([^"]*\)", "sum (us)": \([0-9.]*\),.*/\2 \1/p' |
    grep -v ' others$' | sort -rn | head -n 1 | cut -d' ' -f2- | cut -c1-10)
[ -n "$top" ] || fail "no top kernel from htx report"

cd "$tmpdir"
# A plain shell runs htx and then prints how it ended, so the test can see
# both the exit and the shell screen after it. Like an interactive shell it
# survives the Ctrl-C meant for htx (a caught signal is reset in htx).
tmux -f /dev/null new-session -d -s "$session" -x 120 -y 40 \
    "env PS1='$ ' sh -c 'trap : INT; \"$HTX\" \"$sample\"; echo htx-exit=\$?; exec sh'"
wait_for "1 Timeline" 30
wait_for "r0 s7"
screen | grep -q "Ranks / streams" || fail "no rank/stream pane"

check_view() {   # KEY TEXT
    keys "$1"
    wait_for "$2"
}
check_view 2 "Time per rank (%)"
check_view 3 "$top"
check_view 4 "Idle time per stream"
check_view 5 "Communication overlapped by computation"
check_view 6 "Launch delay histogram"
check_view 7 "Kernel time by innermost annotation"
check_view 8 "Queue length over time"
check_view 9 "Frequent kernel sequences"
check_view i "rank(s) loaded"
check_view 1 "compute"

keys "?"
wait_for "Help: keys"
wait_for "show this help"
keys Escape
i=0
while screen | grep -q "Help: keys" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
screen | grep -q "Help: keys" && fail "Esc did not close the help"

tmux resize-window -t "$session" -x 60 -y 15
wait_for "1 Timeline"
[ "$(screen | wc -L)" -le 60 ] || fail "lines wider than the 60-column pane"
screen | grep -q "r0 s7" || fail "no lanes at 60x15"
tmux resize-window -t "$session" -x 30 -y 8
wait_for "terminal too small"
tmux resize-window -t "$session" -x 120 -y 40
wait_for "9 Sequences"
wait_for "Ranks / streams"

keys C-c
wait_for "htx-exit=130" 10
[ "$(tmux display-message -p -t "$session" '#{alternate_on}')" = 0 ] ||
    fail "the terminal was left in the alternate screen"
[ "$(tmux display-message -p -t "$session" '#{cursor_flag}')" = 1 ] ||
    fail "the cursor was left hidden"
screen | grep -q "1 Timeline" && fail "the TUI is still on the screen after Ctrl-C"
keys "echo shell-ok" Enter
wait_for "shell-ok" 5
exit 0
