# ui layer: the TUI, in three parts:
#   src/ui/term/     the terminal: the only files that include curses (through
#                    term/curses.h), painting grids and reading keys;
#   src/ui/widgets/  curses-free building blocks: text width, keys, layout,
#                    grids, tables and charts;
#   src/ui/views/    one view per file (<view>.c, defining its ui_view_ops),
#                    its companions in <view>_*.c; views never call each
#                    other (tests/layering.sh);
# and at the top the entry point (ui.c), the run loop (run.c), the loaders
# (load.c), the first state made from the options (initial_state.c), the
# state, the registry of views (view.c), the table
# document the table views share (document*.c), the key table (bindings.c),
# the actions every view shares, the left pane, the timeline's instances
# (jumps.c), the refresh after each key (refresh.c: selection -> derived
# data) and screen composition.
libui_a_SOURCES += \
	src/ui/ui.h src/ui/ui.c src/ui/run.c src/ui/run.h \
	src/ui/load.c src/ui/load.h src/ui/initial_state.c src/ui/initial_state.h \
	src/ui/state.c src/ui/state.h src/ui/view.c src/ui/view.h \
	src/ui/actions.c src/ui/actions.h src/ui/bindings.c src/ui/rank_pane.c \
	src/ui/jumps.c src/ui/jumps.h \
	src/ui/refresh.c src/ui/refresh.h src/ui/screen.c src/ui/screen.h \
	src/ui/document.c src/ui/document.h src/ui/document_draw.c \
	src/ui/document_actions.c src/ui/document_charts.c \
	src/ui/term/curses.h src/ui/term/term.c src/ui/term/term.h \
	src/ui/term/draw.c src/ui/term/draw.h \
	src/ui/term/osc52.c src/ui/term/osc52.h \
	src/ui/widgets/expand.c src/ui/widgets/expand.h \
	src/ui/widgets/text.c src/ui/widgets/text.h src/ui/widgets/keys.c src/ui/widgets/keys.h \
	src/ui/widgets/layout.c src/ui/widgets/layout.h src/ui/widgets/grid.c src/ui/widgets/grid.h \
	src/ui/widgets/tables.c src/ui/widgets/tables.h \
	src/ui/widgets/columns.c src/ui/widgets/columns.h \
	src/ui/widgets/tree_rows.c src/ui/widgets/tree_rows.h \
	src/ui/widgets/charts.c src/ui/widgets/charts.h \
	src/ui/widgets/nav.c src/ui/widgets/nav.h \
	src/ui/views/timeline.c src/ui/views/timeline.h src/ui/views/timeline_actions.c \
	src/ui/views/timeline_nav.c \
	src/ui/views/timeline_lanes.c src/ui/views/timeline_lanes.h \
	src/ui/views/timeline_details.c src/ui/views/timeline_details.h \
	src/ui/views/overview.c \
	src/ui/views/kernels.c src/ui/views/kernels.h \
	src/ui/views/idle.c src/ui/views/idle.h \
	src/ui/views/overlap.c \
	src/ui/views/launch.c src/ui/views/launch.h \
	src/ui/views/annotations.c src/ui/views/annotations_tree.c \
	src/ui/views/annotations_tree_actions.c src/ui/views/annotations_tree.h \
	src/ui/views/counters.c src/ui/views/sequences.c \
	src/ui/views/ranks.c src/ui/views/ranks.h \
	src/ui/views/collectives.c src/ui/views/collectives.h \
	src/ui/views/diagnostics.c \
	src/ui/views/findings.c src/ui/views/findings.h \
	src/ui/views/diff.c src/ui/views/diff.h src/ui/views/diff_actions.c \
	src/ui/views/diff_draw.c src/ui/views/diff_detail.c
