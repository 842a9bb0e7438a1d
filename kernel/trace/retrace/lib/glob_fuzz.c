// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: rt_glob_match() must agree with fnmatch() (no
 * escapes, no brackets) and stay within its inputs (ASan).  The input
 * is "pattern\0name".
 */
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace/retrace/glob.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	char *pat, *name;
	size_t plen;

	if (!nul)
		return 0;
	plen = nul - data;
	pat = strndup((const char *)data, plen);
	name = strndup((const char *)nul + 1, size - plen - 1);
	if (!strpbrk(pat, "[\\") &&
	    !!rt_glob_match(pat, name) != !fnmatch(pat, name, FNM_NOESCAPE)) {
		fprintf(stderr, "fuzz check failed: '%s' vs '%s'\n", pat, name);
		abort();
	}
	free(pat);
	free(name);
	return 0;
}
