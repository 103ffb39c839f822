#!/bin/bash
# Hostile paths: a directory of 10 000 rank files (in seconds), a FIFO given
# as a file, a directory named x.json, an unreadable file, devices, symlink
# loops, empty files, one broken rank among good ones; and htx never writes
# to its inputs.
. "$(dirname "$0")/../lib.sh"

printf '%s' "$(good_trace)" >"$tmpdir/good.json"
K='"ph":"X","cat":"kernel","pid":0,"tid":7'

# ---- 10 000 files (1 000 under ASan: the same paths; its allocator makes
# each file's read buffers slow, and the count is what the native build times) ----
many=10000
htx_is_asan && many=1000
last=$((many - 1))
mkdir "$tmpdir/many" "$tmpdir/unranked" "$tmpdir/samerank"
for ((i = 0; i < many; i++)); do
    printf '{"distributedInfo":{"rank":%d},"traceEvents":[{%s,"name":"k%d","ts":%d,"dur":5,"args":{"stream":7}}]}' \
        "$i" "$K" "$((i % 10))" "$i" >"$tmpdir/many/rank-$i.json"
    printf '{"traceEvents":[{%s,"name":"k","ts":%d,"dur":5,"args":{"stream":7}}]}' \
        "$K" "$i" >"$tmpdir/unranked/trace$i.json"
done
for i in 1 2 3; do
    printf '{"distributedInfo":{"rank":3},"traceEvents":[]}' >"$tmpdir/samerank/t$i.json"
done
# A second natively. The limit only tells a hang from a slow run (speed
# lives in make bench): ASan's allocator makes each file's read buffers slow
# (page faults on every fresh mapping), and CI runs two tests at once, so
# under ASan the limit is twenty times the usual one.
many_timeout=$HOSTILE_TIMEOUT
htx_is_asan && many_timeout=$((20 * HOSTILE_TIMEOUT))
start=$(date +%s)
HOSTILE_TIMEOUT=$many_timeout expect_case "$many rank files (info)" 0 "^rank $last: " info "$tmpdir/many"
HOSTILE_TIMEOUT=$many_timeout expect_case "$many rank files (report)" 0 "" \
    report --analysis=temporal,kernels "$tmpdir/many"
HOSTILE_TIMEOUT=$many_timeout expect_case "$many files without a rank" 0 "using rank $last" \
    info "$tmpdir/unranked"
echo "note: the three $many-file runs took $(($(date +%s) - start)) s (limit ${many_timeout} s each)"
expect_stderr "files that claim the same rank" 1 "t1\.json and .*t2\.json both claim rank 3" info "$tmpdir/samerank"

# ---- things that are not regular files ----
mkfifo "$tmpdir/fifo.json"
expect_stderr "a FIFO given as a file" 1 "fifo\.json: .*FIFO" info "$tmpdir/fifo.json"
mkdir "$tmpdir/x.json"
expect_stderr "a directory named x.json" 1 "x\.json: .*directory" info "$tmpdir/x.json"
mkdir "$tmpdir/mixed"
cp "$tmpdir/good.json" "$tmpdir/mixed/rank-0.json"
mkfifo "$tmpdir/mixed/pipe.json"
mkdir "$tmpdir/mixed/sub.json"
ln -s loop.json "$tmpdir/mixed/loop.json"
ln -s /nonexistent/x.json "$tmpdir/mixed/dangling.json"
: >"$tmpdir/mixed/empty.json"
printf 'not a trace' >"$tmpdir/mixed/notes.txt"
printf '{"traceEvents":[{' >"$tmpdir/mixed/rank-1.json"
expect_case "a directory with a FIFO, a sub-directory, bad links and a broken rank" 0 \
    "pipe\.json" info "$tmpdir/mixed"
for what in 'pipe\.json' 'sub\.json' 'loop\.json' 'dangling\.json' 'empty\.json' 'rank-1\.json'; do
    grep -q -E "$what" "$err" || { case_name="mixed directory: $what"; problem "no warning names $what"; }
done
grep -q -E '^rank 0: ' "$out" || { case_name="mixed directory"; problem "rank 0 did not load"; }

expect_stderr "/dev/null" 1 "/dev/null: " info /dev/null
expect_stderr "a character device" 1 "/dev/zero: .*device" info /dev/zero
expect_stderr "a missing file" 1 "nonexistent\.json: No such file" info "$tmpdir/nonexistent.json"
ln -s self.json "$tmpdir/self.json"
expect_stderr "a symlink loop" 1 "self\.json: .*symbolic links" info "$tmpdir/self.json"
: >"$tmpdir/empty.json"
expect_stderr "an empty file" 1 "empty\.json: .*empty" info "$tmpdir/empty.json"
mkdir "$tmpdir/nothing"
expect_stderr "an empty directory" 1 "nothing: .*no .*trace files" info "$tmpdir/nothing"

# ---- unreadable ----
cp "$tmpdir/good.json" "$tmpdir/secret.json"
chmod 000 "$tmpdir/secret.json"
if cat "$tmpdir/secret.json" >/dev/null 2>&1; then
    echo "note: running as root (chmod 000 does not stop reads): skipping the unreadable-file cases"
else
    expect_stderr "an unreadable file" 1 "secret\.json: Permission denied" info "$tmpdir/secret.json"
    mkdir "$tmpdir/locked"
    cp "$tmpdir/good.json" "$tmpdir/locked/rank-0.json"
    chmod 000 "$tmpdir/locked"
    expect_stderr "an unreadable directory" 1 "locked: Permission denied" info "$tmpdir/locked"
    chmod 700 "$tmpdir/locked"
fi
chmod 600 "$tmpdir/secret.json"

# ---- inputs are never written ----
mkdir "$tmpdir/ro"
cp "$tmpdir/good.json" "$tmpdir/ro/rank-0.json"
sed "s/\"rank\":0/\"rank\":1/" "$tmpdir/good.json" | gzip -c >"$tmpdir/ro/rank-1.json.gz"
before=$(cd "$tmpdir/ro" && ls -l --time-style=+%s.%N && cksum ./*)
expect_case "info on a job" 0 "" info "$tmpdir/ro"
expect_case "report on a job" 0 "" report --format=json "$tmpdir/ro"
after=$(cd "$tmpdir/ro" && ls -l --time-style=+%s.%N && cksum ./*)
[ "$before" = "$after" ] || { case_name="inputs untouched"; problem "htx changed its inputs"; }

finish
