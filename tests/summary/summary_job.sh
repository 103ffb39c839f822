#!/bin/bash
# The TUI on rank summaries without their events (a job whose
# events do not fit in one machine): --events=skip, and --events=auto when
# the events would pass HTX_MAX_MEMORY. Overview, Kernels, Idle, Overlap,
# Collectives and Ranks show the same screens as with the events loaded
# (the stored tables, the collectives matched from the summaries' records); the
# timeline draws every lane from the tiles; the Ranks view has the
# utilization strips; a view that needs events says so; --events=skip on
# traces is refused.
. "$(dirname "$0")/../lib.sh"
keep_going=1

gen=$HTX_BUILDDIR/tests/gen/htx-gen
[ -x "$gen" ] || fail "$gen is not built"
cd "$tmp"
"$gen" -q -o job -r 4 -i 3 -l 2
expect 0 "$HTX" summarize -o sums job

# screen KEYS OUT [OPTIONS...]: the TUI's final screen after KEYS (the rank
# pane hidden, so the main pane has the whole width).
screen() {
    local keys=$1 out=$2
    shift 2
    printf 'p%s\n' "$keys" >"$tmp/keys"
    expect 0 "$HTX" --view=1 --script="$tmp/keys" --dump-screen="$out" --size=36x140 "$@"
}

# The stored tables' views: the same screen either way, the title's
# iterations (counted from the Ranks parts) included.
for view in 2 3 4 5 C R; do
    screen "$view" "full-$view" --events=load sums
    screen "$view" "summary-$view" --events=skip sums
    cmp -s "full-$view" "summary-$view" ||
        fail "view $view without events differs: $(diff "full-$view" "summary-$view" | head -6)"
done

# A time window cannot cut the stored tables: the view says they are the whole run's.
screen "<Right><Right><Right>w<Right><Right><Right>w2" summary-window --events=skip sums
has summary-window "The whole run: a time window or iterations need the events."

# The timeline: every lane of every rank, drawn from the tiles, with busy
# cells on the GPU streams and the CPU threads.
screen "" summary-1 --events=skip sums
screen "" full-1 --events=load sums
grep -q '12 lanes' summary-1 || fail "not 12 lanes on the timeline: $(head -8 summary-1)"
[ "$(grep -c '^│r[0-9] s' summary-1)" = 12 ] && [ "$(grep -c '^│r[0-9] s' full-1)" = 12 ] ||
    fail "not the loaded timeline's stream lanes: $(grep '^│r[0-9]' summary-1 | head -4)"
for rank in 0 1 2 3; do
    grep "^│r$rank s7 " summary-1 | grep -q '█' || fail "rank $rank's stream 7 shows no computation"
done

# A job with a problem opens on its findings, from the summaries alone too
# (screen above starts on the timeline: --view=1).
printf 'p\n' >"$tmp/keys"
expect 0 "$HTX" --events=skip --script="$tmp/keys" --dump-screen=summary-findings --size=36x140 sums
has summary-findings "Findings (Enter: the evidence)"
has summary-findings "read from summaries:"

# Zoomed in past a summary's buckets, the timeline says how to see more.
screen "++++++++++++" summary-zoom --events=skip sums
has summary-zoom "past rank 0's buckets of"

# A job whose tiles would pass a quarter of HTX_MAX_MEMORY keeps them
# coarser: the same lanes, busy where they were, wider buckets zoomed in.
printf 'p\n' >"$tmp/keys"
expect 0 env HTX_MAX_MEMORY=64K "$HTX" --view=1 --script="$tmp/keys" --dump-screen=coarse-1 --size=36x140 sums
[ "$(grep -c '^│r[0-9] s' coarse-1)" = 12 ] || fail "not 12 lanes from coarser tiles: $(head -8 coarse-1)"
for rank in 0 1 2 3; do
    grep "^│r$rank s7 " coarse-1 | grep -q '█' || fail "rank $rank's stream 7 is idle in coarser tiles"
done
cmp -s coarse-1 summary-1 && fail "a 16 KB budget for the tiles left them as stored"
printf 'p++++\n' >"$tmp/keys"
expect 0 env HTX_MAX_MEMORY=64K "$HTX" --view=1 --script="$tmp/keys" --dump-screen=coarse-zoom --size=36x140 sums
expect 0 "$HTX" --view=1 --events=skip --script="$tmp/keys" --dump-screen=fine-zoom --size=36x140 sums
has coarse-zoom "past rank 0's buckets of 2.1 ms"
has fine-zoom "past rank 0's buckets of 1.05 ms"

# Enter on the timeline names the summary that has the rank's events.
screen "<Enter>" summary-enter --events=skip sums
has summary-enter "events not loaded: htx sums/rank-00000.htxs shows rank 0's"

# Ranks (the same screen as loaded, above): the steps and shares from each
# summary's figures, the blame from the records, the utilization strips
# from the tiles.
has summary-R "GPU utilization over time"
has summary-R "Ranks by blame"
for rank in 0 1 2 3; do
    strip=$(grep -E "^│ +$rank +[0-9.]+ +[▁▂▃▄▅▆▇█]" summary-R | head -1)
    [ -n "$strip" ] || fail "no utilization strip for rank $rank: $(grep -A6 'utilization' summary-R)"
    grep -qF "$strip" full-R || fail "rank $rank's strip differs from the loaded one's: $strip"
done

# A view that needs events says so, and names a way to see them.
screen 6 summary-6 --events=skip sums
has summary-6 "Launch needs the events, which are not loaded."
has summary-6 "open its summary alone"
# Enter there opens the left pane's rank with its events (on a terminal).
screen "6<Enter>" summary-6-enter --events=skip sums
has summary-6-enter "events not loaded: htx sums/rank-00000.htxs shows rank 0's"
printf '9<Tab><Down><Down><Tab><Enter>\n' >"$tmp/keys"   # the rank pane shown
expect 0 "$HTX" --view=1 --script="$tmp/keys" --dump-screen=summary-9-enter --size=36x140 --events=skip sums
has summary-9-enter "events not loaded: htx sums/rank-00002.htxs shows rank 2's"
# Kernels: a kernel's instances need the events; Enter on one of its rank
# rows names (and on a terminal opens) that rank's summary.
screen "3l<Enter>" summary-3-enter --events=skip sums
has summary-3-enter "instances need the events"
screen "3ll<Down><Enter>" summary-3-rank --events=skip sums
grep -q "events not loaded: htx sums/rank-0000[0-3].htxs shows rank [0-3]'s" summary-3-rank ||
    fail "Enter on a kernel's rank row named no summary: $(tail -2 summary-3-rank)"
# Collectives: Enter names (and on a terminal opens) the last arriver's summary.
screen "C<Enter>" summary-C-enter --events=skip sums
grep -q "events not loaded: htx sums/rank-0000[0-3].htxs shows rank [0-3]'s (last at" summary-C-enter ||
    fail "Enter on a collective named no summary: $(tail -2 summary-C-enter)"
# Under HTA's semantics the stored HTA tables answer the same screens;
# what only the events (or htx's tables) answer says so.
for view in 2 3 4 5; do
    screen "$view" "full-hta-$view" --events=load --semantics=hta sums
    screen "$view" "summary-hta-$view" --events=skip --semantics=hta sums
    cmp -s "full-hta-$view" "summary-hta-$view" ||
        fail "view $view under hta without events differs: $(diff "full-hta-$view" "summary-hta-$view" | head -6)"
done
cmp -s full-2 full-hta-2 && fail "view 2 is the same under both semantics: the test cannot tell them apart"
screen C summary-hta-C --events=skip --semantics=hta sums
has summary-hta-C "needs the events"

# auto: events that would pass HTX_MAX_MEMORY are not loaded; under it they are.
printf 'p6\n' >"$tmp/keys"
expect 0 env HTX_MAX_MEMORY=1K "$HTX" --view=1 --script="$tmp/keys" --dump-screen=auto-small --size=36x140 sums
has auto-small "Launch needs the events"
expect 0 "$HTX" --view=1 --script="$tmp/keys" --dump-screen=auto-big --size=36x140 sums
grep -q "needs the events" auto-big && fail "--events=auto left the events out under the limit"
has auto-big "Launch"

# htx diff on two jobs' summaries without their events: the diff view
# compares the ranks' stored parts, the same screens as with the events
# (every op, a rank of each side, CPU ops only, GPU kernels by name, the
# other views on the control); what needs the events says so.
"$gen" -q --pair -o pair -r 3 -i 3 -l 2
expect 0 "$HTX" summarize -o pc pair/control
expect 0 "$HTX" summarize -o pt pair/test
diff_screen() {   # KEYS OUT OPTIONS...
    local keys=$1 out=$2
    shift 2
    printf 'p%s\n' "$keys" >"$tmp/keys"
    expect 0 "$HTX" diff --script="$tmp/keys" --dump-screen="$out" --size=36x140 "$@"
}
for keys in "" r rrT O Ks 3 R; do
    diff_screen "$keys" full-diff --force --events=load pc pt
    diff_screen "$keys" summary-diff --force --events=skip pc pt
    cmp -s full-diff summary-diff ||
        fail "diff after '$keys' without events differs: $(diff full-diff summary-diff | head -6)"
done
has summary-diff "3 ranks · 3 iterations"
diff_screen "" summary-diff-0 --events=skip pc pt
has summary-diff-0 "A  aten::rms_norm"
diff_screen "]" summary-diff-iter --events=skip pc pt
has summary-diff-iter "iterations need the events of one rank a side: pick them with r and T"
diff_screen "<Enter>" summary-diff-enter --events=skip pc pt
has summary-diff-enter "an op's instances need the events of one rank a side"
# With a rank a side, those name the summaries that load them (on a
# terminal, below, they load).
diff_screen "rrTT]" summary-diff-ranks --events=skip pc pt
has summary-diff-ranks "events not loaded: htx diff pc/rank-00001.htxs pt/rank-00001.htxs shows iterations"
# auto: sides whose events pass HTX_MAX_MEMORY are compared from their parts
printf 'p]\n' >"$tmp/keys"
expect 0 env HTX_MAX_MEMORY=1K "$HTX" diff --script="$tmp/keys" --dump-screen=diff-auto-small \
    --size=36x140 pc pt
has diff-auto-small "iterations need the events"
expect 0 "$HTX" diff --script="$tmp/keys" --dump-screen=diff-auto-big --size=36x140 pc pt
grep -q "need the events" diff-auto-big && fail "diff --events=auto left the events out under the limit"
# skip refuses what the parts cannot answer, and says why
expect 2 "$HTX" diff --events=skip --script="$tmp/keys" --dump-screen=x pair/control pair/test
has err "the diff needs the events: these paths name traces"
expect 2 "$HTX" diff --events=skip --iteration=2 --script="$tmp/keys" --dump-screen=x pc pt
has err "the diff needs the events: chosen iterations"
expect 2 "$HTX" diff --events=skip --semantics=hta --script="$tmp/keys" --dump-screen=x pc pt
has err "the diff needs the events"

# On a terminal, Enter on a summary-only lane loads that rank's events from its
# summary behind the job's screen, then shows the rank alone with them; q
# brings the job back.
export LSAN_OPTIONS="suppressions=$HTX_SRCDIR/tests/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
tmux_start
tmux_open "htx-summary-$$" 140 36 "\"$HTX\" --view=1 --events=skip sums; echo summary-exit=\$?; sleep 30"
wait_for "12 lanes"
keys Enter
wait_for "sums/rank-00000.htxs · 1 rank"
wait_for "rank 0 with its events: q goes back to the job"
pane | grep -q "needs the events" && fail "the rank was shown without its events"
keys 3
wait_for "Kernel time by type"
keys q
wait_for "back from sums/rank-00000.htxs"
wait_for "4 ranks"
keys q
wait_for "summary-exit=0"
tmux_close

# In a diff of summaries on a terminal, ] with one rank a side loads both ranks'
# events from their summaries behind the diff, then diffs them with their
# iterations (] steps them, Enter shows an op's instances); q brings the
# diff of summaries back.
tmux_open "htx-summary-diff-$$" 140 36 "\"$HTX\" diff --events=skip pc pt; echo diff-exit=\$?; sleep 30"
wait_for "3 ranks · 3 iterations"
keys r r T T ']'
wait_for "rank 1 | rank 1 with their events"
wait_for "pc/rank-00001.htxs vs pt/rank-00001.htxs · 1 rank · 3 iterations"
keys ']'
wait_for "control r1 · iter 1 | test r1 · iter 1"
keys Enter
wait_for "control r1 · iter 1:"
pane | grep -q "need the events" && fail "the ranks' diff was shown without their events"
keys Enter q
wait_for "back from pc/rank-00001.htxs | pt/rank-00001.htxs"
wait_for "3 ranks · 3 iterations"
keys q
wait_for "diff-exit=0"
tmux_close

# --events=auto on summaries whose events fit, on a terminal: the job from
# its tables and tiles at once, its events loaded behind, then every view
# with them (the Launch view needs them).
tmux_open "htx-behind-$$" 140 36 "\"$HTX\" sums; echo behind-exit=\$?; sleep 30"
wait_for "events loaded: every view has them"
wait_for "3 iterations"
keys 6
wait_for "Kernel launches"
pane | grep -q "needs the events" && fail "a view still needs the events once they are loaded"
keys q
wait_for "behind-exit=0"
tmux_close

# skip is for summaries only; a damaged summary is named.
expect 2 "$HTX" --events=skip --script="$tmp/keys" --dump-screen=x --size=36x140 job
has err "--events=skip shows rank summaries"
expect 2 "$HTX" --events=nope job && has err "auto, load, skip"
# The summaries' tables hold every analysis parameter at its default:
# without the events, other parameters are refused (never shown the
# defaults' tables); with them, the events load and the views follow the
# options, as on the traces.
expect 2 "$HTX" --events=skip --num-kernels=2 --script="$tmp/keys" --dump-screen=x --size=36x140 sums
has err "which these options change"
printf '3\n' >"$tmp/kernels.keys"
expect 0 "$HTX" --num-kernels=2 --script="$tmp/kernels.keys" --dump-screen=top2 --size=36x140 sums
expect 0 "$HTX" --num-kernels=2 --script="$tmp/kernels.keys" --dump-screen=top2-job --size=36x140 job
# (the title names what was opened)
[ "$(tail -n +2 top2)" = "$(tail -n +2 top2-job)" ] ||
    fail "--num-kernels=2 on summaries: $(diff top2 top2-job | head -6)"
grep -q "others" top2 || fail "--num-kernels=2 kept every kernel: $(sed -n 18,24p top2)"
mkdir cut && head -c 200 sums/rank-00001.htxs >cut/rank-00001.htxs && cp sums/rank-00000.htxs cut/
expect 1 "$HTX" --events=skip --script="$tmp/keys" --dump-screen=y --size=36x140 cut
has err "cut/rank-00001.htxs"
finish
