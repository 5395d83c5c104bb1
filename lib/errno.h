/*
 * lib/errno.h - error numbers, with the values Linux uses on x86.
 *
 * Kernel functions return them negated (-ENOMEM).  The numbers are Linux's
 * so that a message like "error -12" reads the same as on a real system, and
 * so that a host build that also sees libc's <errno.h> gets identical
 * (hence harmless) redefinitions.
 */
#ifndef LIB_ERRNO_H
#define LIB_ERRNO_H

#define EPERM 1		/* Operation not permitted */
#define ENOENT 2	/* No such file or directory */
#define EINTR 4		/* Interrupted system call */
#define EIO 5		/* I/O error */
#define E2BIG 7		/* Argument list too long */
#define ENOMEM 12	/* Out of memory */
#define EFAULT 14	/* Bad address */
#define EBUSY 16	/* Device or resource busy */
#define EEXIST 17	/* File exists */
#define EINVAL 22	/* Invalid argument */
#define ENOSPC 28	/* No space left on device */
#define ERANGE 34	/* Math result not representable */
#define ENOSYS 38	/* Invalid system call number */
#define EOVERFLOW 75	/* Value too large for defined data type */

#endif /* LIB_ERRNO_H */
