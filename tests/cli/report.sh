#!/bin/sh
# htx report on the small two-rank job: one text golden per analysis, the
# whole report as JSON under both semantics (valid, with every table key),
# CSV layout, and nothing on stdout when the report fails.
. "$(dirname "$0")/../lib.sh"
keep_going=1
use_data cli
cd "$DATA"

for a in temporal kernels idle overlap launch queue membw annotations sequences; do
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
        '"frequent_kernel_sequences"' '"notes"'; do
        has out "$key"
    done
done

# CSV: one table alone has no "# name" line; several are separated.
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

# Errors leave stdout empty.
expect 1 "$HTX" report --format=json bad/truncated.json.gz && empty out
expect 2 "$HTX" report --format=json --rank=5 job && empty out
finish
