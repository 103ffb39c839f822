#include "config.h"
#include "app/options.h"

#include <string.h>

/* The words htx says about its command line: the usage texts and the
 * nearest command to a mistyped one. */

/* Levenshtein distance of two short words, capped: 99 when either is long. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 31 || lb > 31)
        return 99;
    size_t prev[32], cur[32];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, (lb + 1) * sizeof *prev);
    }
    return prev[lb];
}

const char *htx_nearest_command(const char *word)
{
    static const char *const commands[] = {"info", "report", "counters", "diff", "summarize",
                                           "check", "help"};
    const char *best = NULL;
    size_t best_d = 3;  /* at most two edits: "reprot", "inof", "dif" */
    for (size_t i = 0; word && i < sizeof commands / sizeof commands[0]; i++) {
        size_t d = edit_distance(word, commands[i]);
        if (d < best_d && d < strlen(commands[i])) {
            best = commands[i];
            best_d = d;
        }
    }
    return best;
}

const char *htx_short_usage(void)
{
    return "usage: htx [OPTIONS] PATH...           explore traces in the terminal\n"
           "       htx report [OPTIONS] PATH...    the analyses as text, CSV or JSON\n"
           "       htx info [OPTIONS] PATH...      what was loaded\n"
           "       htx counters [OPTIONS] PATH...  add counter tracks for Perfetto\n"
           "       htx diff [--report] CONTROL TEST\n"
           "       htx summarize -o DIR [--shard=I/N|auto] PATH...  one summary per rank\n"
           "       htx check [--max-cost=PCT] PATH...  the findings; exit 3 beyond PCT\n"
           "PATH is a trace file or a directory of per-rank traces. htx --help lists the options.\n";
}

const char *htx_usage(void)
{
    return "Usage:\n"
           "  htx [OPTIONS] PATH...                 TUI on a trace directory or rank files\n"
           "  htx diff [OPTIONS] CONTROL TEST       TUI on the side-by-side diff\n"
           "  htx report [OPTIONS] PATH...          analyses as text, csv or json\n"
           "  htx diff --report [OPTIONS] CONTROL TEST\n"
           "  htx info [--format=text|json] PATH... what was loaded\n"
           "  htx counters [OPTIONS] PATH...        write <file>_with_counters.json.gz\n"
           "  htx summarize -o DIR [OPTIONS] PATH... one summary per rank file (rank-N.htxs);\n"
           "                                        htx report DIR reads them\n"
           "  htx check [--max-cost=PCT] PATH...    what is wrong; exit 3 when a finding costs\n"
           "                                        more than PCT% of a step (default 5)\n"
           "  htx --help | --version\n"
           "\n"
           "PATH is a directory (every *.json and *.json.gz file in it is one rank) or trace files.\n"
           "\n"
           "Selection:\n"
           "  --rank=LIST               ranks, e.g. 0,2-5 (default all)\n"
           "  --iteration=LIST          ProfilerStep numbers (default all)\n"
           "  --window=START:END        time window in ns from the trace start (units ns, us, ms, s)\n"
           "  --device=all|cpu|gpu      which events the views show\n"
           "  --control-rank=LIST, --test-rank=LIST, --control-iteration=LIST|all,\n"
           "  --test-iteration=LIST|all   the two sides of htx diff\n"
           "Analyses and output:\n"
           "  --analysis=LIST           temporal, kernels, idle, overlap, launch, queue, membw,\n"
           "                            annotations, sequences, collectives, stragglers,\n"
           "                            utilization, findings\n"
           "                            (default all)\n"
           "  --format=text|csv|json    report format (default text)\n"
           "  --num-kernels=N           top kernels per rank and type (default 10)\n"
           "  --num-candidates=N        stragglers named under --semantics=hta (default 2)\n"
           "  --annotation-stack=annotations|ops  kernels_by_annotation_stack: CPU annotations\n"
           "                            only (default), or also cpu_op and python_function\n"
           "  --duration-ratio=R        share of time the top kernels cover (default 0.8)\n"
           "  --include-memory-kernels[=yes|no], --no-include-memory-kernels\n"
           "                            memory kernels in the kernel breakdown (default yes)\n"
           "  --consecutive-kernel-delay=NS  idle gaps shorter than this are kernel wait (30us)\n"
           "  --runtime-cutoff=NS       launch stats: short runtime cut-off (50us)\n"
           "  --launch-delay-cutoff=NS  launch stats: launch delay outlier cut-off (100us)\n"
           "  --operator=NAME           operator for kernel sequences (aten::linear)\n"
           "  --comm-patterns=LIST, --memory-patterns=LIST  kernel name prefixes to classify\n"
           "  --short-names             shorten kernel names in text output and the TUI\n"
           "  --timings                 htx report: how long the load and each analysis took, on\n"
           "                            stderr\n"
           "Semantics:\n"
           "  --semantics=htx|hta       htx fixes HTA's mistakes (default); hta reproduces them\n"
           "  --include-last-step, --drop-last-step  keep or drop the last ProfilerStep\n"
           "  --align=none|collectives  shift each rank's clock by its skew, estimated from\n"
           "                            the ends of matched collectives (default none)\n"
           "Diff and counters:\n"
           "  --report                  htx diff: print the diff instead of opening the TUI\n"
           "  --fail-on-regression=PCT  htx diff --report: exit 3 when something got PCT% slower\n"
           "  --min-duration=NS         --fail-on-regression: only kernels longer than this count\n"
           "  --sort=name|delta         htx diff --report: order by name or by |change of time|\n"
           "  --top=N                   htx diff --report: only the N largest changes\n"
           "  --force                   replace an existing output file (counters, --dump-screen,\n"
           "                            summarize)\n"
           "  -o DIR, --output=DIR      htx summarize: where the summaries go (made if missing)\n"
           "  --shard=I/N|auto          htx summarize: only rank files i with i mod N = I; auto from\n"
           "                            Slurm, Open MPI or PMI (SLURM_ARRAY_TASK_ID, SLURM_PROCID, ...)\n"
           "  --jobs=N                  htx summarize: rank files summarized at once (default:\n"
           "                            --threads, the number of cores)\n"
           "  --with-events             htx summarize: keep the trace's events in the summary too, so\n"
           "                            that it answers everything without its trace (larger, and\n"
           "                            slower to make; without it, what needs the events reads the\n"
           "                            trace the summary names)\n"
           "Terminal:\n"
           "  --threads=N               loader threads (default: number of cores)\n"
           "  --no-color, --ascii, --no-mouse, --no-osc52 (y does not copy)\n"
           "  --no-cache                the TUI neither reads nor writes ~/.cache/htx (a packed\n"
           "                            copy of each trace it opens, for a fast reopen)\n"
           "  --events=auto|load|skip   on rank summaries: load their events, or answer from their\n"
           "                            tables and tiles alone (TUI auto: when the events would\n"
           "                            not fit in HTX_MAX_MEMORY; report, diff skip: refuse what\n"
           "                            needs the events)\n"
           "  --view=KEY                the TUI's first view: 1-9, R, C, i, !, d or its name\n"
           "                            (default ! when a finding passes --max-cost, else 1)\n"
           "  --script=FILE --dump-screen=OUT --size=ROWSxCOLS  UI test mode\n"
           "\n"
           "Exit status: 0 ok, 1 bad input, 2 bad usage, 3 regression (--fail-on-regression)\n"
           "or a finding beyond --max-cost (htx check).\n"
           "See htx(1).\n";
}
