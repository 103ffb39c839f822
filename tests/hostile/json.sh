#!/bin/bash
# Hostile trace content: deep nesting, strings of megabytes, invalid UTF-8,
# NUL bytes and terminal escape sequences in names, numbers that overflow or
# are not numbers, odd durations, events out of order, duplicate
# correlation ids, flows to nowhere, iteration markers without numbers,
# ranks out of range and empty or missing traceEvents. Malformed events are
# skipped with a warning; a document that is not JSON is bad input.
. "$(dirname "$0")/../lib.sh"

JSON_VALID=$HTX_BUILDDIR/tests/json_valid
K='"ph":"X","cat":"kernel","pid":0,"tid":7'
R='"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1'
f=$tmpdir/t.json

# json_ok: the last output is one valid JSON document in valid UTF-8.
json_ok() {
    [ -x "$JSON_VALID" ] || return 0
    "$JSON_VALID" "$out" >/dev/null 2>&1 || problem "htx printed invalid JSON"
}

# every_output NAME FILE: info and report in text and JSON on FILE all exit
# 0 (tests/lib.sh checks crashes, hangs and raw ESC bytes), and the JSON parses.
every_output() {
    expect_case "$1 (info)" 0 "" info "$2"
    expect_case "$1 (info json)" 0 "" info --format=json "$2" && json_ok
    expect_case "$1 (report)" 0 "" report "$2"
    expect_case "$1 (report json)" 0 "" report --format=json "$2" && json_ok
}

# ---- nesting ----
deep_arrays=$(repeat 100000 '[')$(repeat 100000 ']')
deep_objects=$(repeat 100000 '{"a":')1$(repeat 100000 '}')
trace_with "{$K,\"name\":\"k\",\"ts\":1,\"dur\":2,\"args\":{\"stream\":7,\"a\":$deep_arrays}}" >"$f"
expect_stderr "100000 nested arrays in args" 1 "t\.json: byte [0-9]+: .*nests deeper than the limit" info "$f"
trace_with "{$K,\"name\":\"k\",\"ts\":1,\"dur\":2,\"args\":{\"stream\":7,\"a\":$deep_objects}}" >"$f"
expect_stderr "100000 nested objects in args" 1 "t\.json: byte [0-9]+: .*nests deeper than the limit" info "$f"
trace_with "{$K,\"name\":\"k\",\"ts\":1,\"dur\":2}" "\"deviceProperties\":$deep_arrays" >"$f"
expect_stderr "100000 nested arrays in a top-level member" 1 "t\.json: byte [0-9]+: .*nests deeper" info "$f"
trace_with "$deep_arrays" >"$f"
expect_stderr "a traceEvents element that is 100000 nested arrays" 1 "t\.json: byte [0-9]+: " info "$f"
trace_with "{$K,\"name\":\"k\",\"ts\":1,\"dur\":2,\"args\":{\"stream\":7,\"a\":$(repeat 300 '[')$(repeat 300 ']')}}" >"$f"
expect_case "300 nested arrays in args (within the limit)" 0 "^rank 0" info "$f"

# ---- big strings ----
{
    printf '{"traceEvents":[{%s,"ts":1,"dur":2,"args":{"stream":7,"big":"' "$K"
    head -c 4M /dev/zero | tr '\0' 'y'
    printf '"},"name":"'
    head -c 8M /dev/zero | tr '\0' 'x'
    printf '"}]}'
} >"$f"
every_output "8 MB kernel name and a 4 MB args string" "$f"
expect_case "8 MB name: text report stays small" 0 "" report --analysis=kernels "$f"
[ "$(wc -c <"$out")" -lt 100000 ] || problem "the text report printed $(wc -c <"$out") bytes"
{
    printf '{"traceEvents":[{%s,"ts":1,"dur":2,"name":"' "$K"
    repeat 200000 '\u00e9\ud83d\ude00\n\t\"'
    printf '"}]}'
} >"$f"
every_output "1.6 MB name made of escapes and surrogate pairs" "$f"
{
    printf '{"traceEvents":[{%s,"ts":1,"dur":2,"name":"k","' "$K"
    head -c 2M /dev/zero | tr '\0' 'k'
    printf '":1}]}'
} >"$f"
expect_case "2 MB key" 0 "^rank 0" info "$f"

# ---- invalid UTF-8, NUL bytes, terminal escapes ----
bad_utf8=$(printf 'bad \377\376 \300\200 \355\240\200 \364\220\200\200 \342\202 end')
trace_with "{$K,\"name\":\"$bad_utf8\",\"ts\":1,\"dur\":2,\"args\":{\"stream\":7}}" >"$f"
every_output "invalid UTF-8 in a kernel name" "$f"
trace_with "{$K,\"name\":\"a\\u0000b\",\"ts\":1,\"dur\":2,\"args\":{\"stream\":7}},{$R,\"ts\":0,\"dur\":1,\"tid\":\"x\\u0000y\",\"args\":{\"correlation\":1}}" >"$f"
every_output "escaped NUL in a name and a tid" "$f"
printf '{"traceEvents":[{%s,"name":"a\0b","ts":1,"dur":2,"args":{"stream":7}}]}' "$K" >"$f"
expect_case "raw NUL byte in a name" 0 "" info "$f"
printf '{"traceEvents":[{%s,"name":"a","ts":1,"dur":2}]}\0\0' "$K" >"$f"
expect_stderr "NUL bytes after the document" 1 "t\.json: byte [0-9]+: " info "$f"
printf '{"traceEvents":[\0]}' >"$f"
expect_stderr "NUL byte instead of an event" 1 "t\.json: byte [0-9]+: " info "$f"

esc_name='\u001b[2J\u001b]0;owned\u0007\u009b31m\u001bP+q\u001b\\'
raw_esc=$(printf '\033[31mred\033[0m \033]52;c;Zm9v\007 \302\233A')
trace_with "{$K,\"name\":\"$esc_name\",\"ts\":10,\"dur\":5,\"args\":{\"stream\":7,\"correlation\":1}},{$R,\"ts\":5,\"dur\":2,\"pid\":\"\\u001b[31m\",\"args\":{\"correlation\":1}},{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"$raw_esc\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":30}" \
    "\"distributedInfo\":{\"rank\":0,\"backend\":\"\\u001b[5m\"},\"deviceProperties\":[{\"name\":\"\\u001b[H\\u001b[2J\"}]" >"$f"
every_output "terminal escape sequences in names, pid, backend, device" "$f"
expect_case "escape sequences are shown escaped" 0 '\\x1B\[2J' report --analysis=kernels "$f"

# ---- numbers ----
trace_with "{$K,\"name\":\"a\",\"ts\":99999999999999999999999,\"dur\":2},{$K,\"name\":\"b\",\"ts\":1,\"dur\":1e400},{$K,\"name\":\"c\",\"ts\":-9223372036854775809,\"dur\":1},{$K,\"name\":\"d\",\"ts\":1e19,\"dur\":1},{$K,\"name\":\"e\",\"ts\":1,\"dur\":2}" >"$f"
expect_case "ts and dur beyond int64 are skipped with a warning" 0 '"(ts|dur)" is out of range' info "$f"
trace_with "{$K,\"name\":\"a\",\"ts\":1$(repeat 5000 0),\"dur\":2},{$K,\"name\":\"b\",\"ts\":0.$(repeat 5000 0)1,\"dur\":2}" >"$f"
expect_case "5000-digit numbers" 0 '"ts" is out of range' info "$f"
trace_with "{$K,\"name\":\"a\",\"ts\":1e999999999999999999,\"dur\":2},{$K,\"name\":\"b\",\"ts\":1e-999999999999999999,\"dur\":2},{$K,\"name\":\"c\",\"ts\":-0,\"dur\":-0.0}" >"$f"
expect_case "huge exponents" 0 '"ts" is out of range' info "$f"
for bad in NaN Infinity -Infinity nan inf 0x10 +1 .5 1e '--1' 1e+ '"'; do
    trace_with "{$K,\"name\":\"a\",\"ts\":$bad,\"dur\":2}" >"$f"
    expect_stderr "ts $bad is not JSON" 1 "t\.json: byte [0-9]+: (invalid JSON|the document ends)" info "$f"
done
trace_with "{$K,\"name\":\"a\",\"ts\":\"12\",\"dur\":2},{$K,\"name\":\"b\",\"ts\":[1],\"dur\":{}},{$K,\"name\":\"c\",\"ts\":true,\"dur\":null}" >"$f"
expect_case "ts and dur of the wrong type" 0 '"ts" is not a number' info "$f"
trace_with "{$K,\"name\":\"a\",\"ts\":-5,\"dur\":2,\"args\":{\"stream\":-7,\"correlation\":-1}},{$K,\"name\":\"b\",\"ts\":-1000000,\"dur\":3,\"args\":{\"stream\":18446744073709551617,\"correlation\":1e300}}" >"$f"
every_output "negative ts, stream and correlation" "$f"
trace_with "{$K,\"name\":\"a\",\"ts\":9223372036854775,\"dur\":9223372036854775,\"args\":{\"stream\":7}},{$K,\"name\":\"b\",\"ts\":-9223372036854775,\"dur\":1,\"args\":{\"stream\":7}}" >"$f"
every_output "ts and dur at the edge of the int64 ns range" "$f"
expect_case "ts beyond 146 years is skipped with a warning" 0 "beyond what a profiler writes" info "$f"
trace_with "{$K,\"name\":\"a\",\"ts\":-4000000000000000,\"dur\":1,\"args\":{\"stream\":7}},{$K,\"name\":\"b\",\"ts\":4000000000000000,\"dur\":1,\"args\":{\"stream\":7}}" >"$f"
expect_stderr "events 250 years apart" 1 "event times span more than 146 years" info "$f"
trace_with "{$K,\"name\":\"a\",\"ts\":1,\"dur\":2,\"pid\":1e300,\"tid\":-0.5},{$K,\"name\":\"b\",\"ts\":1,\"dur\":2,\"pid\":{\"x\":1},\"tid\":[7]}" >"$f"
expect_case "pid and tid that are odd numbers or not scalars" 0 "" info "$f"

# ---- durations, order, correlation, flows ----
trace_with "{$K,\"name\":\"neg\",\"ts\":10,\"dur\":-5,\"args\":{\"stream\":7,\"correlation\":1}},{$K,\"name\":\"missing\",\"ts\":20,\"args\":{\"stream\":7}},{$R,\"ts\":1,\"dur\":-3,\"args\":{\"correlation\":1}},{$K,\"name\":\"zero\",\"ts\":30,\"dur\":0,\"args\":{\"stream\":7}}" >"$f"
every_output "negative, missing and zero durations" "$f"
events=
for ((i = 200; i > 0; i--)); do
    events+="{$K,\"name\":\"k$((i % 7))\",\"ts\":$((i * 10)),\"dur\":15,\"args\":{\"stream\":$((i % 3)),\"correlation\":$i}},{$R,\"ts\":$((i * 10 - 5)),\"dur\":2,\"args\":{\"correlation\":$i}},"
done
trace_with "${events}{$K,\"name\":\"last\",\"ts\":0,\"dur\":1}" >"$f"
every_output "events in reverse time order, overlapping on a stream" "$f"
trace_with "{$R,\"ts\":1,\"dur\":2,\"args\":{\"correlation\":5}},{$R,\"ts\":3,\"dur\":2,\"args\":{\"correlation\":5}},{$K,\"name\":\"a\",\"ts\":10,\"dur\":2,\"args\":{\"stream\":7,\"correlation\":5}},{$K,\"name\":\"b\",\"ts\":12,\"dur\":2,\"args\":{\"stream\":7,\"correlation\":5}},{$K,\"name\":\"c\",\"ts\":14,\"dur\":2,\"args\":{\"stream\":8,\"correlation\":5}}" >"$f"
every_output "duplicate correlation ids" "$f"
trace_with "{\"ph\":\"s\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":1,\"cat\":\"ac2g\",\"name\":\"ac2g\"},{\"ph\":\"f\",\"id\":2,\"pid\":0,\"tid\":7,\"ts\":5,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"},{\"ph\":\"f\",\"id\":1,\"pid\":9,\"tid\":9,\"ts\":99,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"},{\"ph\":\"s\",\"id\":\"x\",\"pid\":1,\"tid\":1,\"ts\":1,\"cat\":\"ac2g\"},{\"ph\":\"f\",\"pid\":0,\"tid\":7,\"ts\":5,\"cat\":\"ac2g\",\"bp\":\"e\"},{$K,\"name\":\"k\",\"ts\":5,\"dur\":2,\"args\":{\"stream\":7}}" >"$f"
every_output "flows pointing nowhere" "$f"

# ---- iterations and ranks ----
steps=
for name in 'ProfilerStep#' 'ProfilerStep#abc' 'ProfilerStep#-1' 'ProfilerStep#99999999999999999999' 'ProfilerStep# 3' 'ProfilerStep#1.5' 'ProfilerStep#0x10' 'ProfilerStep#2'; do
    steps+="{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"$name\",\"pid\":1,\"tid\":1,\"ts\":${#steps},\"dur\":5},"
done
trace_with "${steps}{$K,\"name\":\"k\",\"ts\":3,\"dur\":2,\"args\":{\"stream\":7}}" >"$f"
every_output "iteration markers without (valid) numbers" "$f"
expect_stderr "--iteration that no marker has" 2 "iteration" report --iteration=5 "$f"

for r in -1 2147483648 9223372036854775807 9223372036854775808 -9223372036854775808 1e300 2.5 '"3"' null '[1]' '{}'; do
    trace_with "{$K,\"name\":\"k\",\"ts\":1,\"dur\":2,\"args\":{\"stream\":7}}" "\"distributedInfo\":{\"rank\":$r,\"world_size\":-5}" >"$tmpdir/job.json"
    expect_case "distributedInfo.rank $r" 0 "rank" info "$tmpdir/job.json"
done
trace_with "{$K,\"name\":\"k\",\"ts\":1,\"dur\":2}" '"distributedInfo":[1,2],"deviceProperties":"none","baseTimeNanoseconds":"x","displayTimeUnit":7' >"$tmpdir/job.json"
expect_case "distributedInfo and friends of the wrong type" 0 "" info "$tmpdir/job.json"
trace_with "{$K,\"name\":\"k\",\"ts\":1,\"dur\":2}" '"distributedInfo":{"rank":2147483647}' >"$tmpdir/job.json"
expect_case "the largest rank" 0 "^rank 2147483647" info "$tmpdir/job.json"
expect_stderr "--rank that is not loaded" 2 "no rank 5" report --rank=5 "$tmpdir/job.json"
expect_stderr "--rank beyond int64" 2 "rank" report --rank=99999999999999999999999 "$tmpdir/job.json"

# ---- empty and odd documents ----
trace_with "" >"$f"
every_output "empty traceEvents" "$f"
expect_case "empty traceEvents says there is nothing to analyse" 0 "no analyzable events" info "$f"
trace_with '1,"x",null,[],true,{},{"ph":"X"},{"ph":7,"cat":[],"name":{}}' >"$f"
expect_case "traceEvents elements that are not events" 0 "not a JSON object; skipped" info "$f"
printf '{"traceEvents":[],"traceEvents":[]}' >"$f"
expect_stderr "two traceEvents arrays" 1 "t\.json: byte [0-9]+: a second" info "$f"
printf '{"a":1}' >"$f"
expect_stderr "no traceEvents" 1 't\.json: no "traceEvents"' info "$f"
printf '{"traceEvents":{}}' >"$f"
expect_stderr "traceEvents that is an object" 1 't\.json: byte [0-9]+: "traceEvents" is not an array' info "$f"
printf '[{"traceEvents":[]}]' >"$f"
expect_stderr "a document that is an array" 1 "t\.json: byte 0: not a JSON object" info "$f"
printf '\357\273\277{"traceEvents":[{%s,"name":"k","ts":1,"dur":2}]}\n\n' "$K" >"$f"
expect_case "byte order mark and trailing newlines" 0 "^rank 0" info "$f"
printf '{"traceEvents":[{%s,"name":"k","ts":1,"dur":2}]} {}' "$K" >"$f"
expect_stderr "a second document after the first" 1 "t\.json: byte [0-9]+: unexpected data after" info "$f"
head -c 100000 /dev/urandom >"$f"
expect_stderr "random bytes" 1 "t\.json: " info "$f"

finish
