#!/bin/sh
# End to end on a real pty: the screen shown while a trace loads. The load
# is held at its first report of progress until a file exists
# (HTX_TEST_LOAD_GATE, ui/load.c), so the test sees that screen without
# timing it: the frame of the main screen with no view chosen and nothing
# the rest of the trace could change, saying what is still loading; a key
# typed meanwhile is applied once the events are in; then the screen is the
# one a load that was not held ends on. On a larger trace, held after some
# of its events, the lanes read so far. q and Ctrl-C quit a held load.
. "$(dirname "$0")/../lib.sh"

tmux_start
sample=$HTX_SRCDIR/assets/sample
[ -d "$sample" ] || fail "$sample is missing"
cd "$tmpdir"
session_gone() { ! tmux has-session -t "$session" 2>/dev/null; }

# held NAME GATE: htx on the sample in a 160x45 pane, its load held until
# GATE exists; how it ends goes to NAME.rc (the shell outlives a Ctrl-C).
held() {
    tmux_open "$1" 160 45 "sh -c 'trap : INT; HTX_TEST_LOAD_GATE=\"$2\" \"$HTX\" --no-cache \
--no-mouse \"$sample\"; echo \$? > \"$tmpdir/$1.rc\"'"
    wait_for "Loading"
}

# The screen a load ends on, for the sample, when nothing is typed.
"$HTX" --no-cache --script /dev/null --size 45x160 "$sample" > final.screen ||
    fail "no screen dump"
grep -q "Findings (Enter: the evidence)" final.screen || fail "the sample does not open on its findings"

held plain "$tmpdir/go"
wait_for "1 Timeline"
wait_for "loading $sample: "
wait_for "every view waits for all the events"
pane > loading.screen
grep -q "Ranks / streams" loading.screen || fail "no rank pane while loading"
! grep -q "iteration" loading.screen || fail "the iterations were counted before the events were in"
! grep -q "\[" loading.screen || fail "a view was chosen before the events were in"
touch go
wait_for "Findings (Enter: the evidence)"
shows_final() {
    pane | sed 's/ *$//' > shown.screen
    sed 's/ *$//' final.screen | cmp -s - shown.screen
}
wait_until 5 shows_final ||
    { diff -u final.screen shown.screen >&2 || true; fail "the screen after the load is not the one a load ends on"; }
keys q
wait_until 5 session_gone || fail "q did not quit"

# A key typed while the load is held waits for the events: 2 opens the
# overview on them (not the findings the sample opens on).
rm -f go
held keys "$tmpdir/go"
keys 2
wait_for "1 key typed: applied once they are in"
touch go
wait_for "[2 Overview]"
wait_for "Time per rank (%)"
pane | grep -q "Findings (Enter: the evidence)" && fail "the key typed during the load was not applied"
keys q
wait_until 5 session_gone || fail "q did not quit"
[ "$(cat keys.rc)" = 0 ] || fail "htx ended with $(cat keys.rc) after q"

# A trace of 12 MB gives its load reports of progress on the way: held at
# the first, the screen shows the lanes of the events read so far (their
# ids: the threads' names come at the end of the file) and says they are
# partial; let go, it is the screen a load that was not held ends on.
"$HTX_BUILDDIR/tests/gen/htx-gen" -o big -r 1 -s 12M --plain > /dev/null || fail "htx-gen"
trace=$tmpdir/big/rank-0.pt.trace.json
"$HTX" --no-cache --script /dev/null --size 45x160 "$trace" > final.screen || fail "no screen dump"
rm -f go
tmux_open lanes 160 45 "HTX_TEST_LOAD_GATE=\"$tmpdir/go\" \"$HTX\" --no-cache --no-mouse \"$trace\""
wait_for "% read: lanes fill as the file is read; Kineto files are not in time order"
pane > lanes.screen
grep -E "│ p[0-9]+ t[0-9]+ " lanes.screen | grep -q -e "█" -e "#" ||
    { cat lanes.screen >&2; fail "no thread lane busy on the partial screen"; }
! grep -q "iteration" lanes.screen || fail "the iterations were counted before the events were in"
! grep -q "\[" lanes.screen || fail "a view was chosen before the events were in"
grep -q "every view waits for all the events" lanes.screen ||
    fail "the status line does not say what waits"
touch go
wait_until 10 shows_final ||
    { diff -u final.screen shown.screen >&2 || true
      fail "the screen after a partial one is not the one a load ends on"; }
keys q
wait_until 5 session_gone || fail "q did not quit"

# q and Ctrl-C leave a load that never ends, at once.
rm -f go
held quit "$tmpdir/go"
keys q
wait_until 5 session_gone || fail "q did not quit a held load"
[ "$(cat quit.rc)" = 0 ] || fail "htx ended with $(cat quit.rc) after q during the load"
held interrupt "$tmpdir/go"
keys C-c
wait_until 5 session_gone || fail "Ctrl-C did not quit a held load"
[ "$(cat interrupt.rc)" = 130 ] || fail "htx ended with $(cat interrupt.rc) after Ctrl-C during the load"
exit 0
