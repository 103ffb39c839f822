#include "config.h"
#include "ui/ui.h"

#include "analysis/analysis.h"
#include "ui/run.h"

/* The TUI's entry point. This is the only UI file that names
 * analysis_list (the registry), so the rest of the UI builds and is tested
 * without every analysis linked: the analyses reach the views through
 * ui_run's parameter. */

int ui_main(const struct htx_options *opts)
{
    size_t n;
    const struct analysis_info *analyses = analysis_list(&n);

    return ui_run(opts, analyses, n);
}
