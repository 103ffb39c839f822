#include "config.h"
#include "ui/actions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/format.h"
#include "ui/screen.h"
#include "ui/term/osc52.h"
#include "ui/view.h"
#include "ui/widgets/keys.h"
#include "ui/widgets/text.h"

/* Global actions, the prompt, the overlays and mouse hit-testing. */

unsigned ui_act_quit(struct ui_state *st, const struct model *m)
{
    (void)m;
    st->quit = true;
    return UI_QUIT;
}

unsigned ui_act_help(struct ui_state *st, const struct model *m)
{
    (void)m;
    if (ui_help_lines(st) != 0) {
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    st->overlay = UI_OVERLAY_HELP;
    st->overlay_top = 0;
    return UI_REDRAW;
}

unsigned ui_act_redraw(struct ui_state *st, const struct model *m)
{
    (void)st;
    (void)m;
    return UI_REDRAW | UI_RELAYOUT;
}

unsigned ui_act_escape(struct ui_state *st, const struct model *m)
{
    const struct ui_view_ops *v = ui_view_get(st, st->view);

    if (v && v->escape && v->escape(st, m)) {
        // the view cleared what it had narrowed
    } else if (ui_state_history_step(st, -1)) {
        // back where the user was before
    } else if (st->focus == UI_FOCUS_RANKS) {
        st->focus = UI_FOCUS_MAIN;
    }
    return UI_REDRAW;
}

unsigned ui_act_back(struct ui_state *st, const struct model *m)
{
    (void)m;
    if (!ui_state_history_step(st, -1))
        ui_state_message(st, false, "nothing to go back to");
    return UI_REDRAW;
}

unsigned ui_act_forward(struct ui_state *st, const struct model *m)
{
    (void)m;
    if (!ui_state_history_step(st, 1))
        ui_state_message(st, false, "nothing to go forward to: Esc and C-b go back");
    return UI_REDRAW;
}

unsigned ui_act_view(struct ui_state *st, const struct model *m, enum ui_view_id id)
{
    (void)m;
    if (!ui_view_get(st, id)) {   // view d outside htx diff
        ui_state_message(st, true, "the diff view opens with: htx diff CONTROL TEST");
        return UI_REDRAW;
    }
    if (id != st->view)
        ui_state_show_view(st, id);
    st->focus = UI_FOCUS_MAIN;
    return UI_REDRAW;
}

static bool left_pane_shown(const struct ui_state *st)
{
    return st->layout.left.w > 0;
}

/* name as the text reports print it (malloc'ed): its controls and
 * bidirectional marks escaped, so that a paste carries no escape sequence
 * into the shell it lands in. NULL when out of memory. */
static char *escaped(const char *name)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    format_write_escaped(f, name);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

unsigned ui_act_copy_name(struct ui_state *st, const struct model *m)
{
    const struct ui_view_ops *v = ui_view_get(st, st->view);
    const char *name = v && v->cursor_name ? v->cursor_name(st, m) : NULL;
    if (!name || !name[0]) {
        ui_state_message(st, true, "no name under the cursor to copy");
        return UI_REDRAW;
    }
    if (st->no_osc52) {
        ui_state_message(st, true, "copying is off (--no-osc52, or osc52 = no in the config)");
        return UI_REDRAW;
    }
    free(st->copy);
    st->copy = escaped(name);
    if (!st->copy)
        ui_state_message(st, true, "out of memory");
    else
        ui_state_message(st, false, "copied %zu bytes to the clipboard (OSC 52)%s",
                         strlen(st->copy),
                         strlen(st->copy) > UI_OSC52_MAX_TEXT ? ", cut to 8 KiB" : "");
    return UI_REDRAW;
}

unsigned ui_act_toggle_left(struct ui_state *st, const struct model *m)
{
    (void)m;
    st->hide_left = !st->hide_left;
    if (st->hide_left && st->focus == UI_FOCUS_RANKS)
        st->focus = UI_FOCUS_MAIN;
    ui_state_message(st, false, "rank/stream pane %s (p)", st->hide_left ? "hidden" : "shown");
    return UI_REDRAW | UI_RELAYOUT;
}

/* Tab and Shift-Tab between the panes; a table view binds its own, which
 * step through its tables first (ui/document.h). */
unsigned ui_act_focus_next(struct ui_state *st, const struct model *m)
{
    (void)m;
    if (st->focus == UI_FOCUS_RANKS)
        st->focus = UI_FOCUS_MAIN;
    else if (left_pane_shown(st))
        st->focus = UI_FOCUS_RANKS;
    return UI_REDRAW;
}

unsigned ui_act_focus_prev(struct ui_state *st, const struct model *m)
{
    return ui_act_focus_next(st, m);
}

static unsigned iter_step(struct ui_state *st, int dir)
{
    long n = (long)st->niterations;

    if (n == 0) {
        ui_state_message(st, true, "no iterations: the trace has no ProfilerStep events");
        return UI_REDRAW;
    }
    // Cycle all -> first -> ... -> last -> all (and back).
    long i = st->iteration == UI_ITER_LIST ? (dir > 0 ? 0 : n - 1) : st->iteration + dir;
    if (i >= n)
        i = -1;
    else if (i < -1)
        i = n - 1;
    st->iteration = i;
    if (i < 0)
        ui_state_message(st, false, "all iterations");
    else
        ui_state_message(st, false, "iteration %lld (%ld of %ld)",
                         (long long)st->iterations[i], i + 1, n);
    return UI_REDRAW | UI_RESELECT;
}

unsigned ui_act_iter_next(struct ui_state *st, const struct model *m)
{
    (void)m;
    return iter_step(st, 1);
}

unsigned ui_act_iter_prev(struct ui_state *st, const struct model *m)
{
    (void)m;
    return iter_step(st, -1);
}

/* Opens the one prompt for p with the active view's current text. */
static unsigned open_prompt(struct ui_state *st, enum ui_prompt p, const char *unsupported)
{
    const struct ui_view_ops *v = ui_view_get(st, st->view);
    const char *text = v && v->prompt_initial ? v->prompt_initial(st, p) : NULL;
    if (!text) {
        ui_state_message(st, true, "%s", unsupported);
        return UI_REDRAW;
    }
    st->prompt = p;
    snprintf(st->prompt_text, sizeof st->prompt_text, "%s", text);
    return UI_REDRAW;
}

unsigned ui_act_search(struct ui_state *st, const struct model *m)
{
    (void)m;
    return open_prompt(st, UI_PROMPT_SEARCH, "this view has nothing to search");
}

unsigned ui_act_filter(struct ui_state *st, const struct model *m)
{
    (void)m;
    return open_prompt(st, UI_PROMPT_FILTER, "f filters the tables of views 2-9, i and d");
}

unsigned ui_prompt_apply(struct ui_state *st, const struct model *m)
{
    enum ui_prompt p = st->prompt;
    const struct ui_view_ops *v = ui_view_get(st, st->view);

    st->prompt = UI_PROMPT_NONE;
    if (!v || !v->prompt_apply)
        return UI_REDRAW;
    return v->prompt_apply(st, m, p, st->prompt_text);
}

/* ---- prompt ---- */

static void prompt_backspace(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && ((unsigned char)s[n - 1] & 0xC0) == 0x80)
        n--;  // drop continuation bytes, then the lead byte
    if (n > 0)
        n--;
    s[n] = 0;
}

static unsigned prompt_key(struct ui_state *st, const struct model *m, int key)
{
    size_t n = strlen(st->prompt_text);

    if (key == UI_KEY_ESC || key == UI_KEY_CTRL('c') || key == UI_KEY_INTERRUPT) {
        st->prompt = UI_PROMPT_NONE;
        return key == UI_KEY_ESC ? UI_REDRAW : ui_act_quit(st, m);
    }
    if (key == UI_KEY_ENTER || key == '\r')
        return ui_prompt_apply(st, m);
    if (key == UI_KEY_BACKSPACE || key == 127 || key == 8) {
        prompt_backspace(st->prompt_text);
    } else if (key == UI_KEY_CTRL('u')) {
        st->prompt_text[0] = 0;
    } else if (key >= 32 && key < UI_KEY_BASE && key != 127 && n + 5 < sizeof st->prompt_text) {
        n += utf8_encode((uint32_t)key, st->prompt_text + n);
        st->prompt_text[n] = 0;
    }
    return UI_REDRAW;
}

/* ---- overlays ---- */

static unsigned overlay_key(struct ui_state *st, const struct model *m, int key)
{
    size_t page = st->layout.body.h > 4 ? (size_t)st->layout.body.h - 2 : 1;

    switch (key) {
    case 'q':
    case UI_KEY_CTRL('c'):
    case UI_KEY_INTERRUPT:
        return ui_act_quit(st, m);
    case UI_KEY_ESC:
    case '?':
    case UI_KEY_ENTER:
        st->overlay = UI_OVERLAY_NONE;
        return UI_REDRAW;
    case 'j':
    case UI_KEY_DOWN:
    case UI_KEY_WHEEL_DOWN:
        if (st->overlay_top + 1 < st->noverlay_lines)
            st->overlay_top++;
        return UI_REDRAW;
    case 'k':
    case UI_KEY_UP:
    case UI_KEY_WHEEL_UP:
        if (st->overlay_top > 0)
            st->overlay_top--;
        return UI_REDRAW;
    case UI_KEY_PGDN:
    case ' ':
        st->overlay_top += page;
        if (st->overlay_top >= st->noverlay_lines)
            st->overlay_top = st->noverlay_lines ? st->noverlay_lines - 1 : 0;
        return UI_REDRAW;
    case UI_KEY_PGUP:
        st->overlay_top = st->overlay_top > page ? st->overlay_top - page : 0;
        return UI_REDRAW;
    case UI_KEY_CTRL('l'):
        return UI_REDRAW | UI_RELAYOUT;
    case UI_KEY_RESIZE:
        return UI_REDRAW | UI_RELAYOUT;
    default:
        return 0;
    }
}

/* ---- dispatch ---- */

/* The binding of key in exactly context ctx (UI_CTX_ANY: the global ones). */
static const struct ui_binding *find_binding(int key, unsigned ctx)
{
    size_t n;
    const struct ui_binding *b = ui_bindings(&n);

    for (size_t i = 0; i < n; i++)
        if (b[i].key == key && b[i].ctx == ctx)
            return &b[i];
    return NULL;
}

unsigned ui_dispatch(struct ui_state *st, const struct model *m, int key)
{
    const struct ui_binding *b = NULL;

    if (key == UI_KEY_RESIZE)
        return UI_REDRAW | UI_RELAYOUT;
    st->message[0] = 0;
    if (st->prompt != UI_PROMPT_NONE)
        return prompt_key(st, m, key);
    if (st->overlay != UI_OVERLAY_NONE)
        return overlay_key(st, m, key);
    if (key == UI_KEY_INTERRUPT)
        return ui_act_quit(st, m);
    // The focused pane's keys first, then the active view's, then global.
    if (st->focus == UI_FOCUS_RANKS)
        b = find_binding(key, UI_CTX_RANKS);
    const struct ui_view_ops *v = ui_view_get(st, st->view);
    unsigned ctx[UI_VIEW_CONTEXTS];
    size_t nctx = v && v->contexts ? v->contexts(st, ctx) : 0;
    for (size_t i = 0; i < nctx && !b; i++)
        b = find_binding(key, ctx[i]);
    if (!b)
        b = find_binding(key, UI_CTX_ANY);
    if (b)
        return b->fn(st, m);
    if (key == UI_KEY_NONE || key == UI_KEY_MOUSE)
        return 0;
    // Say so, rather than leave the user wondering whether the key was seen.
    char name[16];
    if (key > 32 && key < 127)
        ui_key_name(key, name, sizeof name);
    else if (key >= 127 && key < UI_KEY_BASE)
        snprintf(name, sizeof name, "U+%04X", (unsigned)key);
    else
        ui_key_name(key, name, sizeof name);
    ui_state_message(st, true, "%s does nothing here: ? lists the keys", name);
    return UI_REDRAW;
}

/* ---- mouse ---- */

static bool inside(struct ui_rect r, int y, int x)
{
    return y >= r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w;
}

static unsigned click_tab(struct ui_state *st, const struct model *m, int y, int x)
{
    struct ui_tabs t;

    ui_tabs_layout(st, st->layout.tabs.w, &t);
    for (size_t i = 0; i < t.n; i++)
        if (y - st->layout.tabs.y == t.line[i] && x - st->layout.tabs.x >= t.col[i] &&
            x - st->layout.tabs.x < t.col[i] + t.widths[i])
            return ui_act_view(st, m, t.ids[i]);
    return 0;
}

static unsigned click_left(struct ui_state *st, const struct model *m, int y, int x)
{
    size_t i = st->item_top + (size_t)(y - st->layout.left_in.y);

    st->focus = UI_FOCUS_RANKS;
    if (i >= st->nitems)
        return UI_REDRAW;
    st->item = i;
    // The first columns hold the arrow / checkbox: a click there acts.
    if (x - st->layout.left_in.x < 4)
        return st->items[i].kind == UI_ITEM_RANK ? ui_act_item_expand(st, m)
                                                 : ui_act_item_toggle(st, m);
    return UI_REDRAW;
}

static unsigned click_body(struct ui_state *st, const struct model *m, int y, int x)
{
    const struct ui_view_ops *v = ui_view_get(st, st->view);

    st->focus = UI_FOCUS_MAIN;
    return v && v->click ? v->click(st, m, y, x) : UI_REDRAW;
}

unsigned ui_mouse(struct ui_state *st, const struct model *m, int y, int x, int button)
{
    if (button == UI_KEY_WHEEL_UP || button == UI_KEY_WHEEL_DOWN) {
        unsigned r = 0;
        for (int i = 0; i < 3; i++)
            r |= ui_dispatch(st, m, button == UI_KEY_WHEEL_UP ? UI_KEY_UP : UI_KEY_DOWN);
        return r;
    }
    st->message[0] = 0;
    if (st->overlay != UI_OVERLAY_NONE) {
        st->overlay = UI_OVERLAY_NONE;
        return UI_REDRAW;
    }
    if (st->prompt != UI_PROMPT_NONE || st->layout.too_small)
        return 0;
    if (inside(st->layout.tabs, y, x))
        return click_tab(st, m, y, x);
    if (st->layout.left.w > 0 && inside(st->layout.left_in, y, x))
        return click_left(st, m, y, x);
    if (inside(st->layout.body, y, x))
        return click_body(st, m, y, x);
    return 0;
}
