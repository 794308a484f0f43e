/* Bit tricks the core needs, behind one header: gcc and clang have them as
 * builtins, MSVC as intrinsics; nothing else in the core names a compiler. */
#ifndef AL0_BITS_H
#define AL0_BITS_H

#include <stdint.h>

typedef uint64_t Bitboard;

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static inline int lsb(Bitboard b) { unsigned long i; _BitScanForward64(&i, b); return (int)i; }
static inline int msb(Bitboard b) { unsigned long i; _BitScanReverse64(&i, b); return (int)i; }
static inline int popcount(Bitboard b) { return (int)__popcnt64(b); }
/* A hint only: left out where the intrinsic may be missing (ARM64). */
static inline void prefetch(const void *address) { (void)address; }
#else
/* The lowest and highest set square of a non-empty bitboard. */
static inline int lsb(Bitboard b) { return __builtin_ctzll(b); }
static inline int msb(Bitboard b) { return 63 - __builtin_clzll(b); }
static inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
/* Asks for the cache line of `address` ahead of its read. */
static inline void prefetch(const void *address) { __builtin_prefetch(address); }
#endif

#define BB(square) ((Bitboard)1 << (square))

#endif
