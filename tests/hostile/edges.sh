#!/bin/bash
# Hostile edges: NUL inside names, negative durations, gzip
# padding and impostors, the size limit on plain files and the memory guard.
# (A file that changes while it is read is covered by check_trace:
# file_changed_while_read_should_be_named, which can time the change.)
. "$(dirname "$0")/../lib.sh"

K='"ph":"X","cat":"kernel","pid":0,"tid":7'
f=$tmpdir/t.json

# ---- 6. \u0000 keeps the whole name and is shown escaped ----
trace_with "{$K,\"name\":\"a\\u0000b\",\"ts\":1,\"dur\":2,\"args\":{\"stream\":7}},{$K,\"name\":\"a\\u0000c\",\"ts\":5,\"dur\":3,\"args\":{\"stream\":7}}" >"$f"
expect_case "two names that differ after a NUL (text)" 0 'a\\x00b' report --analysis=kernels "$f"
grep -q -a 'a\\x00c' "$out" || { case_name="NUL names (text)"; problem "a\\x00c missing: names merged or cut"; }
expect_case "two names that differ after a NUL (json)" 0 '"a\\u0000b"' report --analysis=kernels --format=json "$f"
grep -q -a '"a\\u0000c"' "$out" || { case_name="NUL names (json)"; problem "a\\u0000c missing"; }
expect_case "two names that differ after a NUL (csv)" 0 'a\\x00c' report --analysis=kernels --format=csv "$f"

# ---- 7. negative durations are skipped and said so ----
trace_with "{$K,\"name\":\"neg\",\"ts\":10,\"dur\":-5,\"args\":{\"stream\":7}},{$K,\"name\":\"pos\",\"ts\":20,\"dur\":4,\"args\":{\"stream\":7}}" >"$f"
expect_case "a negative dur (info)" 0 "event 0: negative dur; skipped" info "$f"
expect_case "a negative dur (report)" 0 "" report --analysis=kernels --format=csv "$f"
grep -q -a '^neg,' "$out" && { case_name="negative dur"; problem "the event was kept"; }
grep -q -a -- ',-' "$out" && { case_name="negative dur"; problem "a negative time in the report"; }

# ---- 8. gzip: zero padding accepted, zlib and raw deflate named .gz ----
printf '{"traceEvents":[{%s,"name":"k","ts":1,"dur":2,"args":{"stream":7}}]}' "$K" >"$f"
{ gzip -c "$f"; head -c 4096 /dev/zero; } >"$tmpdir/pad.json.gz"
expect_case "gzip followed by zero padding" 0 "^rank 0" info "$tmpdir/pad.json.gz"
{ gzip -c "$f"; head -c 100 /dev/zero; printf 'x'; } >"$tmpdir/padx.json.gz"
expect_stderr "gzip, zero padding, then garbage" 1 "padx\.json\.gz: trailing garbage" info "$tmpdir/padx.json.gz"
# zlib: the deflate stream of gzip -c between a 78 9c header and an Adler-32;
# the checksum is wrong, which no matter: the magic bytes decide.
{ printf '\170\234'; gzip -c -n <"$f" | tail -c +11 | head -c -8; printf '\0\0\0\0'; } >"$tmpdir/z.json.gz"
expect_stderr "zlib data named .json.gz" 1 "z\.json\.gz: not gzip data" info "$tmpdir/z.json.gz"
gzip -c -n <"$f" | tail -c +11 | head -c -8 >"$tmpdir/raw.json.gz"
expect_stderr "raw deflate named .json.gz" 1 "raw\.json\.gz: not gzip data" info "$tmpdir/raw.json.gz"
cp "$f" "$tmpdir/plain.json.gz"
expect_case "plain JSON named .json.gz" 0 "^rank 0" info "$tmpdir/plain.json.gz"

# ---- 9. size limit before reading; the memory guard ----
awk -v K="$K" 'BEGIN { printf "{\"traceEvents\":["
    for (i = 0; i < 300000; i++)
        printf "%s{%s,\"name\":\"k%d\",\"ts\":%d,\"dur\":1,\"args\":{\"stream\":7}}", (i ? "," : ""), K, i % 1000, i
    printf "]}" }' >"$tmpdir/many.json"
HTX_MAX_INPUT_SIZE=1M expect_stderr "a plain file over HTX_MAX_INPUT_SIZE" 1 \
    "many\.json: the file is [0-9]+ bytes, over the limit of 1048576 bytes" info "$tmpdir/many.json"
HTX_MAX_MEMORY=8M expect_stderr "300 000 events under HTX_MAX_MEMORY=8M" 1 \
    "many\.json: stopped: htx uses [0-9]+ MiB of memory, over the limit of 8 MiB \(HTX_MAX_MEMORY" \
    info "$tmpdir/many.json"
expect_case "300 000 events under the default guard" 0 "^rank 0" info "$tmpdir/many.json"
HTX_MAX_MEMORY=0 expect_case "HTX_MAX_MEMORY=0: no guard" 0 "^rank 0" info "$tmpdir/many.json"
HTX_MAX_MEMORY=lots expect_stderr "HTX_MAX_MEMORY=lots" 2 "HTX_MAX_MEMORY: bad value 'lots'" info "$f"

finish
