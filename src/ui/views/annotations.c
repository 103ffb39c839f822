#include "config.h"
#include "ui/views/annotations_tree.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/document.h"

/* View 7 (Annotations): under htx, the annotation tree first
 * (annotations_tree.c, its keys in annotations_tree_actions.c), then HTA's
 * tables with the stack table indented by depth; under --semantics=hta,
 * HTA's tables with a bar per innermost annotation above them. */

/* The stack tree with each annotation indented by its depth. */
static int indent_stacks(struct ui_doc *d)
{
    static const struct table_col cols[] = {
        {"rank", NULL, COL_KEY}, {"annotation", NULL, COL_KEY}, {"sum", "us", 0},
        {"count", NULL, 0}, {"self_sum", "us", 0},
    };
    struct table *t = ui_doc_find_table(d, "annotation_tree");
    if (!t)
        return 0;
    int rc = table_col_index(t, "rank"), dc = table_col_index(t, "depth");
    int ac = table_col_index(t, "annotation"), sc = table_col_index(t, "sum");
    int cc = table_col_index(t, "count"), fc = table_col_index(t, "self_sum");
    if (rc < 0 || dc < 0 || ac < 0)
        return 0;
    struct table *out = table_new(&d->arena, "annotation_tree", "Kernel time by annotation stack",
                                  cols, 5);
    if (!out)
        return ERR_NOMEM;
    out->note = t->note;
    for (size_t r = 0; r < t->nrows; r++) {
        struct cell *row = table_add_row(out);
        char buf[512];
        double depth = ui_doc_num(t, r, dc);
        int indent = isfinite(depth) && depth > 0 ? (int)(depth > 40 ? 40 : depth) : 0;
        const struct cell *a = table_cell(t, r, (size_t)ac);
        if (!row)
            return ERR_NOMEM;
        snprintf(buf, sizeof buf, "%*s%s", indent * 2, "",
                 a->type == CELL_STR && a->v.s ? a->v.s : "");
        row[0] = *table_cell(t, r, (size_t)rc);
        row[1] = cell_str(out, buf);
        row[2] = sc >= 0 ? *table_cell(t, r, (size_t)sc) : cell_null();
        row[3] = cc >= 0 ? *table_cell(t, r, (size_t)cc) : cell_null();
        row[4] = fc >= 0 ? *table_cell(t, r, (size_t)fc) : cell_null();
    }
    for (size_t i = 0; i < d->ntables; i++)
        if (d->tables[i] == t)
            d->tables[i] = out;
    return 0;
}

static int build(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    // Under htx the tree, with bars of its own, comes first.
    int rc = m->sem.hta_annotations_only
                 ? ui_doc_bars(d, "kernels_by_annotation", "s_user_annotation", "sum",
                               "Kernel time by innermost annotation (us)", 0, "us", true)
                 : 0;
    rc = rc ? rc : indent_stacks(d);
    return rc ? rc : ui_atree_decorate(st, m, d);
}

static const enum analysis_id analyses[] = {ANALYSIS_ANNOTATIONS};

/* The tree picks its columns for the pane's width: a new width flattens
 * it again, the cursor kept on its node. */
static int refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    if (!st->docs[UI_VIEW_ANNOTATIONS].valid)   // its rank trees are of the old selection
        ui_atree_of(st)->built = false;
    if (ui_atree_of(st)->table && ui_atree_of(st)->width != st->layout.body.w &&
        st->docs[UI_VIEW_ANNOTATIONS].valid && ui_atree_reflatten(st, ui_atree_cursor(st)))
        return err_set(e, ERR_NOMEM, "out of memory");
    return ui_doc_refresh(st, m, UI_VIEW_ANNOTATIONS, analyses, 1, build, e);
}

static size_t contexts(const struct ui_state *st, unsigned ctx[UI_VIEW_CONTEXTS])
{
    size_t n = 0;
    if (ui_atree_active(st))
        ctx[n++] = UI_CTX_ANNOTATION_TREE;
    ctx[n++] = UI_CTX_DOC;
    return n;
}

static const char *cursor_name(const struct ui_state *st, const struct model *m)
{
    if (!ui_atree_active(st))
        return ui_doc_cursor_name(st, m);
    uint32_t v = ui_atree_cursor(st);
    return v == ATREE_NONE ? NULL : atree_name(&ui_atree_of(st)->tree, v);
}

/* The prompt: on the tree, search and filter look at node names (a filter
 * keeps the matches' ancestors); on the other tables, the tables' prompt. */

static const char *prompt_initial(const struct ui_state *st, enum ui_prompt p)
{
    return ui_doc_prompt_initial(st, p);
}

static unsigned prompt_apply(struct ui_state *st, const struct model *m, enum ui_prompt p,
                             const char *text)
{
    struct ui_doc *d = &st->docs[UI_VIEW_ANNOTATIONS];
    if (!ui_atree_active(st))
        return ui_doc_prompt_apply(st, m, p, text);
    if (p == UI_PROMPT_SEARCH) {
        snprintf(d->search, sizeof d->search, "%s", text);
        return ui_atree_search(st, 0);
    }
    uint32_t keep = ui_atree_cursor(st);
    snprintf(d->filter, sizeof d->filter, "%s", text);
    if (ui_atree_reflatten(st, keep) != 0) {
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    return ui_doc_prompt_apply(st, m, p, text);
}

const struct ui_view_ops ui_view_annotations = {
    .id = UI_VIEW_ANNOTATIONS,
    .key = '7',
    .name = "Annotations",
    .hints = UI_DOC_HINTS,
    .init = ui_atree_init,
    .fini = ui_atree_fini,
    .refresh = refresh,
    .stale = ui_doc_stale,
    .contexts = contexts,
    .rows = ui_doc_rows,
    .top = ui_doc_top,
    .row = ui_doc_row,
    .pinned = ui_doc_pinned,
    .pinned_row = ui_doc_pinned_row,
    .status = ui_doc_status,
    .prompt_initial = prompt_initial,
    .prompt_apply = prompt_apply,
    .escape = ui_doc_escape,
    .click = ui_doc_click,
    .cursor_name = cursor_name,
};
