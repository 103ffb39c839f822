/* htx-gen: writes realistic synthetic multi-rank Kineto (PyTorch profiler)
 * traces for htx's tests, samples and benchmarks. Deterministic for a seed;
 * streams its output, so a multi-GB trace needs no more memory than a small one. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "gen_coll.h"
#include "gen_model.h"
#include "gen_out.h"
#include "gen_sim.h"

#define MAX_RANKS 4096

struct opts {
    struct gen_cfg cfg;
    const char *out;
    int64_t size;             /* target uncompressed bytes per rank file, 0 = none */
    int iterations_given;
    int gzip, level, pair, stats, quiet, compact;
    int coll_mode;            /* --collectives: the job of gen_coll.h */
    struct gen_coll_cfg coll;
    unsigned char plain_rank[MAX_RANKS];
    unsigned char omit_rank[MAX_RANKS];
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: htx-gen [OPTIONS] -o DIR\n"
            "Write a synthetic PyTorch profiler (Kineto) trace of a DDP training job,\n"
            "one file per rank: DIR/rank-N.pt.trace.json.gz.\n\n"
            "  -o, --out=DIR          output directory (created if missing)\n"
            "  -r, --ranks=N          ranks in the job (default 2)\n"
            "  -i, --iterations=N     ProfilerStep iterations (default 4)\n"
            "  -l, --layers=N         transformer layers, the per-step size (default 12)\n"
            "  -s, --size=SIZE        target uncompressed size of each rank file, e.g.\n"
            "                         300K, 40M, 1G (decimal). Sets --iterations, or\n"
            "                         --layers when --iterations is also given\n"
            "      --seed=N           random seed (default 1); same seed, same bytes\n"
            "      --first-step=N     number of the first ProfilerStep#N (default 1)\n"
            "      --frac             ns-resolution timestamps (\"ts\": 3541234567890.123)\n"
            "      --origin=US        trace start in µs after baseTimeNanoseconds\n"
            "                         (default 3541234567890)\n"
            "      --plain            write .json instead of .json.gz\n"
            "      --plain-ranks=LIST write these ranks as .json (e.g. 3 or 0,2-3)\n"
            "      --level=N          gzip level 1-9 (default 6)\n"
            "      --compact          one-line JSON without spaces (\"rank\":0), as\n"
            "                         json.dump(separators=(\",\", \":\")) writes\n"
            "      --pair             write DIR/control and DIR/test: a diff pair\n"
            "      --stats            print per-rank counts as JSON lines on stdout\n"
            "      --collectives      write the simple collectives job instead (gen_coll.h):\n"
            "                         compute then a blocking NCCL collective, --per-step\n"
            "                         times per iteration, all ranks arriving together\n"
            "      --per-step=N       collectives per iteration (default 3)\n"
            "      --no-seq           collectives without \"Seq\" (match by order only)\n"
            "      --straggler=R:S:C:US  plant a straggler: rank R arrives US µs late at\n"
            "                         collective C (0-based) of ProfilerStep#S (implies\n"
            "                         --collectives)\n"
            "      --omit-ranks=LIST  write no file for these ranks (a job with ranks missing)\n"
            "      --foreign=R:KIND   rank R's file is of another job: KIND world (another\n"
            "                         world size), pg (its process group lists other\n"
            "                         ranks) or time (its trace starts a day later)\n"
            "      --bad-events=N     N malformed events in rank 0 (dropped at load)\n"
            "      --overlaps=N       N pairs of overlapping kernels on a stream of rank 0\n"
            "      --plant=LIST       the collectives job in a dense layout (nothing idle, every\n"
            "                         collective hidden) with problems planted for the findings:\n"
            "                         none, exposed, host-bound, launch-overhead, sync,\n"
            "                         pageable-copy, step-gap, slow-kernel:R,\n"
            "                         slow-collective:S:C (ProfilerStep#S, collective C),\n"
            "                         imbalance:R (implies --collectives)\n"
            "      --clock-offset=R:NS  rank R's clock is NS ns late (negative: early); a\n"
            "                         multiple of 1000 with --collectives\n"
            "      --graphs=N         N CUDA graph launches in rank 0: one cudaGraphLaunch,\n"
            "                         4 kernels with its correlation 2 ms later\n"
            "  -q, --quiet            no progress lines on stderr\n"
            "  -h, --help\n\n%s",
            gen_model_describe_pair());
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_size(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    double mult = 1;
    if (*end == 'K' || *end == 'k')
        mult = 1e3;
    else if (*end == 'M' || *end == 'm')
        mult = 1e6;
    else if (*end == 'G' || *end == 'g')
        mult = 1e9;
    if (mult != 1)
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (errno || end == s || *end || v <= 0 || v * mult > 1e13)
        return -1;
    *out = (int64_t)(v * mult);
    return 0;
}

/* "0,2-3" -> marks ranks 0, 2 and 3. */
static int parse_list(const char *s, unsigned char *mark)
{
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s || a < 0 || a >= MAX_RANKS)
            return -1;
        if (*end == '-') {
            s = end + 1;
            b = strtol(s, &end, 10);
            if (end == s || b < a || b >= MAX_RANKS)
                return -1;
        }
        for (long r = a; r <= b; r++)
            mark[r] = 1;
        if (*end != ',' && *end)
            return -1;
        s = *end ? end + 1 : end;
    }
    return 0;
}

enum {
    O_SEED = 256, O_FIRST, O_FRAC, O_ORIGIN, O_PLAIN, O_PLAIN_RANKS, O_LEVEL, O_PAIR,
    O_STATS, O_COMPACT, O_COLL, O_PER_STEP, O_NO_SEQ, O_STRAGGLER,
    O_OMIT, O_FOREIGN, O_BAD, O_OVERLAPS, O_PLANT, O_GRAPHS, O_CLOCK,
};

static const struct option LONGOPTS[] = {
    {"out", required_argument, NULL, 'o'},      {"ranks", required_argument, NULL, 'r'},
    {"iterations", required_argument, NULL, 'i'}, {"layers", required_argument, NULL, 'l'},
    {"size", required_argument, NULL, 's'},     {"seed", required_argument, NULL, O_SEED},
    {"first-step", required_argument, NULL, O_FIRST}, {"frac", no_argument, NULL, O_FRAC},
    {"origin", required_argument, NULL, O_ORIGIN}, {"plain", no_argument, NULL, O_PLAIN},
    {"plain-ranks", required_argument, NULL, O_PLAIN_RANKS},
    {"level", required_argument, NULL, O_LEVEL}, {"pair", no_argument, NULL, O_PAIR},
    {"stats", no_argument, NULL, O_STATS},
    {"collectives", no_argument, NULL, O_COLL}, {"per-step", required_argument, NULL, O_PER_STEP},
    {"no-seq", no_argument, NULL, O_NO_SEQ}, {"straggler", required_argument, NULL, O_STRAGGLER},      {"compact", no_argument, NULL, O_COMPACT},      {"quiet", no_argument, NULL, 'q'},
    {"omit-ranks", required_argument, NULL, O_OMIT},
    {"foreign", required_argument, NULL, O_FOREIGN},
    {"bad-events", required_argument, NULL, O_BAD},
    {"overlaps", required_argument, NULL, O_OVERLAPS},
    {"plant", required_argument, NULL, O_PLANT},
    {"graphs", required_argument, NULL, O_GRAPHS},
    {"clock-offset", required_argument, NULL, O_CLOCK},
    {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
};

/* --plant=LIST (gen_coll.h, enum gen_plant): none, exposed, host-bound,
 * launch-overhead, sync, pageable-copy, step-gap, slow-kernel:R,
 * slow-collective:S:C, imbalance:R. */
static int parse_plant(const char *arg, struct gen_coll_cfg *c)
{
    static const struct {
        const char *name;
        unsigned bit;
    } kinds[] = {
        {"none", 0}, {"exposed", GEN_PLANT_EXPOSED}, {"host-bound", GEN_PLANT_HOST_BOUND},
        {"launch-overhead", GEN_PLANT_LAUNCH}, {"sync", GEN_PLANT_SYNC},
        {"pageable-copy", GEN_PLANT_PAGEABLE}, {"step-gap", GEN_PLANT_STEP_GAP},
    };
    char buf[256];
    if (strlen(arg) >= sizeof buf)
        return -1;
    strcpy(buf, arg);
    c->plant |= GEN_PLANT_DENSE;
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        int a, b;
        char tail;
        size_t k = 0;
        for (; k < sizeof kinds / sizeof kinds[0] && strcmp(w, kinds[k].name) != 0; k++)
            ;
        if (k < sizeof kinds / sizeof kinds[0])
            c->plant |= kinds[k].bit;
        else if (sscanf(w, "slow-kernel:%d%c", &a, &tail) == 1 && a >= 0 && a < MAX_RANKS)
            c->plant |= GEN_PLANT_SLOW_KERNEL, c->slow_rank = a;
        else if (sscanf(w, "imbalance:%d%c", &a, &tail) == 1 && a >= 0 && a < MAX_RANKS)
            c->plant |= GEN_PLANT_IMBALANCE, c->imbalance_rank = a;
        else if (sscanf(w, "slow-collective:%d:%d%c", &a, &b, &tail) == 2 && a >= 0 && b >= 0)
            c->plant |= GEN_PLANT_SLOW_COLLECTIVE, c->slow_step = a, c->slow_coll = b;
        else
            return -1;
    }
    return 0;
}

static int set_int(const char *arg, long lo, long hi, int *dst)
{
    long v;
    if (parse_int(arg, lo, hi, &v) != 0)
        return -1;
    *dst = (int)v;
    return 0;
}

static int set_flag(int *dst, int value)
{
    *dst = value;
    return 0;
}

/* Applies one option; returns 0, or -1 on a bad value. */
static int apply(struct opts *o, int c, const char *arg)
{
    struct gen_cfg *g = &o->cfg;
    long v;
    switch (c) {
    case 'o':
        o->out = arg;
        return 0;
    case 'r':
        return set_int(arg, 1, MAX_RANKS, &g->world);
    case 'i':
        o->iterations_given = 1;
        return set_int(arg, 1, 1000000, &g->iterations);
    case 'l':
        return set_int(arg, 1, 1000000, &g->layers);
    case 's':
        return parse_size(arg, &o->size);
    case O_SEED:
        if (parse_int(arg, 0, 2147483647, &v) != 0)
            return -1;
        g->seed = (uint64_t)v;
        return 0;
    case O_FIRST:
        return set_int(arg, 0, 100000000, &g->first_step);
    case O_ORIGIN:
        if (parse_int(arg, 0, 4000000000000000L, &v) != 0)
            return -1;
        g->origin_us = v;
        return 0;
    case O_PLAIN_RANKS:
        return parse_list(arg, o->plain_rank);
    case O_LEVEL:
        return set_int(arg, 1, 9, &o->level);
    case O_FRAC:
        return set_flag(&g->frac, 1);
    case O_PLAIN:
        return set_flag(&o->gzip, 0);
    case O_PAIR:
        return set_flag(&o->pair, 1);
    case O_STATS:
        return set_flag(&o->stats, 1);
    case O_COMPACT:
        return set_flag(&o->compact, 1);
    case 'q':
        return set_flag(&o->quiet, 1);
    case O_COLL:
        return set_flag(&o->coll_mode, 1);
    case O_PER_STEP:
        return set_int(arg, 1, 100000, &o->coll.per_step);
    case O_NO_SEQ:
        return set_flag(&o->coll.seq, 0);
    case O_OMIT:
        return parse_list(arg, o->omit_rank);
    case O_BAD:
        return set_int(arg, 0, 1000000, &g->bad_events);
    case O_OVERLAPS:
        return set_int(arg, 0, 1000000, &g->overlaps);
    case O_GRAPHS:
        return set_int(arg, 0, 1000, &g->graphs);
    case O_CLOCK: {
        int r;
        long long ns;
        char tail;
        if (sscanf(arg, "%d:%lld%c", &r, &ns, &tail) != 2 || r < 0 || r >= MAX_RANKS ||
            ns < -3600000000000LL || ns > 3600000000000LL)
            return -1;
        g->clock_rank = r;
        g->clock_offset_ns = ns;
        return 0;
    }
    case O_FOREIGN: {
        static const char *const kinds[] = {"world", "pg", "time"};
        char kind[16];
        int r;
        if (sscanf(arg, "%d:%15s", &r, kind) != 2 || r < 0 || r >= MAX_RANKS)
            return -1;
        for (int k = 0; k < 3; k++)
            if (strcmp(kind, kinds[k]) == 0) {
                g->foreign = r;
                g->foreign_kind = GEN_FOREIGN_WORLD + k;
                return 0;
            }
        return -1;
    }
    case O_PLANT:
        o->coll_mode = 1;
        return parse_plant(arg, &o->coll);
    case O_STRAGGLER: {
        int r, s, k;
        long long us;
        char tail;
        if (sscanf(arg, "%d:%d:%d:%lld%c", &r, &s, &k, &us, &tail) != 4 || r < 0 ||
            r >= MAX_RANKS || s < 0 || k < 0 || us < 1 || us > 1000000000LL)
            return -1;
        o->coll.straggler = r;
        o->coll.step = s;
        o->coll.coll = k;
        o->coll.delay_us = us;
        o->coll_mode = 1;
        return 0;
    }
    default:
        return -1;
    }
}

static int parse_args(struct opts *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->cfg = (struct gen_cfg){.seed = 1, .world = 2, .iterations = 4, .first_step = 1,
                              .layers = 12, .bucket_layers = 4,
                              .origin_us = 3541234567890LL, .foreign = -1, .clock_rank = -1,
                              .base_ns = 1700000000000000000LL};
    o->gzip = 1;
    o->level = 6;
    o->coll = (struct gen_coll_cfg){.per_step = 3, .seq = 1, .straggler = -1};
    int c;
    while ((c = getopt_long(argc, argv, "o:r:i:l:s:qh", LONGOPTS, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            exit(0);
        }
        if (c == '?' || apply(o, c, optarg) != 0) {
            if (c != '?')
                fprintf(stderr, "htx-gen: bad value for option: %s\n", argv[optind - 1]);
            fprintf(stderr, "Try 'htx-gen --help'.\n");
            return -1;
        }
    }
    if (o->coll_mode && o->cfg.clock_offset_ns % 1000 != 0) {
        fprintf(stderr, "htx-gen: --clock-offset with --collectives: whole microseconds\n");
        return -1;
    }
    if (o->coll_mode && o->coll.straggler >= o->cfg.world) {
        fprintf(stderr, "htx-gen: --straggler rank %d is not below --ranks %d\n",
                o->coll.straggler, o->cfg.world);
        return -1;
    }
    if (!o->out || optind != argc) {
        fprintf(stderr, "htx-gen: %s\nTry 'htx-gen --help'.\n",
                o->out ? "unexpected argument" : "-o DIR is required");
        return -1;
    }
    return 0;
}

static uint64_t count_bytes(const struct gen_cfg *cfg, int compact)
{
    struct gen_out o;
    struct gen_stats st;
    gen_out_open(&o, NULL, 0, 0);
    gen_out_set_compact(&o, compact);
    gen_sim_rank(cfg, 0, &o, "rank-0.pt.trace.json", &st);
    gen_out_close(&o);
    return o.total;
}

/* The value of `*knob` that makes a rank file about `size` bytes. The size is
 * close to linear in both knobs, so two dry runs find the slope. */
static int fit_knob(const struct opts *o, struct gen_cfg *c, int *knob)
{
    int lo = 1, hi = 5;
    *knob = lo;
    double b_lo = (double)count_bytes(c, o->compact);
    *knob = hi;
    double slope = ((double)count_bytes(c, o->compact) - b_lo) / (hi - lo);
    double x = lo + ((double)o->size - b_lo) / slope;
    return x < 1 ? 1 : x > 1e6 ? 1000000 : (int)(x + 0.5);
}

/* Sets iterations from --size (then refines layers, since one iteration is a
 * coarse step for small files), or layers when --iterations was given.
 * Writes only the knobs of o->cfg. */
static void fit_size(struct opts *o)
{
    struct gen_cfg c = o->cfg;
    if (!o->iterations_given) {
        o->cfg.iterations = fit_knob(o, &c, &c.iterations);
        c = o->cfg;
    }
    o->cfg.layers = fit_knob(o, &c, &c.layers);
}

static int mkdir_p(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return -1;
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

static void print_stats(const char *path, const struct gen_cfg *cfg, int rank,
                        uint64_t bytes, const struct gen_stats *st)
{
    printf("{\"path\": \"%s\", \"rank\": %d, \"world_size\": %d, \"bytes\": %llu, "
           "\"events\": %lld, \"kernels\": %lld, \"memcpy\": %lld, \"memset\": %lld, "
           "\"cpu_ops\": %lld, \"runtime\": %lld, \"user_annotations\": %lld, "
           "\"gpu_user_annotations\": %lld, \"python_functions\": %lld, \"cuda_sync\": %lld, "
           "\"flows\": %lld, \"metadata\": %lld, \"streams\": [",
           path, rank, cfg->world, (unsigned long long)bytes, (long long)st->events,
           (long long)st->kernels, (long long)st->memcpy, (long long)st->memset,
           (long long)st->cpu_ops, (long long)st->runtime, (long long)st->user_annotations,
           (long long)st->gpu_user_annotations, (long long)st->python_functions,
           (long long)st->cuda_sync, (long long)st->flows, (long long)st->metadata);
    const char *sep = "";
    for (int k = 0; k < GS_COUNT; k++) {
        if (st->streams[k]) {
            printf("%s%d", sep, st->streams[k]);
            sep = ", ";
        }
    }
    printf("], \"iterations\": [");
    for (int64_t i = 0; i < st->steps; i++)
        printf(i ? ", %lld" : "%lld", (long long)(st->first_step + i));
    printf("], \"start_ns\": %lld, \"end_ns\": %lld}\n", (long long)st->start_ns,
           (long long)st->end_ns);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes every rank of one job into `dir`; returns the JSON bytes written or -1. */
static int64_t write_job(const struct opts *o, const struct gen_cfg *cfg, const char *dir)
{
    int64_t total = 0;
    if (mkdir_p(dir) != 0) {
        fprintf(stderr, "htx-gen: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    for (int rank = 0; rank < cfg->world; rank++) {
        if (o->omit_rank[rank])
            continue;
        int gz = o->gzip && !o->plain_rank[rank];
        char path[4200];
        snprintf(path, sizeof path, "%s/rank-%d.pt.trace.json%s", dir, rank, gz ? ".gz" : "");
        struct gen_out out;
        struct gen_stats st;
        if (gen_out_open(&out, path, gz, o->level) != 0) {
            fprintf(stderr, "htx-gen: %s: %s\n", path, strerror(errno));
            return -1;
        }
        gen_out_set_compact(&out, o->compact);
        memset(&st, 0, sizeof st);
        if (o->coll_mode) {
            struct gen_coll_cfg cc = o->coll;
            cc.world = cfg->world;
            cc.iterations = cfg->iterations;
            cc.first_step = cfg->first_step;
            cc.clock_rank = cfg->clock_rank;
            cc.clock_offset_us = cfg->clock_offset_ns / 1000;
            gen_coll_rank(&cc, rank, &out);
        } else {
            gen_sim_rank(cfg, rank, &out, strrchr(path, '/') + 1, &st);
        }
        if (o->compact) {   /* one line, ending like a text file */
            gen_out_set_compact(&out, 0);
            gen_out_str(&out, "\n");
        }
        uint64_t bytes = out.total;
        if (gen_out_close(&out) != 0) {
            fprintf(stderr, "htx-gen: %s: write failed: %s\n", path, strerror(errno));
            return -1;
        }
        if (o->stats)
            print_stats(path, cfg, rank, bytes, &st);
        if (!o->quiet)
            fprintf(stderr, "htx-gen: %s: %.1f MB JSON, %lld events\n", path,
                    (double)bytes / 1e6, (long long)st.events);
        total += (int64_t)bytes;
    }
    return total;
}

int main(int argc, char **argv)
{
    struct opts o;
    if (parse_args(&o, argc, argv) != 0)
        return 2;
    if (o.size)
        fit_size(&o);
    double t0 = now_s();
    int64_t total = 0;
    for (int half = 0; half < (o.pair ? 2 : 1); half++) {
        char dir[4096];
        struct gen_cfg cfg = o.cfg;
        cfg.test = half;
        if (o.pair)
            snprintf(dir, sizeof dir, "%s/%s", o.out, half ? "test" : "control");
        else
            snprintf(dir, sizeof dir, "%s", o.out);
        int64_t n = write_job(&o, &cfg, dir);
        if (n < 0)
            return 1;
        total += n;
    }
    double dt = now_s() - t0;
    if (!o.quiet)
        fprintf(stderr, "htx-gen: %d rank(s) x %d iteration(s) x %d layer(s): %.1f MB in %.2f s"
                " (%.0f MB/s)\n", o.cfg.world, o.cfg.iterations, o.cfg.layers,
                (double)total / 1e6, dt, dt > 0 ? (double)total / 1e6 / dt : 0.0);
    return 0;
}
