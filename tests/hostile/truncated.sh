#!/bin/bash
# A trace cut short anywhere: at every byte of a small real-shaped trace,
# plain and gzip. Every cut is bad input (exit 1, the message names the file
# and says where it ends); in a directory next to a good rank file, each cut
# file is skipped with a warning and the good one still loads.
. "$(dirname "$0")/../lib.sh"

printf '%s' "$(good_trace)" >"$tmpdir/good.json"
size=$(wc -c <"$tmpdir/good.json")
gzip -9 -c "$tmpdir/good.json" >"$tmpdir/good.json.gz"
gzsize=$(wc -c <"$tmpdir/good.json.gz")

# Every prefix of the document, plain, then every prefix of its gzip file.
mkdir "$tmpdir/cuts" "$tmpdir/gzcuts"
doc=$(cat "$tmpdir/good.json")
for ((n = 0; n < size; n++)); do
    printf '%s' "${doc:0:n}" >"$tmpdir/cuts/cut-$(printf %05d "$n").json"
done
for ((n = 0; n < gzsize; n++)); do
    head -c "$n" "$tmpdir/good.json.gz" >"$tmpdir/gzcuts/cut-$(printf %05d "$n").json.gz"
done

# One process per cut at a sample of the structural characters (and the
# byte just after each): each is bad input on its own. A third as many
# under ASan, where each process costs a second.
every=13
htx_is_asan && every=39
structural=$(grep -b -o '[][{}:,"]' "$tmpdir/good.json" | cut -d: -f1 | awk -v every=$every 'NR % every == 1')
for n in $structural; do
    for k in "$n" "$((n + 1))"; do
        f=$tmpdir/cuts/cut-$(printf %05d "$k").json
        [ -f "$f" ] || continue
        expect_stderr "plain cut at byte $k" 1 "cut-$(printf %05d "$k")\.json: .*(end|truncated|empty)" info "$f"
    done
done
for n in 1 2 10 11 $((gzsize / 2)) $((gzsize - 8)) $((gzsize - 4)) $((gzsize - 1)); do
    f=$tmpdir/gzcuts/cut-$(printf %05d "$n").json.gz
    expect_stderr "gzip cut at byte $n of $gzsize" 1 "cut-$(printf %05d "$n")\.json\.gz: .*(truncated|end|empty|not a JSON)" info "$f"
done

# All cuts at once, each beside a good rank: one warning per cut file, the
# good file loads, exit 0. Under ASan each file costs milliseconds (6.5 s
# for the 1,445 plain cuts on an idle machine): the time limit is
# stretched as for files.sh's many files.
many_timeout=$HOSTILE_TIMEOUT
htx_is_asan && many_timeout=$((4 * HOSTILE_TIMEOUT))
for dir in cuts gzcuts; do
    cp "$tmpdir/good.json" "$tmpdir/$dir/rank-0.json"
    HOSTILE_TIMEOUT=$many_timeout expect_case "every $dir prefix in one directory" 0 "" info "$tmpdir/$dir"
    want=$(find "$tmpdir/$dir" -name 'cut-*' | wc -l)
    got=$(grep -c -E "skipped .*cut-[0-9]+\.json" "$err" || true)
    if [ "$got" != "$want" ]; then
        case_name="every $dir prefix reported"
        problem "$got skipped-file warnings for $want cut files"
    fi
    grep -q -E '^rank 0: .*rank-0\.json' "$out" || { case_name="good rank beside $dir"; problem "the good rank did not load"; }
done

# The whole document cut in the middle of a long event list (report too).
{
    printf '{"traceEvents":['
    for ((i = 0; i < 2000; i++)); do
        printf '{"ph":"X","cat":"kernel","name":"k%d","pid":0,"tid":7,"ts":%d,"dur":3,"args":{"stream":7}},' "$i" "$((i * 5))"
    done
} >"$tmpdir/long.json"
expect_stderr "long trace without its end (report)" 1 "long\.json: .*(end|truncated)" report "$tmpdir/long.json"
gzip -c "$tmpdir/long.json" >"$tmpdir/long.json.gz"
expect_stderr "long gzip trace without its end" 1 "long\.json\.gz: .*(end|truncated)" info "$tmpdir/long.json.gz"

finish
