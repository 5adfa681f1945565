// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the TCP option codecs of rapid_pathchirp.h on an
 * arbitrary options area (what a hostile peer controls): the feedback
 * option (rapid_opt_decode), the data option (rapid_dopt_decode), the
 * RFC 6994 walk (rapid_exp_opt_find).  Invariants: no read outside the
 * area (ASan), a decoded option re-encodes to bytes that decode to the
 * same content, a found option lies inside the area, rates decode within
 * the codec's range.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rapid_chirp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *area, buf[RAPID_DOPT_LEN];
	struct rapid_opt fb, fb2;
	struct rapid_dopt d, d2;
	int len = size > 60 ? 60 : (int)size, off;

	/* an exact-size heap copy: ASan sees any read past the area */
	area = malloc(len ? len : 1);
	if (!area)
		return 0;
	memcpy(area, data, len);

	off = rapid_exp_opt_find(area, len, RAPID_OPT_EXID, RAPID_OPT_LEN);
	if (off >= 0 && off + RAPID_OPT_LEN > len)
		abort();
	if (rapid_opt_decode(area, len, &fb) == 0) {
		if (fb.abest > RAPID_OPT_RATE_MAX || fb.rule > 3 || fb.truncated > 1)
			abort();
		if (rapid_opt_encode(buf, RAPID_OPT_LEN, &fb) != RAPID_OPT_LEN ||
		    rapid_opt_decode(buf, RAPID_OPT_LEN, &fb2) != 0 ||
		    fb2.abest != fb.abest || fb2.stream_id != fb.stream_id ||
		    fb2.rule != fb.rule || fb2.truncated != fb.truncated)
			abort();
	}
	if (rapid_dopt_decode(area, len, &d) == 0) {
		if (!d.n || d.idx >= d.n)
			abort();
		if (rapid_dopt_encode(buf, RAPID_DOPT_LEN, &d) != RAPID_DOPT_LEN ||
		    rapid_dopt_decode(buf, RAPID_DOPT_LEN, &d2) != 0 ||
		    memcmp(&d, &d2, sizeof(d)))
			abort();
	}
	free(area);
	return 0;
}
