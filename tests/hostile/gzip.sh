#!/bin/bash
# Broken and malicious gzip: a bad CRC, a bad length, corrupt deflate data,
# garbage after the data, and gzip bombs (a small .gz inflating to gigabytes),
# which stop at $HTX_MAX_INPUT_SIZE or stream through in bounded memory.
. "$(dirname "$0")/../lib.sh"

printf '%s' "$(good_trace)" >"$tmpdir/good.json"
gzip -9 -c "$tmpdir/good.json" >"$tmpdir/good.json.gz"
gzsize=$(wc -c <"$tmpdir/good.json.gz")

# patch FILE OFFSET: flips the bits of the byte at OFFSET, in place.
patch() {
    local b
    b=$(od -A n -t u1 -j "$2" -N 1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $((b ^ 255)))" |
        dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

expect_case "good gzip trace loads" 0 "^rank 0" info "$tmpdir/good.json.gz"

cp "$tmpdir/good.json.gz" "$tmpdir/badcrc.json.gz"
patch "$tmpdir/badcrc.json.gz" $((gzsize - 8))
expect_stderr "gzip with a bad CRC" 1 "badcrc\.json\.gz: .*CRC" info "$tmpdir/badcrc.json.gz"

cp "$tmpdir/good.json.gz" "$tmpdir/badlen.json.gz"
patch "$tmpdir/badlen.json.gz" $((gzsize - 2))
expect_stderr "gzip with a bad length" 1 "badlen\.json\.gz: .*(gzip|length)" info "$tmpdir/badlen.json.gz"

cp "$tmpdir/good.json.gz" "$tmpdir/corrupt.json.gz"
patch "$tmpdir/corrupt.json.gz" $((gzsize / 2))
expect_stderr "gzip with corrupt deflate data" 1 "corrupt\.json\.gz: " report "$tmpdir/corrupt.json.gz"

{ cat "$tmpdir/good.json.gz"; printf 'garbage after the gzip data'; } >"$tmpdir/trailing.json.gz"
expect_stderr "garbage after the gzip data" 1 "trailing\.json\.gz: .*(trailing|garbage)" info "$tmpdir/trailing.json.gz"

printf '\037\213' >"$tmpdir/magic-only.json.gz"
expect_stderr "gzip magic and nothing else" 1 "magic-only\.json\.gz: .*(truncated|gzip)" info "$tmpdir/magic-only.json.gz"

head -c 4096 /dev/urandom >"$tmpdir/noise.bin"
{ printf '\037\213\010\000\000\000\000\000\000\003'; cat "$tmpdir/noise.bin"; } >"$tmpdir/noise.json.gz"
expect_stderr "gzip header then random bytes" 1 "noise\.json\.gz: " info "$tmpdir/noise.json.gz"

printf 'not json at all' | gzip -c >"$tmpdir/notjson.json.gz"
expect_stderr "valid gzip of something that is not JSON" 1 "notjson\.json\.gz: .*JSON" info "$tmpdir/notjson.json.gz"

: | gzip -c >"$tmpdir/emptydoc.json.gz"
expect_stderr "valid gzip of an empty document" 1 "emptydoc\.json\.gz: .*empty" info "$tmpdir/emptydoc.json.gz"

# Concatenated members are one document (gzip -c a b > c): not an error.
head -c 700 "$tmpdir/good.json" | gzip -c >"$tmpdir/members.json.gz"
tail -c +701 "$tmpdir/good.json" | gzip -c >>"$tmpdir/members.json.gz"
expect_case "two concatenated gzip members" 0 "^rank 0" info "$tmpdir/members.json.gz"

# ---- gzip bombs ----
# 64 MiB of one byte compresses to about 64 KiB; copies of that member make
# a small file that inflates to gigabytes.
head -c 64M /dev/zero | tr '\0' ' ' | gzip -9 -c >"$tmpdir/spaces64.gz"
head -c 64M /dev/zero | tr '\0' 'a' | gzip -9 -c >"$tmpdir/letters64.gz"

# bomb OUT MEMBER COPIES PREFIX SUFFIX: PREFIX, COPIES x MEMBER, SUFFIX.
bomb() {
    local i
    { printf '%s' "$4" | gzip -c
      for ((i = 0; i < $3; i++)); do cat "$2"; done
      printf '%s' "$5" | gzip -c; } >"$1"
}

# 16 GiB of whitespace inside traceEvents, from a ~16 MiB file: the limit
# stops it at once.
bomb "$tmpdir/bomb16g.json.gz" "$tmpdir/spaces64.gz" 256 '{"traceEvents":[' ']}'
HTX_MAX_INPUT_SIZE=256M expect_stderr "16 GiB gzip bomb with HTX_MAX_INPUT_SIZE=256M" 1 \
    "bomb16g\.json\.gz: .*exceeds the limit of 268435456 bytes" info "$tmpdir/bomb16g.json.gz"

# The limit holds for events too (a bomb of valid events would otherwise
# fill memory at ~100 bytes an event).
event='{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":1,"args":{"stream":7}},'
repeat 20000 "$event" | gzip -9 -c >"$tmpdir/events.gz"
{ printf '{"traceEvents":[' | gzip -c
  for ((i = 0; i < 200; i++)); do cat "$tmpdir/events.gz"; done; } >"$tmpdir/eventbomb.json.gz"
HTX_MAX_INPUT_SIZE=32M expect_stderr "bomb of valid events with HTX_MAX_INPUT_SIZE=32M" 1 \
    "eventbomb\.json\.gz: .*exceeds the limit" report "$tmpdir/eventbomb.json.gz"

HTX_MAX_INPUT_SIZE=lots expect_stderr "HTX_MAX_INPUT_SIZE that is not a size" 2 \
    "HTX_MAX_INPUT_SIZE" info "$tmpdir/good.json.gz"
HTX_MAX_INPUT_SIZE=0 expect_case "HTX_MAX_INPUT_SIZE=0 is no limit" 0 "^rank 0" info "$tmpdir/good.json.gz"

# Without a limit, whitespace and over-long values stream through in
# bounded memory: 256 MiB of whitespace, a 1 GiB string in an event and a
# 1 GiB top-level value, each under a 768 MiB address-space cap.
bomb "$tmpdir/spaces.json.gz" "$tmpdir/spaces64.gz" 4 '{"traceEvents":[' ']}'
bomb "$tmpdir/string.json.gz" "$tmpdir/letters64.gz" 16 '{"traceEvents":[{"name":"' '"}]}'
bomb "$tmpdir/member.json.gz" "$tmpdir/letters64.gz" 16 '{"traceEvents":[],"x":"' '"}'
if htx_is_asan; then
    echo "note: htx is built with ASan: running the bombs without an address-space cap"
    cap=
else
    cap=786432
fi
HTX_ULIMIT_V=$cap expect_case "256 MiB of whitespace in bounded memory" 0 "^rank 0" info "$tmpdir/spaces.json.gz"
HTX_ULIMIT_V=$cap expect_stderr "1 GiB string in an event in bounded memory" 1 \
    "string\.json\.gz: .*longer than the limit" info "$tmpdir/string.json.gz"
HTX_ULIMIT_V=$cap expect_stderr "1 GiB top-level value in bounded memory" 1 \
    "member\.json\.gz: .*longer than the limit" info "$tmpdir/member.json.gz"

finish
