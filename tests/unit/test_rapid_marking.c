// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of RAPID's data-marking option (rapid_pathchirp.h:
 * rapid_dopt_encode/decode, rapid_tcp_opt_find, rapid_exp_opt_find,
 * rapid_dopt_unwrap), the
 * option the sender puts on every data segment of a p-stream and the
 * receiver helper (tcp_rapid_rx.c) reads.
 *
 * Expectations: hand-written wire bytes, and an independent reference
 * option walker written here from RFC 793/6994 (ref_find() below) that the
 * codec must agree with on hundreds of thousands of random areas, for the
 * data option and the feedback option (whose decoder shares the walker).
 * Every decode runs on an exactly-sized heap copy so that ASan catches any
 * read past the area.
 */
#include <string.h>

#include "tap.h"
#include "rapid_pathchirp.h"

static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd64(void)
{
	/* xorshift64* */
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545F4914F6CDD1DULL;
}

static int dec_exact(const uint8_t *src, int len, struct rapid_dopt *out)
{
	uint8_t *buf = malloc(len ? len : 1);
	int ret;

	memcpy(buf, src, len);
	ret = rapid_dopt_decode(len ? buf : NULL, len, out);
	free(buf);
	return ret;
}

static int fb_exact(const uint8_t *src, int len, struct rapid_opt *out)
{
	uint8_t *buf = malloc(len ? len : 1);
	int ret;

	memcpy(buf, src, len);
	ret = rapid_opt_decode(len ? buf : NULL, len, out);
	free(buf);
	return ret;
}

/*
 * Reference walker, written independently of the header: options are
 * EOL (0, ends the list), NOP (1, one byte) or kind, length (>= 2, covering
 * kind and length), data.  Returns the offset of the first kind-253 option
 * whose 2 bytes after the length equal exid, -1 when none, -2 when the list
 * is malformed (length byte missing, < 2, or past the end) before that.
 * *len_out is that option's length.
 */
static int ref_find(const uint8_t *a, int n, unsigned int exid, int *len_out)
{
	int pos = 0;

	for (;;) {
		if (pos >= n || a[pos] == 0)
			return -1;
		if (a[pos] == 1) {
			pos += 1;
			continue;
		}
		if (pos + 1 >= n)
			return -2;
		if (a[pos + 1] < 2 || pos + a[pos + 1] > n)
			return -2;
		if (a[pos] == 253 && a[pos + 1] >= 4 &&
		    (unsigned int)(a[pos + 2] * 256 + a[pos + 3]) == exid) {
			*len_out = a[pos + 1];
			return pos;
		}
		pos += a[pos + 1];
	}
}

static void test_layout(void)
{
	struct rapid_dopt d = { .tx_ns = 0xdeadbeef, .stream_id = 0x1234,
				.idx = 7, .n = 30 }, out;
	const uint8_t want[12] = { 253, 12, 0x52, 0x44, 0x12, 0x34, 7, 30,
				   0xde, 0xad, 0xbe, 0xef };
	uint8_t buf[16];
	int ret;

	memset(buf, 0xaa, sizeof(buf));
	tap_eq(rapid_dopt_encode(buf, 16, &d), 12, "encode returns 12");
	tap_ok(!memcmp(buf, want, 12), "wire bytes: 253 12 'R' 'D' id idx N tx(be32)");
	tap_ok(buf[12] == 0xaa && buf[15] == 0xaa, "encode writes exactly 12 bytes");
	ret = dec_exact(want, 12, &out);
	tap_ok(ret == 0 && out.tx_ns == 0xdeadbeef && out.stream_id == 0x1234 &&
	       out.idx == 7 && out.n == 30, "decode of the hand-written bytes");
	tap_eq(RAPID_DOPT_LEN % 4, 0, "12 bytes keep the options area 4-aligned");

	tap_eq(rapid_dopt_encode(buf, 11, &d), RAPID_OPT_ENOSPC, "encode into 11 bytes: ENOSPC");
	d.n = 0;
	d.idx = 0;
	tap_eq(rapid_dopt_encode(buf, 12, &d), RAPID_OPT_ERANGE, "encode N = 0: ERANGE");
	d.n = 5;
	d.idx = 5;
	tap_eq(rapid_dopt_encode(buf, 12, &d), RAPID_OPT_ERANGE, "encode index = N: ERANGE");
	d.idx = 4;
	tap_eq(rapid_dopt_encode(buf, 12, &d), 12, "encode index = N - 1 is fine");
	d.n = 255;
	d.idx = 254;
	tap_eq(rapid_dopt_encode(buf, 12, &d), 12, "encode N = 255, index 254");
	ret = dec_exact(buf, 12, &out);
	tap_ok(ret == 0 && out.n == 255 && out.idx == 254, "... decodes back");
	d.n = 1;
	d.idx = 0;
	tap_eq(rapid_dopt_encode(buf, 12, &d), 12, "encode a 1-packet stream");
	tap_eq(rapid_dopt_encode(NULL, 12, &d), RAPID_OPT_EINVAL, "encode NULL buffer");
	tap_eq(rapid_dopt_encode(buf, 12, NULL), RAPID_OPT_EINVAL, "encode NULL option");
	tap_eq(rapid_dopt_decode(want, 12, NULL), RAPID_OPT_EINVAL, "decode NULL output");
}

static void test_round_trips(void)
{
	struct rapid_dopt in, out;
	uint8_t buf[12];
	int i, bad = 0;

	for (i = 0; i < 100000; i++) {
		uint64_t z = rnd64();

		in.tx_ns = (uint32_t)z;
		in.stream_id = (uint16_t)(z >> 32);
		in.n = (uint8_t)(1 + (z >> 48) % 255);
		in.idx = (uint8_t)((z >> 56) % in.n);
		memset(&out, 0, sizeof(out));
		if (rapid_dopt_encode(buf, 12, &in) != 12 ||
		    dec_exact(buf, 12, &out) != 0 || out.tx_ns != in.tx_ns ||
		    out.stream_id != in.stream_id || out.idx != in.idx ||
		    out.n != in.n)
			bad++;
	}
	tap_eq(bad, 0, "100000 random round trips are exact");
	/* corner values */
	in.tx_ns = 0;
	in.stream_id = 0;
	in.idx = 0;
	in.n = 1;
	rapid_dopt_encode(buf, 12, &in);
	tap_ok(dec_exact(buf, 12, &out) == 0 && out.tx_ns == 0 && out.stream_id == 0,
	       "all-zero fields round trip");
	in.tx_ns = 0xffffffffU;
	in.stream_id = 0xffff;
	rapid_dopt_encode(buf, 12, &in);
	tap_ok(dec_exact(buf, 12, &out) == 0 && out.tx_ns == 0xffffffffU &&
	       out.stream_id == 0xffff, "all-ones fields round trip");
}

/* Realistic areas: what a data segment and an ACK carry. */
static void test_areas(void)
{
	struct rapid_dopt d = { .tx_ns = 123456789, .stream_id = 42, .idx = 3,
				.n = 30 }, out;
	struct rapid_opt fb = { .abest = 1250000, .stream_id = 41,
				.rule = RAPID_PC_RULE_EXCURSION }, fout;
	uint8_t a[40];
	int ret;

	/* NOP NOP TS(10) data-option: doff 11 */
	memset(a, 0, sizeof(a));
	a[0] = 1;
	a[1] = 1;
	a[2] = 8;
	a[3] = 10;
	rapid_dopt_encode(a + 12, 12, &d);
	ret = dec_exact(a, 24, &out);
	tap_ok(ret == 0 && out.stream_id == 42 && out.idx == 3 && out.n == 30 &&
	       out.tx_ns == 123456789, "found after NOP NOP timestamps");
	tap_eq(dec_exact(a, 23, &out), RAPID_OPT_ETRUNC, "area cut inside the option: ETRUNC");
	tap_eq(dec_exact(a, 12, &out), RAPID_OPT_ENOENT, "area ending before it: ENOENT");
	tap_eq(fb_exact(a, 24, &fout), RAPID_OPT_ENOENT,
	       "the feedback decoder does not take the data option");

	/* TS + feedback + data: each decoder finds its own */
	rapid_opt_encode(a + 12, 8, &fb);
	rapid_dopt_encode(a + 20, 12, &d);
	ret = dec_exact(a, 32, &out);
	tap_ok(ret == 0 && out.idx == 3 && out.stream_id == 42,
	       "data option found after a feedback option");
	ret = fb_exact(a, 32, &fout);
	tap_ok(ret == 0 && fout.stream_id == 41 && fout.rule == RAPID_PC_RULE_EXCURSION,
	       "feedback option found before a data option");

	/* SACK-laden ACK (TS + 3 blocks = 40 bytes): no data option */
	{
		uint8_t s[40] = { 1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2,
				  1, 1, 5, 26 };

		tap_eq(dec_exact(s, 40, &out), RAPID_OPT_ENOENT,
		       "full SACK area: ENOENT");
	}
}

static void test_malformed(void)
{
	struct rapid_dopt out = { .tx_ns = 77, .stream_id = 77, .idx = 7, .n = 77 };
	uint8_t b8[] = { 253, 8, 0x52, 0x44, 0, 1, 0, 5 };
	uint8_t b13[] = { 253, 13, 0x52, 0x44, 0, 1, 0, 5, 1, 2, 3, 4, 5 };
	uint8_t range[] = { 253, 12, 0x52, 0x44, 0, 1, 30, 30, 1, 2, 3, 4 };
	uint8_t zero_n[] = { 253, 12, 0x52, 0x44, 0, 1, 0, 0, 1, 2, 3, 4 };
	uint8_t eol[] = { 0, 253, 12, 0x52, 0x44, 0, 1, 0, 5, 1, 2, 3, 4 };
	uint8_t k254[] = { 254, 12, 0x52, 0x44, 0, 1, 0, 5, 1, 2, 3, 4 };
	uint8_t other[] = { 253, 12, 0x52, 0x41, 0, 1, 0, 5, 1, 2, 3, 4 };
	uint8_t len0[] = { 8, 0, 1, 1 };
	uint8_t len1[] = { 8, 1, 1, 1 };
	uint8_t past[] = { 1, 1, 8, 12, 0, 0 };
	uint8_t lone[] = { 1, 1, 1, 253 };
	uint8_t short3[] = { 253, 3, 0x52, 253, 12, 0x52, 0x44, 0, 9, 1, 2,
			     0, 0, 0, 5 };
	uint8_t short2[] = { 253, 2, 253, 12, 0x52, 0x44, 0, 9, 1, 2, 0, 0, 0, 5 };
	int ret;

	tap_eq(dec_exact(b8, 8, &out), RAPID_OPT_EBADLEN, "our ExID with length 8: EBADLEN");
	tap_eq(dec_exact(b13, 13, &out), RAPID_OPT_EBADLEN, "our ExID with length 13: EBADLEN");
	tap_eq(dec_exact(range, 12, &out), RAPID_OPT_ERANGE, "index = N on the wire: ERANGE");
	tap_eq(dec_exact(zero_n, 12, &out), RAPID_OPT_ERANGE, "N = 0 on the wire: ERANGE");
	tap_ok(out.tx_ns == 77 && out.idx == 7 && out.n == 77,
	       "a refused option leaves the output untouched");
	tap_eq(dec_exact(eol, 13, &out), RAPID_OPT_ENOENT, "EOL before it ends the walk");
	tap_eq(dec_exact(k254, 12, &out), RAPID_OPT_ENOENT, "kind 254 is not ours");
	tap_eq(dec_exact(other, 12, &out), RAPID_OPT_ENOENT, "ExID 0x5241 is not the data option");
	tap_eq(dec_exact(len0, 4, &out), RAPID_OPT_EBADLEN, "a length byte 0: EBADLEN");
	tap_eq(dec_exact(len1, 4, &out), RAPID_OPT_EBADLEN, "a length byte 1: EBADLEN");
	tap_eq(dec_exact(past, 6, &out), RAPID_OPT_ETRUNC, "a length past the area: ETRUNC");
	tap_eq(dec_exact(lone, 4, &out), RAPID_OPT_ETRUNC, "a last kind without length: ETRUNC");
	ret = dec_exact(short3, 15, &out);
	tap_ok(ret == 0 && out.stream_id == 9 && out.idx == 1 && out.n == 2,
	       "kind 253 too short for an ExID (len 3) is skipped");
	ret = dec_exact(short2, 14, &out);
	tap_ok(ret == 0 && out.stream_id == 9, "kind 253 with length 2 is skipped");
	tap_eq(dec_exact(b8, 0, &out), RAPID_OPT_ENOENT, "empty area: ENOENT");
	tap_eq(rapid_dopt_decode(b8, -1, &out), RAPID_OPT_EINVAL, "negative length: EINVAL");
	tap_eq(rapid_dopt_decode(NULL, 4, &out), RAPID_OPT_EINVAL, "NULL area: EINVAL");
	tap_eq(rapid_exp_opt_find(NULL, 0, RAPID_DOPT_EXID, 12), RAPID_OPT_ENOENT,
	       "find: NULL empty area: ENOENT");
}

/*
 * Random areas built from option-like pieces, checked against ref_find():
 * same verdict, same fields.  For both decoders.
 */
static void test_fuzz(void)
{
	struct rapid_dopt d = { .tx_ns = 0x01020304, .stream_id = 0xbeef, .idx = 1, .n = 2 };
	struct rapid_opt fb = { .abest = 99999, .stream_id = 0xcafe, .rule = 2, .truncated = 1 };
	int i, k, mism_d = 0, mism_f = 0, found_d = 0, found_f = 0;

	for (i = 0; i < 300000; i++) {
		uint8_t a[60];
		int len = (int)(rnd64() % 61), want, olen = 0, ret;
		struct rapid_dopt out;
		struct rapid_opt fout;

		for (k = 0; k < len; k++) {
			uint64_t z = rnd64();
			int sel = (int)(z & 7);

			a[k] = sel == 0 ? (uint8_t)((z >> 8) % 14) :
			       sel == 1 ? 253 : sel == 2 ? 1 :
			       sel == 3 ? 0x52 : sel == 4 ? 0x44 : (uint8_t)(z >> 8);
			if ((z & 0xf00) == 0x100 && k + 12 <= len) {
				rapid_dopt_encode(a + k, len - k, &d);
				/* then raw index and N, often out of range */
				a[k + 6] = (uint8_t)((z >> 16) % 4);
				a[k + 7] = (uint8_t)((z >> 24) % 4);
				if (z & 0x10000000)
					a[k + 1] = (uint8_t)((z >> 32) % 16);
				k += 11;
			} else if ((z & 0xf00) == 0x200 && k + 8 <= len) {
				rapid_opt_encode(a + k, len - k, &fb);
				k += 7;
			}
		}
		/* data option against the reference */
		want = ref_find(a, len, 0x5244, &olen);
		ret = dec_exact(a, len, &out);
		if (want == -1) {
			mism_d += ret != RAPID_OPT_ENOENT;
		} else if (want == -2) {
			mism_d += ret != RAPID_OPT_ETRUNC && ret != RAPID_OPT_EBADLEN;
		} else if (olen != 12) {
			mism_d += ret != RAPID_OPT_EBADLEN;
		} else if (a[want + 7] == 0 || a[want + 6] >= a[want + 7]) {
			mism_d += ret != RAPID_OPT_ERANGE;
		} else {
			found_d++;
			mism_d += ret != 0 ||
				  out.stream_id != (a[want + 4] << 8 | a[want + 5]) ||
				  out.idx != a[want + 6] || out.n != a[want + 7] ||
				  out.tx_ns != ((uint32_t)a[want + 8] << 24 |
						(uint32_t)a[want + 9] << 16 |
						(uint32_t)a[want + 10] << 8 | a[want + 11]);
		}
		/* feedback option against the same reference */
		want = ref_find(a, len, 0x5241, &olen);
		ret = fb_exact(a, len, &fout);
		if (want == -1) {
			mism_f += ret != RAPID_OPT_ENOENT;
		} else if (want == -2) {
			mism_f += ret != RAPID_OPT_ETRUNC && ret != RAPID_OPT_EBADLEN;
		} else if (olen != 8) {
			mism_f += ret != RAPID_OPT_EBADLEN;
		} else {
			found_f++;
			mism_f += ret != 0 ||
				  fout.stream_id != (a[want + 4] << 8 | a[want + 5]) ||
				  fout.rule != a[want + 6] >> 6;
		}
	}
	tap_eq(mism_d, 0, "fuzz: data decoder agrees with the reference walker on 300000 areas");
	tap_eq(mism_f, 0, "fuzz: feedback decoder agrees with the reference walker");
	tap_ok(found_d > 1000 && found_f > 1000,
	       "fuzz: both options were found often enough to matter (%d, %d)",
	       found_d, found_f);
}

static void test_unwrap(void)
{
	static const struct rapid_pc_clock clk = { .tick_ns = 1, .bits = 64 };
	struct rapid_pc_params p;
	struct rapid_pc_result r64, r32;
	struct rapid_pc_obs o64, o32;
	uint64_t t = 0, last64 = 0, tx;
	uint32_t last32 = 0;
	int k, ok = 1;

	tap_ok(rapid_dopt_unwrap(1000, 1000, 1500, &tx) && tx == 1500, "unwrap: plain step");
	tap_ok(rapid_dopt_unwrap(0xfffffff0ULL, 0xfffffff0U, 0x10, &tx) &&
	       tx == 0x100000010ULL, "unwrap: across 2^32");
	tap_ok(rapid_dopt_unwrap(5ULL << 32 | 7, 7, 7, &tx) && tx == (5ULL << 32 | 7),
	       "unwrap: zero step (same departure)");
	tap_ok(rapid_dopt_unwrap(0, 0, 0x7fffffffU, &tx) && tx == 0x7fffffffULL,
	       "unwrap: largest step 2^31 - 1 ns");
	tx = 12345;
	tap_ok(!rapid_dopt_unwrap(0, 0, 0x80000000U, &tx) && tx == 12345,
	       "unwrap: step 2^31 refused, output untouched");
	tap_ok(!rapid_dopt_unwrap(1000, 1000, 999, &tx), "unwrap: backwards refused");

	/*
	 * A 30-packet chirp whose 32-bit stamps wrap in the middle gives the
	 * same estimate as the same chirp with 64-bit stamps.  The queue grows
	 * from packet 12 on (an open excursion): a non-trivial answer.
	 */
	rapid_pc_params_init(&p);
	rapid_pc_obs_init(&o64, 1, &clk, &clk);
	rapid_pc_obs_init(&o32, 1, &clk, &clk);
	t = 0xffffffffULL - 3000000;		/* wraps after ~3 ms */
	for (k = 0; k < 30; k++) {
		uint64_t rcv = 1000000000ULL + (t - (0xffffffffULL - 3000000)) +
			       (k > 12 ? (uint64_t)(k - 12) * 40000 : 0);
		uint32_t t32 = (uint32_t)t;

		rapid_pc_obs_add(&o64, k, t, rcv, 1448);
		if (k == 0) {
			tx = t32;
		} else if (!rapid_dopt_unwrap(last64, last32, t32, &tx)) {
			ok = 0;
		}
		rapid_pc_obs_add(&o32, k, tx, rcv, 1448);
		last64 = tx;
		last32 = t32;
		t += 500000 - (uint64_t)k * 12000;	/* shrinking gaps */
	}
	tap_ok(ok, "unwrap: every step of the wrapping chirp accepted");
	tap_ok(t > 0xffffffffULL, "unwrap: the chirp really crossed 2^32");
	tap_eq(rapid_pc_estimate(&o32, &p, &r32), rapid_pc_estimate(&o64, &p, &r64),
	       "unwrap: same rule with wrapped 32-bit stamps");
	tap_eq(r32.abest, r64.abest, "unwrap: same ABest with wrapped 32-bit stamps");
	tap_eq(r64.rule, RAPID_PC_RULE_EXCURSION, "unwrap: the chirp has a trend");
	tap_eq(o32.stop, 0, "unwrap: recording never stopped");
}

/*
 * rapid_tcp_opt_find(): the walker every option lookup shares (the data
 * and feedback options, the SACK option the helper gives a block of).
 * A pure ACK's layout as Linux builds it: NOP NOP TS(10) NOP NOP SACK(26).
 */
static void test_tcp_opt_find(void)
{
	static const uint8_t ack[40] = {
		1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2,
		1, 1, 5, 26, 0, 0, 0, 10, 0, 0, 0, 20, 0, 0, 0, 30,
		0, 0, 0, 40, 0, 0, 0, 50, 0, 0, 0, 60,
	};
	static const uint8_t eol[8] = { 1, 0, 5, 6, 0, 0, 0, 1 };
	static const uint8_t len1[6] = { 1, 8, 1, 5, 2, 0 };
	static const uint8_t past[6] = { 8, 10, 0, 0, 0, 0 };
	static const uint8_t lone[3] = { 1, 1, 5 };

	tap_eq(rapid_tcp_opt_find(ack, 40, 0, 8), 2, "tcp_opt_find: timestamps after two NOPs");
	tap_eq(rapid_tcp_opt_find(ack, 40, 0, 5), 14, "tcp_opt_find: SACK after timestamps and two NOPs");
	tap_eq(rapid_tcp_opt_find(ack, 40, 14, 5), 14, "tcp_opt_find: from an option's start finds it");
	tap_eq(rapid_tcp_opt_find(ack, 40, 0, 2), RAPID_OPT_ENOENT, "tcp_opt_find: no MSS: ENOENT");
	tap_eq(rapid_tcp_opt_find(ack, 28, 0, 5), RAPID_OPT_ETRUNC,
	       "tcp_opt_find: a SACK past a cut area: ETRUNC");
	tap_eq(rapid_tcp_opt_find(eol, 8, 0, 5), RAPID_OPT_ENOENT, "tcp_opt_find: EOL ends the walk");
	tap_eq(rapid_tcp_opt_find(len1, 6, 0, 5), RAPID_OPT_EBADLEN,
	       "tcp_opt_find: a length byte 1 before it: EBADLEN");
	tap_eq(rapid_tcp_opt_find(past, 6, 0, 5), RAPID_OPT_ETRUNC,
	       "tcp_opt_find: a length past the area before it: ETRUNC");
	tap_eq(rapid_tcp_opt_find(lone, 3, 0, 5), RAPID_OPT_ETRUNC,
	       "tcp_opt_find: the kind searched without its length byte: ETRUNC");
	tap_eq(rapid_tcp_opt_find(NULL, 0, 0, 5), RAPID_OPT_ENOENT, "tcp_opt_find: empty area: ENOENT");
	tap_eq(rapid_tcp_opt_find(NULL, 4, 0, 5), RAPID_OPT_EINVAL, "tcp_opt_find: NULL area: EINVAL");
	tap_eq(rapid_tcp_opt_find(ack, -1, 0, 5), RAPID_OPT_EINVAL, "tcp_opt_find: negative length: EINVAL");
	tap_eq(rapid_tcp_opt_find(ack, 40, -1, 5), RAPID_OPT_EINVAL, "tcp_opt_find: negative start: EINVAL");
}

int main(void)
{
	test_layout();
	test_round_trips();
	test_areas();
	test_malformed();
	test_tcp_opt_find();
	test_fuzz();
	test_unwrap();
	return tap_done();
}
