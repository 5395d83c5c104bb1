/*
 * kernel/cmdline.c - the kernel command line: copy, tokenise, dispatch.
 *
 * The line is split exactly as Linux's next_arg() does it: blanks separate
 * tokens; a '"' toggles quoting, and blanks inside quotes do not separate;
 * a token starting with '"' loses that quote and its trailing one; a value
 * starting with '"' loses that quote and the token's trailing one; the
 * first '=' (not at the token's first byte) splits name from value.  An
 * unterminated quote runs to the end of the line.
 *
 * Invariants:
 *  - Nothing here writes to the line being parsed: every token is copied
 *    into a CMDLINE_PARAM_MAX buffer on the stack and split there, so the
 *    same line can be walked by the early pass, the late pass and the
 *    unknown-name report, and handlers never see each other's edits.
 *  - A token of CMDLINE_PARAM_MAX bytes or more (counted as it appears on
 *    the line, quotes included) is never handed to anyone: it is reported
 *    and counted as an error, and the walk resumes after it.
 *  - The walk is the same in every function, so parse_args(),
 *    cmdline_unknown_list() and cmdline_find_option() always agree on what
 *    the tokens are.
 */
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/string.h"

char boot_command_line[COMMAND_LINE_SIZE];

/* Set once the early pass has reported the over-long tokens. */
static bool early_params_done;

static bool is_blank(char c)
{
	return isspace((unsigned char)c);
}

static const char *skip_blanks(const char *s)
{
	while (is_blank(*s))
		s++;
	return s;
}

/*
 * The extent of the token at s (s not at a blank): where it ends on the
 * line, following next_arg()'s quoting.  *equals gets the offset (from
 * the first byte after a leading quote) of the first '=' past that byte,
 * 0 for none.
 */
static const char *token_end(const char *s, size_t *equals)
{
	bool in_quote = false;
	size_t i, eq = 0;

	if (*s == '"') {
		s++;
		in_quote = true;
	}
	for (i = 0; s[i]; i++) {
		if (is_blank(s[i]) && !in_quote)
			break;
		/* Like next_arg(), an '=' at offset 0 does not count. */
		if (eq == 0 && s[i] == '=')
			eq = i;
		if (s[i] == '"')
			in_quote = !in_quote;
	}
	if (equals)
		*equals = eq;
	return s + i;
}

struct cmdline_token {
	const char *start;	/* on the line */
	size_t len;		/* on the line, quotes included */
	char *param;		/* in buf; NULL when the token is too long */
	char *val;		/* in buf; NULL when the token has no '=' */
	char buf[CMDLINE_PARAM_MAX];
};

/*
 * Splits the token at s (s not at a blank, not at the end) into tok and
 * returns where the next token starts (blanks skipped).
 */
static const char *next_token(const char *s, struct cmdline_token *tok)
{
	bool quoted = *s == '"';
	const char *body = s + quoted;
	const char *end;
	size_t equals, i;
	char *buf = tok->buf;

	end = token_end(s, &equals);
	tok->start = s;
	tok->len = end - s;
	tok->param = NULL;
	tok->val = NULL;
	if (tok->len > CMDLINE_PARAM_MAX - 1)
		return skip_blanks(end);

	i = end - body;
	memcpy(buf, body, i);
	buf[i] = '\0';
	tok->param = buf;
	if (equals) {
		buf[equals] = '\0';
		tok->val = buf + equals + 1;
		/* Don't include quotes in the value. */
		if (*tok->val == '"') {
			tok->val++;
			if (buf[i - 1] == '"')
				buf[i - 1] = '\0';
		}
	}
	if (quoted && i > 0 && buf[i - 1] == '"')
		buf[i - 1] = '\0';
	return skip_blanks(end);
}

/* A bare "--" ends the kernel's part of the line (Linux gives the rest to
 * init; mm86 has none, so it is ignored). */
static bool is_end_marker(const struct cmdline_token *tok)
{
	return tok->param && !tok->val && strcmp(tok->param, "--") == 0;
}

static char dash2underscore(char c)
{
	return c == '-' ? '_' : c;
}

bool parameq(const char *a, const char *b)
{
	for (;; a++, b++) {
		if (dash2underscore(*a) != dash2underscore(*b))
			return false;
		if (!*a)
			return true;
	}
}

static bool table_knows(const struct kernel_param *const *params, size_t num,
			const char *name)
{
	size_t i;

	for (i = 0; i < num; i++)
		if (params[i] && params[i]->name &&
		    parameq(name, params[i]->name))
			return true;
	return false;
}

static void report_too_long(const struct cmdline_token *tok)
{
	pr_warn("cmdline: parameter '%.16s...' too long (%zu bytes, max %d), ignored\n",
		tok->start, tok->len, CMDLINE_PARAM_MAX - 1);
}

static bool pass_selects(int pass, const struct kernel_param *p)
{
	if (pass == CMDLINE_PASS_EARLY)
		return p->early;
	if (pass == CMDLINE_PASS_LATE)
		return !p->early;
	return true;
}

static int __parse_args(const char *args,
			const struct kernel_param *const *params, size_t num,
			int pass,
			void (*unknown)(const char *, const char *, void *),
			void *arg, bool report_long)
{
	struct cmdline_token tok;
	int errors = 0;

	if (!args)
		return 0;
	args = skip_blanks(args);
	while (*args) {
		bool known = false;
		size_t i;
		int ret;

		args = next_token(args, &tok);
		if (!tok.param) {
			if (report_long)
				report_too_long(&tok);
			errors++;
			continue;
		}
		if (is_end_marker(&tok))
			break;
		/* An empty name ('""') can match nothing and names nothing. */
		if (!tok.param[0])
			continue;

		for (i = 0; i < num; i++) {
			const struct kernel_param *p = params[i];

			if (!p || !p->name || !parameq(tok.param, p->name))
				continue;
			known = true;
			if (!pass_selects(pass, p) || !p->setup)
				continue;
			ret = p->setup(tok.val);
			if (!ret)
				continue;
			errors++;
			if (p->early)
				pr_warn("Malformed early option '%s'\n",
					tok.param);
			else
				pr_err("cmdline: '%s' invalid for parameter '%s'\n",
				       tok.val ? tok.val : "", tok.param);
		}
		if (!known && unknown)
			unknown(tok.param, tok.val, arg);
	}
	return errors;
}

int parse_args(const char *args, const struct kernel_param *const *params,
	       size_t num, int pass,
	       void (*unknown)(const char *name, const char *val, void *arg),
	       void *arg)
{
	return __parse_args(args, params, num, pass, unknown, arg, true);
}

/* Whether the space-separated list in buf holds name (as parameq()). */
static bool listed(const char *buf, const char *name)
{
	const char *p = buf, *q;

	while (*p) {
		for (q = name; *p && *p != ' ' && *q; p++, q++)
			if (dash2underscore(*p) != dash2underscore(*q))
				break;
		if ((!*p || *p == ' ') && !*q)
			return true;
		while (*p && *p != ' ')
			p++;
		if (*p)
			p++;
	}
	return false;
}

/*
 * Whether a token before the one at stop has a name equal to name.  While
 * the output holds every unknown name so far, none with a space (a quoted
 * name may have one), it is searched; after that (walk), the line is
 * walked again from the start, so that de-duplication still works when
 * the output was cut short.  (The boot's
 * list is as long as the line: it never needs the walk, which would make
 * a line of a thousand one-letter names cost a million token splits.)
 */
static bool seen_before(const char *args, const char *stop, const char *name,
			const char *buf, bool walk)
{
	struct cmdline_token tok;

	if (!walk)
		return listed(buf, name);
	args = skip_blanks(args);
	while (*args && args < stop) {
		args = next_token(args, &tok);
		if (tok.param && parameq(tok.param, name))
			return true;
	}
	return false;
}

size_t cmdline_unknown_list(const char *args,
			    const struct kernel_param *const *params,
			    size_t num, char *buf, size_t size)
{
	struct cmdline_token tok;
	const char *line = args;
	size_t count = 0, len = 0;
	bool full = !size;	/* a name was left out of buf */
	bool walk = full;	/* buf cannot answer seen_before() */

	if (size)
		buf[0] = '\0';
	if (!args)
		return 0;
	args = skip_blanks(args);
	while (*args) {
		const char *here = args;
		size_t n;

		args = next_token(args, &tok);
		if (!tok.param)
			continue;
		if (is_end_marker(&tok))
			break;
		if (!tok.param[0] || table_knows(params, num, tok.param) ||
		    seen_before(line, here, tok.param, buf, walk))
			continue;
		count++;
		if (full)
			continue;
		/* Keep the list a prefix: once a name is left out, stop. */
		n = strlen(tok.param);
		if (len + (len ? 1 : 0) + n + 1 > size) {
			full = walk = true;
			continue;
		}
		if (strchr(tok.param, ' '))
			walk = true;
		if (len)
			buf[len++] = ' ';
		memcpy(buf + len, tok.param, n + 1);
		len += n;
	}
	return count;
}

const char *cmdline_skip_image(const char *raw)
{
	const char *p, *q;
	bool slash = false;

	if (!raw)
		return "";
	p = skip_blanks(raw);
	for (q = p; *q && !is_blank(*q); q++) {
		if (*q == '=')
			return raw;
		if (*q == '/')
			slash = true;
	}
	if (!slash)
		return raw;
	return skip_blanks(q);
}

size_t cmdline_copy(char *dst, size_t size, const char *src, size_t *dropped)
{
	size_t len = strlen(src), keep;

	if (!size) {
		if (dropped)
			*dropped = len;
		return 0;
	}
	if (len <= size - 1) {
		keep = len;
	} else {
		const char *limit = src + size - 1;
		const char *p = src, *end;

		keep = 0;
		for (;;) {
			p = skip_blanks(p);
			if (!*p)
				break;
			end = token_end(p, NULL);
			if (end > limit)
				break;
			keep = end - src;
			p = end;
		}
		/* Not even one whole token fits: cut it. */
		if (!keep)
			keep = size - 1;
	}
	memmove(dst, src, keep);
	dst[keep] = '\0';
	if (dropped)
		*dropped = len - keep;
	return keep;
}

void cmdline_init(const char *raw)
{
	size_t dropped;

	cmdline_copy(boot_command_line, COMMAND_LINE_SIZE,
		     cmdline_skip_image(raw), &dropped);
	if (dropped)
		pr_warn("cmdline: command line too long (max %d bytes), truncated: %zu bytes dropped\n",
			COMMAND_LINE_SIZE - 1, dropped);
	pr_notice("Command line: %s\n", boot_command_line);
}

static size_t nr_setup_params(void)
{
	return __stop_setup_params - __start_setup_params;
}

void parse_early_params(void)
{
	if (early_params_done)
		return;
	__parse_args(boot_command_line, __start_setup_params,
		     nr_setup_params(), CMDLINE_PASS_EARLY, NULL, NULL, true);
	early_params_done = true;
}

/* Static: a full line of unknown names is too big for the boot stack. */
static char unknown_names[COMMAND_LINE_SIZE];

void parse_late_params(void)
{
	size_t num = nr_setup_params();

	/* The early pass already reported the over-long tokens. */
	__parse_args(boot_command_line, __start_setup_params, num,
		     CMDLINE_PASS_LATE, NULL, NULL, !early_params_done);
	if (cmdline_unknown_list(boot_command_line, __start_setup_params, num,
				 unknown_names, sizeof(unknown_names)))
		pr_notice("Unknown kernel command line parameters \"%s\", ignored.\n",
			  unknown_names);
}

int cmdline_find_option(const char *cmdline, const char *name, char *buf,
			size_t bufsize)
{
	struct cmdline_token tok;
	int ret = -ENOENT;

	if (bufsize)
		buf[0] = '\0';
	if (!cmdline)
		return ret;
	cmdline = skip_blanks(cmdline);
	while (*cmdline) {
		size_t n;

		cmdline = next_token(cmdline, &tok);
		if (!tok.param)
			continue;
		if (is_end_marker(&tok))
			break;
		if (!parameq(tok.param, name))
			continue;
		n = tok.val ? strlen(tok.val) : 0;
		ret = n;
		if (bufsize) {
			n = min(n, bufsize - 1);
			memcpy(buf, tok.val ? tok.val : "", n);
			buf[n] = '\0';
		}
	}
	return ret;
}

bool cmdline_find_option_bool(const char *cmdline, const char *name)
{
	struct cmdline_token tok;

	if (!cmdline)
		return false;
	cmdline = skip_blanks(cmdline);
	while (*cmdline) {
		cmdline = next_token(cmdline, &tok);
		if (!tok.param)
			continue;
		if (is_end_marker(&tok))
			break;
		if (!tok.val && parameq(tok.param, name))
			return true;
	}
	return false;
}
