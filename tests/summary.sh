#!/bin/sh
# Prints the results of a build directory's test suite: each test's result
# with its Check summary line ("100%: Checks: N, Failures: 0, Errors: 0") or
# its skip reason, the totals, and, when the suite failed, the failing tests'
# logs. Exits with MAKE_STATUS. Usage: summary.sh BUILD_DIR MAKE_STATUS
set -u
dir=$1
status=${2:-0}

echo "== test results: $dir =="
for trs in $(find "$dir/tests" -name '*.trs' 2>/dev/null | sort); do
    log=${trs%.trs}.log
    name=${log#"$dir"/}
    result=$(sed -n 's/^:test-result: //p' "$trs" | head -n 1)
    case $result in
    SKIP) detail=$(grep -m 1 '^SKIP' "$log" 2>/dev/null) ;;
    *) detail=$(grep -E '^[0-9]+%: Checks: ' "$log" 2>/dev/null | tail -n 1) ;;
    esac
    printf '%-5s %-36s %s\n' "$result" "${name%.log}" "$detail"
done
if [ -f "$dir/test-suite.log" ]; then
    grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):' "$dir/test-suite.log"
fi
[ "$status" = 0 ] && exit 0

find "$dir/tests" -name '*.trs' -exec grep -lE '^:test-result: (FAIL|ERROR|XPASS)' {} + 2>/dev/null |
    sort | while read -r trs; do
        echo "== ${trs%.trs}.log (last 150 lines) =="
        tail -n 150 "${trs%.trs}.log"
    done
echo "== make check in $dir failed (exit $status) =="
exit "$status"
