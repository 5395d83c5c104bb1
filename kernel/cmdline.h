/*
 * kernel/cmdline.h - the kernel command line and its parameters.
 *
 * Code that wants a parameter registers a handler the way Linux does:
 *
 *	static int parse_mem(const char *val) { ... }
 *	early_param("mem", parse_mem);
 *
 *	static int nosmp_setup(const char *val) { ... }
 *	__setup("nosmp", nosmp_setup);
 *
 * The name has no trailing '='.  The handler gets val == NULL for a bare
 * "nosmp", "" for "nosmp=", and the text after the first '=' otherwise
 * (with surrounding double quotes removed).  val points into a scratch
 * buffer that is valid only during the call: a handler that keeps the
 * value must copy it.  A handler returns 0 or a negative errno; a failure
 * is reported and parsing goes on with the next token.
 *
 * Boot order: cmdline_init() (copy and print the line), then
 * parse_early_params() (early_param handlers, before memory is set up),
 * then parse_late_params() (__setup handlers, then the report of names no
 * handler knows).
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include "lib/compiler.h"
#include "lib/types.h"

#define COMMAND_LINE_SIZE 2048
/* The longest single "name=value" token, NUL included. */
#define CMDLINE_PARAM_MAX 256

extern char boot_command_line[COMMAND_LINE_SIZE];

struct kernel_param {
	const char *name;
	int (*setup)(const char *val);
	bool early;
};

/*
 * Each registration is a pointer in setup_params (like ktest suites in
 * ktest_suites), so the section is a plain array of pointers whatever the
 * size and padding of struct kernel_param.
 */
#define __setup_param(str, unique_id, fn, is_early)                         \
	static const struct kernel_param __setup_##unique_id = {           \
		.name = str, .setup = fn, .early = is_early                  \
	};                                                                   \
	static const struct kernel_param *const __setup_ptr_##unique_id     \
		__section("setup_params") __used = &__setup_##unique_id

#define early_param(str, fn) __setup_param(str, fn, fn, true)
#define __setup(str, fn) __setup_param(str, fn, fn, false)

/* Defined by the linker script around KEEP(*(setup_params)). */
extern const struct kernel_param *const __start_setup_params[];
extern const struct kernel_param *const __stop_setup_params[];

/* The pass argument of parse_args(). */
#define CMDLINE_PASS_LATE 0	/* __setup handlers only */
#define CMDLINE_PASS_EARLY 1	/* early_param handlers only */
#define CMDLINE_PASS_ALL (-1)	/* both */

/*
 * Copies raw (the boot loader's line; NULL means none) into
 * boot_command_line without the leading image path, truncating an
 * over-long line at a token boundary (with a warning), and prints
 * "Command line: <line>".
 */
void cmdline_init(const char *raw);

/* Runs the early_param handlers over boot_command_line (once). */
void parse_early_params(void);

/*
 * Runs the __setup handlers over boot_command_line, then reports in one
 * line every name that no handler knows, each once.
 */
void parse_late_params(void);

/*
 * The engine.  Walks args token by token (Linux next_arg() rules: blanks
 * separate, double quotes group and are removed from the value, a bare
 * "--" ends the walk) and, for each token, calls every entry of
 * params[0..num) whose name matches (parameq) and whose pass is selected.
 * A token whose name matches no entry at all, whatever its pass, is given
 * to unknown (when not NULL); name and val are valid only during that
 * call.  A token of CMDLINE_PARAM_MAX bytes or more is rejected with a
 * message.  args is never written to.
 *
 * Returns the number of errors: handler failures and over-long tokens.
 */
int parse_args(const char *args, const struct kernel_param *const *params,
	       size_t num, int pass,
	       void (*unknown)(const char *name, const char *val, void *arg),
	       void *arg);

/* Parameter names compare with '-' and '_' as the same character. */
bool parameq(const char *a, const char *b);

/*
 * Writes the distinct names in args that match no entry of params,
 * space-separated in order of first appearance (a '-'/'_' variant of an
 * earlier name is the same name), into buf (always NUL-terminated when
 * size > 0; names that no longer fit are left out).  Returns the number
 * of distinct unknown names, including any left out.
 */
size_t cmdline_unknown_list(const char *args,
			    const struct kernel_param *const *params,
			    size_t num, char *buf, size_t size);

/*
 * The part of a boot loader's line after the boot image path: when the
 * first blank-separated word contains a '/' and no '=' it is the image
 * (QEMU -kernel passes "build/mm86.elf ...", GRUB "/boot/mm86.elf ...")
 * and the returned pointer is past it and the blanks after it; otherwise
 * raw itself is returned.
 */
const char *cmdline_skip_image(const char *raw);

/*
 * Copies src into dst[size].  When src does not fit, the copy ends at the
 * end of the last whole token that fits (trailing blanks not kept), or is
 * cut at size - 1 bytes when not even the first token fits.  *dropped
 * (when not NULL) gets the number of bytes of src not copied.  dst may
 * overlap src if dst <= src.  Returns the length copied.
 */
size_t cmdline_copy(char *dst, size_t size, const char *src, size_t *dropped);

/*
 * Finds the last occurrence of name in cmdline and copies its value into
 * buf (bounded by bufsize, always NUL-terminated when bufsize > 0).
 * Returns the value's full length (even when buf was too small for it),
 * 0 when the last occurrence has no value ("name" or "name="), or -ENOENT
 * when name does not occur.
 */
int cmdline_find_option(const char *cmdline, const char *name, char *buf,
			size_t bufsize);

/* True when cmdline holds name as a bare word (no '='). */
bool cmdline_find_option_bool(const char *cmdline, const char *name);

#endif /* KERNEL_CMDLINE_H */
