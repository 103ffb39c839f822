#!/bin/sh
# The layering of STYLE.md §1 and §4, checked by grep on src/:
# dependencies point down only (util < trace < model < analysis < summary < app <
# cli, ui < main.c; cli and ui never include each other); curses only in
# src/ui/term (through ui/term/curses.h); cJSON and zlib only in src/trace; the core
# layers (util, trace, model, analysis) never print and never exit.
. "$(dirname "$0")/lib.sh"

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
        "curses.h outside src/ui/term@${INCLUDE}[^>\"]*curses[^>\"]*\.h@^ui/term/" \
        "cJSON outside src/trace@${INCLUDE}[^>\"]*cJSON[^>\"]*\.h@^trace/" \
        "zlib outside src/trace@${INCLUDE}zlib\.h@^trace/" \
        "trace header above its layer@${INCLUDE}trace/@^(trace|model|analysis|summary|app|cli|ui)/|^main\.c$" \
        "model header above its layer@${INCLUDE}model/@^(model|analysis|summary|app|cli|ui)/|^main\.c$" \
        "analysis header above its layer@${INCLUDE}analysis/@^(analysis|summary|app|cli|ui)/|^main\.c$" \
        "summary header above its layer@${INCLUDE}summary/@^(summary|app|cli|ui)/|^main\.c$" \
        "app header above its layer@${INCLUDE}app/@^(app|cli|ui)/|^main\.c$" \
        "cli header outside src/cli@${INCLUDE}cli/@^cli/|^main\.c$" \
        "ui header outside src/ui@${INCLUDE}ui/@^ui/|^main\.c$" \
        "printing or exiting in a core layer@(^|[^_[:alnum:]])(printf|fprintf|vprintf|vfprintf|puts|fputs|putchar|perror|exit|_Exit|abort)[[:space:]]*\(@^(app|cli|ui)/|^main\.c$"
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
mkdir -p "$plant/model" "$plant/trace" "$plant/ui" "$plant/analysis" "$plant/util" \
    "$plant/app" "$plant/cli"
printf '#include <ncursesw/curses.h>\n' > "$plant/model/a.c"
printf '#include "ui/term/curses.h"\n' > "$plant/analysis/b.c"
printf '#include <cJSON.h>\n#include <zlib.h>\n' > "$plant/ui/c.c"
printf '#include "model/model.h"\n' > "$plant/trace/d.c"
printf '#include "summary/summary_file.h"\n' > "$plant/analysis/f.c"
printf 'void f(void) { fprintf(stderr, "x"); exit(1); }\n' > "$plant/analysis/e.c"
printf '#include <zlib.h>\n#include <cJSON.h>\nint n = snprintf(0, 0, "");\n' > "$plant/trace/ok.c"
mkdir -p "$plant/ui/term"
printf '#include "ui/term/curses.h"\n#include "model/model.h"\n' > "$plant/ui/term/ok.c"
printf '#include "trace/event.h"\n' > "$plant/util/f.c"
printf '#include "app/options.h"\n' > "$plant/analysis/g.c"
printf '#include "ui/ui.h"\n' > "$plant/cli/h.c"
printf '#include "cli/cli.h"\n' > "$plant/ui/i.c"
printf '#include "cli/commands.h"\n' > "$plant/app/j.c"
printf '#include "app/options.h"\n#include "analysis/table.h"\n' > "$plant/cli/ok.c"
printf '#include "app/session.h"\n#include "ui/ui.h"\n#include "cli/cli.h"\n' > "$plant/main.c"
violations "$plant" > "$tmpdir/planted"
cat "$tmpdir/planted"
[ "$(wc -l < "$tmpdir/planted")" = 13 ] || fail "expected 13 planted violations"

echo "# src/ keeps the layering"
[ -n "$(find "$HTX_SRCDIR/src" -name '*.c')" ] || fail "no sources under $HTX_SRCDIR/src"
violations "$HTX_SRCDIR/src" > "$tmpdir/found"
if [ -s "$tmpdir/found" ]; then
    cat "$tmpdir/found" >&2
    fail "layering violations (STYLE.md §1, §4)"
fi
echo "ok: $(find "$HTX_SRCDIR/src" -name '*.[ch]' | wc -l) files"
