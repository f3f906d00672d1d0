// Heap statistics for `consent bench`'s memory figure. A C target because glibc declares
// mallinfo2 in <malloc.h>, which Swift's Glibc module does not import.
#ifndef CONSENTKIT_HEAP_STATISTICS_H
#define CONSENTKIT_HEAP_STATISTICS_H

/// Bytes of heap in use: allocated arena blocks (`uordblks`) plus mmapped blocks (`hblkhd`,
/// where glibc puts allocations above the mmap threshold), from glibc's `mallinfo2`.
/// -1 where the C library has no `mallinfo2` (glibc before 2.33, musl, Darwin).
long long consentkit_heap_bytes_in_use(void);

#endif
