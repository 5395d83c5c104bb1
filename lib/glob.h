/*
 * lib/glob.h - shell-style wildcard matching, as Linux's lib/glob.c.
 */
#ifndef LIB_GLOB_H
#define LIB_GLOB_H

#include "lib/types.h"

/*
 * glob_match - does the whole of str match pat?
 *
 * '*' matches any run of characters (including none and including '/'),
 * '?' any one character, "[...]" one character from a class of single
 * characters and ranges "a-z" ("[!...]" negates; a ']' right after the
 * '[' or "[!" is a literal member; a '-' first or last is literal), and
 * '\' makes the next character literal.  A '[' without its ']' is a
 * literal '['.  Nothing is special about '/' or a leading '.'.
 */
bool glob_match(const char *pat, const char *str);

#endif /* LIB_GLOB_H */
