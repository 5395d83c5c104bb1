/*
 * lib/err.h - an error number in a pointer, as Linux returns them: the
 * top page of the address space is never a valid object, so -4095..-1
 * cast to a pointer can carry an errno back through a pointer result.
 */
#ifndef LIB_ERR_H
#define LIB_ERR_H

#include "lib/compiler.h"

#define MAX_ERRNO 4095

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return unlikely((unsigned long)ptr >= (unsigned long)-MAX_ERRNO);
}

#endif /* LIB_ERR_H */
