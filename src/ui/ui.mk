# ui layer: the TUI. Only term.c and draw.c include curses (through ui/curses.h);
# everything else works on plain data and is unit-tested without a terminal.
libui_a_SOURCES += \
	src/ui/ui.h src/ui/curses.h \
	src/ui/text.c src/ui/text.h src/ui/keys.c src/ui/keys.h \
	src/ui/layout.c src/ui/layout.h src/ui/grid.c src/ui/grid.h \
	src/ui/tables.c src/ui/tables.h src/ui/charts.c src/ui/charts.h \
	src/ui/state.c src/ui/state.h src/ui/view.h \
	src/ui/timeline.c src/ui/timeline.h src/ui/view_timeline.c \
	src/ui/docs.c src/ui/docs.h src/ui/doc_views.c src/ui/diag.c \
	src/ui/details.c src/ui/details.h \
	src/ui/actions.c src/ui/actions.h src/ui/bindings.c \
	src/ui/actions_ranks.c src/ui/actions_timeline.c src/ui/actions_doc.c \
	src/ui/screen.c src/ui/screen.h src/ui/sync.c src/ui/sync.h \
	src/ui/term.c src/ui/term.h src/ui/draw.c src/ui/draw.h \
	src/ui/app.c src/ui/app.h \
	src/ui/main.c
# diff view (`htx diff`, view d): owned by the diff engineer
libui_a_SOURCES += \
	src/ui/view_diff.c src/ui/view_diff.h \
	src/ui/view_diff_detail.c src/ui/view_diff_draw.c src/ui/view_diff_keys.c
