#include "config.h"
#include "util/memory.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads a small /proc file into buf (NUL-terminated); false on failure.
 * read(2), not stdio: no allocation, safe from any thread. */
static bool read_small(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    return true;
}

uint64_t util_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        return (uint64_t)pages * (uint64_t)page;
    char buf[4096];
    if (!read_small("/proc/meminfo", buf, sizeof buf))
        return 0;
    const char *p = strstr(buf, "MemTotal:");
    return p ? strtoull(p + 9, NULL, 10) * 1024u : 0;   /* in kB */
}

uint64_t util_resident_bytes(void)
{
    char buf[256];
    if (!read_small("/proc/self/statm", buf, sizeof buf))
        return 0;
    char *p = buf;
    strtoull(p, &p, 10);                        /* size */
    unsigned long long resident = strtoull(p, NULL, 10);
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? resident * (uint64_t)page : 0;
}

uint64_t util_default_memory_limit(void)
{
    return util_physical_memory() / 4 * 3;
}

static atomic_bool keep_heap;

void util_memory_map_large_blocks(void)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    if (!atomic_load(&keep_heap))
        (void)mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
}

void util_memory_keep_heap(void)
{
    atomic_store(&keep_heap, true);
}

/* madvise(advice) over the whole `unit`-aligned stretches of [p, p + len)
 * (unit a power of two). Best effort. */
static void advise_whole(void *p, size_t len, uintptr_t unit, int advice)
{
    uintptr_t from = ((uintptr_t)p + unit - 1) & ~(unit - 1), to = ((uintptr_t)p + len) & ~(unit - 1);
    if (to > from)
        (void)madvise((void *)from, to - from, advice);
}

void util_populate(void *p, size_t len)
{
#if defined(MADV_POPULATE_WRITE)
    advise_whole(p, len, (uintptr_t)sysconf(_SC_PAGESIZE), MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)len;
#endif
}

void util_release(void *p, size_t len)
{
#if defined(MADV_DONTNEED)
    advise_whole(p, len, (uintptr_t)sysconf(_SC_PAGESIZE), MADV_DONTNEED);
#else
    (void)p;
    (void)len;
#endif
}

/* Asks for huge pages over the whole 2 MiB stretches of [p, p + len). */
static void advise_huge(void *p, size_t len)
{
#if defined(MADV_HUGEPAGE)
    advise_whole(p, len, (uintptr_t)2 << 20, MADV_HUGEPAGE);
#else
    (void)p;
    (void)len;
#endif
}

void *util_alloc_huge(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t bytes = n * size;
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (p)
        advise_huge(p, bytes);
    return p;
}

void util_huge_written(void *p, size_t len)
{
#if defined(MADV_NOHUGEPAGE)
    advise_whole(p, len, (uintptr_t)2 << 20, MADV_NOHUGEPAGE);
#else
    (void)p;
    (void)len;
#endif
}

void *util_alloc_resident(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t bytes = n * size;
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (p) {
        advise_huge(p, bytes);
        util_populate(p, bytes);
    }
    return p;
}
