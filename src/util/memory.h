#ifndef HTX_UTIL_MEMORY_H
#define HTX_UTIL_MEMORY_H

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

#endif
