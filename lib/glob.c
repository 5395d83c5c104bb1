/*
 * lib/glob.c - glob_match(), iterative, with single-point backtracking.
 *
 * Walking pattern and string together, the only choice point is how much
 * a '*' swallows.  Remembering just the most recent '*' is enough: if the
 * rest fails, let that star eat one more character and retry; an earlier
 * star never needs to be revisited because the later one can absorb
 * anything the earlier one could have.  Time is O(|pat| * |str|) in the
 * worst case, with no recursion and no allocation.
 *
 * Characters compare as unsigned char; a character class never matches
 * the end of the string.
 */
#include "lib/glob.h"

/*
 * Matches c against the class starting just after '['.  Returns a pointer
 * just past the closing ']' and sets *matched, or returns NULL when the
 * class is unterminated (then the '[' is an ordinary character).
 */
static const char *match_class(const char *pat, unsigned char c,
			       bool *matched)
{
	bool inverted = *pat == '!';
	bool match = false;
	const char *p = pat + inverted;
	unsigned char lo = *p++;

	/* The first member may be ']' itself. */
	do {
		unsigned char hi = lo;

		if (lo == '\0')
			return NULL;
		if (p[0] == '-' && p[1] != ']') {
			hi = p[1];
			if (hi == '\0')
				return NULL;
			p += 2;
		}
		if (lo <= c && c <= hi)
			match = true;
		lo = *p++;
	} while (lo != ']');

	*matched = match != inverted;
	return p;
}

bool glob_match(const char *pat, const char *str)
{
	const char *back_pat = NULL, *back_str = NULL;

	for (;;) {
		unsigned char c = *str;
		unsigned char d = *pat;
		const char *next_pat = pat + 1;
		bool ok;

		switch (d) {
		case '*':
			if (*next_pat == '\0')
				return true;	/* a trailing star: the rest */
			/* Try the star empty first; remember where to widen. */
			back_pat = next_pat;
			back_str = str;
			pat = next_pat;
			continue;
		case '?':
			ok = c != '\0';
			break;
		case '[': {
			const char *end = match_class(next_pat, c, &ok);

			if (end) {
				ok = ok && c != '\0';
				next_pat = end;
			} else {
				ok = c == '[';	/* unterminated: literal */
			}
			break;
		}
		case '\\':
			/* A trailing backslash stands for itself. */
			if (*next_pat != '\0')
				d = *next_pat++;
			ok = c == d;
			break;
		default:
			if (d == '\0')
				ok = c == '\0';
			else
				ok = c == d;
			if (ok && d == '\0')
				return true;
			break;
		}

		if (ok) {
			pat = next_pat;
			str++;
			continue;
		}
		/* Mismatch: widen the last star by one character, if any. */
		if (!back_pat || *back_str == '\0')
			return false;
		pat = back_pat;
		str = ++back_str;
	}
}
