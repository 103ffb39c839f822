#ifndef HTX_UI_TIMELINE_H
#define HTX_UI_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "ui/widgets/grid.h"
#include "ui/widgets/nav.h"
#include "ui/state.h"

/* Timeline helpers shared by the timeline view, its actions and the
 * benchmark: lanes from the selection, the time scale of the cell area,
 * what a cell shows and how it looks. No curses. */

#define UI_TIMELINE_PINNED 2   /* legend and axis rows above the lanes */

/* Rebuilds st->lanes: for every included rank, its switched-on streams and
 * threads present in the current selection. Keeps the cursor lane in
 * range. Returns 0 or ERR_NOMEM. */
int ui_lanes_build(struct ui_state *st, const struct model *m);

/* Recomputes st->tl.lo/hi from the selected ranks' start/end; fits the
 * window when it was never set or does not overlap the data. */
void ui_timeline_extent(struct ui_state *st, const struct model *m);

/* Columns of lane labels and of the cell area for a body w columns wide. */
int ui_timeline_label_w(int w);
int ui_timeline_cols(const struct ui_state *st);

/* The time scale of the cell area (window and column count). */
void ui_timeline_scale(const struct ui_state *st, struct ui_timescale *ts);

/* The cursor's time: the exact time it was put on (st->tl.at) while that
 * lies in its cell, else the cell's start. */
int64_t ui_timeline_cursor_time(const struct ui_state *st);

/* Lane rows visible in the body. */
size_t ui_timeline_lane_rows(const struct ui_state *st);

/* The event the cursor cell of `lane` shows, or MODEL_NONE. */
uint32_t ui_timeline_pick(const struct ui_state *st, const struct model *m, size_t lane, int col);

/* Centres the window on an event of rank index r (zooming out when it is
 * wider than the window), moves the cursor onto it and selects its lane
 * (switching its stream or thread on if needed). Returns 0, or ERR_EMPTY
 * when the event has no lane (its rank is not included). */
int ui_timeline_goto(struct ui_state *st, const struct model *m, uint32_t r, uint32_t pos);

/* Display class of an event: glyph and style of the cell it fills. */
enum ui_cell_class {
    UI_CLASS_IDLE = 0,
    UI_CLASS_COMPUTE,
    UI_CLASS_COMM,
    UI_CLASS_MEMORY,
    UI_CLASS_OTHER,
    UI_CLASS_CPU,
    UI_CLASS_ANNOTATION,
    UI_CLASS_COUNT
};
uint32_t ui_class_glyph(const struct ui_grid *g, enum ui_cell_class c);
enum ui_style ui_class_style(enum ui_cell_class c);
const char *ui_class_name(enum ui_cell_class c);

/* Fills a lane's cells: w cells from (y, x) over scale ts. */
void ui_timeline_draw_lane(const struct ui_state *st, const struct model *m,
                           const struct ui_lane *lane, const struct ui_timescale *ts,
                           struct ui_grid *g, int y, int x);

/* Adds lane l's events overlapping [acc->a, acc->b) to acc: a stream's
 * from its index, a thread's from the outermost event around the range's
 * start. Summary-only lanes have no events to add. */
void ui_lane_span(const struct model *m, const struct ui_lane *l, struct ui_span_acc *acc);

/* Short label of a lane ("r0 s7", "r1 main"), into buf. */
void ui_lane_label(const struct ui_state *st, const struct model *m, const struct ui_lane *lane,
                   char *buf, size_t n);

#endif
