#include "config.h"
#include "ui/screen.h"

#include <stdio.h>
#include <string.h>

#include "ui/actions.h"
#include "ui/widgets/text.h"
#include "ui/views/timeline_lanes.h"
#include "ui/view.h"

#define BUSY_CELLS 6

/* ---- tabs ---- */

/* Three forms, the first that fits: every tab named (" 1 Timeline ", the
 * active one in brackets) on at most two lines, or three on a screen of 30
 * rows or more; one line of keys with the active tab named
 * ("1 2 [3 Kernels] 4"); one line of keys alone. */
void ui_tabs_layout(const struct ui_state *st, int w, struct ui_tabs *t)
{
    for (int form = 0; form < 3; form++) {
        t->n = 0;
        for (int id = 0; id < UI_VIEW_COUNT; id++) {
            const struct ui_view_ops *v = ui_view_get(st, (enum ui_view_id)id);
            if (!v)
                continue;
            bool active = id == (int)st->view;
            char *label = t->labels[t->n];
            if (form == 0)
                snprintf(label, sizeof t->labels[0], "%c%c %s%c", active ? '[' : ' ', v->key,
                         v->name, active ? ']' : ' ');
            else if (active && form == 1)
                snprintf(label, sizeof t->labels[0], "[%c %s]", v->key, v->name);
            else if (active)
                snprintf(label, sizeof t->labels[0], "[%c]", v->key);
            else
                snprintf(label, sizeof t->labels[0], "%c", v->key);
            t->widths[t->n] = ui_text_width(label, strlen(label), false);
            t->ids[t->n++] = (enum ui_view_id)id;
        }
        t->lines = ui_tabs_place(t->widths, t->n, w > 0 ? w : 1, t->line, t->col);
        if (t->lines <= (form == 0 ? (st->rows >= 30 ? 3 : 2) : 1))
            return;
    }
}

void ui_screen_layout(struct ui_state *st)
{
    struct ui_tabs t;

    ui_tabs_layout(st, ui_layout_main_width(st->cols, st->hide_left), &t);
    ui_layout_screen(st->rows, st->cols, t.lines, st->hide_left, &st->layout);
}

static void draw_tabs(const struct ui_state *st, struct ui_grid *g)
{
    struct ui_tabs t;
    struct ui_rect r = st->layout.tabs;

    ui_tabs_layout(st, r.w, &t);
    for (size_t i = 0; i < t.n && t.line[i] < r.h; i++) {
        bool active = t.ids[i] == st->view;
        ui_grid_text(g, r.y + t.line[i], r.x + t.col[i], r.w - t.col[i], t.labels[i],
                     active ? UI_STYLE_TAB_ACTIVE : UI_STYLE_TAB, UI_TRUNC_END);
    }
}

/* ---- title and status ---- */

static void title_right(const struct ui_state *st, const struct model *m, char *buf, size_t n)
{
    char iter[96], win[96], a[32], b[32];
    size_t inc = 0;

    for (size_t r = 0; r < st->nranks; r++)
        inc += st->ranks[r].included;
    if (st->iteration >= 0 && (size_t)st->iteration < st->niterations)
        snprintf(iter, sizeof iter, "iter %lld (%ld/%zu)",
                 (long long)st->iterations[st->iteration], st->iteration + 1, st->niterations);
    else if (st->iteration == UI_ITER_LIST)
        snprintf(iter, sizeof iter, "iter %zu chosen", st->niter_list);
    else
        snprintf(iter, sizeof iter, "iter all");
    if (st->has_window) {
        ui_format_duration(st->window_start, a, sizeof a);
        ui_format_duration(st->window_end, b, sizeof b);
        snprintf(win, sizeof win, "window %s-%s", a, b);
    } else {
        snprintf(win, sizeof win, "window all");
    }
    if (inc == 1) {
        for (size_t r = 0; r < st->nranks; r++)
            if (st->ranks[r].included)
                snprintf(buf, n, "%s · %s · rank %lld ", iter, win, (long long)st->ranks[r].number);
    } else {
        snprintf(buf, n, "%s · %s · %zu of %zu ranks ", iter, win, inc, m->nranks);
    }
}

static void draw_title(const struct ui_state *st, const struct model *m, struct ui_grid *g)
{
    char left[512], right[256], span[32];
    int64_t lo = INT64_MAX, hi = INT64_MIN;

    for (size_t r = 0; r < m->nranks; r++) {
        if (m->ranks[r].end_ns <= m->ranks[r].start_ns)
            continue;
        lo = m->ranks[r].start_ns < lo ? m->ranks[r].start_ns : lo;
        hi = m->ranks[r].end_ns > hi ? m->ranks[r].end_ns : hi;
    }
    ui_format_duration(lo < hi ? hi - lo : 0, span, sizeof span);
    // a summary job cannot pick iterations, but its summaries count them
    size_t iters = st->job && !st->niterations ? st->summary_steps : st->niterations;
    // the job's checks that fired: a mark before the title (Diagnostics lists them)
    char mark[32] = "";
    if (st->trust.n)
        snprintf(mark, sizeof mark, " %s%zu", trust_severe(&st->trust) ? "!! " : "! ",
                 st->trust.n);
    snprintf(left, sizeof left, " htx%s  %s · %zu rank%s · %zu iteration%s · %s", mark,
             st->title, m->nranks, m->nranks == 1 ? "" : "s", iters, iters == 1 ? "" : "s",
             span);
    title_right(st, m, right, sizeof right);
    ui_grid_fill(g, 0, 0, g->cols, ' ', UI_STYLE_TITLE);
    int rw = ui_text_width(right, strlen(right), g->ascii);
    int lw = g->cols - rw - 1 > 10 ? g->cols - rw - 1 : g->cols;
    ui_grid_text(g, 0, 0, lw, left, UI_STYLE_TITLE, UI_TRUNC_MIDDLE);
    if (lw < g->cols)
        ui_grid_text_right(g, 0, 0, g->cols, right, UI_STYLE_TITLE);
}

static const char *hints(const struct ui_state *st)
{
    if (st->focus == UI_FOCUS_RANKS)
        return " ? help  Tab pane  space include  a all  o only  Enter expand  q quit";
    const struct ui_view_ops *v = ui_view_get(st, st->view);
    return v && v->hints ? v->hints : "";
}

static void draw_status(const struct ui_state *st, const struct model *m, struct ui_grid *g)
{
    int y = g->rows - 1;
    char right[512] = "", left[UI_TEXT_MAX + 32];
    const struct ui_view_ops *v = ui_view_get(st, st->view);

    ui_grid_fill(g, y, 0, g->cols, ' ', UI_STYLE_STATUS);
    if (st->prompt != UI_PROMPT_NONE) {
        snprintf(left, sizeof left, " %s%s_",
                 st->prompt == UI_PROMPT_SEARCH ? "/"
                 : st->prompt == UI_PROMPT_GOTO ? "go to (12.5ms, +3us, -1s): "
                                                : "filter: ",
                 st->prompt_text);
        ui_grid_text(g, y, 0, g->cols, left, UI_STYLE_STATUS, UI_TRUNC_END);
        return;
    }
    if (v && v->status)
        v->status(st, m, right, sizeof right);
    // The view's status (cursor event, row) wins over the key hints.
    int rw = right[0] ? ui_text_width(right, strlen(right), g->ascii) + 1 : 0;
    if (rw > g->cols - 12)
        rw = g->cols - 12 > 0 ? g->cols - 12 : 0;
    const char *msg = st->message[0] ? st->message : hints(st);
    snprintf(left, sizeof left, "%s%s", st->message[0] ? " " : "", msg);
    int lw = ui_grid_text(g, y, 0, g->cols - rw - 1, left,
                          st->message_is_error && st->message[0] ? UI_STYLE_WARN : UI_STYLE_STATUS,
                          UI_TRUNC_END);
    if (rw > 1 && lw < g->cols - rw)
        ui_grid_text(g, y, g->cols - rw, rw - 1, right, UI_STYLE_STATUS, UI_TRUNC_MIDDLE);
}

/* ---- left pane ---- */

static void busy_bar(struct ui_grid *g, int y, int x, double busy, enum ui_style style)
{
    int full = (int)(busy * BUSY_CELLS + 0.5);
    for (int i = 0; i < BUSY_CELLS; i++)
        ui_grid_put(g, y, x + i, ui_glyph(g, i < full ? UI_G_BLOCK_FULL : UI_G_BLOCK_EMPTY),
                    style == UI_STYLE_SELECTED ? style : UI_STYLE_BAR);
}

static void draw_item(const struct ui_state *st, const struct model *m, size_t i,
                      struct ui_grid *g, int y, int x, int w)
{
    const struct ui_item *it = &st->items[i];
    const struct ui_rank *ur = &st->ranks[it->rank];
    bool sel = i == st->item && st->focus == UI_FOCUS_RANKS;
    enum ui_style style = sel ? UI_STYLE_SELECTED : UI_STYLE_NORMAL;
    char buf[160];

    if (sel)
        ui_grid_fill(g, y, x, w, ' ', style);
    if (it->kind == UI_ITEM_RANK) {
        ui_grid_put(g, y, x, ui_glyph(g, ur->expanded ? UI_G_EXPANDED : UI_G_COLLAPSED), style);
        snprintf(buf, sizeof buf, "[%c] rank %lld", ur->included ? 'x' : ' ',
                 (long long)ur->number);
        bool bar = w >= 20;   // a narrow pane keeps the rank number, not the bar
        ui_grid_text(g, y, x + 2, bar ? w - 3 - BUSY_CELLS : w - 2, buf,
                     ur->included || sel ? style : UI_STYLE_DIM, UI_TRUNC_END);
        if (bar)
            busy_bar(g, y, x + w - BUSY_CELLS, ur->busy, style);
        return;
    }
    if (it->kind == UI_ITEM_STREAM) {
        snprintf(buf, sizeof buf, "[%c] stream %lld", ur->stream_on[it->sub] ? 'x' : ' ',
                 (long long)ur->streams[it->sub]);
    } else {
        const struct ui_thread_id *t = &ur->threads[it->sub];
        if (t->name)
            snprintf(buf, sizeof buf, "[%c] %s", ur->thread_on[it->sub] ? 'x' : ' ',
                     model_str(m, t->name));
        else
            snprintf(buf, sizeof buf, "[%c] pid %s tid %s", ur->thread_on[it->sub] ? 'x' : ' ',
                     model_str(m, t->pid), model_str(m, t->tid));
    }
    ui_grid_text(g, y, x + 2, w - 2, buf, style, UI_TRUNC_MIDDLE);
}

static void draw_left(const struct ui_state *st, const struct model *m, struct ui_grid *g)
{
    struct ui_rect r = st->layout.left, in = st->layout.left_in;
    size_t top = st->item_top;

    if (r.w == 0)
        return;
    ui_grid_box(g, r, st->focus == UI_FOCUS_RANKS ? UI_STYLE_BORDER_FOCUS : UI_STYLE_BORDER,
                "Ranks / streams");
    if (in.h > 0 && st->item >= top + (size_t)in.h)
        top = st->item - (size_t)in.h + 1;
    if (st->item < top)
        top = st->item;
    for (int y = 0; y < in.h && top + (size_t)y < st->nitems; y++)
        draw_item(st, m, top + (size_t)y, g, in.y + y, in.x, in.w);
}

/* ---- overlays ---- */

static size_t wrapped_rows(const char *s, int w, bool ascii, int indent)
{
    int width = ui_text_width(s, strlen(s), ascii);
    if (width <= w || w <= indent)
        return 1;
    return 1 + (size_t)((width - w + (w - indent) - 1) / (w - indent));
}

/* Draws s over as many rows as it needs (continuations indented); returns rows used. */
static int draw_wrapped(struct ui_grid *g, int y, int x, int w, int maxrows, const char *s,
                        int indent)
{
    struct ui_unit u[1024];
    size_t n = ui_text_units(s, strlen(s), g->ascii, u, 1024), i = 0;
    int rows = 0;

    n = n > 1024 ? 1024 : n;
    while (rows < maxrows && (i < n || rows == 0)) {
        int cx = rows ? indent : 0;
        while (i < n && cx + u[i].width <= w) {
            ui_grid_put(g, y + rows, x + cx, u[i].cp[0], UI_STYLE_NORMAL);
            if (u[i].ncp == 2)
                ui_grid_put(g, y + rows, x + cx + 1, u[i].cp[1], UI_STYLE_NORMAL);
            else if (u[i].width == 2)
                ui_grid_put(g, y + rows, x + cx + 1, 0, UI_STYLE_NORMAL);
            cx += u[i++].width;
        }
        rows++;
        if (cx == (rows > 1 ? indent : 0) && i < n)
            break;  // a unit wider than the box: give up rather than loop
    }
    return rows;
}

static void draw_overlay(const struct ui_state *st, struct ui_grid *g)
{
    const struct ui_rect area = {1, 0, g->rows - 2, g->cols};
    int indent = st->overlay == UI_OVERLAY_HELP ? 19 : 13;
    int w = area.w - 4 > 100 ? 100 : area.w - 4;
    size_t need = 0;

    for (size_t i = st->overlay_top; i < st->noverlay_lines; i++)
        need += wrapped_rows(st->overlay_lines[i], w - 2, g->ascii, indent);
    int h = (int)need + 2 < area.h ? (int)need + 2 : area.h;
    struct ui_rect box = {area.y + (area.h - h) / 2, area.x + (area.w - w) / 2, h, w};
    for (int y = box.y; y < box.y + box.h; y++)
        ui_grid_fill(g, y, box.x, box.w, ' ', UI_STYLE_NORMAL);
    ui_grid_box(g, box, UI_STYLE_BORDER_FOCUS,
                st->overlay == UI_OVERLAY_HELP      ? "Help: keys (Esc closes, j/k scroll)"
                : st->overlay == UI_OVERLAY_MEASURE ? "Between the marks (Esc closes)"
                                                    : "Event details (Esc closes)");
    int y = box.y + 1;
    for (size_t i = st->overlay_top; i < st->noverlay_lines && y < box.y + box.h - 1; i++)
        y += draw_wrapped(g, y, box.x + 2, box.w - 4, box.y + box.h - 1 - y,
                          st->overlay_lines[i], indent);
}

/* ---- whole screens ---- */

static void draw_too_small(const struct ui_state *st, struct ui_grid *g)
{
    char need[64];

    ui_grid_clear(g, UI_STYLE_NORMAL);
    snprintf(need, sizeof need, "%dx%d, need %dx%d", st->cols, st->rows, UI_MIN_COLS,
             UI_MIN_ROWS);
    int y = g->rows / 2 > 0 ? g->rows / 2 - 1 : 0;
    ui_grid_text(g, y, 1, g->cols - 1, "terminal too small", UI_STYLE_WARN, UI_TRUNC_END);
    ui_grid_text(g, y + 1, 1, g->cols - 1, need, UI_STYLE_WARN, UI_TRUNC_END);
    ui_grid_text(g, y + 2, 1, g->cols - 1, "q quits", UI_STYLE_DIM, UI_TRUNC_END);
}

void ui_screen_compose(const struct ui_state *st, const struct model *m, struct ui_grid *g)
{
    const struct ui_view_ops *v = ui_view_get(st, st->view);

    if (st->layout.too_small || g->rows != st->rows || g->cols != st->cols) {
        draw_too_small(st, g);
        return;
    }
    ui_grid_clear(g, UI_STYLE_NORMAL);
    draw_title(st, m, g);
    draw_left(st, m, g);
    ui_grid_box(g, st->layout.main,
                st->focus == UI_FOCUS_MAIN ? UI_STYLE_BORDER_FOCUS : UI_STYLE_BORDER, NULL);
    draw_tabs(st, g);
    if (v)
        ui_view_draw(v, st, m, g, st->layout.body);
    draw_status(st, m, g);
    if (st->overlay != UI_OVERLAY_NONE)
        draw_overlay(st, g);
}

#define LOADING_BOX_H 9

/* The share of the bytes read, in percent: 99 at most until the load ends. */
static int loading_pct(const struct load_progress *p)
{
    int pct = p->bytes_total ? (int)(100.0 * (double)p->bytes_read / (double)p->bytes_total) : 0;
    return pct > 99 ? 99 : pct;
}

/* The loading box in the middle of body: bytes, events, ranks done, a bar. */
static void loading_box(struct ui_grid *g, struct ui_rect body, const struct load_progress *p,
                        double seconds, size_t keys_waiting)
{
    char a[32], b[32], line[160];
    int w = body.w - 4 > 64 ? 64 : body.w - 4, h = LOADING_BOX_H;
    struct ui_rect box = {body.y + (body.h - h) / 2, body.x + (body.w - w) / 2, h, w};

    if (w < 20 || body.h < h)
        return;
    ui_grid_box(g, box, UI_STYLE_BORDER_FOCUS, "Loading");
    ui_format_bytes(p->bytes_read, a, sizeof a);
    ui_format_bytes(p->bytes_total, b, sizeof b);
    if (p->bytes_total == 0)
        snprintf(line, sizeof line, "opening the files · %.1f s", seconds);
    else
        snprintf(line, sizeof line, "%s of %s read · %.1f s", a, b, seconds);
    ui_grid_text(g, box.y + 1, box.x + 2, w - 4, line, UI_STYLE_NORMAL, UI_TRUNC_END);
    // One file: what it has given so far; several: how many are done too.
    if (p->ranks_total > 1)
        snprintf(line, sizeof line, "%llu events · ranks done: %zu of %zu",
                 (unsigned long long)p->events, p->ranks_done, p->ranks_total);
    else
        snprintf(line, sizeof line, "%llu events", (unsigned long long)p->events);
    ui_grid_text(g, box.y + 2, box.x + 2, w - 4, line, UI_STYLE_NORMAL, UI_TRUNC_END);
    double frac = p->bytes_total ? (double)p->bytes_read / (double)p->bytes_total : 0;
    ui_grid_fill(g, box.y + 4, box.x + 2, w - 4, ui_glyph(g, UI_G_BLOCK_EMPTY), UI_STYLE_DIM);
    ui_grid_fill(g, box.y + 4, box.x + 2, (int)(frac * (w - 4)), ui_glyph(g, UI_G_BLOCK_FULL),
                 UI_STYLE_BAR);
    ui_grid_text(g, box.y + 6, box.x + 2, w - 4, "Every view waits for all the events.",
                 UI_STYLE_NORMAL, UI_TRUNC_END);
    if (keys_waiting)
        snprintf(line, sizeof line, "%zu key%s typed: applied once they are in; q quits",
                 keys_waiting, keys_waiting == 1 ? "" : "s");
    else
        snprintf(line, sizeof line, "Keys typed now apply once they are in; q quits");
    ui_grid_text(g, box.y + 7, box.x + 2, w - 4, line, UI_STYLE_DIM, UI_TRUNC_END);
}

/* A lane's label: its file when several load (their ranks are known once
 * every file is in), then the stream, or the thread's name once read, else
 * its pid and tid. */
static void fill_label(const struct lane_fill_lane *l, size_t nfiles, char *buf, size_t n)
{
    char file[32] = "";
    if (nfiles > 1)
        snprintf(file, sizeof file, "f%zu ", l->file + 1);
    if (l->gpu)
        snprintf(buf, n, "%sstream %lld", file, (long long)l->id);
    else if (l->name[0])
        snprintf(buf, n, "%s%s", file, l->name);
    else
        snprintf(buf, n, "%sp%s t%s", file, l->pid, l->tid);
}

/* Lanes in the order drawn: by file, the GPU's streams (by number) before
 * the CPU's threads (as they came). */
static bool fill_before(const struct lane_fill_lane *a, size_t ia, const struct lane_fill_lane *b,
                        size_t ib)
{
    if (a->file != b->file)
        return a->file < b->file;
    if (a->gpu != b->gpu)
        return a->gpu;
    if (a->gpu && a->id != b->id)
        return a->id < b->id;
    return ia < ib;
}

/* A cell's glyph for a busy share: four shades, blank when idle. */
static uint32_t fill_glyph(const struct ui_grid *g, double share)
{
    static const uint32_t utf8[] = {0x2591, 0x2592, 0x2593, 0x2588};
    static const char ascii[] = ".:=#";
    if (share <= 0)
        return ' ';
    int k = share < 0.25 ? 0 : share < 0.5 ? 1 : share < 0.75 ? 2 : 3;
    return g->ascii ? (uint32_t)ascii[k] : utf8[k];
}

/* The lanes of the events read so far in area: a line saying they are
 * partial, then a row a lane over the time seen so far. */
static void loading_lanes(struct ui_grid *g, struct ui_rect area, const struct lane_fill *f,
                          const struct load_progress *p, size_t nfiles)
{
    char line[160];
    size_t order[LANE_FILL_MAX_LANES];
    snprintf(line, sizeof line, "%d %% read: lanes fill as the file%s read; "
             "Kineto files are not in time order", loading_pct(p),
             p->ranks_total > 1 ? "s are" : " is");
    ui_grid_text(g, area.y, area.x + 1, area.w - 1, line, UI_STYLE_NORMAL, UI_TRUNC_END);
    for (size_t i = 0; i < f->nlanes; i++) {
        size_t k = i;
        for (; k > 0 && fill_before(&f->lanes[i], i, &f->lanes[order[k - 1]], order[k - 1]); k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
    int label_w = area.w / 5 > 18 ? 18 : area.w / 5, cols = area.w - label_w - 2;
    int rows = area.h - 2;
    size_t shown = f->nlanes <= (size_t)rows ? f->nlanes : (size_t)(rows > 1 ? rows - 1 : 0);
    double span = (double)(f->last - f->first);
    for (size_t i = 0; i < shown && cols > 0; i++) {
        const struct lane_fill_lane *l = &f->lanes[order[i]];
        int y = area.y + 2 + (int)i;
        fill_label(l, nfiles, line, sizeof line);
        ui_grid_text(g, y, area.x + 1, label_w, line, UI_STYLE_NORMAL, UI_TRUNC_MIDDLE);
        for (int c = 0; c < cols; c++) {
            int64_t a = f->first + (int64_t)(span * c / cols);
            int64_t b = f->first + (int64_t)(span * (c + 1) / cols);
            double share = lane_fill_busy(f, l, a, b > a ? b : a + 1);
            ui_grid_put(g, y, area.x + label_w + 2 + c, fill_glyph(g, share),
                        share > 0 ? (l->gpu ? UI_STYLE_COMPUTE : UI_STYLE_CPU) : UI_STYLE_IDLE);
        }
    }
    size_t more = f->nlanes - shown + f->lanes_over;
    if (more) {
        snprintf(line, sizeof line, "+%zu more lane%s", more, more == 1 ? "" : "s");
        ui_grid_text(g, area.y + 2 + (int)shown, area.x + 1, area.w - 1, line, UI_STYLE_DIM,
                     UI_TRUNC_END);
    }
}

/* What is loading, said in the status line and the title. */
static void loading_said(const char *title, const struct load_progress *p, char *buf, size_t n)
{
    if (p->bytes_total == 0)
        snprintf(buf, n, "opening %s", title);
    else if (p->ranks_total > 1)
        snprintf(buf, n, "loading %s: %d %% (ranks done: %zu of %zu)", title, loading_pct(p),
                 p->ranks_done, p->ranks_total);
    else
        snprintf(buf, n, "loading %s: %d %%", title, loading_pct(p));
}

/* The screen's frame while the events load: the title, the rank pane and
 * the tabs (none active: which view opens depends on every event), with
 * nothing drawn that the rest of the trace could change. */
void ui_screen_loading(struct ui_grid *g, const char *title, const struct load_progress *p,
                       double seconds, size_t keys_waiting, const struct lane_fill *lanes)
{
    struct ui_state st;
    struct ui_tabs t;
    char said[UI_TEXT_MAX], line[UI_TEXT_MAX + 64];

    memset(&st, 0, sizeof st);
    st.rows = g->rows;
    st.cols = g->cols;
    st.view = UI_VIEW_DIFF;   // no tab active (st.diff_view is NULL)
    ui_screen_layout(&st);
    loading_said(title, p, said, sizeof said);
    ui_grid_clear(g, UI_STYLE_NORMAL);
    snprintf(line, sizeof line, " htx  %s", said);
    ui_grid_fill(g, 0, 0, g->cols, ' ', UI_STYLE_TITLE);
    ui_grid_text(g, 0, 0, g->cols, line, UI_STYLE_TITLE, UI_TRUNC_MIDDLE);
    if (st.layout.too_small)
        return;
    ui_grid_box(g, st.layout.left, UI_STYLE_BORDER, "Ranks / streams");
    ui_grid_text(g, st.layout.left_in.y, st.layout.left_in.x, st.layout.left_in.w,
                 "loading", UI_STYLE_DIM, UI_TRUNC_END);
    ui_grid_box(g, st.layout.main, UI_STYLE_BORDER_FOCUS, NULL);
    ui_tabs_layout(&st, st.layout.tabs.w, &t);
    for (size_t i = 0; i < t.n && t.line[i] < st.layout.tabs.h; i++)
        ui_grid_text(g, st.layout.tabs.y + t.line[i], st.layout.tabs.x + t.col[i],
                     st.layout.tabs.w - t.col[i], t.labels[i], UI_STYLE_TAB, UI_TRUNC_END);
    struct ui_rect body = st.layout.body;
    if (lanes && lanes->nlanes && body.h >= LOADING_BOX_H + 4) {
        struct ui_rect top = {body.y, body.x, body.h - LOADING_BOX_H, body.w};
        loading_lanes(g, top, lanes, p, p->ranks_total);
        body = (struct ui_rect){body.y + top.h, body.x, LOADING_BOX_H, body.w};
    }
    loading_box(g, body, p, seconds, keys_waiting);
    ui_grid_fill(g, g->rows - 1, 0, g->cols, ' ', UI_STYLE_STATUS);
    snprintf(line, sizeof line, " %s · every view waits for all the events · q quits", said);
    ui_grid_text(g, g->rows - 1, 0, g->cols, line, UI_STYLE_STATUS, UI_TRUNC_END);
}

void ui_screen_message(struct ui_grid *g, const char *title, const char *msg)
{
    ui_grid_clear(g, UI_STYLE_NORMAL);
    ui_grid_fill(g, 0, 0, g->cols, ' ', UI_STYLE_TITLE);
    ui_grid_text(g, 0, 0, g->cols, title, UI_STYLE_TITLE, UI_TRUNC_END);
    ui_grid_text(g, g->rows / 2, 2, g->cols - 4, msg, UI_STYLE_WARN, UI_TRUNC_END);
}
