#!/bin/sh
# The layering of STYLE.md §1 and §4, checked by grep on src/:
# curses only in src/ui (through ui/curses.h); cJSON and zlib only in
# src/trace; src/trace never includes model headers; summary headers
# (issue 12's file format) only from src/summary, cli and ui; the core layers
# (util, trace, model, analysis, summary) never print and never exit.
. "$(dirname "$0")/env.sh"

INCLUDE='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]'

# Lists files under $1 (a src-like tree) that match $2 outside the
# directories in $3 (a regex on the path relative to $1).
offenders() {
    (cd "$1" && grep -rlE "$2" --include='*.c' --include='*.h' . 2>/dev/null |
        sed 's|^\./||' | grep -vE "$3" || true)
}

# Prints every layering violation in the tree $1.
violations() {
    for rule in \
        "curses.h outside src/ui@${INCLUDE}[^>\"]*curses[^>\"]*\.h@^ui/" \
        "cJSON outside src/trace@${INCLUDE}[^>\"]*cJSON[^>\"]*\.h@^trace/" \
        "zlib outside src/trace@${INCLUDE}zlib\.h@^trace/" \
        "model header in src/trace@${INCLUDE}model/@^(util|model|analysis|summary|cli|ui)/|^main\.c$" \
        "summary header below src/summary@${INCLUDE}summary/@^(summary|cli|ui)/|^main\.c$" \
        "printing or exiting in a core layer@(^|[^_[:alnum:]])(printf|fprintf|vprintf|vfprintf|puts|fputs|putchar|perror|exit|_Exit|abort)[[:space:]]*\(@^(cli|ui)/|^main\.c$"
    do
        what=${rule%%@*}
        rest=${rule#*@}
        pattern=${rest%@*}
        allowed=${rest##*@}
        for f in $(offenders "$1" "$pattern" "$allowed"); do
            echo "$what: src/$f"
        done
    done
}

echo "# the check finds planted violations"
plant=$tmpdir/src
mkdir -p "$plant/model" "$plant/trace" "$plant/ui" "$plant/analysis"
printf '#include <ncursesw/curses.h>\n' > "$plant/model/a.c"
printf '#include "ui/curses.h"\n' > "$plant/analysis/b.c"
printf '#include <cJSON.h>\n#include <zlib.h>\n' > "$plant/ui/c.c"
printf '#include "model/model.h"\n' > "$plant/trace/d.c"
printf '#include "summary/htxs.h"\n' > "$plant/analysis/f.c"
printf 'void f(void) { fprintf(stderr, "x"); exit(1); }\n' > "$plant/analysis/e.c"
printf '#include <zlib.h>\n#include <cJSON.h>\nint n = snprintf(0, 0, "");\n' > "$plant/trace/ok.c"
printf '#include "ui/curses.h"\n#include "model/model.h"\n' > "$plant/ui/ok.c"
violations "$plant" > "$tmpdir/planted"
cat "$tmpdir/planted"
[ "$(wc -l < "$tmpdir/planted")" = 7 ] || fail "expected 7 planted violations"

echo "# src/ keeps the layering"
[ -n "$(find "$HTX_SRCDIR/src" -name '*.c')" ] || fail "no sources under $HTX_SRCDIR/src"
violations "$HTX_SRCDIR/src" > "$tmpdir/found"
if [ -s "$tmpdir/found" ]; then
    cat "$tmpdir/found" >&2
    fail "layering violations (STYLE.md §1, §4)"
fi
echo "ok: $(find "$HTX_SRCDIR/src" -name '*.[ch]' | wc -l) files"
