#ifndef ARCH_X86_SERIAL_H
#define ARCH_X86_SERIAL_H

/* Programs COM1 and registers it as a console. */
void serial_init(void);

#endif
