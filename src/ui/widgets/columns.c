#include "config.h"
#include "ui/widgets/columns.h"

#include <stdint.h>
#include <string.h>

/* The columns being fitted, by display position k. */
struct fit {
    const struct ui_tview *v;
    size_t order[UI_COLS_MAX];    /* display position -> table column */
    size_t n;
    bool text[UI_COLS_MAX];
    int w[UI_COLS_MAX];
    int total;                    /* widths and gaps */
    long name;                    /* position of the name column, -1 */
    long first_text;              /* position of the first text column, -1 */
};

static bool is_text_col(const struct table *t, size_t c)
{
    for (size_t r = 0; r < t->nrows && r < 50; r++) {
        enum cell_type ty = table_cell(t, r, c)->type;
        if (ty == CELL_STR)
            return true;
        if (ty != CELL_NULL)
            return false;
    }
    return false;
}

static void add_col(struct fit *f, size_t c)
{
    size_t k = f->n++;
    f->order[k] = c;
    f->text[k] = is_text_col(f->v->t, c);
    f->w[k] = f->v->widths ? f->v->widths[c] : 8;
    f->total += f->w[k] + (k ? UI_COLS_GAP : 0);
    if (f->first_text < 0 && f->text[k])
        f->first_text = (long)k;
    if ((int)c == ui_tview_name_col(f->v->t))
        f->name = (long)k;
}

/* The display order: the lead columns, then the others; hidden ones out. */
static void order_columns(struct fit *f, const char *const *lead, size_t nlead)
{
    const struct table *t = f->v->t;
    bool taken[UI_COLS_MAX] = {false};

    for (size_t i = 0; i < nlead; i++) {
        int c = table_col_index(t, lead[i]);
        if (c >= 0 && !taken[c] && !ui_tview_col_hidden(f->v, (size_t)c)) {
            taken[c] = true;
            add_col(f, (size_t)c);
        }
    }
    for (size_t c = 0; c < t->ncols; c++)
        if (!taken[c] && !ui_tview_col_hidden(f->v, c))
            add_col(f, c);
}

/* Narrows the text columns (all but `keep`, -1 for none) down to floor,
 * widest first, until the row fits w. */
static void shrink_text(struct fit *f, long keep, int floor, int w)
{
    while (f->total > w) {
        size_t widest = SIZE_MAX;
        for (size_t k = 0; k < f->n; k++)
            if (f->text[k] && (long)k != keep && f->w[k] > floor &&
                (widest == SIZE_MAX || f->w[k] > f->w[widest]))
                widest = k;
        if (widest == SIZE_MAX)
            return;
        int cut = f->total - w, room = f->w[widest] - floor;
        cut = cut < room ? cut : room;
        f->w[widest] -= cut;
        f->total -= cut;
    }
}

/* Number columns give up header width their cells do not need, down to
 * UI_COLS_HEAD_KEEP of it. */
static void shrink_numbers(struct fit *f, int w)
{
    for (size_t k = 0; k < f->n && f->total > w; k++) {
        size_t c = f->order[k];
        int keep = f->v->content_widths ? f->v->content_widths[c] + 1 : f->w[k];
        int head = f->w[k] < UI_COLS_HEAD_KEEP ? f->w[k] : UI_COLS_HEAD_KEEP;
        keep = keep < head ? head : keep;
        if (f->text[k] || f->w[k] <= keep)
            continue;
        int cut = f->total - w < f->w[k] - keep ? f->total - w : f->w[k] - keep;
        f->w[k] -= cut;
        f->total -= cut;
    }
}

/* The column that takes room to spare: the name column, else the first
 * text column (the row's name); -1 when none. */
static long growing(const struct fit *f)
{
    return f->name >= 0 ? f->name : f->first_text;
}

/* Room to spare: the growing column takes it, up to its longest text. */
static int name_growth(const struct fit *f, int spare)
{
    long g = growing(f);
    if (g < 0 || spare <= 0 || !f->v->content_widths)
        return 0;
    int want = f->v->content_widths[f->order[g]] - f->w[g];
    return want <= 0 ? 0 : (want < spare ? want : spare);
}

static void place(struct ui_cols *out, size_t col, int x, int w)
{
    out->at[out->n++] = (struct ui_col_place){col, x, w};
}

/* Every column at its fitted width. */
static void place_all(const struct fit *f, struct ui_cols *out)
{
    int x = 0;
    for (size_t k = 0; k < f->n; k++) {
        place(out, f->order[k], x, f->w[k]);
        x += f->w[k] + UI_COLS_GAP;
    }
}

/* The scrolled columns from position `first` on, whole, after x; returns
 * where the last ends. The first of them is cut when nothing else fits. */
static int place_scrolled(const struct fit *f, const int *nat, size_t frozen, size_t first,
                          int x, int right, struct ui_cols *out)
{
    int end = x - UI_COLS_GAP;
    for (size_t k = frozen + first; k < f->n; k++) {
        int cw = nat[k];
        if (x + cw > right) {
            if (k != frozen + first || x >= right)
                break;
            cw = right - x;
        }
        if (out)
            place(out, f->order[k], x, cw);
        end = x + cw;
        x += cw + UI_COLS_GAP;
    }
    return end;
}

/* The frozen columns' widths (the name up to a third of w) in f->w. */
static int frozen_widths(struct fit *f, const int *nat, size_t frozen, int w)
{
    int x = 0;
    for (size_t k = 0; k < frozen; k++) {
        int cw = f->text[k] && nat[k] > UI_COLS_MIN_TEXT ? UI_COLS_MIN_TEXT : nat[k];
        if ((long)k == f->name) {
            int share = w / 3 > UI_COLS_NAME_KEEP ? w / 3 : UI_COLS_NAME_KEEP;
            int content = f->v->content_widths ? f->v->content_widths[f->order[k]] : nat[k];
            cw = content > nat[k] ? content : nat[k];
            cw = cw < share ? cw : share;
        }
        f->w[k] = cw;
        x += cw + UI_COLS_GAP;
    }
    if (f->name >= 0 && x > w / 2) {   // a narrow pane: the name gives way first
        int give = x - w / 2, room = f->w[f->name] - 4;
        give = give < room ? give : room;
        f->w[f->name] -= give > 0 ? give : 0;
        x -= give > 0 ? give : 0;
    }
    return x;
}

static void scroll_layout(struct fit *f, int w, size_t first, struct ui_cols *out)
{
    int nat[UI_COLS_MAX];
    memcpy(nat, f->w, sizeof nat);
    for (size_t k = 0; k < f->n; k++)
        nat[k] = f->v->widths ? f->v->widths[f->order[k]] : nat[k];
    // The row's identity stays: the leading key columns, through the name.
    size_t frozen = f->name >= 0 && f->name <= 2 ? (size_t)f->name + 1 : 1;
    size_t keys = 0;
    while (keys < f->n && keys < 3 && (f->v->t->cols[f->order[keys]].flags & COL_KEY))
        keys++;
    frozen = keys > frozen ? keys : frozen;
    if (frozen >= f->n)
        frozen = f->n - 1;   // something must scroll (f->n >= 2 here)
    int right = w - 1;   // the last cell holds the "more" mark
    int x = frozen_widths(f, nat, frozen, w);
    // What first = 0 leaves over goes to the name, so it keeps one width.
    int end = place_scrolled(f, nat, frozen, 0, x, right, NULL);
    int grow = name_growth(f, right - end);
    long g = growing(f);
    if (grow > 0 && g >= 0 && (size_t)g < frozen) {
        f->w[g] += grow;
        x += grow;
    }
    out->frozen = frozen;
    out->nscroll = f->n - frozen;
    out->first = first < out->nscroll ? first : out->nscroll - 1;
    int fx = 0;
    for (size_t k = 0; k < frozen; k++) {
        place(out, f->order[k], fx, f->w[k]);
        fx += f->w[k] + UI_COLS_GAP;
    }
    place_scrolled(f, nat, frozen, out->first, x, right, out);
    out->more_left = out->first > 0;
    size_t shown = out->n - frozen;
    out->more_right = out->first + shown < out->nscroll;
}

void ui_cols_layout(const struct ui_tview *v, const char *const *lead, size_t nlead, int w,
                    size_t first, struct ui_cols *out)
{
    struct fit f = {.v = v, .name = -1, .first_text = -1};

    memset(out, 0, sizeof *out);
    if (!v->t || v->t->ncols > UI_COLS_MAX || w <= 0)
        return;
    order_columns(&f, lead, nlead);
    if (f.n == 0)
        return;
    shrink_text(&f, f.first_text, UI_COLS_MIN_TEXT, w);
    shrink_text(&f, -1, UI_COLS_NAME_KEEP, w);
    shrink_numbers(&f, w);
    shrink_text(&f, -1, UI_COLS_MIN_TEXT, w);
    if (f.total <= w || f.n == 1) {
        if (growing(&f) >= 0)
            f.w[growing(&f)] += name_growth(&f, w - f.total);
        if (f.n == 1 && f.w[0] > w)
            f.w[0] = w;
        place_all(&f, out);
        return;
    }
    scroll_layout(&f, w, first, out);
}

int ui_cols_width(const struct ui_cols *c, size_t col)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->at[i].col == col)
            return c->at[i].w;
    return -1;
}
