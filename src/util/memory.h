#ifndef HTX_UTIL_MEMORY_H
#define HTX_UTIL_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/* What the machine has and what this process uses, for the memory guard
 * (HTX_MAX_MEMORY). Both read the system, never allocate, and return 0 when
 * the figure cannot be had. */

/* Physical memory in bytes: sysconf, else MemTotal of /proc/meminfo. */
uint64_t util_physical_memory(void);

/* This process's resident set in bytes (/proc/self/statm). */
uint64_t util_resident_bytes(void);

/* The default guard: three quarters of physical memory (0 when unknown). */
uint64_t util_default_memory_limit(void);

/* From now on, blocks of 256 KiB and more are mapped on their own and given
 * back when freed. glibc otherwise raises that threshold each time such a
 * block is freed (up to 32 MiB), after which freed scratch stays resident
 * beside what is kept. The loader calls it once the files are read: the
 * model's selection then leaves nothing behind, while reading many small
 * files keeps reusing their buffers (mapping them from the start would
 * make a load of many small files much slower). */
void util_memory_map_large_blocks(void);

/* Makes util_memory_map_large_blocks do nothing from now on: for a process
 * that loads many files on several threads at once (htx summarize), where
 * mapping and unmapping each large block costs more than it saves (page
 * faults, and an unmap interrupts every thread): 2.2 s of system time
 * against 0.6-1.0 s over 512 small ranks on 2 threads. */
void util_memory_keep_heap(void);

/* Makes the whole pages of [p, p + len) resident and writable in one system
 * call: an array about to be written page by page then takes no fault per
 * page. Best effort: failures are ignored (the pages fault in as usual). */
void util_populate(void *p, size_t len);

/* malloc of n elements of size bytes (at least 1 byte), overflow-checked,
 * made resident with util_populate: for the large scratch arrays that are
 * written whole right away. NULL on overflow or out of memory.
 *
 * Its whole 2 MiB stretches are asked for as transparent huge pages: a page
 * fault costs about 5 us, and the analyses' scratch, made and freed
 * analysis after analysis, would take tens of thousands of them.
 * Only scratch, freed soon: on the model's long-lived arrays, the kernel's
 * later merging of small pages into huge ones would stall the TUI's
 * timeline frames. */
void *util_alloc_resident(size_t n, size_t size);

/* Gives the whole pages of [p, p + len), inside an allocation about to be
 * freed, back to the system at once: its contents are lost, and it is
 * never read again before free. Best effort. */
void util_release(void *p, size_t len);

/* malloc of n elements of size bytes (at least 1 byte), overflow-checked,
 * whose whole 2 MiB stretches are asked for as transparent huge pages as
 * they are first written, and not made resident: for a large array written
 * once, front to back or by several threads at once, that the model then
 * keeps. A first write to a small page costs about 10 us on a virtual
 * machine, and a later read of one not read for a while about 5 us; a huge
 * page takes neither 512 times. NULL on overflow or out of memory.
 * Call util_huge_written once it is written. */
void *util_alloc_huge(size_t n, size_t size);

/* Asks that the kernel never merge small pages of [p, p + len) into huge
 * ones later: the array util_alloc_huge gave is written, and such a merge,
 * on an array the TUI reads, would stall its frames. Best effort. */
void util_huge_written(void *p, size_t len);

#endif
