#!/bin/bash
# Hostile outputs: no escape sequence from a file name or a trace
# reaches the terminal through any message or format, and every file htx
# writes goes through one writer that never replaces an input, an existing
# file without --force, or a symbolic link, and leaves nothing half-written.
. "$(dirname "$0")/../lib.sh"

printf '%s' "$(good_trace)" >"$tmpdir/good.json"
K='"ph":"X","cat":"kernel","pid":0,"tid":7'
printf '' >"$tmpdir/keys"
esc_name=$(printf 'x-\033]0;PWNED\007.json')

# ---- 1. TUI-path messages are escaped like htx info's ----
printf '{"traceEvents":[1' >"$tmpdir/$esc_name"
expect_stderr "TUI path: a file name holding OSC (test mode)" 1 'x-\\x1B\]0;PWNED\\x07\.json' \
    --script="$tmpdir/keys" --dump-screen="$tmpdir/dump1" --size=24x80 "$tmpdir/$esc_name"
expect_stderr "htx diff: a file name holding OSC (test mode)" 1 'x-\\x1B\]0;PWNED' \
    diff --script="$tmpdir/keys" --dump-screen="$tmpdir/dump2" --size=24x80 \
    "$tmpdir/$esc_name" "$tmpdir/good.json"
expect_stderr "htx diff --report: a file name holding OSC" 1 'x-\\x1B\]0;PWNED' \
    diff --report "$tmpdir/$esc_name" "$tmpdir/good.json"

# ---- 2. regressions named by a hostile kernel ----
printf '{"traceEvents":[{%s,"name":"k","ts":1,"dur":2,"args":{"stream":7}}]}' "$K" >"$tmpdir/a.json"
printf '{"traceEvents":[{%s,"name":"k","ts":1,"dur":2,"args":{"stream":7}},{%s,"name":"\\u001b]0;PWNED\\u0007","ts":10,"dur":500,"args":{"stream":7}}]}' \
    "$K" "$K" >"$tmpdir/b.json"
expect_case "diff --fail-on-regression: a kernel name holding OSC" 3 'regression beyond 10%: kernel \\x1B\]0;PWNED\\x07' \
    diff --report --fail-on-regression=10 "$tmpdir/a.json" "$tmpdir/b.json"
expect_case "diff --report --format=csv: a kernel name holding OSC" 0 '\\x1B\]0;PWNED' \
    diff --report --format=csv "$tmpdir/a.json" "$tmpdir/b.json"

# ---- 5. CSV escapes controls even when stdout is not a terminal ----
printf '{"traceEvents":[{%s,"name":"k\\u001b[31m\\r\\n\\u009b,x","ts":1,"dur":2,"args":{"stream":7}}]}' \
    "$K" >"$tmpdir/c.json"
expect_case "report --format=csv into a pipe: controls escaped" 0 'k\\x1B\[31m\\r\\n\\u\{9B\},x' \
    report --format=csv --analysis=kernels "$tmpdir/c.json"
grep -q -a '^"k\\x1B\[31m\\r\\n\\u{9B},x",2,.*,0'"$(printf '\r')\$" "$out" &&
    ! grep -q -a "$(printf '\302\233')" "$out" ||
    { case_name="csv controls"; problem "a raw line break or C1 byte inside a field"; }

# ---- 3. the one writer ----
cp "$tmpdir/good.json" "$tmpdir/victim.json"
gzip -k "$tmpdir/victim.json"
sum=$(cksum <"$tmpdir/victim.json.gz")
expect_stderr "--dump-screen onto the input trace" 2 "victim\.json\.gz: is an input" \
    --script="$tmpdir/keys" --dump-screen="$tmpdir/victim.json.gz" --size=24x80 "$tmpdir/victim.json.gz"
expect_stderr "--dump-screen --force onto the input trace" 2 "victim\.json\.gz: is an input" \
    --force --script="$tmpdir/keys" --dump-screen="$tmpdir/victim.json.gz" --size=24x80 \
    "$tmpdir/victim.json.gz"
ln "$tmpdir/victim.json.gz" "$tmpdir/hardlink.gz"
expect_stderr "--dump-screen --force onto a hard link of the input" 2 "hardlink\.gz: is an input" \
    --force --script="$tmpdir/keys" --dump-screen="$tmpdir/hardlink.gz" --size=24x80 \
    "$tmpdir/victim.json.gz"
mkdir "$tmpdir/d"
cp "$tmpdir/good.json" "$tmpdir/d/rank-0.json"
expect_stderr "--dump-screen --force onto a rank file of an input directory" 2 "rank-0\.json: is an input" \
    --force --script="$tmpdir/keys" --dump-screen="$tmpdir/d/rank-0.json" --size=24x80 "$tmpdir/d"
expect_stderr "--dump-screen --force onto the script" 2 "keys: is an input" \
    --force --script="$tmpdir/keys" --dump-screen="$tmpdir/keys" --size=24x80 "$tmpdir/good.json"
[ "$(cksum <"$tmpdir/victim.json.gz")" = "$sum" ] && [ ! -s "$tmpdir/keys" ] ||
    { case_name="inputs untouched"; problem "an input changed"; }
echo old >"$tmpdir/existing"
expect_stderr "--dump-screen onto an existing file" 2 "existing: already exists \(use --force" \
    --script="$tmpdir/keys" --dump-screen="$tmpdir/existing" --size=24x80 "$tmpdir/good.json"
[ "$(cat "$tmpdir/existing")" = old ] || { case_name="existing kept"; problem "replaced"; }
expect_case "--dump-screen --force onto an existing file" 0 "" \
    --force --script="$tmpdir/keys" --dump-screen="$tmpdir/existing" --size=24x80 "$tmpdir/good.json"
grep -q 'ProfilerStep\|htx' "$tmpdir/existing" || { case_name="forced dump"; problem "no screen in it"; }
echo target >"$tmpdir/target"
ln -s target "$tmpdir/link"
expect_stderr "--dump-screen --force onto a symbolic link" 2 "link: is a symbolic link" \
    --force --script="$tmpdir/keys" --dump-screen="$tmpdir/link" --size=24x80 "$tmpdir/good.json"
ln -s "$tmpdir/nowhere" "$tmpdir/dangling"
expect_stderr "--dump-screen onto a dangling symbolic link" 2 "dangling: is a symbolic link" \
    --script="$tmpdir/keys" --dump-screen="$tmpdir/dangling" --size=24x80 "$tmpdir/good.json"
[ "$(cat "$tmpdir/target")" = target ] && [ ! -e "$tmpdir/nowhere" ] ||
    { case_name="symlink targets"; problem "written through a link"; }
expect_stderr "--dump-screen into a missing directory" 1 "nodir/x: cannot create" \
    --script="$tmpdir/keys" --dump-screen="$tmpdir/nodir/x" --size=24x80 "$tmpdir/good.json"
expect_case "--dump-screen to a new file" 0 "" \
    --script="$tmpdir/keys" --dump-screen="$tmpdir/new.txt" --size=24x80 "$tmpdir/good.json"
[ -s "$tmpdir/new.txt" ] || { case_name="new dump"; problem "empty"; }
leftovers=$(find "$tmpdir" -name '*.tmp??????' | head -3)
[ -z "$leftovers" ] || { case_name="temporary files"; problem "left behind: $leftovers"; }

# ---- 4. counters: two inputs that map to one output ----
mkdir "$tmpdir/g"
cp "$tmpdir/a.json" "$tmpdir/g/g.json"
gzip -c "$tmpdir/a.json" >"$tmpdir/g/g.json.gz"
expect_stderr "counters: g.json and g.json.gz clash" 2 \
    "g/g\.json(\.gz)? and .*g/g\.json(\.gz)? would both be written to .*g_with_counters\.json\.gz" \
    counters --force "$tmpdir/g/g.json" "$tmpdir/g/g.json.gz"
[ ! -e "$tmpdir/g/g_with_counters.json.gz" ] || { case_name="clash"; problem "wrote something"; }
cp "$tmpdir/a.json" "$tmpdir/g/h.json"
expect_case "counters: one input" 0 "h_with_counters\.json\.gz" counters "$tmpdir/g/h.json"
expect_stderr "counters again: the output exists" 2 "already exists" counters "$tmpdir/g/h.json"
rm "$tmpdir/g/h_with_counters.json.gz"
gzip -c "$tmpdir/a.json" >"$tmpdir/g/h_with_counters.json.gz"
expect_case "counters --force onto another input" 2 "is an input" \
    counters --force "$tmpdir/g/h.json" "$tmpdir/g/h_with_counters.json.gz"
mkdir "$tmpdir/e"
cp "$tmpdir/a.json" "$tmpdir/e/$esc_name"
expect_case "counters: an output name holding OSC, piped" 0 'x-\\x1B\]0;PWNED\\x07_with_counters' \
    counters "$tmpdir/e/$esc_name"

finish
