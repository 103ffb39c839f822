#include "config.h"
#include "ui/views/annotations_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/document.h"
#include "ui/widgets/text.h"
#include "ui/widgets/tree_rows.h"

/* Building the tree table of view 7 (the keys are in annotations_tree_actions.c). */

#define BAR_CELLS 10

enum tree_column {
    TC_NAME = 0, TC_BAR, TC_INCL, TC_SELF, TC_KERNELS, TC_SHARE,
    TC_MIN, TC_MEAN, TC_MAX, TC_SLOWEST,
    TC_NCOLS
};
#define TREE_TABLE "annotation_stack_tree"

struct ui_atree *ui_atree_of(const struct ui_state *st)
{
    return st->own[UI_VIEW_ANNOTATIONS];
}

int ui_atree_init(struct ui_state *st)
{
    struct ui_atree *a = calloc(1, sizeof *a);
    if (!a)
        return ERR_NOMEM;
    arena_init(&a->arena, 65536);
    st->own[UI_VIEW_ANNOTATIONS] = a;
    return ui_expand_init(&a->open) ? ERR_NOMEM : 0;
}

void ui_atree_fini(struct ui_state *st)
{
    struct ui_atree *a = ui_atree_of(st);
    if (!a)
        return;
    atree_free(&a->tree);
    ui_expand_fini(&a->open);
    free(a->row_node);
    arena_fini(&a->arena);
    free(a);
    st->own[UI_VIEW_ANNOTATIONS] = NULL;
}

/* ---- which nodes are expanded, by path ---- */

/* A node's path as a key: kind and name of each level below the root,
 * joined by US (0x1f). Caller frees; NULL on ENOMEM. */
static char *node_key(const struct atree *t, uint32_t v, size_t *len)
{
    size_t n = 0;
    for (uint32_t u = v; u != 0 && u != ATREE_NONE; u = t->nodes[u].parent)
        n += strlen(atree_name(t, u)) + 2;
    char *key = malloc(n + 1);
    if (!key)
        return NULL;
    size_t end = n;
    key[n] = 0;
    for (uint32_t u = v; u != 0 && u != ATREE_NONE; u = t->nodes[u].parent) {
        const char *name = atree_name(t, u);
        size_t k = strlen(name);
        end -= k + 2;
        key[end] = (char)('0' + t->nodes[u].kind);
        memcpy(key + end + 1, name, k);
        key[end + 1 + k] = 0x1f;
    }
    *len = n;
    return key;
}

bool ui_atree_is_open(const struct ui_atree *a, uint32_t v)
{
    size_t len;
    char *key = node_key(&a->tree, v, &len);
    bool open = key && ui_expand_is(&a->open, key, len);
    free(key);
    return open;
}

int ui_atree_set_open(struct ui_atree *a, uint32_t v, bool open)
{
    size_t len;
    char *key = node_key(&a->tree, v, &len);
    int rc = key ? ui_expand_set(&a->open, key, len, open) : ERR_NOMEM;
    free(key);
    return rc;
}

/* ---- chains: a node that is its parent's only child shares its row ---- */

/* Is v shown in its parent's row: both are annotation stack nodes (not the
 * root, not a kernel) and v is the parent's only child? The row's numbers
 * are then the same for every node of the chain (a stack node with one
 * stack child has no kernel of its own). */
static bool chained(const struct atree *t, uint32_t v)
{
    if (v == 0 || v >= t->nnodes)
        return false;
    const struct atree_node *n = &t->nodes[v];
    if (n->parent == 0 || n->parent >= t->nnodes)
        return false;
    const struct atree_node *p = &t->nodes[n->parent];
    return n->kind == ATREE_STACK && p->kind == ATREE_STACK && p->first_child == v &&
           n->next_sibling == ATREE_NONE;
}

uint32_t ui_atree_row_node(const struct atree *t, uint32_t v)
{
    while (v < t->nnodes && t->nodes[v].first_child != ATREE_NONE &&
           chained(t, t->nodes[v].first_child))
        v = t->nodes[v].first_child;
    return v;
}

uint32_t ui_atree_chain_head(const struct atree *t, uint32_t v)
{
    while (chained(t, v))
        v = t->nodes[v].parent;
    return v;
}

/* ---- the table ---- */

/* frac of BAR_CELLS cells in eighths (or '#' in ASCII). */
static void bar_text(double frac, bool ascii, char *buf, size_t size)
{
    static const char *const eighths[] = {"", "\u258F", "\u258E", "\u258D",
                                          "\u258C", "\u258B", "\u258A", "\u2589"};
    frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
    int units = (int)(frac * BAR_CELLS * 8 + 0.5), len = 0;
    buf[0] = 0;
    for (int c = 0; c < units / 8 && len + 4 < (int)size; c++)
        len += snprintf(buf + len, size - (size_t)len, "%s", ascii ? "#" : "\u2588");
    if (units % 8 && len + 4 < (int)size)
        snprintf(buf + len, size - (size_t)len, "%s", ascii ? "" : eighths[units % 8]);
}

static bool name_matches(const struct atree *t, uint32_t v, const char *filter)
{
    return ui_text_contains(atree_name(t, v), filter);
}

/* Which nodes are shown: without a filter, those whose ancestors are all
 * expanded (a chain's nodes count as expanded); with one, the matches and
 * their ancestors. The rows are the shown nodes that start a chain. */
static int visible_nodes(const struct ui_atree *a, const char *filter, uint8_t *show)
{
    const struct atree *t = &a->tree;
    memset(show, 0, t->nnodes);
    if (filter[0]) {
        for (size_t i = t->nnodes; i-- > 1;) {
            uint32_t v = t->preorder[i];
            if (show[v] || name_matches(t, v, filter))
                show[v] = 1;
            if (show[v] && t->nodes[v].parent != 0)
                show[t->nodes[v].parent] = 1;
        }
        return 0;
    }
    uint8_t *open = calloc(t->nnodes ? t->nnodes : 1, 1);
    if (!open)
        return ERR_NOMEM;
    open[0] = 1;
    show[0] = 1;
    for (size_t i = 1; i < t->nnodes; i++) {
        uint32_t v = t->preorder[i], p = t->nodes[v].parent;
        show[v] = show[p] && (open[p] || chained(t, v));   // a chain is one row
        uint32_t c = t->nodes[v].first_child;
        if (show[v] && c != ATREE_NONE && !chained(t, c))
            open[v] = ui_atree_is_open(a, v);
    }
    free(open);
    show[0] = 0;
    return 0;
}

static const char *mode_text(const struct ui_state *st)
{
    return st->aopts.annotation_stack_ops ? "user annotations, CPU ops and Python functions"
                                          : "user annotations";
}

/* Remembers that table row r shows node v. */
static int note_row(struct ui_atree *a, size_t r, uint32_t v)
{
    if (r >= a->row_cap) {
        size_t cap = a->row_cap ? a->row_cap * 2 : 256;
        uint32_t *rn = realloc(a->row_node, cap * sizeof *rn);
        if (!rn)
            return ERR_NOMEM;
        a->row_node = rn;
        a->row_cap = cap;
    }
    a->row_node[r] = v;
    return 0;
}

/* The cell of node nd in a column showing `what`, but the name and bar. */
static struct cell figure_cell(const struct atree *t, const struct atree_node *nd,
                               enum tree_column what, double share)
{
    switch (what) {
    case TC_INCL:
        return cell_double((double)nd->incl_ns / 1000.0);
    case TC_SELF:
        return cell_double((double)nd->self_ns / 1000.0);
    case TC_KERNELS:
        return cell_int((int64_t)nd->count);
    case TC_SHARE:
        return cell_double(100.0 * share);
    case TC_MIN:
        return cell_double((double)nd->min_ns / 1000.0);
    case TC_MEAN:
        return cell_double((double)nd->incl_ns / 1000.0 / (double)t->nranks);
    case TC_MAX:
        return cell_double((double)nd->max_ns / 1000.0);
    case TC_SLOWEST:
        return cell_int(nd->slowest_rank);
    default:
        return cell_null();
    }
}

/* Adds the row of node v (a chain's last node) with its name cell `text`. */
static int add_row(struct ui_state *st, struct table *tb, uint32_t v, const char *text)
{
    struct ui_atree *a = ui_atree_of(st);
    const struct atree *t = &a->tree;
    const struct atree_node *nd = &t->nodes[v];
    struct cell *row = table_add_row(tb);
    if (!row || note_row(a, tb->nrows - 1, v))
        return ERR_NOMEM;
    double total = (double)t->nodes[0].incl_ns, share = total > 0 ? nd->incl_ns / total : 0;
    char bar[BAR_CELLS * 4 + 4];
    for (size_t c = 0; c < tb->ncols; c++) {
        if (a->cols[c] == TC_NAME) {
            row[c] = cell_str(tb, text);
        } else if (a->cols[c] == TC_BAR) {
            bar_text(share, st->ascii, bar, sizeof bar);
            row[c] = cell_str(tb, bar);
        } else {
            row[c] = figure_cell(t, nd, (enum tree_column)a->cols[c], share);
        }
    }
    return 0;
}

/* The rows to show: one per chain of shown nodes, its names and level. */
struct rows {
    struct ui_tree_row *r;
    uint32_t *node;            /* the chain's last node */
    const char **names;        /* every row's chain, one after the other */
    size_t n;
};

static const char *row_mark(const struct ui_state *st, uint32_t v, const char *filter)
{
    const struct ui_atree *a = ui_atree_of(st);
    if (a->tree.nodes[v].first_child == ATREE_NONE)
        return "  ";
    bool open = filter[0] || ui_atree_is_open(a, v);
    return st->ascii ? (open ? "- " : "+ ") : (open ? "\u25BE " : "\u25B8 ");
}

/* Fills rs from the shown nodes: each node that starts a chain is a row,
 * nested one level below its parent's row. */
static int collect_rows(const struct ui_state *st, const uint8_t *show, const char *filter,
                        struct rows *rs)
{
    const struct atree *t = &ui_atree_of(st)->tree;
    size_t nn = t->nnodes ? t->nnodes : 1;
    uint32_t *level = calloc(nn, sizeof *level);
    rs->r = calloc(nn, sizeof *rs->r);
    rs->node = calloc(nn, sizeof *rs->node);
    rs->names = calloc(nn, sizeof *rs->names);
    rs->n = 0;
    if (!level || !rs->r || !rs->node || !rs->names) {
        free(level);
        return ERR_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 1; i < t->nnodes; i++) {
        uint32_t v = t->preorder[i], p = t->nodes[v].parent;
        level[v] = chained(t, v) ? level[p] : (p == 0 ? 0 : level[p] + 1);
        if (!show[v] || chained(t, v))
            continue;
        uint32_t tail = ui_atree_row_node(t, v);
        struct ui_tree_row *r = &rs->r[rs->n];
        r->names = &rs->names[k];
        for (uint32_t u = v;; u = t->nodes[u].first_child) {
            rs->names[k++] = atree_name(t, u);
            if (u == tail)
                break;
        }
        r->nnames = (size_t)(&rs->names[k] - r->names);
        r->level = level[v];
        r->mark = row_mark(st, tail, filter);
        rs->node[rs->n++] = tail;
    }
    free(level);
    return 0;
}

static void rows_free(struct rows *rs)
{
    free(rs->r);
    free(rs->node);
    free(rs->names);
}

/* Adds the rows of rs to tb, their names fitted to `width` columns. */
static int add_rows(struct ui_state *st, struct table *tb, const struct rows *rs, int width)
{
    char **text = calloc(rs->n ? rs->n : 1, sizeof *text);
    int rc = text ? ui_tree_row_texts(rs->r, rs->n, width, st->ascii, text) : ERR_NOMEM;
    for (size_t i = 0; i < rs->n && rc == 0; i++)
        rc = add_row(st, tb, rs->node[i], text[i]);
    for (size_t i = 0; text && i < rs->n; i++)
        free(text[i]);
    free(text);
    return rc;
}

/* Every column the tree can show, in display order, with the order in
 * which they give way when the pane is narrow (the name keeps NAME_MIN
 * columns, or a third of a wide pane; the cross-rank ones only with
 * several ranks). */
#define NAME_MIN 32
#define NUMBER_WIDTH 10
static const struct {
    struct table_col col;
    uint8_t priority;
    bool across;
} tree_cols[TC_NCOLS] = {
    [TC_NAME] = {{"annotation stack", NULL, COL_KEY}, 0, false},
    [TC_BAR] = {{"bar", NULL, 0}, 2, false},
    [TC_INCL] = {{"inclusive (us)", "us", 0}, 1, false},
    [TC_SELF] = {{"self (us)", "us", 0}, 6, false},
    [TC_KERNELS] = {{"kernels", NULL, 0}, 7, false},
    [TC_SHARE] = {{"share (%)", "%", 0}, 3, false},
    [TC_MIN] = {{"min (us)", "us", 0}, 5, true},
    [TC_MEAN] = {{"mean (us)", "us", 0}, 8, true},
    [TC_MAX] = {{"max (us)", "us", 0}, 4, true},
    [TC_SLOWEST] = {{"slowest rank", NULL, 0}, 4, true},
};

/* The columns that fit w (ui_atree_of(st)->cols), in display order; returns
 * how many. The name column keeps what its rows need (need), at most a
 * third of a wide pane, at least NAME_MIN; the bar, `bar` cells (the
 * largest row's). *name_w: the width left to it,
 * each other column counted as wide as its header and the sort mark
 * (ui/widgets/tables.c). */
static size_t choose_columns(struct ui_atree *a, int w, bool across, int need, int bar,
                             struct table_col *cols, int *name_w)
{
    bool keep[TC_NCOLS] = {[TC_NAME] = true};
    int name_min = w / 3 > NAME_MIN ? w / 3 : NAME_MIN;
    name_min = need < name_min ? (need > NAME_MIN ? need : NAME_MIN) : name_min;
    int used = name_min;
    for (uint8_t p = 1; p <= 8; p++)
        for (int c = 0; c < TC_NCOLS; c++) {
            if (tree_cols[c].priority != p || (tree_cols[c].across && !across))
                continue;
            int cw = (int)strlen(tree_cols[c].col.name) + 1;
            cw = c == TC_BAR ? bar : cw < NUMBER_WIDTH ? NUMBER_WIDTH : cw;
            if (used + 2 + cw <= w) {
                keep[c] = true;
                used += 2 + cw;
            }
        }
    size_t n = 0;
    for (int c = 0; c < TC_NCOLS; c++)
        if (keep[c]) {
            a->cols[n] = (uint8_t)c;
            cols[n++] = tree_cols[c].col;
        }
    *name_w = w - (used - name_min) - 1;
    return n;
}

/* Rebuilds ui_atree_of(st)->table from the tree, the expanded nodes and filter. */
static int flatten(struct ui_state *st, const char *filter)
{
    struct ui_atree *a = ui_atree_of(st);
    const struct atree *t = &a->tree;
    arena_reset(&a->arena);
    a->table = NULL;
    struct table_col cols[TC_NCOLS];
    a->width = st->layout.body.w;
    uint8_t *show = malloc(t->nnodes ? t->nnodes : 1);
    int rc = !show ? ERR_NOMEM : t->nnodes ? visible_nodes(a, filter, show) : 0;
    struct rows rs = {NULL, NULL, NULL, 0};
    if (rc == 0 && t->nnodes)
        rc = collect_rows(st, show, filter, &rs);
    free(show);
    int need = 0, name_w = 0;
    int64_t top = 0;
    for (size_t i = 0; i < rs.n; i++) {
        int rw = ui_tree_row_width(&rs.r[i]);
        need = rw > need ? rw : need;
        top = t->nodes[rs.node[i]].incl_ns > top ? t->nodes[rs.node[i]].incl_ns : top;
    }
    double root = t->nnodes ? (double)t->nodes[0].incl_ns : 0;
    int bar = root > 0 ? (int)(BAR_CELLS * ((double)top / root) + 0.999) : 0;
    bar = bar < 4 ? 4 : bar > BAR_CELLS ? BAR_CELLS : bar;   // 4: "bar" and the sort mark
    size_t ncols = choose_columns(a, a->width, t->nranks > 1, need, bar, cols, &name_w);
    char title[192];
    snprintf(title, sizeof title, "GPU time by CPU stack of the launch: %s, %zu rank%s",
             mode_text(st), t->nranks, t->nranks == 1 ? "" : "s");
    struct table *tb = rc ? NULL : table_new(&a->arena, TREE_TABLE, NULL, cols, ncols);
    if (rc == 0 && !tb)
        rc = ERR_NOMEM;
    if (rc == 0) {
        tb->title = arena_strndup(&a->arena, title, strlen(title));
        rc = add_rows(st, tb, &rs, name_w);
    }
    rows_free(&rs);
    if (rc)
        return rc;
    table_set_note(tb, "Enter/Right expand, Left collapse, t: on the timeline, m: stacks %s; "
                       "%llu GPU events without a launch in the trace",
                   st->aopts.annotation_stack_ops ? "with CPU ops" : "of user annotations",
                   (unsigned long long)t->no_launch);
    if (t->nnodes < 2)
        table_set_note(tb, "no kernel, memcpy or memset in the selection");
    a->table = tb;
    return 0;
}

/* The node under the tree's cursor, or ATREE_NONE. */
uint32_t ui_atree_cursor(const struct ui_state *st)
{
    const struct ui_doc *d = &st->docs[UI_VIEW_ANNOTATIONS];
    if (!ui_atree_of(st)->table || d->ntables == 0 || d->tables[0] != ui_atree_of(st)->table ||
        d->tv[0].nrows == 0)
        return ATREE_NONE;
    size_t row = d->tv[0].rows[d->row[0]];
    return row < ui_atree_of(st)->table->nrows ? ui_atree_of(st)->row_node[row] : ATREE_NONE;
}

int ui_atree_reflatten(struct ui_state *st, uint32_t keep)
{
    struct ui_doc *d = &st->docs[UI_VIEW_ANNOTATIONS];
    if (keep != ATREE_NONE)
        keep = ui_atree_row_node(&ui_atree_of(st)->tree, keep);   // the row of its chain
    if (!ui_atree_of(st)->table || d->ntables == 0 || d->tables[0] != ui_atree_of(st)->table)
        return 0;
    int rc = flatten(st, d->filter);
    if (rc)
        return rc;
    d->tables[0] = ui_atree_of(st)->table;
    d->tv[0].sort_col = -1;
    rc = ui_doc_rebuild_views(st, d);
    if (rc)
        return rc;
    for (size_t r = 0; r < ui_atree_of(st)->table->nrows; r++)
        if (ui_atree_of(st)->row_node[r] == keep)
            d->row[0] = r;
    return 0;
}

int ui_atree_decorate(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    struct ui_atree *a = ui_atree_of(st);
    a->table = NULL;
    if (m->sem.hta_annotations_only)
        return 0;
    if (!a->built) {
        struct err e = {0, ""};
        atree_free(&a->tree);
        enum astack_mode mode = st->aopts.annotation_stack_ops ? ASTACK_OPS : ASTACK_ANNOTATIONS;
        if (atree_build(m, mode, &a->tree, &e) != 0)
            return e.code == ERR_NOMEM ? ERR_NOMEM : ui_doc_text(d, "annotation tree: %s", e.msg);
        a->built = true;
    }
    // The flat per-path tables say what the tree shows: the tree replaces them here.
    size_t k = 0;
    for (size_t i = 0; i < d->ntables; i++)
        if (strncmp(d->tables[i]->name, "kernels_by_annotation_stack", 27) != 0)
            d->tables[k++] = d->tables[i];
    d->ntables = k;
    if (flatten(st, d->filter) != 0)
        return ERR_NOMEM;
    if (d->ntables == UI_DOC_TABLES)
        d->ntables--;
    memmove(&d->tables[1], &d->tables[0], d->ntables * sizeof d->tables[0]);
    d->tables[0] = a->table;
    d->ntables++;
    d->self_filtered[0] = true;
    d->tv[0].sort_col = -1;
    uint64_t gpu_annotations = 0;
    for (size_t i = 0; i < m->nranks; i++)
        if (m->ranks[i].selected)
            gpu_annotations += m->ranks[i].complete_by_kind[EV_KIND_GPU_USER_ANNOTATION];
    if (gpu_annotations)
        return ui_doc_text(d, "Tree: by the CPU stack of each launch. Tables below it: by the "
                              "%llu gpu_user_annotation events (HTA).",
                           (unsigned long long)gpu_annotations);
    return 0;
}

bool ui_atree_active(const struct ui_state *st)
{
    const struct ui_doc *d = &st->docs[UI_VIEW_ANNOTATIONS];
    const struct table *tree = ui_atree_of(st)->table;
    return st->view == UI_VIEW_ANNOTATIONS && st->focus == UI_FOCUS_MAIN && tree &&
           d->ntables && d->cur == 0 && d->tables[0] == tree;
}
