/*
 * kernel/version.c - the banner, in the shape of Linux's "Linux version"
 * line.  MM86_VERSION comes from the Makefile (git describe).
 */
#include "kernel/version.h"

#ifndef MM86_VERSION
#define MM86_VERSION "unknown"
#endif

const char mm86_banner[] = "mm86 version " MM86_VERSION
			   " (gcc version " __VERSION__ ") i386";
