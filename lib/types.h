/*
 * lib/types.h - the fixed-width types every file of mm86 speaks in.
 *
 * The kernel is built -ffreestanding, so the compiler's own <stdint.h>,
 * <stddef.h>, <stdbool.h> and <stdarg.h> are available and are the only
 * headers taken from outside the tree.  Physical addresses are 64-bit
 * everywhere (phys_addr_t): RAM above 4 GiB exists in the firmware map even
 * though this build cannot address it, and it must be reported, not
 * truncated.
 */
#ifndef LIB_TYPES_H
#define LIB_TYPES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

typedef u64 phys_addr_t;
typedef unsigned int gfp_t;

#endif /* LIB_TYPES_H */
