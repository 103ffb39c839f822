#include "config.h"
#include "ui/view.h"

/* The views by id, and drawing one into the main pane. */

const struct ui_view_ops *ui_view_get(const struct ui_state *st, enum ui_view_id id)
{
    if (id == UI_VIEW_TIMELINE)
        return &ui_view_timeline;
    if (id == UI_VIEW_DIFF)
        return st->diff_view;
    if (id < UI_VIEW_COUNT)
        return &ui_view_docs[id - 1];
    return NULL;
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
