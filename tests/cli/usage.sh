#!/bin/sh
# Bad usage exits 2 with one "htx: " line naming the option and the value,
# and prints nothing on stdout; --help and --version exit 0.
. "$(dirname "$0")/../lib.sh"
keep_going=1
use_data cli
cd "$DATA"

expect 0 "$HTX" --help && has out "Usage:" && has out "--fail-on-regression" && empty err
expect 0 "$HTX" report --bogus --help && has out "Usage:"
expect 0 "$HTX" --version && has out "htx " && empty err
"$HTX" --version | grep -q -E '^htx [0-9]+\.[0-9]+\.[0-9]+$' || fail "--version format"

# Each line: the arguments, then the expected stderr after "htx: ".
while IFS='|' read -r args message; do
    # shellcheck disable=SC2086
    expect 2 "$HTX" $args || continue
    empty out
    printf 'htx: %s\n' "$message" >"$tmp/want"
    if ! diff -u "$tmp/want" "$tmp/err" >&2; then
        fail "stderr of htx $args"
    fi
done <<'CASES'
--no-color|missing PATH (try htx --help)
reprot job|'reprot' is not a file or a command; did you mean 'htx report'?
inof|'inof' is not a file or a command; did you mean 'htx info'?
difff a b|'difff' is not a file or a command; did you mean 'htx diff'?
diff --report --sort=size job job|--sort: bad value 'size': expected one of name, delta
report|htx report: missing PATH (try htx --help)
info --format=csv job|htx info: --format: bad value 'csv': expected one of text, json
diff job|htx diff: expected CONTROL and TEST, got 1 path
report --report job|htx report: --report belongs to htx diff
--frobnicate job|unknown option '--frobnicate' (try htx --help)
-q job|unknown option '-q' (try htx --help)
report --rank=1-x job|--rank: bad value '1-x': expected a list like 0,2-5 or all
report --iteration 3,,4 job|--iteration: bad value '3,,4': expected a list like 0,2-5 or all
report --window=9:3 job|--window: bad value '9:3': START must be before END
report --window=1.5:3 job|--window: bad value '1.5:3': expected START:END, each in whole ns or with a unit ns, us, ms, s
report --format=xml job|--format: bad value 'xml': expected one of text, csv, json
report --analysis=idle,nope job|--analysis: bad value 'idle,nope': expected a list of temporal, kernels, idle, overlap, launch, queue, membw, annotations, sequences or all
report --num-kernels=0 job|--num-kernels: bad value '0': expected an integer from 1 to 1000000
report --duration-ratio=2 job|--duration-ratio: bad value '2': expected a number from 0 to 1
report --consecutive-kernel-delay=5h job|--consecutive-kernel-delay: bad value '5h': expected a duration in ns, or with a unit ns, us, ms, s (2.5us)
report --semantics=pandas job|--semantics: bad value 'pandas': expected one of htx, hta
report --device=tpu job|--device: bad value 'tpu': expected one of all, cpu, gpu
counters --force=yes job|--force: takes no value (got 'yes')
report job --rank|--rank: missing value
--size=0x10 job|--size: bad value '0x10': expected ROWSxCOLS, each from 1 to 1000
info --rank=7 job|--rank: no rank 7 in the loaded traces (ranks 0-1)
info --iteration=9 job|--iteration: no ProfilerStep#9 in the loaded traces
CASES

# First contact: htx alone says what it is for (stderr, exit 2), not
# "htx: htx: missing PATH".
expect 2 "$HTX" && empty out && has err "usage: htx [OPTIONS] PATH..." && has err "htx report"
if grep -q "htx: htx" "$tmp/err"; then
    fail "htx alone still says 'htx: htx'"
fi
# Without a terminal, a missing path is bad input (1), before "needs a
# terminal" (2); a word far from every command is a path, not a typo.
expect 1 "$HTX" /nonexistent </dev/null && has err "/nonexistent: No such file or directory"
expect 1 "$HTX" job /nonexistent </dev/null && has err "/nonexistent: No such file or directory"
expect 1 "$HTX" xyzzy </dev/null && has err "xyzzy: No such file or directory"
expect 2 "$HTX" job </dev/null && has err "needs a terminal"
# a file named like a command is still a path
mkdir -p "$tmp/typo" && cp job/rank-0.json "$tmp/typo/reprot"
(cd "$tmp/typo" && "$HTX" reprot </dev/null >/dev/null 2>"$tmp/typo/err") || true
grep -q "needs a terminal" "$tmp/typo/err" || fail "an existing file 'reprot' is taken for a typo"
# The config file: applied before the flags, bad lines named by file and line.
mkdir -p "$tmp/xdg/htx"
export XDG_CONFIG_HOME="$tmp/xdg"
printf '# prefs\nsort = delta\nwindow = 3\n' >"$tmp/xdg/htx/config"
expect 2 "$HTX" report job && has err "$tmp/xdg/htx/config:3: unknown key 'window'" && empty out
expect 0 "$HTX" --help && has out "Usage:"
printf 'comm-patterns = void sgemm\n' >"$tmp/xdg/htx/config"
expect 0 "$HTX" report --analysis=kernels job && has out "void sgemm_kernel<float>(float*, int)                  COMMUNICATION"
expect 0 "$HTX" report --analysis=kernels --comm-patterns=xyz job &&
    has out "void sgemm_kernel<float>(float*, int)                  COMPUTATION"
# view = KEY|NAME opens the TUI there; --view wins; a bad one is named.
printf 'i' >"$tmp/none.keys"
printf 'view = kernels\n' >"$tmp/xdg/htx/config"
expect 0 "$HTX" --script "$tmp/none.keys" --dump-screen "$tmp/view1.screen" --size 30x120 --view=3 job &&
    has view1.screen "[i Diagnostics]"
printf '' >"$tmp/none.keys"
expect 0 "$HTX" --script "$tmp/none.keys" --dump-screen "$tmp/view2.screen" --size 30x120 job &&
    has view2.screen "[3 Kernels]"
expect 0 "$HTX" --script "$tmp/none.keys" --dump-screen "$tmp/view3.screen" --size 30x120 --view=R job &&
    has view3.screen "[R Ranks]"
printf 'view = kernal\n' >"$tmp/xdg/htx/config"
expect 2 "$HTX" info job && has err "config:1: --view: bad value 'kernal'"
expect 2 "$HTX" --view=9x job && has err "--view"
# Only a regular file is read as the config: a FIFO there (whose open would
# wait for a writer) or a directory is refused at once, by name.
rm "$tmp/xdg/htx/config" && mkfifo "$tmp/xdg/htx/config"
expect 2 timeout 20 "$HTX" info job && has err "$tmp/xdg/htx/config: not a regular file"
rm "$tmp/xdg/htx/config" && mkdir "$tmp/xdg/htx/config"
expect 2 "$HTX" info job && has err "$tmp/xdg/htx/config: not a regular file"
rmdir "$tmp/xdg/htx/config"
unset XDG_CONFIG_HOME
mkdir -p "$HOME/.config/htx" && printf 'color\n' >"$HOME/.config/htx/config"
expect 2 "$HTX" info job && has err "$HOME/.config/htx/config:1: expected 'key = value'"
rm -f "$HOME/.config/htx/config"
finish
