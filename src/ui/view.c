#include "config.h"
#include "ui/view.h"

/* The registry: every view by id, and drawing one into the main pane. */

static const struct ui_view_ops *const views[UI_VIEW_COUNT] = {
    [UI_VIEW_TIMELINE] = &ui_view_timeline,
    [UI_VIEW_OVERVIEW] = &ui_view_overview,
    [UI_VIEW_KERNELS] = &ui_view_kernels,
    [UI_VIEW_IDLE] = &ui_view_idle,
    [UI_VIEW_OVERLAP] = &ui_view_overlap,
    [UI_VIEW_LAUNCH] = &ui_view_launch,
    [UI_VIEW_ANNOTATIONS] = &ui_view_annotations,
    [UI_VIEW_COUNTERS] = &ui_view_counters,
    [UI_VIEW_SEQUENCES] = &ui_view_sequences,
    [UI_VIEW_RANKS] = &ui_view_ranks,
    [UI_VIEW_COLLECTIVES] = &ui_view_collectives,
    [UI_VIEW_DIAGNOSTICS] = &ui_view_diagnostics,
    [UI_VIEW_FINDINGS] = &ui_view_findings,
    [UI_VIEW_DIFF] = NULL,   /* st->diff_view: only htx diff has one */
};

const struct ui_view_ops *ui_view_get(const struct ui_state *st, enum ui_view_id id)
{
    if (id == UI_VIEW_DIFF)
        return st->diff_view;
    return (unsigned)id < UI_VIEW_COUNT ? views[id] : NULL;
}

void ui_view_draw(const struct ui_view_ops *v, const struct ui_state *st, const struct model *m,
                  struct ui_grid *g, struct ui_rect body)
{
    size_t pinned = v->pinned ? v->pinned(st, m) : 0;
    size_t rows = v->rows ? v->rows(st, m) : 0;
    size_t top = v->top ? v->top(st, m, body.h) : 0;

    for (size_t i = 0; i < pinned && (int)i < body.h; i++)
        v->pinned_row(st, m, i, g, body.y + (int)i, body.x, body.w);
    for (int y = (int)pinned; y < body.h && top + (size_t)y - pinned < rows; y++)
        v->row(st, m, top + (size_t)y - pinned, g, body.y + y, body.x, body.w);
}
