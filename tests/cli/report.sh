#!/bin/sh
# htx report on the small two-rank job: one text golden per analysis, the
# whole report as JSON under both semantics (valid, with every table key),
# CSV layout, and nothing on stdout when the report fails.
. "$(dirname "$0")/../lib.sh"
keep_going=1
use_data cli
cd "$DATA"

for a in temporal kernels idle overlap launch queue membw annotations sequences utilization findings; do
    expect 0 "$HTX" report --analysis=$a job && same_as "report-$a.txt" && empty err
done
expect 0 "$HTX" report --analysis=temporal --ascii job && same_as report-temporal-ascii.txt

for sem in htx hta; do
    expect 0 "$HTX" report --format=json --semantics=$sem job && valid_json
    same_as "report-$sem.json"
    for key in '"htx_version"' "\"semantics\": \"$sem\"" '"inputs"' '"temporal_breakdown"' \
        '"kernel_type_breakdown"' '"kernel_breakdown"' '"idle_time_breakdown"' \
        '"idle_interval_stats"' '"comm_comp_overlap"' '"cuda_kernel_launch_stats"' \
        '"queue_length_summary"' '"memory_bw_summary"' '"kernels_by_annotation"' \
        '"frequent_kernel_sequences"' '"gpu_utilization_over_time"' '"findings"' '"notes"'; do
        has out "$key"
    done
done

# kernels_by_annotation_stack: htx only; --annotation-stack=ops adds the ops.
expect 0 "$HTX" report --format=json --analysis=annotations --annotation-stack=ops job && valid_json
has out '"path": "ProfilerStep#1 / aten::linear"'
expect 0 "$HTX" report --format=json --analysis=annotations --semantics=hta job && valid_json
if grep -q kernels_by_annotation_stack "$tmp/out"; then
    fail "--semantics=hta writes kernels_by_annotation_stack"
fi
expect 2 "$HTX" report --annotation-stack=nope job && has err "annotations, ops" && empty out

# CSV: several tables are separated, each after a "# name" line (the job's
# rank 1 drops an event: the trust table follows the analysis's).
expect 0 "$HTX" report --format=csv --analysis=temporal job && same_as report-temporal.csv
expect 0 "$HTX" report --format=csv --analysis=temporal,overlap job && same_as report-two.csv

# Selection narrows the inputs.
expect 0 "$HTX" report --format=json --rank=1 --analysis=temporal job && valid_json
has out '"rank": 1'
if grep -q '"rank": 0' "$tmp/out"; then
    fail "--rank=1 still reports rank 0"
fi
expect 0 "$HTX" report --format=json --iteration=1 --window=0:300us job && valid_json

# Names with escape sequences: text is escaped, JSON is valid.
expect 0 "$HTX" report escape.json
if grep -q "$(printf '\033')" "$tmp/out"; then
    fail "raw ESC in text report"
fi
has out 'evil_kernel'
expect 0 "$HTX" report --format=json escape.json && valid_json

# An analysis with nothing to work on gives an empty table and a note.
expect 0 "$HTX" report --format=json --analysis=sequences --operator=no_such_op job && valid_json
has out '"frequent_kernel_sequences": []'

# A multi-rank job whose collectives go unrecognised gets a hint on stderr;
# the job itself (ncclDevKernel) and a DeepEP kernel (htx rules) do not.
mkdir -p "$tmp/nocomm" "$tmp/deepep"
for r in rank-0.json; do
    sed 's/ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm\*)/myAllToAll_kernel(int)/' \
        "job/$r" >"$tmp/nocomm/$r"
    sed 's/ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm\*)/void deep_ep::internode::dispatch<true>(int4*)/' \
        "job/$r" >"$tmp/deepep/$r"
done
cp job/rank-1.json.gz "$tmp/nocomm/"
cp job/rank-1.json.gz "$tmp/deepep/"
if grep -q ncclDevKernel "$tmp/nocomm/rank-0.json" || zcat job/rank-1.json.gz | grep -q ncclDevKernel; then
    fail "fixture: the job's one NCCL kernel is not in rank-0.json"
fi
expect 0 "$HTX" report --analysis=kernels job && empty err
expect 0 "$HTX" report --analysis=kernels "$tmp/nocomm" && has err "no communication kernel recognised"
has err "--comm-patterns"
expect 0 "$HTX" report --analysis=temporal "$tmp/nocomm" && empty err
expect 0 "$HTX" report --analysis=kernels --comm-patterns=myAllToAll "$tmp/nocomm" && empty err
expect 0 "$HTX" report --analysis=overlap "$tmp/deepep" && empty err
expect 0 "$HTX" report --analysis=overlap --semantics=hta "$tmp/deepep" && has err "no communication kernel"
# Text lists the 20 launches with the longest delay (of 42 in the UI job),
# largest first; CSV keeps every one.
expect 0 "$HTX" report --analysis=launch "$HTX_SRCDIR/tests/data/ui/job" &&
    has out "Kernel launches: the 20 with the largest launch_delay, of 42"
awk '/^Kernel launches:/ { on = 1; next } on && /^$/ { exit } on && $1 ~ /^[0-9]+$/ { print $5 }' \
    "$tmp/out" >"$tmp/delays"
[ "$(wc -l <"$tmp/delays")" = 20 ] || fail "the text launch list has $(wc -l <"$tmp/delays") rows, want 20"
sort -g -r "$tmp/delays" | cmp -s - "$tmp/delays" || fail "the text launch list is not by delay, largest first"
expect 0 "$HTX" report --analysis=launch --format=csv "$HTX_SRCDIR/tests/data/ui/job"
rows=$(awk '/^# cuda_kernel_launch_stats/ { on = 1; getline; next } on && (/^#/ || /^\r?$/) { exit }
            on { n++ } END { print n + 0 }' "$tmp/out")
[ "$rows" = 42 ] || fail "CSV lost launch rows: $rows of 42"
# The TUI's diagnostics view says it too, on its second line.
printf 'i' >"$tmp/diag.keys"
expect 0 "$HTX" --script "$tmp/diag.keys" --dump-screen "$tmp/diag.screen" --size 30x200 "$tmp/nocomm" &&
    has diag.screen "warning: several ranks but no communication kernel recognised"
expect 0 "$HTX" --script "$tmp/diag.keys" --dump-screen "$tmp/diag-job.screen" --size 30x200 job
if grep -q "warning: several ranks" "$tmp/diag-job.screen"; then
    fail "the diagnostics view warns on a job whose NCCL kernels are recognised"
fi
expect 0 "$HTX" report --analysis=kernels --rank=0 "$tmp/nocomm" && empty err

# --timings: the same report, and on stderr the load, the analyses against
# it and a line for each analysis run.
expect 0 "$HTX" report --format=json job && cp "$tmp/out" "$tmp/plain.json"
expect 0 "$HTX" report --format=json --timings job
cmp -s "$tmp/out" "$tmp/plain.json" || fail "--timings changed the report"
has_match err '^htx: timings: load [0-9.]* s$'
has_match err '^htx: timings: analyses [0-9.]* s, [0-9.]*x the load'
for a in temporal kernels idle overlap launch queue membw annotations sequences collectives \
    stragglers utilization; do
    has_match err "^htx: timings:   $a  *[0-9.]* s from [0-9.]* s, cpu [0-9.]* s$"
done
has_match err '^htx: timings: output [0-9.]* s$'
expect 0 "$HTX" report --analysis=temporal --timings job && same_as report-temporal.txt
[ "$(grep -c '^htx: timings:   ' "$tmp/err")" = 1 ] || fail "--analysis=temporal --timings: not one analysis timed"

# Errors leave stdout empty.
expect 1 "$HTX" report --format=json bad/truncated.json.gz && empty out
expect 2 "$HTX" report --format=json --rank=5 job && empty out
# A report that cannot be written (a full disk) fails and says so.
if [ -w /dev/full ]; then
    full=0
    "$HTX" report --format=json job >/dev/full 2>"$tmp/err" || full=$?
    [ "$full" = 1 ] || fail "report into /dev/full: exit $full, want 1"
    has err "cannot write the output"
fi
finish
