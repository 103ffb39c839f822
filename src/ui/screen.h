#ifndef HTX_UI_SCREEN_H
#define HTX_UI_SCREEN_H

#include "analysis/lane_fill.h"
#include "model/model.h"
#include "ui/widgets/grid.h"
#include "ui/state.h"

/* Composes whole screens into a grid (no curses): the main screen (title
 * bar, rank/stream pane, tabs and the active view, status line, overlays),
 * the "terminal too small" message and the load progress screen. */

/* The tab bar at width w: each view's label, its width, line and column.
 * Drawing and mouse clicks both use it, so a click lands on what is drawn. */
struct ui_tabs {
    size_t n;
    enum ui_view_id ids[UI_VIEW_COUNT];
    char labels[UI_VIEW_COUNT][40];
    int widths[UI_VIEW_COUNT], line[UI_VIEW_COUNT], col[UI_VIEW_COUNT];
    int lines;
};
void ui_tabs_layout(const struct ui_state *st, int w, struct ui_tabs *t);

/* Computes st->layout for st->rows x st->cols (tab lines included). */
void ui_screen_layout(struct ui_state *st);

/* Draws the main screen for st; g must be st->rows x st->cols. */
void ui_screen_compose(const struct ui_state *st, const struct model *m, struct ui_grid *g);

/* Draws the screen shown while title loads: the main screen's frame (title,
 * rank pane, tabs, status line) around the load's progress, saying what is
 * still loading and how many keys typed meanwhile wait for the events; with
 * lanes (may be NULL), above it where each lane's events read so far lie. */
void ui_screen_loading(struct ui_grid *g, const char *title, const struct load_progress *p,
                       double seconds, size_t keys_waiting, const struct lane_fill *lanes);

/* Draws a one-message screen (errors before the model exists). */
void ui_screen_message(struct ui_grid *g, const char *title, const char *msg);

#endif
