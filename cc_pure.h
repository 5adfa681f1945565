/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one portability shim for the pure algorithm headers
 * (icc_math.h, pert_math.h, rapid_chirp.h).
 *
 * Those headers hold every decision that is arithmetic and are compiled
 * unchanged into the kernel modules and into the userspace unit tests,
 * fuzzers and trace tools.  They may only use the fixed-width types and
 * 64-bit division helpers below: no floating point, no libc, no kernel API.
 */
#ifndef CC_PURE_H
#define CC_PURE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/limits.h>
#else
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT32_TYPE__ s32;
typedef __INT64_TYPE__ s64;

#ifndef U32_MAX
#define U32_MAX ((u32)~0U)
#endif
#ifndef U64_MAX
#define U64_MAX ((u64)~0ULL)
#endif
#ifndef S64_MAX
#define S64_MAX ((s64)(U64_MAX >> 1))
#endif

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}
#endif /* __KERNEL__ */

#endif /* CC_PURE_H */
