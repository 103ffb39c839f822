#!/bin/sh
# End to end on a real pty (STYLE.md §6.4): htx on the sample job in a
# 120x40 tmux pane; wait for the main screen; visit every view with its key
# and check what it shows; open the help; resize to 60x15 and back; Ctrl-C;
# then the process must be gone and the pane back to a normal shell screen
# (alternate screen off, cursor visible).
. "$(dirname "$0")/../lib.sh"

[ -x "$HTX" ] || fail "$HTX is not built"
sample=$HTX_SRCDIR/assets/sample
[ -d "$sample" ] || fail "$sample is missing"

# Under AddressSanitizer: ncurses' mouse support for TERM=linux loads the GPM
# library, which keeps one small allocation for the life of the process.
# Slow unwinding gives LeakSanitizer the whole stack so the suppression
# (that one library frame) applies; both are ignored by normal builds.
export LSAN_OPTIONS="suppressions=$HTX_SRCDIR/tests/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
tmux_start

# The top kernel by total time, from the same analysis headless: view 3
# must show (the start of) its name.
top=$("$HTX" report --analysis=kernels --format=json "$sample" |
    sed -n 's/.*{"name": "\([^"]*\)", "sum (us)": \([0-9.]*\),.*/\2 \1/p' |
    grep -v ' others$' | sort -rn | head -n 1 | cut -d' ' -f2- | cut -c1-10)
[ -n "$top" ] || fail "no top kernel from htx report"

cd "$tmpdir"
# run_in_shell NAME COLS ROWS ENV...: an interactive shell (with job control,
# as a user has) in a new pane runs htx on the sample, then prints how htx
# ended, so the test sees both the exit and the shell screen after it.
run_in_shell() {
    _name=$1
    _cols=$2
    _rows=$3
    shift 3
    tmux_open "$_name" "$_cols" "$_rows" "env PS1='$ ' $* sh -i"
    wait_for '$' 10
    # The inner sh reports how htx ended; like htx it is stopped by Ctrl-Z
    # and outlives the Ctrl-C that ends htx (which then dies by SIGINT).
    keys "clear; sh -c 'trap : INT; \"$HTX\" \"$sample\"; echo htx-exit=\$?'" Enter
}

# restored WHAT: the terminal is back to normal (alternate screen off,
# cursor shown). The bytes htx wrote before it stopped or died may not be
# parsed by tmux yet when the test looks: it waits 5 s before it fails.
terminal_normal() {
    [ "$(tmux display-message -p -t "$session" '#{alternate_on}#{cursor_flag}')" = 01 ]
}
restored() {
    wait_until 5 terminal_normal && return 0
    [ "$(tmux display-message -p -t "$session" '#{alternate_on}')" = 0 ] ||
        fail "$1: the terminal was left in the alternate screen"
    fail "$1: the cursor was left hidden"
}

run_in_shell "htx-ui-$$" 120 40
wait_for "1 Timeline" 30
# the sample has a problem above --max-cost: htx opens on its findings
wait_for "Findings (Enter: the evidence)"
keys 1
wait_for "r0 s7"
wait_for "Ranks / streams"

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
help_closed() { ! pane_shows "Help: keys"; }
wait_until 5 help_closed || fail "Esc did not close the help"

tmux resize-window -t "$session" -x 60 -y 15
wait_for "1 Timeline"
wait_for "r0 s7"
[ "$(pane | wc -L)" -le 60 ] || fail "lines wider than the 60-column pane"
tmux resize-window -t "$session" -x 30 -y 8
wait_for "terminal too small"
tmux resize-window -t "$session" -x 120 -y 40
wait_for "9 Sequences"
wait_for "Ranks / streams"

keys C-c
wait_for "htx-exit=130" 10
restored "Ctrl-C"
pane | grep -q "1 Timeline" && fail "the TUI is still on the screen after Ctrl-C"
keys "echo shell-ok" Enter
wait_for "shell-ok" 5
tmux_close

# ---- the same set-up for the checks below ---------------------------------
start() {   # NAME ENV...
    name=$1
    shift
    run_in_shell "$name" 100 30 "$@"
    wait_for "1 Timeline" 30
}

htx_pid() {   # htx is the child of the shell's child
    for p in $(ps -o pid= --ppid "$(tmux display-message -p -t "$session" '#{pane_pid}')"); do
        ps -o pid= -o comm= --ppid "$p" | awk '$2 == "htx" { print $1 }'
    done
}

# SIGTERM, SIGHUP and a crash (SIGSEGV) restore the terminal; the status
# says which signal ended htx.
for sig in TERM:143 HUP:129 SEGV:139; do
    start "htx-sig-$$" ""
    pid=$(htx_pid)
    [ -n "$pid" ] || fail "htx is not running"
    kill -s "${sig%:*}" "$pid"
    wait_for "htx-exit=${sig#*:}" 10
    restored "SIG${sig%:*}"
    kill -0 "$pid" 2>/dev/null && fail "htx survived SIG${sig%:*}"
    tmux_close
done

# Ctrl-Z suspends (the terminal is restored, the shell takes over) and fg
# brings the screen back intact.
start "htx-tstp-$$" ""
pid=$(htx_pid)
[ -n "$pid" ] || fail "htx is not running"
# Stopped is a state of T, whatever follows it: "Tl" while a second thread
# (the cache writer, say) was alive when the stop came, since it stops too.
stopped() {
    case $(ps -o stat= -p "$pid") in T*) return 0 ;; esac
    return 1
}
keys C-z
wait_until 30 stopped || fail "Ctrl-Z did not suspend htx (state: $(ps -o stat= -p "$pid"))"
restored "Ctrl-Z"
keys "fg" Enter
wait_for "Ranks / streams" 10
wait_for "1 Timeline"
keys 3
wait_for "Kernel time by type"
keys q
wait_for "htx-exit=0" 10
tmux_close

# Terminal types: each draws the main screen and quits cleanly.
for term in xterm vt100 linux screen tmux-256color; do
    start "htx-term-$$" "TERM=$term"
    keys 2
    wait_for "Time per rank"
    keys q
    wait_for "htx-exit=0" 10
    restored "TERM=$term"
    tmux_close
done

# Colours: 256 colours by default, none with NO_COLOR (only attributes and
# the default colour); ASCII in a C locale.
colours() {   # the colour parameters of the SGR sequences on the screen
    tmux capture-pane -p -e -t "$session" | grep -o "$(printf '\033')\[[0-9;]*m" |
        tr ';[m' '\n\n\n' | grep -E '^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$' || true
}
# tmux shows the pty's bytes as they come: a capture right after the tab bar
# appears may hold half a frame, so each check waits for the whole of it.
start "htx-color-$$" "TERM=xterm-256color"
wait_for "Ranks / streams"
has_256_colours() { colours | grep -q 38; }
wait_until 5 has_256_colours || fail "no 256-colour output"
keys q
wait_for "htx-exit=0" 10
tmux_close
start "htx-nocolor-$$" "TERM=xterm-256color NO_COLOR=1"
wait_for "Ranks / streams"
wait_for "Confidence"   # the last line of the findings: the whole frame
[ -z "$(colours)" ] || fail "colours despite NO_COLOR"
keys q
wait_for "htx-exit=0" 10
tmux_close
start "htx-ascii-$$" "LC_ALL=C"
wait_for "+ Ranks / streams"   # ASCII boxes in the C locale
keys q
wait_for "htx-exit=0" 10

# A terminal that goes away with no SIGHUP (the tmux server killed hard, as
# an SSH link can drop): htx must leave, not read the dead pty in a loop.
tmux_open "hup-$$" 100 30 "'$HTX' '$sample'"
pid=$(tmux display-message -p -t "$session" '#{pane_pid}')
server=$(tmux display-message -p -t "$session" '#{pid}')   # this test's own server
wait_for "Ranks / streams" 20
kill -9 "$server"
htx_gone() { ! kill -0 "$pid" 2>/dev/null; }
if ! wait_until 10 htx_gone; then
    ps -o pid,stat,pcpu,etime,cmd -p "$pid" >&2 || true
    kill -9 "$pid" 2>/dev/null || true
    fail "htx still running 10 s after its terminal went away"
fi
exit 0
