#include "config.h"
#include "ui/actions.h"

#include <stdio.h>
#include <string.h>

#include "ui/document.h"
#include "ui/views/annotations_tree.h"
#include "ui/views/collectives.h"
#include "ui/views/diff.h"
#include "ui/views/findings.h"
#include "ui/views/idle.h"
#include "ui/views/kernels.h"
#include "ui/views/launch.h"
#include "ui/views/ranks.h"
#include "ui/views/timeline.h"
#include "ui/widgets/keys.h"

/* The key table. Each key has bindings for the contexts where it means
 * something; the focused pane's context is tried first (ui_dispatch). The
 * help overlay lists this same table. */

#define VIEW_ACTION(fn, id)                                        \
    static unsigned fn(struct ui_state *st, const struct model *m) \
    {                                                              \
        return ui_act_view(st, m, id);                             \
    }

VIEW_ACTION(view_timeline, UI_VIEW_TIMELINE)
VIEW_ACTION(view_overview, UI_VIEW_OVERVIEW)
VIEW_ACTION(view_kernels, UI_VIEW_KERNELS)
VIEW_ACTION(view_idle, UI_VIEW_IDLE)
VIEW_ACTION(view_overlap, UI_VIEW_OVERLAP)
VIEW_ACTION(view_launch, UI_VIEW_LAUNCH)
VIEW_ACTION(view_annotations, UI_VIEW_ANNOTATIONS)
VIEW_ACTION(view_counters, UI_VIEW_COUNTERS)
VIEW_ACTION(view_sequences, UI_VIEW_SEQUENCES)
VIEW_ACTION(view_ranks, UI_VIEW_RANKS)
VIEW_ACTION(view_collectives, UI_VIEW_COLLECTIVES)
VIEW_ACTION(view_diag, UI_VIEW_DIAGNOSTICS)
VIEW_ACTION(view_findings, UI_VIEW_FINDINGS)
VIEW_ACTION(view_diff, UI_VIEW_DIFF)

#define T UI_CTX_TIMELINE
#define D UI_CTX_DOC
#define R UI_CTX_RANKS
#define A UI_CTX_ANY
#define F UI_CTX_DIFF

static const struct ui_binding bindings[] = {
    {'?', A, ui_act_help, "show this help"},
    {'q', A, ui_act_quit, "quit"},
    {UI_KEY_CTRL('c'), A, ui_act_quit, "quit"},
    {UI_KEY_ESC, A, ui_act_escape,
     "back: clear the filter or marks, then where you were before (views and jumps)"},
    {UI_KEY_CTRL('b'), A, ui_act_back, "back to where you were before"},
    {UI_KEY_CTRL('f'), A, ui_act_forward, "forward again (after Esc or C-b)"},
    {UI_KEY_CTRL('l'), A, ui_act_redraw, "redraw the screen"},
    {'1', A, view_timeline, "view 1: Timeline"},
    {'2', A, view_overview, "view 2: Overview (temporal breakdown)"},
    {'3', A, view_kernels, "view 3: Kernels"},
    {'4', A, view_idle, "view 4: Idle time"},
    {'5', A, view_overlap, "view 5: Communication/computation overlap"},
    {'6', A, view_launch, "view 6: Kernel launch statistics"},
    {'7', A, view_annotations, "view 7: Annotations"},
    {'8', A, view_counters, "view 8: Counters (queue length, bandwidth)"},
    {'9', A, view_sequences, "view 9: Frequent kernel sequences"},
    {'R', A, view_ranks, "view R: Ranks (step times, idle, communication, blame)"},
    {'C', A, view_collectives, "view C: Collectives matched across ranks (skew, wait, bandwidth)"},
    {'i', A, view_diag, "view i: Diagnostics (what was loaded, skipped, empty)"},
    {'!', A, view_findings, "view !: Findings (what is wrong, why, what it costs)"},
    {'d', A, view_diff, "view d: Diff (htx diff CONTROL TEST)"},
    {'p', A, ui_act_toggle_left, "hide or show the rank/stream pane"},
    {'y', A, ui_act_copy_name, "copy the full name under the cursor to the clipboard (OSC 52)"},
    {UI_KEY_TAB, A, ui_act_focus_next, "next pane or table"},
    {UI_KEY_BTAB, A, ui_act_focus_prev, "previous pane or table"},
    {']', A, ui_act_iter_next, "next iteration (all, then each ProfilerStep)"},
    {'[', A, ui_act_iter_prev, "previous iteration"},
    {'/', A, ui_act_search, "search event names (timeline) or rows (tables)"},

    {'j', R, ui_act_item_down, "next rank/stream"},
    {UI_KEY_DOWN, R, ui_act_item_down, "next rank/stream"},
    {'k', R, ui_act_item_up, "previous rank/stream"},
    {UI_KEY_UP, R, ui_act_item_up, "previous rank/stream"},
    {UI_KEY_PGDN, R, ui_act_item_page_down, "page down"},
    {UI_KEY_PGUP, R, ui_act_item_page_up, "page up"},
    {'g', R, ui_act_item_first, "first rank"},
    {UI_KEY_HOME, R, ui_act_item_first, "first rank"},
    {'G', R, ui_act_item_last, "last line"},
    {UI_KEY_END, R, ui_act_item_last, "last line"},
    {'l', R, ui_act_item_expand, "expand a rank into its streams and threads"},
    {UI_KEY_RIGHT, R, ui_act_item_expand, "expand a rank into its streams and threads"},
    {UI_KEY_ENTER, R, ui_act_item_expand, "expand a rank into its streams and threads"},
    {'h', R, ui_act_item_collapse, "collapse"},
    {UI_KEY_LEFT, R, ui_act_item_collapse, "collapse"},
    {' ', R, ui_act_item_toggle, "include or leave out this rank, stream or thread"},
    {'a', R, ui_act_item_all, "include all ranks and streams"},
    {'o', R, ui_act_item_only, "include only this rank, stream or thread"},

    {'h', T, ui_act_tl_left, "move the cursor left (pans at the edge)"},
    {UI_KEY_LEFT, T, ui_act_tl_left, "move the cursor left (pans at the edge)"},
    {'l', T, ui_act_tl_right, "move the cursor right (pans at the edge)"},
    {UI_KEY_RIGHT, T, ui_act_tl_right, "move the cursor right (pans at the edge)"},
    {'H', T, ui_act_tl_pan_left, "pan half a screen left"},
    {'L', T, ui_act_tl_pan_right, "pan half a screen right"},
    {'k', T, ui_act_tl_up, "previous lane"},
    {UI_KEY_UP, T, ui_act_tl_up, "previous lane"},
    {'j', T, ui_act_tl_down, "next lane"},
    {UI_KEY_DOWN, T, ui_act_tl_down, "next lane"},
    {UI_KEY_PGUP, T, ui_act_tl_page_up, "lanes page up"},
    {UI_KEY_PGDN, T, ui_act_tl_page_down, "lanes page down"},
    {UI_KEY_HOME, T, ui_act_tl_first, "first lane"},
    {'G', T, ui_act_tl_last, "last lane"},
    {UI_KEY_END, T, ui_act_tl_last, "last lane"},
    {'+', T, ui_act_tl_zoom_in, "zoom in around the cursor"},
    {'=', T, ui_act_tl_zoom_in, "zoom in around the cursor"},
    {'-', T, ui_act_tl_zoom_out, "zoom out"},
    {'0', T, ui_act_tl_fit, "fit the whole selection"},
    {UI_KEY_ENTER, T, ui_act_tl_details, "details of the event under the cursor"},
    {'w', T, ui_act_tl_window, "mark a time window (twice), again to clear it"},
    {'n', T, ui_act_jump_next, "next instance / match"},
    {'N', T, ui_act_jump_prev, "previous instance / match"},
    {'.', T, ui_act_tl_next_event, "next event on the lane (skips empty space)"},
    {',', T, ui_act_tl_prev_event, "previous event on the lane"},
    {'*', T, ui_act_tl_same_next, "next event of the same name, any lane (then n/N)"},
    {'#', T, ui_act_tl_same_prev, "previous event of the same name"},
    {'%', T, ui_act_tl_partner, "from a kernel to its launch on the CPU, or back"},
    {'g', T, ui_act_tl_goto, "go to a time: 12.5ms, or from the cursor +3us, -1s"},
    {'f', T, ui_act_tl_zoom_event, "zoom to the event under the cursor"},
    {'F', T, ui_act_tl_zoom_iteration, "zoom to the iteration (ProfilerStep) at the cursor"},
    {'m', T, ui_act_tl_mark, "mark a point; again: measure between the two marks"},
    {'M', T, ui_act_tl_measure_lanes, "the measure between the marks, lane by lane"},
    {'z', T, ui_act_tl_zoom_marks, "zoom to the two marks"},

    {'j', D, ui_act_doc_down, "next row"},
    {UI_KEY_DOWN, D, ui_act_doc_down, "next row"},
    {'k', D, ui_act_doc_up, "previous row"},
    {UI_KEY_UP, D, ui_act_doc_up, "previous row"},
    {UI_KEY_PGDN, D, ui_act_doc_page_down, "page down"},
    {UI_KEY_PGUP, D, ui_act_doc_page_up, "page up"},
    {'g', D, ui_act_doc_first, "first row"},
    {UI_KEY_HOME, D, ui_act_doc_first, "first row"},
    {'G', D, ui_act_doc_last, "last row"},
    {UI_KEY_END, D, ui_act_doc_last, "last row"},
    {'l', D, ui_act_doc_next_table, "next table"},
    {UI_KEY_RIGHT, D, ui_act_doc_next_table, "next table"},
    {'h', D, ui_act_doc_prev_table, "previous table"},
    {UI_KEY_LEFT, D, ui_act_doc_prev_table, "previous table"},
    {UI_KEY_ENTER, D, ui_act_doc_enter, "show this row's instances on the timeline"},
    {'n', D, ui_act_doc_search_next, "next matching row"},
    {'N', D, ui_act_doc_search_prev, "previous matching row"},
    {'f', A, ui_act_filter, "filter table rows (Esc clears)"},
    {'>', D, ui_act_doc_columns_right, "scroll the table's columns right (a wide table)"},
    {'<', D, ui_act_doc_columns_left, "scroll the table's columns left"},
    {'s', D, ui_act_doc_sort, "sort by the next column"},
    {'S', D, ui_act_doc_sort_reverse, "reverse the sort"},
    {'e', D, ui_act_doc_export, "export the table as CSV to a new file"},
    {UI_KEY_TAB, D, ui_act_doc_focus_next, NULL},
    {UI_KEY_BTAB, D, ui_act_doc_focus_prev, NULL},

    {'j', F, ui_act_diff_down, "next row"},
    {UI_KEY_DOWN, F, ui_act_diff_down, "next row"},
    {'k', F, ui_act_diff_up, "previous row"},
    {UI_KEY_UP, F, ui_act_diff_up, "previous row"},
    {UI_KEY_PGDN, F, ui_act_diff_page_down, "page down"},
    {UI_KEY_PGUP, F, ui_act_diff_page_up, "page up"},
    {'g', F, ui_act_diff_first, "first row"},
    {UI_KEY_HOME, F, ui_act_diff_first, "first row"},
    {'G', F, ui_act_diff_last, "last row"},
    {UI_KEY_END, F, ui_act_diff_last, "last row"},
    {'A', F, ui_act_diff_added, "only added ops (again: all)"},
    {'X', F, ui_act_diff_deleted, "only deleted ops (again: all)"},
    {'>', F, ui_act_diff_increased, "only ops called more often (again: all)"},
    {'<', F, ui_act_diff_decreased, "only ops called less often (again: all)"},
    {'~', F, ui_act_diff_unchanged, "only ops called as often (again: all)"},
    {'*', F, ui_act_diff_all, "every op, no filter"},
    {'s', F, ui_act_diff_sort, "sort by Δ duration, Δ count or name"},
    {'S', F, ui_act_diff_sort_reverse, "reverse the sort"},
    {'O', F, ui_act_diff_cpu, "CPU ops only (again: all)"},
    {'K', F, ui_act_diff_gpu, "GPU kernels only (again: all)"},
    {'r', F, ui_act_diff_control_rank, "next control rank (then all, then as opened)"},
    {'T', F, ui_act_diff_test_rank, "next test rank"},
    {']', F, ui_act_diff_iter_next, "next iteration on both sides"},
    {'[', F, ui_act_diff_iter_prev, "previous iteration on both sides"},
    {'}', F, ui_act_diff_test_iter_next, "next test iteration"},
    {'{', F, ui_act_diff_test_iter_prev, "previous test iteration"},
    {'b', F, ui_act_diff_chart, "show or hide the top-10 Δ bars"},
    {UI_KEY_ENTER, F, ui_act_diff_enter, "the op on both timelines (again: back)"},
    {'n', F, ui_act_diff_search_next, "next match"},
    {'N', F, ui_act_diff_search_prev, "previous match"},
    {UI_KEY_ENTER, UI_CTX_DIFF_DETAIL, ui_act_diff_enter, "back to the table"},
    {UI_KEY_ENTER, UI_CTX_FINDINGS, ui_act_findings_enter,
     "the finding's evidence: its window on the timeline, or the row of the view that proves it"},
    {UI_KEY_ENTER, UI_CTX_RANK_TABLE, ui_act_ranks_enter,
     "this rank: select it in the left pane and open its timeline"},
    {UI_KEY_ENTER, UI_CTX_COLL_TABLE, ui_act_collectives_enter,
     "this collective on every rank's lane, last arriver first (n/N: the others)"},
    {UI_KEY_BACKSPACE, UI_CTX_DIFF_DETAIL, ui_act_diff_enter, "back to the table"},
    {UI_KEY_ENTER, UI_CTX_ANNOTATION_TREE, ui_act_atree_enter,
     "expand or collapse; on a kernel: its launches on the timeline (n/N)"},
    {'l', UI_CTX_ANNOTATION_TREE, ui_act_atree_expand, "expand (again: into it)"},
    {UI_KEY_RIGHT, UI_CTX_ANNOTATION_TREE, ui_act_atree_expand, "expand (again: into it)"},
    {'h', UI_CTX_ANNOTATION_TREE, ui_act_atree_collapse, "collapse, or go to the parent"},
    {UI_KEY_LEFT, UI_CTX_ANNOTATION_TREE, ui_act_atree_collapse, "collapse, or go to the parent"},
    {'t', UI_CTX_ANNOTATION_TREE, ui_act_atree_timeline,
     "every GPU event under this node on the timeline (n/N)"},
    {'m', UI_CTX_ANNOTATION_TREE, ui_act_atree_mode,
     "stacks of user annotations, or with CPU ops and Python functions"},
    {'n', UI_CTX_ANNOTATION_TREE, ui_act_atree_search_next, "next node matching the search"},
    {'N', UI_CTX_ANNOTATION_TREE, ui_act_atree_search_prev, "previous node matching the search"},
    {'s', UI_CTX_ANNOTATION_TREE, ui_act_atree_sort, "(the tree stays by inclusive time)"},
    {'l', UI_CTX_KERNEL_TABLE, ui_act_kernels_expand, "open the kernel's per-rank rows"},
    {UI_KEY_RIGHT, UI_CTX_KERNEL_TABLE, ui_act_kernels_expand, "open the kernel's per-rank rows"},
    {'h', UI_CTX_KERNEL_TABLE, ui_act_kernels_collapse, "close them"},
    {UI_KEY_LEFT, UI_CTX_KERNEL_TABLE, ui_act_kernels_collapse, "close them"},
    {UI_KEY_ENTER, UI_CTX_KERNEL_TABLE, ui_act_kernels_enter,
     "the kernel's instances on the timeline (on a rank row: that rank's)"},
    {UI_KEY_ENTER, UI_CTX_IDLE_TABLE, ui_act_idle_enter,
     "a category's largest gaps on that stream; on a gap: it on the timeline (n/N)"},
    {UI_KEY_ENTER, UI_CTX_LAUNCH_TABLE, ui_act_launch_enter,
     "this launch's kernel on the timeline (n/N: the table's other rows, in its order)"},
    {'S', UI_CTX_ANNOTATION_TREE, ui_act_atree_sort, "(the tree stays by inclusive time)"},
};

#undef T
#undef D
#undef R
#undef A
#undef F

const struct ui_binding *ui_bindings(size_t *n)
{
    *n = sizeof bindings / sizeof bindings[0];
    return bindings;
}

/* ---- help overlay ---- */

static int add_line(struct ui_state *st, size_t *cap, const char *text)
{
    if (st->noverlay_lines == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        const char **l = arena_calloc(&st->overlay_arena, nc, sizeof *l);
        if (!l)
            return ERR_NOMEM;
        if (st->noverlay_lines)
            memcpy(l, st->overlay_lines, st->noverlay_lines * sizeof *l);
        st->overlay_lines = l;
        *cap = nc;
    }
    const char *c = arena_strndup(&st->overlay_arena, text, strlen(text));
    if (!c)
        return ERR_NOMEM;
    st->overlay_lines[st->noverlay_lines++] = c;
    return 0;
}

/* One line per action: all its keys, then what it does. */
static int section(struct ui_state *st, size_t *cap, const char *title,
                   const struct ui_binding *b, size_t n, unsigned ctx)
{
    int rc = add_line(st, cap, title);

    for (size_t i = 0; i < n && rc == 0; i++) {
        if (b[i].ctx != ctx || !b[i].help)
            continue;
        bool seen = false;
        for (size_t j = 0; j < i; j++)
            seen |= b[j].ctx == ctx && b[j].fn == b[i].fn && b[j].help &&
                    strcmp(b[j].help, b[i].help) == 0;
        if (seen)
            continue;
        char keys[64] = "", name[16], line[256];
        for (size_t j = i; j < n; j++) {
            if (b[j].ctx != ctx || b[j].fn != b[i].fn || !b[j].help ||
                strcmp(b[j].help, b[i].help) != 0)
                continue;
            size_t len = strlen(keys);
            snprintf(keys + len, sizeof keys - len, "%s%s", len ? " " : "",
                     ui_key_name(b[j].key, name, sizeof name));
        }
        snprintf(line, sizeof line, "  %-16s %s", keys, b[i].help);
        rc = add_line(st, cap, line);
    }
    return rc ? rc : add_line(st, cap, "");
}

int ui_help_lines(struct ui_state *st)
{
    size_t n, cap = 0;
    const struct ui_binding *b = ui_bindings(&n);
    arena_reset(&st->overlay_arena);
    st->overlay_lines = NULL;
    st->noverlay_lines = 0;
    int rc = section(st, &cap, "Everywhere", b, n, UI_CTX_ANY);
    if (rc == 0)
        rc = section(st, &cap, "Rank/stream pane (left)", b, n, UI_CTX_RANKS);
    if (rc == 0)
        rc = section(st, &cap, "Timeline (view 1)", b, n, UI_CTX_TIMELINE);
    if (rc == 0)
        rc = section(st, &cap, "Tables (views 2-9, i)", b, n, UI_CTX_DOC);
    if (rc == 0)
        rc = section(st, &cap, "Findings (view !)", b, n, UI_CTX_FINDINGS);
    if (rc == 0)
        rc = section(st, &cap, "Ranks (view R)", b, n, UI_CTX_RANK_TABLE);
    if (rc == 0)
        rc = section(st, &cap, "Collectives (view C)", b, n, UI_CTX_COLL_TABLE);
    if (rc == 0)
        rc = section(st, &cap, "Annotation tree (view 7)", b, n, UI_CTX_ANNOTATION_TREE);
    if (rc == 0)
        rc = section(st, &cap, "Kernel summary (view 3)", b, n, UI_CTX_KERNEL_TABLE);
    if (rc == 0)
        rc = section(st, &cap, "Idle (view 4)", b, n, UI_CTX_IDLE_TABLE);
    if (rc == 0)
        rc = section(st, &cap, "Launch (view 6)", b, n, UI_CTX_LAUNCH_TABLE);
    if (rc == 0)
        rc = section(st, &cap, "Diff (view d, htx diff)", b, n, UI_CTX_DIFF);
    if (rc == 0)
        rc = section(st, &cap, "Diff with an op's timelines open", b, n, UI_CTX_DIFF_DETAIL);
    if (rc == 0)
        rc = add_line(st, &cap, "Mouse: click a tab, a lane, a row or a pane; the wheel scrolls.");
    if (rc == 0)
        rc = add_line(st, &cap, "In a prompt: Enter applies, Esc cancels, C-u clears.");
    return rc;
}
