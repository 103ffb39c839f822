#!/bin/bash
# The trace cache (app/cache.h): the TUI writes the rank summary
# of each trace it opens under $XDG_CACHE_HOME/htx (what htx summarize
# writes) and reads it on the next open of the unchanged trace (the diagnostics view says so, the screens are
# the same; an entry shows the rank's first screen at once on a terminal,
# the events loading behind); a changed trace or a corrupt entry is never trusted and is
# rewritten; --no-cache neither reads nor writes; the directory stays under
# HTX_CACHE_MAX; a cache that cannot be written costs nothing but speed.
. "$(dirname "$0")/../lib.sh"
keep_going=1

gen=$HTX_BUILDDIR/tests/gen/htx-gen
[ -x "$gen" ] || fail "$gen is not built"
cd "$tmp"
"$gen" -q -o job -r 2 -i 2 -l 2
export XDG_CACHE_HOME=$tmp/xdg
cache=$XDG_CACHE_HOME/htx
printf '1\n2\n3\n4\nR\nq\n' >view.keys
printf 'i\nq\n' >keys

# open NAME [OPTIONS]: the TUI on job twice: the diagnostics view in NAME,
# where it says which ranks were read from the cache; then the Ranks view
# (after the timeline, overview, kernels and idle) in NAME.view, the same
# as without a cache.
expect 0 "$HTX" --no-cache --script=view.keys --dump-screen=ref.view --size=40x150 job
open_job() {
    local name=$1
    shift
    expect 0 "$HTX" "$@" --script=keys --dump-screen="$name" --force --size=40x150 job
    expect 0 "$HTX" "$@" --script=view.keys --dump-screen="$name.view" --force --size=40x150 job
    cmp -s ref.view "$name.view" || fail "$name: the screens differ: $(diff ref.view "$name.view" | head -5)"
}

open_job first
[ "$(ls "$cache" | grep -c '\.htxs$')" = 2 ] || fail "not one cache entry per rank: $(ls "$cache")"
grep -q "read from the cache" first && fail "the first open claims the cache"
open_job second
[ "$(grep -c "read from the cache" second)" = 2 ] || fail "the second open did not read both ranks from the cache"

# An entry is the rank summary htx summarize --with-events writes of its
# trace (the same bytes, both given the trace's real path): it shows the rank without its
# events, timeline and tables, as summarize's does.
real=$(realpath job)
expect 0 env XDG_CACHE_HOME="$tmp/xdg-real" "$HTX" --script=keys --dump-screen=real.screen \
    --size=40x150 "$real"
expect 0 "$HTX" summarize --with-events -o real-sums "$real"
digests() { (cd "$1" && md5sum -- *.htxs | cut -d' ' -f1 | sort); }
[ "$(digests "$tmp/xdg-real/htx")" = "$(digests real-sums)" ] ||
    fail "the entries are not the summaries: $(ls -l "$tmp/xdg-real/htx" real-sums)"
printf '2\n' >overview.keys
for e in "$cache"/*.htxs; do
    expect 0 "$HTX" --events=skip --script=overview.keys --dump-screen=entry.screen --force \
        --size=40x150 "$e"
    grep -q '1 rank' entry.screen || fail "$e does not show as a summary: $(head -3 entry.screen)"
    grep -q "Time per rank" entry.screen || fail "$e has no tables: $(head -8 entry.screen)"
    grep -q "needs the events" entry.screen && fail "$e needs its events: $(head -8 entry.screen)"
done

# On a terminal, the second open shows the first screen from the entries at
# once and loads the events behind it.
tmux_start
tmux_open "htx-cache-$$" 140 36 "\"$HTX\" job; echo cache-exit=\$?; sleep 30"
wait_for "events loaded: every view has them"
keys q
wait_for "cache-exit=0" 5
tmux_close

# Quitting at once: on a terminal the entry's tables are made, once its
# events are written, by a process of its own (htx cache-complete: detached,
# nice 19, silent) that outlives htx, so after q, or a hangup (the terminal
# closed), the entry is soon whole, and the next open shows its first
# screen from it (the events loading behind), thread lanes named as from
# the trace, without writing the entry again. Nothing else is left in the
# directory (no temporary file). (check_cache.c completes an entry left
# with its events alone as that process does.)
"$gen" -q -o quick -r 1 -i 2 -l 2 -s 24M --plain-ranks=0
printf 'q\n' >q.keys
expect 0 "$HTX" --no-cache --script=q.keys --dump-screen=quick-ref --size=36x150 quick
is_whole() {   # is_whole ENTRY: it shows as a summary with its tables
    "$HTX" --events=skip --script=overview.keys --dump-screen=whole.screen --force \
        --size=40x150 "$1" >/dev/null 2>&1 && grep -q "Time per rank" whole.screen &&
        ! grep -q "needs the events" whole.screen
}
for quit in q hangup; do
    export XDG_CACHE_HOME=$tmp/xdg-quit-$quit
    tmux_open "htx-cache-$quit-$$" 150 36 \
        "XDG_CACHE_HOME='$XDG_CACHE_HOME' \"$HTX\" quick; echo cache-exit=\$?; sleep 60"
    wait_for " iterations" 60   # the first screen (the loading screen's title has none)
    if [ $quit = q ]; then keys q; else tmux_close; fi
    wait_until 20 sh -c "! pgrep -f '^$HTX quick\$' >/dev/null" || fail "htx did not quit ($quit)"
    entry=$(ls "$XDG_CACHE_HOME"/htx/*.htxs)
    wait_until 120 is_whole "$entry" || fail "the entry was not completed after the quit ($quit)"
    [ "$(ls -A "$XDG_CACHE_HOME/htx" | grep -cv '\.htxs$')" = 0 ] ||
        fail "files beside the entry: $(ls -A "$XDG_CACHE_HOME/htx")"
    inode=$(stat -c %i "$entry")
    tmux_open "htx-cache-again-$$" 150 36 \
        "XDG_CACHE_HOME='$XDG_CACHE_HOME' \"$HTX\" quick; echo cache-exit=\$?; sleep 60"
    wait_for "events loaded: every view has them" 60
    keys q
    wait_for "cache-exit=0" 20
    tmux_close
    [ "$(stat -c %i "$entry")" = "$inode" ] || fail "the whole entry was written again ($quit)"
    # (whole.screen: the entry alone, as the first screen shows it)
    [ "$(sed -n '4,10p' whole.screen | cut -c1-24)" = "$(sed -n '4,10p' quick-ref | cut -c1-24)" ] ||
        fail "the entry names other lanes: $(sed -n '4,10p' whole.screen | cut -c1-24)"
done
export XDG_CACHE_HOME=$tmp/xdg

# A changed trace: its entry is ignored and rewritten.
sleep 1
touch job/rank-0.pt.trace.json.gz
open_job changed
[ "$(grep -c "read from the cache" changed)" = 1 ] || fail "a changed trace was read from the cache"
open_job again
[ "$(grep -c "read from the cache" again)" = 2 ] || fail "the changed trace's entry was not rewritten"

# A corrupt entry (cut short, or one byte changed): ignored and rewritten.
for damage in cut flip; do
    for e in "$cache"/*.htxs; do
        if [ $damage = cut ]; then
            head -c 200 "$e" >"$e.tmp" && mv "$e.tmp" "$e"
        else
            printf '\x55' | dd of="$e" bs=1 seek=300 conv=notrunc 2>/dev/null
        fi
    done
    open_job "$damage"
    grep -q "read from the cache" "$damage" && fail "a $damage entry was trusted"
    open_job "after-$damage"
    [ "$(grep -c "read from the cache" "after-$damage")" = 2 ] || fail "the $damage entries were not rewritten"
done

# A trace changed in its middle, its size and mtime kept (touch -r): its
# entry matches on size, time and first and last MiB, not on its whole
# content, which a script's run checks before it uses the entry. The TUI
# says so and shows the new numbers, those of the trace read without the
# cache, and the entry is rewritten; htx report reads no cache. On a
# terminal, the first screen is the entry's, the check runs behind it, and
# the trace is read again, saying so.
"$gen" -q -o mid -r 1 -i 2 -l 2 -s 6M --plain-ranks=0
export XDG_CACHE_HOME=$tmp/xdg-mid   # (the cases below count the entries of job)
f=mid/rank-0.pt.trace.json
printf '3\nq\n' >kernels.keys
: >none.keys
# change_middle: the first digit (1 to 8) of the duration of the first
# such kernel past the middle of $f becomes 9, its size and mtime kept.
change_middle() {
    local size off
    cp -p "$f" mid-ref
    size=$(stat -c %s "$f")
    off=$(LC_ALL=C awk -v m=$((size / 2)) '
        k && /"dur": [1-8]/ && pos > m { print pos + index($0, "\"dur\": ") + 6; exit }
        { k = /"cat": "kernel"/; pos += length($0) + 1 }' "$f")
    [ -n "$off" ] && [ "$off" -gt $((2 << 20)) ] && [ "$off" -lt $((size - (2 << 20))) ] ||
        fail "no kernel's duration in the middle of $f (at '$off' of $size bytes)"
    printf 9 | dd of="$f" bs=1 seek="$off" conv=notrunc 2>/dev/null
    touch -r mid-ref "$f"
    [ "$(stat -c '%s %Y' "$f")" = "$(stat -c '%s %Y' mid-ref)" ] || fail "$f: size or mtime changed"
    if cmp -s "$f" mid-ref; then fail "$f did not change"; fi
}
expect 0 "$HTX" --script=kernels.keys --dump-screen=mid-before --size=30x150 mid
expect 0 "$HTX" report --analysis=kernels --format=json mid && cp "$tmp/out" report-before
change_middle
expect 0 "$HTX" report --analysis=kernels --format=json mid
cmp -s "$tmp/out" report-before && fail "htx report shows the old numbers"
expect 0 "$HTX" --no-cache --script=kernels.keys --dump-screen=mid-fresh --size=30x150 mid
cmp -s mid-before mid-fresh && fail "the change does not show in the kernels view"
expect 0 "$HTX" --script=none.keys --dump-screen=mid-message --size=30x150 mid
grep -q "mid/rank-0.pt.trace.json changed since it was cached (its size and time kept): read again" \
    mid-message || fail "the TUI does not say the trace changed: $(tail -1 mid-message)"
expect 0 "$HTX" --script=kernels.keys --dump-screen=mid-after --size=30x150 mid
cmp -s mid-fresh mid-after || fail "the rewritten entry shows other numbers: $(diff mid-fresh mid-after | head -5)"
expect 0 "$HTX" --script=keys --dump-screen=mid-info --size=40x150 mid
grep -q "read from the cache" mid-info || fail "the changed trace's entry was not rewritten"
change_middle
expect 0 "$HTX" --no-cache --script=kernels.keys --dump-screen=mid-now --size=36x150 mid
tmux_open "htx-cache-mid-$$" 150 36 \
    "XDG_CACHE_HOME='$XDG_CACHE_HOME' \"$HTX\" mid; echo cache-exit=\$?; sleep 30"
wait_for "mid/rank-0.pt.trace.json changed since it was cached (its size and time kept): read again"
keys 3
wait_for "COMMUNICATION"
[ "$(pane | grep COMMUNICATION)" = "$(grep COMMUNICATION mid-now)" ] ||
    fail "the terminal does not show the changed trace's numbers: $(pane | grep COMMUNICATION)"
keys q
wait_for "cache-exit=0" 5
tmux_close
export XDG_CACHE_HOME=$tmp/xdg

# Nothing others can write is trusted: a directory writable by others, or
# one or an entry owned by another user (as root only), is not read, and
# each rank says so, naming the path.
open_job trusted-again
[ "$(grep -c "read from the cache" trusted-again)" = 2 ] || fail "the entries were not read"
chmod 777 "$cache"
open_job open-dir
grep -q "read from the cache" open-dir && fail "a directory writable by others was read"
[ "$(grep -c "not used: writable by others" open-dir)" = 2 ] ||
    fail "no warning of a directory writable by others: $(grep -i cache open-dir)"
grep -q "cache $cache not used" open-dir || fail "the warning does not name $cache"
chmod 700 "$cache"
if [ "$(id -u)" = 0 ]; then
    entry=$(ls "$cache"/*.htxs | head -1)
    chown 12345 "$entry"
    open_job foreign-entry
    [ "$(grep -c "read from the cache" foreign-entry)" = 1 ] ||
        fail "not just the entry of ours was read: $(grep -i cache foreign-entry)"
    grep -q "owned by uid 12345" foreign-entry || fail "no warning of the foreign entry"
    chown 12345 "$cache"
    open_job foreign-dir
    grep -q "read from the cache" foreign-dir && fail "a directory of another user was read"
    grep -q "owned by uid 12345, not by this user" foreign-dir ||
        fail "no warning of the foreign directory"
    chown 0 "$cache"
else
    echo "note: not root: the cases owned by another user are not run"
fi

# --no-cache: nothing read, nothing written.
one=$(stat -c %s "$(ls "$cache"/*.htxs | head -1)")
rm -rf "$cache"
open_job none --no-cache
grep -q "read from the cache" none && fail "--no-cache read the cache"
[ -e "$cache" ] && fail "--no-cache wrote $cache"

# The bound: with room for about one entry, the older ones go first.
rm -rf "$cache"
HTX_CACHE_MAX=$((one * 3 / 2)) open_job bounded
[ "$(ls "$cache" | grep -c '\.htxs$')" = 1 ] || fail "HTX_CACHE_MAX was not kept: $(ls -l "$cache")"
expect 2 env HTX_CACHE_MAX=lots "$HTX" --script=keys --dump-screen=x --force job && has err "HTX_CACHE_MAX"

# Nowhere to write (the cache's parent is a file): the TUI runs as without.
rm -rf "$XDG_CACHE_HOME" && : >"$XDG_CACHE_HOME"
open_job unwritable
finish
