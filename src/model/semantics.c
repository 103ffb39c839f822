#include "config.h"
#include "model/semantics.h"

#include <string.h>

void semantics_init(struct semantics *s, enum semantics_mode mode)
{
    bool hta = mode == SEMANTICS_HTA;
    memset(s, 0, sizeof *s);
    s->hta_tables = hta;
    s->ns_rounding = hta;
    s->drop_last_step = hta;
    s->filter_duplicates_rows = hta;
    s->filter_empties_stepless_rank = hta;
    s->stream0_no_iteration = hta;
    s->gpu_side_is_stream_field = hta;
    s->sync_is_gpu_busy = hta;
    s->hta_kernel_classes = hta;
    s->unstable_sort = hta;
    s->top_n_loses_stats = hta;
    s->sample_weighted_summaries = hta;
    s->blocked_queue_one_row_per_rank = hta;
    s->diff_hta_quirks = hta;
    s->hta_launch_names = hta;
    s->membw_float_residue = hta;
    s->idle_launch_label0 = hta;
    s->hta_stragglers = hta;
    s->hta_annotations_only = hta;
}
