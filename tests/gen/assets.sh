#!/bin/sh
# The commands that make assets/: the sample job the README opens and the
# control/test pair for the diff. `make assets` runs this into assets/;
# tests/gen.sh runs it into a temporary directory and compares.
# Usage: assets.sh HTX_GEN OUTDIR [EXTRA HTX-GEN OPTIONS]
set -eu
gen=$1
out=$2
shift 2
# 4 ranks, rank 3 as plain .json (the loader must take both).
"$gen" -q "$@" --seed=7 --ranks=4 --iterations=4 --layers=6 --plain-ranks=3 -o "$out/sample"
# A diff pair: `htx-gen --help` lists what differs between control and test.
"$gen" -q "$@" --seed=11 --ranks=2 --iterations=3 --layers=4 --pair -o "$out/diff"
