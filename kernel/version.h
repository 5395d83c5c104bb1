#ifndef KERNEL_VERSION_H
#define KERNEL_VERSION_H

/* "mm86 version ..." with the compiler and build, from kernel/version.c. */
extern const char mm86_banner[];

#endif
