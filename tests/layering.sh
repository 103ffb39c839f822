#!/bin/sh
# The layering of STYLE.md §1 and §4, checked by grep on src/:
# dependencies point down only (util < trace < model < analysis < summary < app <
# cli, ui < main.c; cli and ui never include each other); curses only in
# src/ui/term (through ui/term/curses.h); cJSON and zlib only in src/trace; the core
# layers (util, trace, model, analysis) never print and never exit. And the TUI's
# views own themselves (STYLE.md §11): no view includes another view's header or
# calls its functions (checked on libui.a's symbols), so that the table document
# (src/ui/document*) stays a library and the key table and registry the only
# places that name every view.
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

# The view a file of src/ui/views belongs to: views/<view>.c is a view, and
# views/<view>_*.c and <view>_*.h are its companions (actions, drawing), one
# view with it. $1: the file's base name; $2: every base name there, shortest
# first.
view_of() {
    for v in $2; do
        case $1 in "$v" | "$v"_*) echo "$v"; return ;; esac
    done
    echo "$1"
}

# The base names of the files in the views directory $1, shortest first.
view_names() {
    find "$1" -maxdepth 1 -name '*.[ch]' | sed 's|.*/||; s/\.[ch]$//' | sort -u |
        awk '{ print length($0), $0 }' | sort -n | cut -d' ' -f2
}

# Prints every include of another view's header in the views directory $1.
view_includes() {
    names=$(view_names "$1")
    for f in $(find "$1" -maxdepth 1 -name '*.[ch]' | sort); do
        b=${f##*/}
        own=$(view_of "${b%.?}" "$names")
        for h in $(grep -E "${INCLUDE}ui/views/" "$f" | sed -E 's|.*ui/views/([^/">]+)\.h.*|\1|'); do
            other=$(view_of "$h" "$names")
            [ "$other" = "$own" ] || echo "view $own includes view $other: src/ui/views/$b"
        done
    done
}

# Reads `nm -A` of an archive whose members are <prefix>-<base>.o and prints
# every symbol one view's objects use that another view's define; $1: the
# views' base names (view_names).
view_calls() {
    awk -v names="$(echo $1)" '
        function view(b,   i, n, v) {
            n = split(names, v, " ")
            for (i = 1; i <= n; i++)
                if (b == v[i] || index(b, v[i] "_") == 1)
                    return v[i]
            return ""
        }
        {
            split($1, p, ":"); o = p[2]; sub(/^[^-]*-/, "", o); sub(/\.o$/, "", o)
            w = view(o)
            if (w == "")
                next
            if ($(NF - 1) == "U") {
                n++; user[n] = w; sym[n] = $NF
            } else if ($(NF - 1) ~ /^[TDRBCG]$/) {
                owner[$NF] = w
            }
        }
        END {
            for (i = 1; i <= n; i++)
                if ((sym[i] in owner) && owner[sym[i]] != user[i])
                    print "view " user[i] " calls view " owner[sym[i]] ": " sym[i]
        }'
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

echo "# the view check finds planted calls between views"
views=$tmpdir/views
mkdir -p "$views"
printf '#include "ui/views/idle.h"\n#include "ui/document.h"\n' > "$views/kernels.c"
printf '#include "ui/views/kernels_lib.h"\n' > "$views/kernels_actions.c"
printf '\n' > "$views/kernels_lib.h"
printf '#include "ui/views/kernels.h"\n' > "$views/idle.c"
printf '\n' > "$views/idle.h"
printf '\n' > "$views/kernels.h"
view_includes "$views" > "$tmpdir/planted_views"
cat > "$tmpdir/nm" <<'NM'
libui.a:libui_a-kernels.o:0000000000000000 T ui_act_kernels_enter
libui.a:libui_a-kernels.o:                 U ui_jumps_show
libui.a:libui_a-kernels.o:                 U ui_idle_chart
libui.a:libui_a-kernels_actions.o:                 U ui_act_kernels_enter
libui.a:libui_a-idle.o:0000000000000040 T ui_idle_chart
libui.a:libui_a-jumps.o:0000000000000000 T ui_jumps_show
libui.a:libui_a-idle.o:                 U ui_jumps_show
NM
view_calls "$(view_names "$views")" < "$tmpdir/nm" >> "$tmpdir/planted_views"
cat "$tmpdir/planted_views"
[ "$(wc -l < "$tmpdir/planted_views")" = 3 ] || fail "expected 3 planted calls between views"

echo "# src/ keeps the layering"
[ -n "$(find "$HTX_SRCDIR/src" -name '*.c')" ] || fail "no sources under $HTX_SRCDIR/src"
violations "$HTX_SRCDIR/src" > "$tmpdir/found"
if [ -s "$tmpdir/found" ]; then
    cat "$tmpdir/found" >&2
    fail "layering violations (STYLE.md §1, §4)"
fi
echo "ok: $(find "$HTX_SRCDIR/src" -name '*.[ch]' | wc -l) files"

echo "# no view of src/ui/views includes or calls another"
names=$(view_names "$HTX_SRCDIR/src/ui/views")
[ -f "$HTX_BUILDDIR/libui.a" ] || fail "no libui.a under $HTX_BUILDDIR: build htx first"
{
    view_includes "$HTX_SRCDIR/src/ui/views"
    nm -A "$HTX_BUILDDIR/libui.a" | view_calls "$names"
} > "$tmpdir/views_found"
if [ -s "$tmpdir/views_found" ]; then
    cat "$tmpdir/views_found" >&2
    fail "views calling each other (STYLE.md §11)"
fi
echo "ok: views" $(for b in $names; do view_of "$b" "$names"; done | sort -u)
