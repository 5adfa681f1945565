// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of rapid_chirp.h: the p-stream schedule (Eqs. 1, 4, 5), the
 * per-packet cursor, the slow start of Table 4, the tau filter (Eq. 6),
 * decreases, loss responses and the cwnd cap.
 *
 * Expectations come from double-precision transcriptions of the report's
 * equations (ref_*() below) or from numbers worked out by hand in the
 * comments, never from the functions under test.
 */
#include <math.h>
#include <string.h>

#include "tap.h"
#include "rapid_chirp.h"

#define P_FULL	1448U	/* payload of a full-size segment on a 1500 B path */

/* ---- double-precision references ---------------------------------- */

/* Eq. 5: r_1 / r_avg */
static double ref_r1_ratio(int n, double m)
{
	if (n < 2)
		n = 2;
	if (m == 1.0)
		return 1.0;
	return (pow(m, n - 1) - 1) / ((n - 1) * (m - 1) * pow(m, n - 2));
}

/* Eq. 4: r_i / r_avg, i = 1..n-1 */
static double ref_rate_ratio(int n, double m, int i)
{
	return ref_r1_ratio(n, m) * pow(m, i - 1);
}

static double rel(double got, double want)
{
	return fabs(got - want) / (want != 0 ? fabs(want) : 1);
}

/* Eq. 6 for one ABest, as printed */
static double ref_filter(double r_avg, double abest, int n, double p,
			 double tau_s)
{
	double l = n * p / r_avg;

	if (abest <= r_avg)
		return abest;
	if (l >= tau_s)
		return abest;
	return r_avg + l / tau_s * (abest - r_avg);
}

/* ---- the schedule --------------------------------------------------- */

static void test_rho(void)
{
	static const int ns[] = { 2, 3, 5, 16, 30, 64, 128 };
	static const unsigned int ms[] = { 1001, 1070, 1500, 2000, 4000 };
	double worst = 0;
	size_t a, b;

	for (a = 0; a < sizeof(ns) / sizeof(ns[0]); a++) {
		for (b = 0; b < sizeof(ms) / sizeof(ms[0]); b++) {
			double want = ref_r1_ratio(ns[a], ms[b] / 1000.0);
			double got = rapid_rho(ns[a], ms[b]) /
				     (double)RAPID_RHO_ONE;
			/* in units of the Q24 step */
			double e = fabs(got - want) * RAPID_RHO_ONE;

			if (e > worst)
				worst = e;
		}
	}
	tap_ok(worst <= 1.0, "rho(N, m) = Eq. 5 within 1 unit of 2^-24 for N 2..128, m 1.001..4 (worst %.2f)",
	       worst);
	tap_eq(rapid_rho(2, 1070), RAPID_RHO_ONE, "rho: N = 2 gives r_1 = r_avg exactly");
	tap_eq(rapid_rho(30, 1000), RAPID_RHO_ONE, "rho: m = 1 gives a uniform stream");
	tap_eq(rapid_rho(0, 1070), RAPID_RHO_ONE, "rho: N = 0 treated as 2");
	tap_eq(rapid_rho(1, 1070), RAPID_RHO_ONE, "rho: N = 1 treated as 2");
	tap_eq(rapid_rho(30, 0), RAPID_RHO_ONE, "rho: m = 0 treated as 1.000");
	tap_eq(rapid_rho(1000, 1070), rapid_rho(RAPID_N_MAX, 1070),
	       "rho: N above the maximum treated as the maximum");
}

static void test_paper_defaults(void)
{
	struct rapid_schedule s;
	double r1, top, paper_top;

	rapid_schedule_init(&s, 1000000, 30, 1070);
	r1 = rapid_schedule_rate(&s, 1) / 1e6;
	top = rapid_schedule_top(&s) / 1e6;
	/* the report's r_{N-1} ~ 3.22 r_avg is r_1 * m^(N-1) */
	paper_top = r1 * pow(1.07, 29);

	tap_near(r1, ref_r1_ratio(30, 1.07), 1e-6,
		 "N=30 m=1.07: r_1 / r_avg = %.6f (Eq. 5: 0.453004)", r1);
	tap_near(r1, 0.45, 0.005, "N=30 m=1.07: r_1 ~ 0.45 r_avg (report, Section 3.1.4)");
	tap_near(top, ref_rate_ratio(30, 1.07, 29), 1e-5,
		 "N=30 m=1.07: r_{N-1} / r_avg = %.5f (Eq. 4: 3.01195)", top);
	tap_near(paper_top, 3.22, 0.005,
		 "N=30 m=1.07: the report's 3.22 is r_1 * m^29 (%.4f)", paper_top);
	tap_eq(s.n, 30, "schedule keeps N");
	tap_eq(s.m, 1070, "schedule keeps m");
}

static void test_rates_vs_reference(void)
{
	static const double avgs[] = { 1250, 1e6, 1.25e8, 1.25e10 };
	struct rapid_schedule s;
	double worst = 0;
	size_t a;
	int i;

	for (a = 0; a < sizeof(avgs) / sizeof(avgs[0]); a++) {
		rapid_schedule_init(&s, (u64)avgs[a], 30, 1070);
		for (i = 1; i < 30; i++) {
			double want = fmin(avgs[a] * ref_rate_ratio(30, 1.07, i),
					   (double)RAPID_RATE_MAX);
			double got = (double)rapid_schedule_rate(&s, i);
			/* rounding to whole B/s: 0.5 B/s */
			double e = (fabs(got - want) - 0.5) / want;

			if (e > worst)
				worst = e;
		}
	}
	tap_ok(worst < 4e-6, "r_i = min(m^(i-1) r_1, 100 Gbit/s) within 0.5 B/s + 4e-6 at 10 kbit/s..100 Gbit/s (worst %.2e)",
	       worst);
	rapid_schedule_init(&s, 1000000, 30, 1070);
	tap_eq(rapid_schedule_rate(&s, 0), 1000000, "rate(0) is r_0 = r_avg");
	tap_eq(rapid_schedule_rate(&s, 30), 1000000, "rate(N) is r_avg (gap to the next stream)");
	tap_eq(rapid_schedule_rate(&s, 200), 1000000, "rate(i > N) is r_avg");
}

/*
 * Walk one full stream through the cursor; return the sum of its gaps in
 * ns and the sum of the first k-1 gaps in *intra.  Checks that the cursor
 * hands out exactly the schedule's rates.
 */
static u64 walk_stream(const struct rapid_schedule *s, u32 avail, u32 payload,
		       u64 *intra, int *mismatch, u32 *k_out)
{
	struct rapid_cursor c;
	u64 sum = 0;
	bool last = false;
	u32 j = 0;

	*mismatch = 0;
	*intra = 0;
	rapid_cursor_start(&c, s, avail, NULL);
	*k_out = c.k;
	while (rapid_cursor_open(&c)) {
		u64 rate = rapid_cursor_next(&c, &last);
		u64 gap = rapid_schedule_gap_ns(rate, payload);

		j++;
		if (c.k == s->n && j < c.k && rate != rapid_schedule_rate(s, j))
			(*mismatch)++;
		if (last != (j == c.k))
			(*mismatch)++;
		sum += gap;
		if (!last)
			*intra += gap;
	}
	if (j != c.k)
		(*mismatch)++;
	return sum;
}

/*
 * Bound of the rounding: each gap uses a rate rounded to whole B/s
 * (relative error 0.5 / r) and is itself rounded down to 1 ns.
 */
static double gap_tolerance_ns(double r_avg, int n, double m, double payload)
{
	double tol = n + 1;
	int i;

	for (i = 1; i < n; i++) {
		double r = fmin(r_avg * ref_rate_ratio(n, m, i),
				(double)RAPID_RATE_MAX);

		tol += payload * 1e9 / r * (0.5 / (r - 0.5)) + 1e-9 * payload * 1e9 / r;
	}
	return tol + payload * 1e9 / r_avg * 1e-6;
}

/* sum of the N-1 gaps in ns, rates of Eq. 4 saturated at 100 Gbit/s */
static double ref_intra_ns(double r_avg, int n, double m, double payload,
			   int *saturated)
{
	double sum = 0;
	int i;

	*saturated = 0;
	for (i = 1; i < n; i++) {
		double r = r_avg * ref_rate_ratio(n, m, i);

		if (r > (double)RAPID_RATE_MAX) {
			r = (double)RAPID_RATE_MAX;
			*saturated = 1;
		}
		sum += payload * 1e9 / r;
	}
	return sum;
}

static void test_stream_sums(void)
{
	static const struct {
		double r_avg;
		int n;
		unsigned int m;
		u32 payload;
	} cases[] = {
		{ 1e6, 30, 1070, P_FULL },
		{ 1250, 30, 1070, P_FULL },		/* 10 kbit/s */
		{ 1.25e10, 30, 1070, P_FULL },		/* 100 Gbit/s */
		{ 1.25e7, 2, 1070, P_FULL },		/* N = 2 */
		{ 1.25e7, 128, 1070, P_FULL },		/* N = max */
		{ 1.25e7, 30, 1001, P_FULL },		/* m = 1.001 */
		{ 1.25e7, 16, 2000, P_FULL },		/* slow start shape */
		{ 1.25e7, 30, 1070, 1 },		/* payload 1 B */
		{ 1.25e7, 30, 1070, 65535 },		/* payload 64 KiB */
		{ 1250, 128, 1001, 65535 },
	};
	size_t a;

	for (a = 0; a < sizeof(cases) / sizeof(cases[0]); a++) {
		struct rapid_schedule s;
		double want_all, want_intra, tol;
		int mismatch, saturated;
		u64 intra, all;
		u32 k;

		rapid_schedule_init(&s, (u64)cases[a].r_avg, cases[a].n,
				    cases[a].m);
		all = walk_stream(&s, 1000, cases[a].payload, &intra,
				  &mismatch, &k);
		want_intra = ref_intra_ns(cases[a].r_avg, cases[a].n,
					  cases[a].m / 1000.0,
					  cases[a].payload, &saturated);
		want_all = want_intra + cases[a].payload * 1e9 / cases[a].r_avg;
		if (!saturated) {
			double eq1 = (cases[a].n - 1) * (double)cases[a].payload *
				     1e9 / cases[a].r_avg;

			tap_near(want_intra, eq1, eq1 * 1e-9,
				 "reference: Eq. 1 holds exactly, N=%d m=%u",
				 cases[a].n, cases[a].m);
		} else {
			tap_ok(want_intra >= (cases[a].n - 1) *
			       (double)cases[a].payload * 1e9 / cases[a].r_avg,
			       "rates saturated at 100 Gbit/s only lengthen the stream, N=%d m=%u r_avg=%.0f",
			       cases[a].n, cases[a].m, cases[a].r_avg);
		}
		tol = gap_tolerance_ns(cases[a].r_avg, cases[a].n,
				       cases[a].m / 1000.0, cases[a].payload);
		tap_eq(mismatch, 0, "cursor = schedule, N=%d m=%u r_avg=%.0f P=%u",
		       cases[a].n, cases[a].m, cases[a].r_avg, cases[a].payload);
		tap_near((double)intra, want_intra, tol,
			 "N-1 gaps = sum P / r_i (Eq. 1), N=%d m=%u r_avg=%.0f P=%u",
			 cases[a].n, cases[a].m, cases[a].r_avg,
			 cases[a].payload);
		tap_near((double)all, want_all, tol,
			 "stream + inter-stream gap = N P / r_avg (+ saturation), N=%d m=%u r_avg=%.0f P=%u",
			 cases[a].n, cases[a].m, cases[a].r_avg,
			 cases[a].payload);
	}
}

static void test_extremes(void)
{
	struct rapid_schedule s;
	u64 prev = 0, rate, intra, all;
	int mono = 1, i, mismatch;
	u32 k;

	/* m = 4, N = 128: m^126 is far beyond 100 Gbit/s; the rates saturate */
	rapid_schedule_init(&s, 1250000, 128, 4000);
	for (i = 1; i < 128; i++) {
		rate = rapid_schedule_rate(&s, i);
		if (rate < prev || rate == 0 || rate > RAPID_RATE_MAX)
			mono = 0;
		prev = rate;
	}
	tap_ok(mono, "m=4 N=128: rates non-decreasing, > 0, <= 100 Gbit/s");
	tap_eq(rapid_schedule_top(&s), RAPID_RATE_MAX, "m=4 N=128: top saturates at 100 Gbit/s");
	tap_near(rapid_schedule_rate(&s, 1) / 1250000.0, ref_r1_ratio(128, 4.0),
		 1e-5, "m=4 N=128: r_1 still from Eq. 5 (%.6f)",
		 ref_r1_ratio(128, 4.0));
	all = walk_stream(&s, 1000, P_FULL, &intra, &mismatch, &k);
	/* saturation only lengthens gaps: average rate <= r_avg */
	tap_ok((double)intra >= 127.0 * P_FULL * 1e9 / 1250000.0 * (1 - 1e-4),
	       "m=4 N=128: saturated stream never exceeds r_avg on average");
	tap_ok(all > intra, "m=4 N=128: the inter-stream gap is counted");

	/* r_avg = 100 Gbit/s, m = 4: top and r_1 finite, no overflow */
	rapid_schedule_init(&s, RAPID_RATE_MAX, 30, 4000);
	tap_eq(rapid_schedule_top(&s), RAPID_RATE_MAX, "100 Gbit/s, m=4: top saturates");
	tap_ok(rapid_schedule_rate(&s, 1) > 0, "100 Gbit/s, m=4: r_1 > 0");

	/* r_avg above the maximum is clamped, zero is raised to 1 B/s */
	rapid_schedule_init(&s, ~0ULL, 30, 1070);
	tap_eq(s.r_avg, RAPID_RATE_MAX, "schedule: r_avg = U64_MAX clamped to 100 Gbit/s");
	rapid_schedule_init(&s, 0, 30, 1070);
	tap_eq(s.r_avg, 1, "schedule: r_avg = 0 raised to 1 B/s");
	tap_ok(rapid_schedule_rate(&s, 1) >= 1 && rapid_schedule_top(&s) >= 1,
	       "schedule: r_avg = 0 gives no zero rate");

	/* gaps: zero guarded, huge payload at 1 B/s, tiny at 100 Gbit/s */
	tap_eq(rapid_schedule_gap_ns(0, P_FULL), 0, "gap: rate 0 = unpaced, 0 ns (no division by zero)");
	tap_eq(rapid_schedule_gap_ns(1000, 0), 0, "gap: payload 0 gives 0 ns");
	tap_eq(rapid_schedule_gap_ns(1, 65535), 65535ULL * 1000000000ULL,
	       "gap: 65535 B at 1 B/s = 65535 s");
	tap_eq(rapid_schedule_gap_ns(RAPID_RATE_MAX, P_FULL), 115,
	       "gap: 1448 B at 100 Gbit/s = 115.84 ns, rounded down");
	tap_eq(rapid_schedule_gap_ns(1250, P_FULL), 1158400000ULL,
	       "gap: 1448 B at 10 kbit/s = 1.1584 s");
	tap_eq(rapid_stream_duration_ns(30, P_FULL, 0), 30ULL * P_FULL * 1000000000ULL,
	       "stream duration: r_avg = 0 treated as 1 B/s");
	tap_eq(rapid_stream_duration_ns(30, P_FULL, 12500000), 3475200,
	       "stream duration: 30 x 1448 B at 100 Mbit/s = 3.4752 ms");

	/* step saturation */
	tap_eq(rapid_rate_step(RAPID_RATE_FP_MAX, 4000), RAPID_RATE_FP_MAX,
	       "rate step saturates at 100 Gbit/s");
	tap_eq(rapid_rate_step(~0ULL, 65535), RAPID_RATE_FP_MAX,
	       "rate step: no overflow from U64_MAX input");
	tap_eq(rapid_rate_from_fp(0), 1, "fp rate 0 -> 1 B/s (never unpaced)");
	tap_eq(rapid_rate_from_fp(384), 2, "fp rate 1.5 B/s rounds to 2");
}

static void test_short_streams(void)
{
	struct rapid_schedule s;
	struct rapid_cursor c;
	bool last;
	u64 r1, r2, r3;
	u64 intra, all;
	int mismatch;
	u32 k;

	rapid_schedule_init(&s, 1000000, 30, 1070);

	rapid_cursor_start(&c, &s, 1, NULL);
	tap_eq(c.k, 1, "k=1: one-packet stream");
	r1 = rapid_cursor_next(&c, &last);
	tap_ok(r1 == 1000000 && last && !rapid_cursor_open(&c),
	       "k=1: gap after it at r_avg, stream closed");

	rapid_cursor_start(&c, &s, 2, NULL);
	r1 = rapid_cursor_next(&c, &last);
	tap_ok(r1 == 1000000 && !last, "k=2: first gap at uniform r_avg");
	r2 = rapid_cursor_next(&c, &last);
	tap_ok(r2 == 1000000 && last, "k=2: second gap at r_avg, stream closed");

	rapid_cursor_start(&c, &s, 0, NULL);
	tap_eq(c.k, 1, "avail=0 still makes a one-packet stream");

	/* k = 3 < N: built as an N=3 stream at the same r_avg (Eq. 5, N=3) */
	rapid_cursor_start(&c, &s, 3, NULL);
	tap_eq(c.k, 3, "k=3: three-packet stream");
	r1 = rapid_cursor_next(&c, &last);
	r2 = rapid_cursor_next(&c, &last);
	r3 = rapid_cursor_next(&c, &last);
	tap_near(r1, 1e6 * ref_r1_ratio(3, 1.07), 1.0,
		 "k=3: r_1 = 2m/(1+m)... Eq. 5 with N=3 (%.1f)",
		 1e6 * ref_r1_ratio(3, 1.07));
	tap_near(r2, 1e6 * ref_rate_ratio(3, 1.07, 2), 1.0, "k=3: r_2 = m r_1");
	tap_ok(r3 == 1000000 && last, "k=3: last gap r_avg, closed");
	all = walk_stream(&s, 3, P_FULL, &intra, &mismatch, &k);
	tap_near((double)intra, 2.0 * P_FULL * 1e9 / 1e6, 4,
		 "k=3: its two gaps average r_avg (Eq. 1 with N=3)");
	tap_near((double)all, 3.0 * P_FULL * 1e9 / 1e6, 5,
		 "k=3: stream + inter-stream gap = 3 P / r_avg");

	/* the effective schedule reproduces the cursor's gaps */
	{
		struct rapid_schedule eff;
		int same = 1;
		u32 kk, i;

		for (kk = 1; kk <= 31; kk++) {
			rapid_cursor_start(&c, &s, kk, &eff);
			for (i = 1; i <= c.k; i++) {
				u64 r = rapid_cursor_next(&c, &last);
				u64 want = i < c.k ? rapid_schedule_rate(&eff, i)
						   : eff.r_avg;

				if (r != want)
					same = 0;
			}
			if (kk <= 2 && (eff.n != 2 || eff.m != 1000))
				same = 0;
			if (kk > 2 && eff.n != (kk < 30 ? kk : 30))
				same = 0;
		}
		tap_ok(same, "effective schedule = the cursor's gaps for k = 1..31");
	}

	/* more data than N: the stream is N long */
	rapid_cursor_start(&c, &s, 100000, NULL);
	tap_eq(c.k, 30, "plenty of data: k = N");
	tap_eq(rapid_cursor_left(&c), 30, "cursor_left before the first packet = N");
	rapid_cursor_next(&c, &last);
	rapid_cursor_close(&c);
	tap_ok(!rapid_cursor_open(&c) && rapid_cursor_left(&c) == 0,
	       "cursor_close ends the stream early");
	r1 = rapid_cursor_next(&c, &last);
	tap_ok(r1 == 1000000 && last, "closed cursor keeps pacing at r_avg");

	/* a zeroed cursor (no stream yet) is closed */
	memset(&c, 0, sizeof(c));
	tap_ok(!rapid_cursor_open(&c), "zeroed cursor is closed");
}

/* ---- EDT credit compensation ---------------------------------------- */

static void test_edt_credit(void)
{
	static const u64 rates[] = { 1250, 1000000, 12500000, 1250000000,
				     RAPID_RATE_MAX };
	static const u32 lens[] = { 1, 1448, 65535 };
	double worst = 0;
	size_t a, b, c;

	/* TCP's own step, by hand: 1448 B at 1e6 B/s = 1448000 ns */
	tap_eq(rapid_tcp_gap_ns(1000000, 1448, 0), 1448000, "tcp step: on time, full gap");
	tap_eq(rapid_tcp_gap_ns(1000000, 1448, 1000), 1447000, "tcp step: 1 us late, gap - 1 us");
	tap_eq(rapid_tcp_gap_ns(1000000, 1448, 10000000), 724000, "tcp step: very late, half the gap");
	tap_eq(rapid_edt_rate(1000000, 1448, 0), 1000000, "edt rate: no credit, rate unchanged");
	tap_eq(rapid_edt_rate(0, 1448, 1000), 0, "edt rate: rate 0 (unpaced) passes through");

	for (a = 0; a < sizeof(rates) / sizeof(rates[0]); a++) {
		for (b = 0; b < sizeof(lens) / sizeof(lens[0]); b++) {
			u64 want = rapid_schedule_gap_ns(rates[a], lens[b]);
			u64 credits[] = { 0, 1, want / 3, want ? want - 1 : 0,
					  want, want + 1, 10 * want + 7,
					  ~0ULL };

			for (c = 0; c < sizeof(credits) / sizeof(credits[0]); c++) {
				u64 r = rapid_edt_rate(rates[a], lens[b], credits[c]);
				u64 got = rapid_tcp_gap_ns(r, lens[b], credits[c]);
				/* rounding of the written rate, plus 2 ns */
				double tol = (double)want / (double)r + 2;
				double e = fabs((double)got - (double)want) / tol;

				if (e > worst)
					worst = e;
			}
		}
	}
	tap_ok(worst <= 1.0,
	       "edt rate: TCP's credit cut gives back the schedule's gap for any lateness (worst %.2f of tolerance)",
	       worst);
}

/* ---- conversions ---------------------------------------------------- */

static void test_conversions(void)
{
	tap_eq(RAPID_RHO_ONE, 1ULL << RAPID_RHO_SHIFT, "RAPID_RHO_ONE = 2^RAPID_RHO_SHIFT");
	tap_eq(rapid_kbps_to_rate(100), 12500, "100 kbit/s = 12500 B/s");
	tap_eq(rapid_kbps_to_rate(RAPID_KBPS_MAX), RAPID_RATE_MAX, "100 Gbit/s in kbit/s = RAPID_RATE_MAX");
	tap_eq(rapid_kbps_to_rate(RAPID_KBPS_MIN), RAPID_RATE_MIN, "10 kbit/s = RAPID_RATE_MIN");
	tap_eq(rapid_rate_to_kbps(12500), 100, "12500 B/s = 100 kbit/s");
	tap_eq(rapid_rate_to_kbps(124), 0, "124 B/s rounds down to 0 kbit/s");
	tap_eq(rapid_rate_to_kbps(~0ULL), U32_MAX, "kbit/s saturates at U32_MAX");
	tap_ok(rapid_abest_is_top(1000, 1000), "abest == top is 'no trend'");
	tap_ok(rapid_abest_is_top(2000, 1000), "abest > top is 'no trend'");
	tap_ok(rapid_abest_is_top(6400 - 100, 6400), "abest within 1/64 below top is 'no trend'");
	tap_ok(!rapid_abest_is_top(6400 - 101, 6400), "abest more than 1/64 below top is a trend");
	tap_ok(!rapid_abest_is_top(500, 1000), "abest = top / 2 is a trend");
}

/* ---- slow start (Section 3.1.5, Table 4) --------------------------- */

struct ss_step {
	u32 n;
	double r1, top, avg;
};

static void test_slow_start_table4(void)
{
	/*
	 * Constant avail-bw of 1 Gbit/s = 1.25e8 B/s, initial r_avg 100 kbit/s
	 * = 12500 B/s, m = 2, N = 2, 4, 8, 16 (hand-computed, Eq. 4 with N-1
	 * rates):
	 *   stream 1: N=2,  r_1 = 12500, top = 12500
	 *   stream 2: N=4,  r_1 = 12500, top = 4 * 12500 = 50000
	 *   stream 3: N=8,  r_1 = 50000, top = 64 * 50000 = 3.2e6
	 *   stream 4: N=16, r_1 = 3.2e6, top = 2^14 * 3.2e6 = 5.2e10 -> 1.25e10
	 * ABest = 1.25e8 is below stream 4's top: r_avg = 1.25e8 after 4
	 * streams (the report's "1 Gbit/s in 4 RTTs").  r_avg of stream 2 is
	 * 3 / (1/12500 + 1/25000 + 1/50000) = 21428.57 B/s.
	 */
	static const struct ss_step want[] = {
		{ 2, 12500, 12500, 12500 },
		{ 4, 12500, 50000, 3.0 / (1 / 12500.0 + 1 / 25000.0 + 1 / 50000.0) },
		{ 8, 50000, 3.2e6, 0 },
		{ 16, 3.2e6, 12500000000.0, 0 },
	};
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_schedule s;
	enum rapid_ev ev = RAPID_EV_NONE;
	u32 id;

	rapid_cfg_default(&cfg);
	rapid_ctl_init(&ctl, &cfg);
	tap_eq(ctl.phase, RAPID_PHASE_SS, "ss: starts in slow start");
	tap_eq(ctl.r_avg, 12500, "ss: initial r_avg = 100 kbit/s");
	for (id = 1; id <= 4; id++) {
		const struct ss_step *w = &want[id - 1];
		double r1;

		rapid_ctl_schedule(&ctl, &s);
		rapid_ctl_stream_started(&ctl, id);
		r1 = (double)rapid_schedule_rate(&s, 1);
		tap_eq(s.n, w->n, "ss stream %u: N = %u", id, w->n);
		tap_eq(s.m, 2000, "ss stream %u: m = 2", id);
		/* r_avg is whole B/s: 21428.57 -> 21429 costs 2e-5 relative */
		tap_near(r1, w->r1, w->r1 * 3e-5 + 1, "ss stream %u: r_1 = %.0f B/s", id, w->r1);
		tap_near((double)rapid_schedule_top(&s), w->top, w->top * 3e-5 + 1,
			 "ss stream %u: top = %.0f B/s", id, w->top);
		if (w->avg > 0)
			tap_near((double)s.r_avg, w->avg, 1,
				 "ss stream %u: r_avg by Eq. 1 = %.2f", id, w->avg);
		ev = rapid_ctl_on_abest(&ctl, &cfg, id, 125000000, P_FULL);
		if (id < 4)
			tap_eq(ev, RAPID_EV_SS_GROW, "ss stream %u: no trend -> grow", id);
	}
	tap_eq(ev, RAPID_EV_SS_EXIT, "ss stream 4: ABest below top -> exit");
	tap_eq(ctl.phase, RAPID_PHASE_STEADY, "ss exit: steady state");
	tap_eq(ctl.r_avg, 125000000, "ss exit: r_avg = ABest = 1 Gbit/s after 4 streams");
	tap_eq(ctl.n, 30, "ss exit: N = 30");
	tap_eq(ctl.m, RAPID_DEF_REFINE_M,
	       "ss exit: the refinement's streams probe with refine_m = 1.12");
	tap_ok(ctl.wide && rapid_ctl_steady_m(&ctl, &cfg) == RAPID_DEF_REFINE_M,
	       "ss exit: wide, and apply_params keeps refine_m");
}

/*
 * The refinement's wide streams (docs/rapid-deviations.md#wide-refine):
 * refine_m until a non-stale estimate finds a trend more than 1/8 below
 * its stream's top, or the refinement ends; m from then on.
 */
static void test_wide_refine(void)
{
	struct rapid_schedule s;
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	enum rapid_ev ev;
	u64 top, r0;

	rapid_cfg_default(&cfg);
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 1, 10000, P_FULL);
	tap_ok(ev == RAPID_EV_SS_EXIT && ctl.wide && ctl.m == 1120 &&
	       ctl.rho == rapid_rho(30, 1120),
	       "wide: slow start's exit arms refine_m (rho cached for it)");
	rapid_ctl_schedule(&ctl, &s);
	top = rapid_schedule_top(&s);
	tap_ok(top > 7 * ctl.r_avg && top < 8 * ctl.r_avg,
	       "wide: the top at 7-8 x r_avg (m = 1.07: 3x) [%llu / %llu]",
	       (unsigned long long)top, (unsigned long long)ctl.r_avg);

	/* "no trend" at the top: a lower bound, adopted, still wide */
	rapid_ctl_stream_started(&ctl, 2);
	rapid_ctl_stream_started(&ctl, 3);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 2, top, P_FULL);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg == top && ctl.wide,
	       "wide: an estimate at its top is adopted and the streams stay wide");
	r0 = ctl.r_avg;
	rapid_ctl_stream_started(&ctl, 4);	/* the first at the new r_avg */
	ev = rapid_ctl_on_abest(&ctl, &cfg, 3, top / 2, P_FULL);
	tap_ok(ev == RAPID_EV_NONE && ctl.wide && ctl.m == 1120,
	       "wide: a stream sent before the raise does not end it (stale)");
	rapid_ctl_schedule(&ctl, &s);
	top = rapid_schedule_top(&s);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 4, top / 2, P_FULL);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg == top / 2 && !ctl.wide &&
	       ctl.m == 1070 && ctl.rho == rapid_rho(30, 1070) && ctl.refine,
	       "wide: a trend half-way up its stream is adopted, m again, the refinement goes on");
	tap_eq(rapid_ctl_steady_m(&ctl, &cfg), 1070, "wide: apply_params takes m again");
	tap_ok(r0 < ctl.r_avg, "wide: (the trend's value above the old r_avg)");

	/* just under the top (within 1/8) is still "no trend" */
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest(&ctl, &cfg, 1, 10000, P_FULL);
	rapid_ctl_stream_started(&ctl, 2);
	rapid_ctl_schedule(&ctl, &s);
	top = rapid_schedule_top(&s);
	rapid_ctl_on_abest(&ctl, &cfg, 2, top - top / 10, P_FULL);
	tap_ok(ctl.wide, "wide: an estimate 1/10 below its top keeps the streams wide");

	/* a low estimate is a trend too; the refinement's end ends it */
	rapid_ctl_stream_started(&ctl, 3);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 3, ctl.r_avg / 2, P_FULL);
	tap_ok(ev == RAPID_EV_NONE && ctl.refine_low && !ctl.wide && ctl.m == 1070,
	       "wide: the refinement's first low estimate takes m again (r_avg kept)");
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest(&ctl, &cfg, 1, 10000, P_FULL);
	ctl.refine = 1;
	rapid_ctl_stream_started(&ctl, 2);
	rapid_ctl_schedule(&ctl, &s);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 2, rapid_schedule_top(&s), P_FULL);
	tap_ok(ev == RAPID_EV_INCREASE && !ctl.refine && !ctl.wide && ctl.m == 1070,
	       "wide: the refinement's budget spent at its top: m again");

	/* refine_m = 0, or no refinement: the exit takes m at once */
	cfg.refine_m = 0;
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest(&ctl, &cfg, 1, 10000, P_FULL);
	tap_ok(!ctl.wide && ctl.m == 1070 && rapid_ctl_steady_m(&ctl, &cfg) == 1070,
	       "wide: refine_m = 0 probes with m after the exit");
	cfg.refine_m = RAPID_DEF_REFINE_M;
	cfg.ss_refine = 0;
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest(&ctl, &cfg, 1, 10000, P_FULL);
	tap_ok(!ctl.wide && ctl.m == 1070, "wide: ss_refine = 0 (the report's rule): m");
	cfg.ss_refine = RAPID_DEF_SS_REFINE;

	/* an RTO's slow start and a lab mode's fixed rate clear it */
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest(&ctl, &cfg, 1, 10000, P_FULL);
	rapid_ctl_on_rto(&ctl, &cfg, 0);
	tap_ok(!ctl.wide && ctl.phase == RAPID_PHASE_SS && ctl.m == 2000,
	       "wide: an RTO's slow start clears it");
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest(&ctl, &cfg, 1, 10000, P_FULL);
	rapid_ctl_set_fixed(&ctl, &cfg, 100000);
	tap_ok(!ctl.wide && ctl.m == 1070, "wide: the fixed rate (lab mode) clears it");
}

/*
 * ss_n_init: a connection's first stream has N = ss_n_init (at most
 * ss_n_max), r_1 the initial rate, m = 2; its no-trend estimate doubles N
 * as before; an RTO's slow start keeps N = 2.  With 8 packets from
 * 500 kbit/s (62500 B/s) the top is 2^6 x 62500 = 4e6 B/s (N - 1 rates).
 */
static void test_ss_n_init(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_schedule s;
	u64 top;

	rapid_cfg_default(&cfg);
	tap_eq(cfg.ss_n_init, 2, "ss_n_init: the report's N = 2 by default");
	cfg.ss_n_init = 8;
	cfg.init_rate = 62500;
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_schedule(&ctl, &s);
	top = rapid_schedule_top(&s);
	tap_ok(ctl.phase == RAPID_PHASE_SS && s.n == 8 && s.m == 2000 &&
	       rapid_schedule_rate(&s, 1) == 62500 &&
	       top >= 4000000 - 16 && top <= 4000000 + 16,
	       "ss_n_init 8: N 8, m 2, r_1 62500, top 4e6 B/s (got N %u, top %llu)",
	       s.n, (unsigned long long)top);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest(&ctl, &cfg, 1, top, P_FULL);
	rapid_ctl_schedule(&ctl, &s);
	tap_ok(ctl.phase == RAPID_PHASE_SS && s.n == 16 &&
	       rapid_schedule_rate(&s, 1) >= top - 16 &&
	       rapid_schedule_rate(&s, 1) <= top + 16,
	       "ss_n_init 8: no trend: N 16 from the top");
	rapid_ctl_on_rto(&ctl, &cfg, 0);
	rapid_ctl_schedule(&ctl, &s);
	tap_ok(ctl.phase == RAPID_PHASE_SS && s.n == RAPID_SS_N_INIT,
	       "ss_n_init 8: an RTO's slow start keeps N = 2");
	cfg.ss_n_init = 64;
	cfg.ss_n_max = 16;
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_schedule(&ctl, &s);
	tap_eq(s.n, 16, "ss_n_init above ss_n_max: ss_n_max");
	cfg.ss_n_init = 0;
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_schedule(&ctl, &s);
	tap_eq(s.n, RAPID_N_MIN, "ss_n_init 0: the least N");
}

static void test_slow_start_rules(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_schedule s;
	enum rapid_ev ev;

	rapid_cfg_default(&cfg);

	/* ABest before any stream of the current parameters: ignored */
	rapid_ctl_init(&ctl, &cfg);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 1, 125000000, P_FULL);
	tap_eq(ev, RAPID_EV_IGNORED, "ss: ABest before the first stream starts is ignored");

	/* stream 1 grows; a late ABest for stream 1 again is a duplicate */
	rapid_ctl_stream_started(&ctl, 1);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 1, 12500, P_FULL);
	tap_eq(ev, RAPID_EV_SS_GROW, "ss: ABest == top (12500) grows");
	ev = rapid_ctl_on_abest(&ctl, &cfg, 1, 12500, P_FULL);
	tap_eq(ev, RAPID_EV_IGNORED, "ss: duplicate ABest for the same stream ignored");
	/* stream 2 was launched before the growth was known: old params */
	ev = rapid_ctl_on_abest(&ctl, &cfg, 2, 12500, P_FULL);
	tap_eq(ev, RAPID_EV_IGNORED, "ss: ABest for a stream sent before the growth is ignored");

	/* a capped "no trend": slow start goes on, r_1 only up to the cap */
	{
		struct rapid_ctl c2;
		struct rapid_cfg capped = cfg;
		struct rapid_schedule s2;

		rapid_ctl_init(&c2, &cfg);
		rapid_ctl_stream_started(&c2, 1);
		rapid_ctl_schedule(&c2, &s2);
		capped.ss_r1_cap = 6000;
		ev = rapid_ctl_on_abest(&c2, &capped, 1,
					rapid_schedule_top(&s2) * 4, P_FULL);
		tap_eq(ev, RAPID_EV_SS_GROW, "ss: no trend under an r_1 cap still grows");
		rapid_ctl_schedule(&c2, &s2);
		tap_eq(rapid_rate_from_fp(s2.r1_fp), 6000,
		       "ss: ... with r_1 at the cap (6000), not at the top");
	}

	/* the exit cap (ss_exit_cap): the exit at most there, 0 = none */
	{
		static const struct {
			u64 cap, want;
			const char *what;
		} exits[] = {
			{ 0, 25000, "ss exit cap: 0 = none, exit at ABest" },
			{ 10000, 10000, "ss exit cap: ABest 25000 above the cap 10000: exit at the cap" },
			{ 25000, 25000, "ss exit cap: ABest at the cap: exit at ABest" },
			{ 40000, 25000, "ss exit cap: ABest below the cap: exit at ABest" },
		};
		struct rapid_ctl c2 = ctl;
		struct rapid_cfg capped = cfg;
		u32 i;

		for (i = 0; i < sizeof(exits) / sizeof(exits[0]); i++) {
			c2 = ctl;
			capped.ss_exit_cap = exits[i].cap;
			rapid_ctl_stream_started(&c2, 3);
			ev = rapid_ctl_on_abest(&c2, &capped, 3, 25000, P_FULL);
			tap_ok(ev == RAPID_EV_SS_EXIT && c2.r_avg == exits[i].want,
			       "%s (got %llu)", exits[i].what,
			       (unsigned long long)c2.r_avg);
		}
		/* the cap does not end slow start: no trend still grows */
		c2 = ctl;
		capped.ss_exit_cap = 1000;
		rapid_ctl_stream_started(&c2, 3);
		rapid_ctl_schedule(&c2, &s);
		ev = rapid_ctl_on_abest(&c2, &capped, 3, rapid_schedule_top(&s),
					P_FULL);
		tap_eq(ev, RAPID_EV_SS_GROW,
		       "ss exit cap: no trend above the cap still grows");
	}

	/* stream 3 carries N=4: trend in the middle -> exit at ABest */
	rapid_ctl_stream_started(&ctl, 3);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 3, 25000, P_FULL);
	tap_eq(ev, RAPID_EV_SS_EXIT, "ss: ABest = r_2 < top exits");
	tap_eq(ctl.r_avg, 25000, "ss: exit r_avg = ABest");

	/* trend from the first packet: the estimator returns r_1 / 2 */
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 1, 6250, P_FULL);
	tap_ok(ev == RAPID_EV_SS_EXIT && ctl.r_avg == 6250,
	       "ss: ABest = r_1/2 exits at r_1/2");

	/* ss_n_max = 8: N stops doubling at 8 */
	cfg.ss_n_max = 8;
	rapid_ctl_init(&ctl, &cfg);
	{
		/*
		 * tops: 12500, 50000, 3.2e6, 64 * 3.2e6 = 2.048e8, then
		 * 64 * 2.048e8 = 1.3e10 saturates at 100 Gbit/s: exit there.
		 */
		enum rapid_ev evs[5];
		u32 id, ns[5];

		for (id = 1; id <= 5; id++) {
			rapid_ctl_schedule(&ctl, &s);
			rapid_ctl_stream_started(&ctl, id);
			ns[id - 1] = s.n;
			evs[id - 1] = rapid_ctl_on_abest(&ctl, &cfg, id,
							 rapid_schedule_top(&s),
							 P_FULL);
		}
		tap_ok(ns[0] == 2 && ns[1] == 4 && ns[2] == 8 && ns[3] == 8 &&
		       ns[4] == 8, "ss: N = 2, 4, 8, 8, 8 with ss_n_max = 8 (got %u %u %u %u %u)",
		       ns[0], ns[1], ns[2], ns[3], ns[4]);
		tap_ok(evs[0] == RAPID_EV_SS_GROW && evs[3] == RAPID_EV_SS_GROW,
		       "ss: still probing while ABest == top");
		tap_ok(evs[4] == RAPID_EV_SS_EXIT && ctl.r_avg == RAPID_RATE_MAX,
		       "ss: top saturated at max_rate without a trend: exit at max_rate");
	}
	rapid_cfg_default(&cfg);

	/* a probe that already reaches max_rate ends slow start */
	cfg.max_rate = 50000;
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest(&ctl, &cfg, 1, 12500, P_FULL);	/* -> N=4, top 50000 */
	rapid_ctl_stream_started(&ctl, 2);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 2, 50000, P_FULL);
	tap_ok(ev == RAPID_EV_SS_EXIT && ctl.r_avg == 50000,
	       "ss: no trend at a top >= max_rate exits at max_rate");
	rapid_cfg_default(&cfg);

	/* ABest above the top in slow start: r_1 = top, not the ABest */
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest(&ctl, &cfg, 1, 1250000000, P_FULL);
	rapid_ctl_schedule(&ctl, &s);
	tap_eq(rapid_schedule_rate(&s, 1), 12500,
	       "ss: r_1 = min(ABest, probed top): no jump past what was probed");

	/* loss in slow start: exit at r_1 of the current stream */
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest(&ctl, &cfg, 1, 12500, P_FULL);	/* N=4, r_1 12500 */
	rapid_ctl_stream_started(&ctl, 2);
	rapid_ctl_on_abest(&ctl, &cfg, 2, 50000, P_FULL);	/* N=8, r_1 50000 */
	ev = rapid_ctl_on_recovery(&ctl, &cfg);
	tap_ok(ev == RAPID_EV_SS_EXIT && ctl.phase == RAPID_PHASE_STEADY,
	       "ss: fast recovery ends slow start");
	tap_near((double)ctl.r_avg, 50000, 1, "ss: recovery exit at the confirmed r_1 = 50000");
	ev = rapid_ctl_undo(&ctl, &cfg);
	rapid_ctl_schedule(&ctl, &s);
	tap_ok(ev == RAPID_EV_UNDO && ctl.phase == RAPID_PHASE_SS && s.n == 8 &&
	       s.m == 2000, "ss: undo of a spurious recovery resumes slow start (N=8, m=2)");
	tap_near((double)rapid_schedule_rate(&s, 1), 50000, 1, "ss: undo restores r_1");
	tap_eq(rapid_ctl_on_recovery(&ctl, &cfg), RAPID_EV_SS_EXIT,
	       "ss: recovery after undo exits again");
}

/* ---- steady state: tau filter, decreases ---------------------------- */

static struct rapid_ctl steady_ctl(const struct rapid_cfg *cfg, u64 r_avg)
{
	struct rapid_ctl ctl;

	rapid_ctl_init(&ctl, cfg);
	rapid_ctl_enter_steady(&ctl, cfg, r_avg);
	return ctl;
}

/* m is the least m' with m'^steps >= want (rapid_fit_span()) */
static bool fit_least_m(u32 m, u32 steps, u64 want)
{
	return rapid_fit_span(m, steps) >= want &&
	       rapid_fit_span(m - 1, steps) < want;
}

/* rapid_stream_fit() leaves N (@n0) and m (@m0) as they are */
static void fit_as_is(u32 n0, u32 m0, u64 rate, u32 srtt_us, u32 mss,
		      u32 pct, const char *what)
{
	u32 n, m;

	rapid_stream_fit(n0, m0, rate, srtt_us, mss, pct, &n, &m);
	tap_ok(n == n0 && m == m0, "%s", what);
}

/*
 * rapid_stream_fit(): N = 30, m = 1.07 at 0.25 Mbit/s (31250 B/s), srtt
 * 100 ms, 1448-byte packets: the stream would last 29 x 1448 / 31250 =
 * 1.34 s; at 50% of srtt (1562 bytes, 1 packet) it has RAPID_FIT_N_MIN
 * packets and an m whose span m^(N-2) is at least 1.07^28 = 6.65, the
 * least such m.  Off, at high rates, without srtt, mss or rate: as is.
 */
static void test_stream_fit(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_schedule s;
	u64 want = rapid_fit_span(1070, 28), top0;
	u32 n, m;

	tap_ok(want > (u64)(6.6 * (1 << 20)) && want < (u64)(6.7 * (1 << 20)),
	       "fit: 1.07^28 in Q20 is 6.65 (got %.3f)", want / 1048576.0);
	rapid_stream_fit(30, 1070, 31250, 100000, 1448, 50, &n, &m);
	tap_ok(n == RAPID_FIT_N_MIN && fit_least_m(m, n - 2, want),
	       "fit: 0.25 Mbit/s, 100 ms, 50%%: N %u, the least m (%u) keeping the span", n, m);
	fit_as_is(30, 1070, 31250, 100000, 1448, 0, "fit: off (0): N and m as they are");
	fit_as_is(30, 1070, 12500000, 100000, 1448, 50,
		  "fit: 100 Mbit/s fits 30 packets in half of 100 ms: as is");
	/* between: 1 Mbit/s = 125000 B/s, 400 ms, 50%: 25000 bytes, 17 packets + 1 */
	rapid_stream_fit(30, 1070, 125000, 400000, 1448, 50, &n, &m);
	tap_ok(n == 18 && fit_least_m(m, 16, want),
	       "fit: as many packets as fit, 18 (got %u, m %u)", n, m);
	fit_as_is(30, 1070, 31250, 0, 1448, 50, "fit: no srtt yet: as is");
	fit_as_is(30, 1070, 31250, 100000, 0, 50, "fit: mss 0: as is");
	fit_as_is(30, 1070, 0, 100000, 1448, 50, "fit: rate 0: as is");
	fit_as_is(RAPID_FIT_N_MIN, 1070, 31250, 100000, 1448, 50,
		  "fit: N already at the least: as is");
	fit_as_is(30, 1070, ~0ULL, ~0U, 1448, ~0U,
		  "fit: huge rate, srtt and share: clamped, as is");
	/* a span no m up to RAPID_M_MAX reaches: the largest m */
	rapid_stream_fit(128, 4000, 31250, 100000, 1448, 50, &n, &m);
	tap_ok(n == RAPID_FIT_N_MIN && m == RAPID_M_MAX,
	       "fit: a span beyond reach takes RAPID_M_MAX (N %u, m %u)", n, m);
	tap_eq(rapid_fit_span(RAPID_M_MAX, 1000), RAPID_FIT_SPAN_CAP,
	       "fit: spans saturate, no overflow");

	/* the controller: steady state only, the schedule's rate kept */
	rapid_cfg_default(&cfg);
	cfg.stream_srtt_pct = 50;
	ctl = steady_ctl(&cfg, 31250);
	rapid_ctl_schedule(&ctl, &s);
	top0 = rapid_schedule_top(&s);
	rapid_ctl_stream_schedule(&ctl, &cfg, &s, 31250, 100000, 1448);
	tap_ok(s.n == RAPID_FIT_N_MIN && s.r_avg == 31250 &&
	       rapid_schedule_top(&s) >= top0 - top0 / 100,
	       "fit: a steady stream at 0.25 Mbit/s: N %u, r_avg kept, top %llu against %llu",
	       s.n, (unsigned long long)rapid_schedule_top(&s),
	       (unsigned long long)top0);
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_schedule(&ctl, &s);
	rapid_ctl_stream_schedule(&ctl, &cfg, &s, ctl.r_avg, 100000, 1448);
	tap_eq(s.n, RAPID_SS_N_INIT, "fit: slow start's streams are left alone");
}

/* The report's law: its tau, every lower estimate adopted at once. */
static void report_cfg(struct rapid_cfg *cfg)
{
	rapid_cfg_default(cfg);
	cfg->tau_ns = (u64)RAPID_REPORT_TAU_MS * RAPID_NSEC_PER_MSEC;
	cfg->cut_max = RAPID_CUT_MAX_MAX;
	cfg->hold_milli = 0;
}

static void test_tau_filter(void)
{
	const double r0 = 12.5e6, a = 25e6, tau = 0.2;	/* 100 -> 200 Mbit/s */
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	double ref = r0, t = 0, t_ref = 0, worst = 0;
	int streams = 0, streams_ref = 0, done = 0, done_ref = 0;
	u32 id;

	report_cfg(&cfg);
	ctl = steady_ctl(&cfg, (u64)r0);
	for (id = 1; id < 100000 && !(done && done_ref); id++) {
		double got;

		if (!done) {
			/* the stream that carried this ABest lasted l */
			double prev = (double)ctl.r_avg;
			double step_ref = ref_filter(prev, a, 30, P_FULL, tau);
			double e;

			t += 30.0 * P_FULL / prev;
			rapid_ctl_on_abest(&ctl, &cfg, id, (u64)a, P_FULL);
			streams++;
			got = (double)ctl.r_avg;
			/* Q24 fraction + rounding up: 1 B/s + 1e-5 of the step */
			e = fabs(got - step_ref) / (1 + 1e-5 * (step_ref - prev));
			if (e > worst)
				worst = e;
			if (got >= r0 + 0.9 * (a - r0))
				done = 1;
		}
		if (!done_ref) {
			t_ref += 30.0 * P_FULL / ref;
			ref = ref_filter(ref, a, 30, P_FULL, tau);
			streams_ref++;
			if (ref >= r0 + 0.9 * (a - r0))
				done_ref = 1;
		}
	}
	tap_ok(worst <= 1.0, "tau filter step = Eq. 6 within 1 B/s + 1e-5 of the step (worst %.3f)", worst);
	tap_ok(abs(streams - streams_ref) <= 1,
	       "tau filter: 90%% reached after %d streams (double reference %d)",
	       streams, streams_ref);
	/* continuous limit: gap(t) = gap0 exp(-t / tau) -> t90 = tau ln 10 */
	tap_near(t, tau * log(10.0), 0.02 * tau * log(10.0),
		 "tau filter: 90%% after %.4f s of streams, closed form tau ln 10 = %.4f s",
		 t, tau * log(10.0));
	tap_near(t, t_ref, 0.001, "tau filter: elapsed time = double reference (%.4f s)", t_ref);

	/* l >= tau: adopted at once (10 kbit/s stream lasts 34.8 s) */
	ctl = steady_ctl(&cfg, 1250);
	rapid_ctl_on_abest(&ctl, &cfg, 1, 2500, P_FULL);
	tap_eq(ctl.r_avg, 2500, "tau filter: l >= tau adopts ABest at once");

	/* tiny step still moves (rounded up) */
	ctl = steady_ctl(&cfg, RAPID_RATE_MAX - 1);
	tap_eq(rapid_ctl_on_abest(&ctl, &cfg, 1, RAPID_RATE_MAX, P_FULL),
	       RAPID_EV_INCREASE, "tau filter: a 1 B/s step at 100 Gbit/s still moves");
	tap_eq(ctl.r_avg, RAPID_RATE_MAX, "tau filter: ... and reaches 100 Gbit/s");
	tap_eq(rapid_ctl_on_abest(&ctl, &cfg, 2, ~0ULL, P_FULL), RAPID_EV_NONE,
	       "tau filter: ABest = U64_MAX at the maximum changes nothing");

	/* tau = 0 (guard): adopt at once; mss = 0 (guard): no division by 0 */
	tap_eq(rapid_filter_increase(1000000, 2000000, 30, P_FULL, 0), 2000000,
	       "tau = 0: adopt at once");
	tap_ok(rapid_filter_increase(1000000, 2000000, 30, 0, 200000000) > 1000000,
	       "mss = 0: still a finite step");
	tap_eq(rapid_filter_increase(0, 2000000, 30, P_FULL, 200000000), 2000000,
	       "r_avg = 0: adopt at once (no division by zero)");
	/* one step by hand: 100 -> 200 Mbit/s, l = 3.4752 ms, l/tau = 0.017376 */
	tap_near((double)rapid_filter_increase(12500000, 25000000, 30, P_FULL, 200000000),
		 12500000 + 0.017376 * 12500000, 2,
		 "one step by hand: 12.5e6 + 0.017376 * 12.5e6 = 12717200");
}

static void test_decrease(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	enum rapid_ev ev;

	report_cfg(&cfg);
	ctl = steady_ctl(&cfg, 125000000);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 1, 50000000, P_FULL);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == 50000000,
	       "decrease adopted at once (1 Gbit/s -> 400 Mbit/s in one ABest)");
	ev = rapid_ctl_on_abest(&ctl, &cfg, 2, 0, P_FULL);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == RAPID_RATE_MIN,
	       "ABest = 0 clamps to min_rate (10 kbit/s)");
	cfg.min_rate = 125000;
	ev = rapid_ctl_on_abest(&ctl, &cfg, 3, 1000, P_FULL);
	tap_eq(ctl.r_avg, 125000, "decrease clamps to a configured min_rate");
	cfg.max_rate = 1250000;
	ev = rapid_ctl_on_abest(&ctl, &cfg, 4, 125000000, P_FULL);
	tap_ok(ctl.r_avg <= 1250000, "increase clamps to max_rate");
	report_cfg(&cfg);

	/* ids: stale and wrapped */
	ctl = steady_ctl(&cfg, 1000000);
	rapid_ctl_on_abest(&ctl, &cfg, 10, 900000, P_FULL);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 9, 100000, P_FULL);
	tap_ok(ev == RAPID_EV_IGNORED && ctl.r_avg == 900000,
	       "ABest for an older stream than the last applied is ignored");
	ctl.last_id = 0xfffffff0U;
	ev = rapid_ctl_on_abest(&ctl, &cfg, 5, 800000, P_FULL);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == 800000,
	       "stream ids wrap around (serial arithmetic)");
}

/* Bounded cuts and the hold without a standing queue (the defaults). */
static void test_bounded_decrease(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	enum rapid_ev ev;
	u64 r = 125000000, want;

	rapid_cfg_default(&cfg);
	tap_eq(cfg.cut_max, 125, "defaults: a cut of at most 1/8 of r_avg per estimate");
	tap_eq(cfg.hold_milli, 200, "defaults: hold within 20%% of r_avg without a queue");
	tap_eq(cfg.tau_ns, 1200000000ULL, "defaults: tau 1.2 s (the report's 0.2 s x 6)");
	ctl = steady_ctl(&cfg, r);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 1, 50000000, P_FULL);
	want = r - r / 8;
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == want,
	       "bounded: 1 Gbit/s -> 400 Mbit/s estimate cuts 1/8 (875 Mbit/s), got %llu",
	       (unsigned long long)ctl.r_avg);
	rapid_ctl_on_abest(&ctl, &cfg, 2, 50000000, P_FULL);
	tap_eq(ctl.r_avg, want - want / 8, "bounded: the next estimate cuts 1/8 again");
	ctl = steady_ctl(&cfg, r);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 3, r - r / 16, P_FULL);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == r - r / 16,
	       "bounded: a cut below the bound is adopted exactly");
	ctl = steady_ctl(&cfg, r);
	rapid_ctl_on_abest(&ctl, &cfg, 4, 0, P_FULL);
	tap_eq(ctl.r_avg, r - r / 8, "bounded: ABest = 0 cuts 1/8, not to the floor");
	ctl = steady_ctl(&cfg, RAPID_RATE_MAX);
	rapid_ctl_on_abest(&ctl, &cfg, 5, 1, P_FULL);
	tap_eq(ctl.r_avg, RAPID_RATE_MAX - RAPID_RATE_MAX / 8,
	       "bounded: at 100 Gbit/s, no overflow");
	ctl = steady_ctl(&cfg, 2 * RAPID_RATE_MIN);
	rapid_ctl_on_abest(&ctl, &cfg, 6, 0, P_FULL);
	tap_eq(ctl.r_avg, 2 * RAPID_RATE_MIN - 2 * RAPID_RATE_MIN / 8,
	       "bounded: near min_rate, the floor of the cut holds above it");
	for (ev = 0, r = 7; r < 200; r++)	/* 1/8 of small rates */
		ev |= rapid_ctl_decrease_to(&(struct rapid_ctl){ .r_avg = r }, &cfg, 0) !=
		      r - r * 125 / 1000;
	tap_eq(ev, 0, "bounded: r - r x 125 / 1000 for r = 7..199 B/s");

	/* the hold: no queue and less than 20% below */
	r = 125000000;
	{
		/* ABest r - r / div - less (div 0: ABest 0); r_avg after it
		 * r - r / want_div (0: r, held)
		 */
		static const struct {
			u8 queue_free;
			u16 hold_milli;
			u32 div, less, want_div;
			const char *what;
		} hc[] = {
			{ 1, 200, 5, 0, 0, "hold: no queue, 20% below: r_avg stays" },
			{ 1, 200, 5, 1, 8, "hold: no queue, more than 20% below: the bounded cut" },
			{ 0, 200, 20, 0, 20, "hold: with a standing queue, 5% below is adopted" },
			{ 1, 0, 20, 0, 20, "hold_milli = 0: off" },
			{ 1, 1000, 0, 0, 0, "hold_milli = 1000 without a queue: even ABest = 0 holds (a queue ends it)" },
		};
		u32 i;

		for (i = 0; i < sizeof(hc) / sizeof(hc[0]); i++) {
			u64 a = hc[i].div ? r - r / hc[i].div - hc[i].less : 0;
			u64 w = hc[i].want_div ? r - r / hc[i].want_div : r;

			cfg.queue_free = hc[i].queue_free;
			cfg.hold_milli = hc[i].hold_milli;
			ctl = steady_ctl(&cfg, r);
			ev = rapid_ctl_on_abest(&ctl, &cfg, 7 + i, a, P_FULL);
			tap_ok(ev == (w == r ? RAPID_EV_NONE : RAPID_EV_DECREASE) &&
			       ctl.r_avg == w, "%s", hc[i].what);
		}
	}
	/* the bound off: 1000 and the defensive 0 are the report's rule */
	cfg.hold_milli = 0;
	cfg.cut_max = 1000;
	ctl = steady_ctl(&cfg, r);
	rapid_ctl_on_abest(&ctl, &cfg, 12, 50000000, P_FULL);
	tap_eq(ctl.r_avg, 50000000, "cut_max = 1000: adopted at once (the report)");
	cfg.cut_max = 0;
	ctl = steady_ctl(&cfg, r);
	rapid_ctl_on_abest(&ctl, &cfg, 13, 50000000, P_FULL);
	tap_eq(ctl.r_avg, 50000000, "cut_max = 0 (not a module value): no bound either");
	cfg.cut_max = 1;
	ctl = steady_ctl(&cfg, r);
	rapid_ctl_on_abest(&ctl, &cfg, 14, 0, P_FULL);
	tap_eq(ctl.r_avg, r - r / 1000, "cut_max = 1: 1/1000 per estimate");

	/* the deep cut: a standing queue's share of T deepens the bound */
	tap_eq(rapid_cut_bound(125, 0, 100000), 125, "cut_deep: no queue: cut_max");
	tap_eq(rapid_cut_bound(125, 20000, 0), 125, "cut_deep: T 0 (off): cut_max");
	tap_eq(rapid_cut_bound(125, 12000, 100000), 125,
	       "cut_deep: 12 ms of 100 ms (120/1000) is below cut_max: cut_max");
	tap_eq(rapid_cut_bound(50, 12000, 100000), 120,
	       "cut_deep: ... above cut_max 50: 120/1000");
	tap_eq(rapid_cut_bound(125, 30000, 100000), 300,
	       "cut_deep: 30 ms of 100 ms: 300/1000");
	tap_eq(rapid_cut_bound(125, 100000, 100000), RAPID_CUT_MAX_MAX,
	       "cut_deep: a queue of T: no bound");
	tap_eq(rapid_cut_bound(125, U32_MAX, 10000), RAPID_CUT_MAX_MAX,
	       "cut_deep: qd U32_MAX: no bound, no overflow");
	tap_eq(rapid_cut_bound(125, U32_MAX - 1, U32_MAX), 999,
	       "cut_deep: qd and T near U32_MAX: no overflow");
	tap_eq(rapid_cut_bound(1000, 1, 10000), 1000,
	       "cut_deep: cut_max 1000 stays the report's rule");
	rapid_cfg_default(&cfg);
	tap_eq(cfg.cut_t_us, 0, "cut_deep: no drain time by default (the caller sets it)");
	r = 125000000;
	cfg.qd_us = 30000;
	cfg.cut_t_us = 100000;
	ctl = steady_ctl(&cfg, r);
	rapid_ctl_on_abest(&ctl, &cfg, 16, 50000000, P_FULL);
	tap_eq(ctl.r_avg, r - r * 300 / 1000,
	       "cut_deep: a 30 ms queue at T 100 ms: 400 Mbit/s cuts 30%%, not 1/8");
	ctl = steady_ctl(&cfg, r);
	rapid_ctl_on_abest(&ctl, &cfg, 17, r - r / 5, P_FULL);
	tap_eq(ctl.r_avg, r - r / 5, "cut_deep: ... an estimate 20%% low is adopted");
	cfg.qd_us = 2000;
	ctl = steady_ctl(&cfg, r);
	rapid_ctl_on_abest(&ctl, &cfg, 18, r - r / 5, P_FULL);
	tap_eq(ctl.r_avg, r - r / 8, "cut_deep: a 2 ms queue: cut_max's 1/8");
	cfg.qd_us = 30000;
	cfg.cut_max = 0;
	ctl = steady_ctl(&cfg, r);
	rapid_ctl_on_abest(&ctl, &cfg, 19, 50000000, P_FULL);
	tap_eq(ctl.r_avg, 50000000, "cut_deep: cut_max 0 (not a module value): still no bound");
	rapid_cfg_default(&cfg);

	/* slow start's exit refinement ends at a lower estimate unbounded */
	rapid_cfg_default(&cfg);
	ctl = steady_ctl(&cfg, r);
	ctl.refine = 4;
	ctl.refine_low = 1;
	rapid_ctl_on_abest(&ctl, &cfg, 15, 50000000, P_FULL);
	tap_eq(ctl.r_avg, 50000000, "refinement: its lower estimate is adopted at once");

	/* what counts as no standing queue: qd < max(base, 10 ms) / 128 */
	tap_ok(rapid_queue_free(0, 60000), "queue_free: qd 0");
	tap_ok(rapid_queue_free(467, 60000), "queue_free: 467 us at a 60 ms base (60000 >> 7 = 468)");
	tap_ok(!rapid_queue_free(468, 60000), "queue_free: 468 us at a 60 ms base is a queue");
	tap_ok(rapid_queue_free(77, 0), "queue_free: base 0 counts as 10 ms (78 us)");
	tap_ok(!rapid_queue_free(78, 1000), "queue_free: ... so does a 1 ms base");
	tap_ok(rapid_queue_free(U32_MAX / 128 - 1, U32_MAX),
	       "queue_free: the largest base, no overflow");
	tap_ok(!rapid_queue_free(U32_MAX, U32_MAX), "queue_free: qd U32_MAX is a queue");
}

/* ---- the hold's queue test with the flow's share ------------------- */

static void test_queue_free_share(void)
{
	/* 4 Mbit/s = 500000 B/s: 4 packets of 1448 B are 11.584 ms of it */
	const u64 r = 500000;
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;

	tap_ok(rapid_queue_free_share(0, 60000, r, 1448, 4),
	       "share: no queue is free whatever the share");
	tap_ok(rapid_queue_free_share(11583, 60000, r, 1448, 4),
	       "share: 11.583 ms of a 4 Mbit/s flow hold 5791 B < 4 x 1448");
	tap_ok(!rapid_queue_free_share(11584, 60000, r, 1448, 4),
	       "share: 11.584 ms hold its 4 packets: a queue");
	tap_ok(!rapid_queue_free_share(1000, 60000, r, 1448, 0),
	       "share: pkts 0 is the queue test alone (1 ms > 468 us)");
	tap_ok(rapid_queue_free_share(467, 60000, r, 1448, 0),
	       "share: ... which still finds 467 us free");
	tap_ok(!rapid_queue_free_share(1000, 60000, 0, 1448, 4),
	       "share: r_avg 0 holds no share: the queue test alone");
	tap_ok(!rapid_queue_free_share(1000, 60000, r, 0, 4),
	       "share: mss 0 holds nothing less than 0 bytes");
	/* 1 Gbit/s: 4 packets are 46 us, below any queue the base test sees */
	tap_ok(!rapid_queue_free_share(1000, 60000, 125000000, 1448, 4),
	       "share: at 1 Gbit/s 1 ms is 85 of the flow's packets");
	tap_ok(rapid_queue_free_share(1000, 60000, 125000, 1448, 4),
	       "share: at 1 Mbit/s 1 ms is 125 B of it");
	/* bounds: the largest rate and a queue past RAPID_SHARE_QD_MAX_US */
	tap_ok(!rapid_queue_free_share(RAPID_SHARE_QD_MAX_US, U32_MAX >> 8,
				       ~0ULL, 1448, 4),
	       "share: r_avg ~0 (clamped to RAPID_RATE_MAX) and a 60 s queue: no overflow");
	tap_ok(!rapid_queue_free_share(RAPID_SHARE_QD_MAX_US + 1, 60000, 1,
				       1448, 4),
	       "share: a queue longer than 60 s is nobody's share");
	tap_ok(rapid_queue_free_share(RAPID_SHARE_QD_MAX_US, 60000, 1, 1448, 4),
	       "share: 1 B/s for 60 s is 60 B");
	tap_ok(rapid_queue_free_share(U32_MAX, U32_MAX, 1, 1, 4) ==
	       rapid_queue_free(U32_MAX, U32_MAX),
	       "share: qd U32_MAX at base U32_MAX: the queue test's answer");
	tap_ok(rapid_queue_free_share(20000, 60000, r, 1448, 1000),
	       "share: pkts 1000 are 64: 20 ms of 4 Mbit/s (10000 B) are below 64 packets");
	tap_ok(!rapid_queue_free_share(200000, 60000, r, 1448, 1000),
	       "share: ... 200 ms (100000 B) are above 64 packets (92672 B), not 1000");

	/* what the controller does with it: the hold at a small share */
	rapid_cfg_default(&cfg);
	ctl = steady_ctl(&cfg, r);
	cfg.queue_free = rapid_queue_free_share(5000, 60000, ctl.r_avg, P_FULL,
						4);
	rapid_ctl_on_abest(&ctl, &cfg, 11, r - r / 10, P_FULL);
	tap_eq(ctl.r_avg, r, "share: a 5 ms queue, 4 Mbit/s: an estimate 10%% low is held");
	rapid_cfg_default(&cfg);
	ctl = steady_ctl(&cfg, r);
	cfg.queue_free = rapid_queue_free(5000, 60000);
	rapid_ctl_on_abest(&ctl, &cfg, 11, r - r / 10, P_FULL);
	tap_eq(ctl.r_avg, r - r / 10, "share: ... which the queue test alone cuts");

	/* the peers' queue: no cut at all, however low the estimate */
	tap_ok(rapid_queue_peers(5000, 60000, r, P_FULL, 4),
	       "peers: 5 ms hold 2500 B of a 4 Mbit/s flow: its peers' queue");
	tap_ok(!rapid_queue_peers(400, 60000, r, P_FULL, 4),
	       "peers: 0.4 ms is no standing queue, nobody's");
	tap_ok(!rapid_queue_peers(12000, 60000, r, P_FULL, 4),
	       "peers: 12 ms hold its 4 packets: its own too");
	tap_ok(!rapid_queue_peers(5000, 60000, r, P_FULL, 0),
	       "peers: share_pkts 0: never");
	rapid_cfg_default(&cfg);
	ctl = steady_ctl(&cfg, r);
	cfg.queue_free = rapid_queue_free_share(5000, 60000, ctl.r_avg, P_FULL,
						4);
	cfg.queue_peers = rapid_queue_peers(5000, 60000, ctl.r_avg, P_FULL, 4);
	rapid_ctl_on_abest(&ctl, &cfg, 11, r / 2, P_FULL);
	tap_eq(ctl.r_avg, r, "peers: an estimate 50%% low does not cut in the peers' queue");
	rapid_cfg_default(&cfg);
	ctl = steady_ctl(&cfg, r);
	cfg.queue_free = rapid_queue_free_share(5000, 60000, ctl.r_avg, P_FULL,
						4);
	rapid_ctl_on_abest(&ctl, &cfg, 11, r / 2, P_FULL);
	tap_eq(ctl.r_avg, r - r / 8, "peers: ... which the share's hold alone cuts by cut_max");
	rapid_cfg_default(&cfg);
	ctl = steady_ctl(&cfg, r);
	cfg.queue_peers = 1;
	rapid_ctl_on_abest(&ctl, &cfg, 11, r + r / 10, P_FULL);
	tap_ok(ctl.r_avg > r, "peers: a higher estimate still raises r_avg");
}

/* ---- the hold while the path reorders: no cut without a standing queue -- */

/* r_avg after one estimate @abest on a steady flow at @r, defaults but: */
static u64 reorder_hold_after(u8 reorder_hold, u8 reorders, u8 queue_free,
			      u64 r, u64 abest)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;

	rapid_cfg_default(&cfg);
	cfg.reorder_hold = reorder_hold;
	ctl = steady_ctl(&cfg, r);
	cfg.reorders = reorders;
	cfg.queue_free = queue_free;
	rapid_ctl_on_abest(&ctl, &cfg, 11, abest, P_FULL);
	return ctl.r_avg;
}

static void test_reorder_hold(void)
{
	const u64 r = 2500000;	/* 20 Mbit/s: the lab's jitter path */
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	u8 own_free;

	rapid_cfg_default(&cfg);
	tap_eq(cfg.reorder_hold, 1, "reorder hold: on by default");

	/* reordering, no standing queue: an estimate at 40% is held */
	ctl = steady_ctl(&cfg, r);
	cfg.reorders = 1;
	cfg.queue_free = rapid_queue_free_share(200, 60000, r, P_FULL, 3);
	rapid_ctl_on_abest(&ctl, &cfg, 11, r * 2 / 5, P_FULL);
	tap_eq(ctl.r_avg, r, "reorder hold: an estimate 60%% low without a queue does not cut");
	rapid_ctl_on_abest(&ctl, &cfg, 12, 1, P_FULL);
	tap_eq(ctl.r_avg, r, "reorder hold: ... nor one of 1 B/s");
	rapid_ctl_on_abest(&ctl, &cfg, 13, r + r / 5, P_FULL);
	tap_ok(ctl.r_avg > r, "reorder hold: a higher estimate still raises r_avg");

	/* a standing queue of the flow's own: the cut as always */
	own_free = rapid_queue_free_share(5000, 60000, r, P_FULL, 3);
	tap_ok(!own_free, "reorder hold: 5 ms of a lone 20 Mbit/s flow are its 8 packets");
	tap_eq(reorder_hold_after(1, 1, own_free, r, r * 2 / 5), r - r / 8,
	       "reorder hold: ... so a low estimate cuts by cut_max");

	/* the path in order: the hold of hold_milli alone */
	tap_eq(reorder_hold_after(1, 0, 1, r, r * 2 / 5), r - r / 8,
	       "reorder hold: in order, an estimate 60%% low cuts");

	/* off: as in order */
	tap_eq(reorder_hold_after(0, 1, 1, r, r * 2 / 5), r - r / 8,
	       "reorder hold: reorder_hold=0 cuts as in order");
	tap_eq(reorder_hold_after(0, 1, 1, r, r - r / 10), r,
	       "reorder hold: ... and holds within hold_milli");
}

/* ---- the fair cut: a flow that holds more than its packets of the queue -- */

/*
 * r_avg after one estimate `abest` at 5000000 B/s in steady state (refine
 * streams of the exit's refinement left) with fair_pkts `pkts` and a
 * standing queue of qd_us.
 */
static u64 fair_cut_step(u32 pkts, u32 qd_us, u64 abest, u8 refine)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;

	rapid_cfg_default(&cfg);
	cfg.fair_pkts = pkts;
	ctl = steady_ctl(&cfg, 5000000);
	ctl.refine = refine;
	cfg.qd_us = qd_us;
	rapid_ctl_on_abest(&ctl, &cfg, 11, abest, 1448);
	return ctl.r_avg;
}

/*
 * The same through rapid_ctl_on_abest_law() with a law whose last two
 * standing-queue samples are prev_us and then qd_us (as rapid_law_queue()
 * leaves them), fair_pkts 32, an estimate 1/4 above r_avg, count off.
 */
static u64 fair_cut_law_step(u32 qd_us, u32 prev_us)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_law law;

	rapid_cfg_default(&cfg);
	cfg.fair_pkts = 32;
	cfg.count_report = 0;
	ctl = steady_ctl(&cfg, 5000000);
	ctl.refine = 0;
	rapid_law_reset(&law);
	rapid_law_queue(&law, 1000, prev_us, 100000);
	rapid_law_queue(&law, 2000, qd_us, 100000);
	cfg.qd_us = qd_us;
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 11, 6250000, 1448,
			       100000, 3000);
	return ctl.r_avg;
}

static void test_fair_cut(void)
{
	/* 40 Mbit/s = 5000000 B/s: 32 packets of 1448 B are 9.2672 ms of it */
	const u64 r = 5000000, tau = 1200ULL * RAPID_NSEC_PER_MSEC;
	struct rapid_cfg cfg;

	tap_eq(rapid_ctl_fair_cut(r, 0, 0, 32, 30, 1448, tau), 0,
	       "fair cut: no queue, no cut");
	tap_eq(rapid_ctl_fair_cut(r, 20000, 0, 0, 30, 1448, tau), 0,
	       "fair cut: pkts 0 is off");
	tap_eq(rapid_ctl_fair_cut(0, 20000, 0, 32, 30, 1448, tau), 0,
	       "fair cut: r_avg 0 holds nothing");
	tap_eq(rapid_ctl_fair_cut(r, 20000, 0, 32, 30, 0, tau), 0,
	       "fair cut: mss 0 is no packet");
	tap_eq(rapid_ctl_fair_cut(r, 9267, 0, 32, 30, 1448, tau), 0,
	       "fair cut: 9.267 ms hold 46335 B, not more than 32 x 1448 = 46336");
	/* 9.268 ms: 46340 B, the fair rate 4999568, 432 away; l / t of it is 12 */
	tap_eq(rapid_ctl_fair_cut(r, 9268, 0, 32, 30, 1448, tau), r - 12,
	       "fair cut: 9.268 ms hold 46340 B: a cut of l / (tau / 4) of 432 B/s");
	/*
	 * 18.534 ms hold 92670 B, twice the packets: the fair rate is
	 * 231680000000 / 92670 = 2500053; a stream of 30 x 1448 B lasts
	 * 8.688 ms, 485868 / 2^24 of tau / 4 = 300 ms, so the step is
	 * 2499947 x 485868 >> 24 = 72398 (72398.47 exactly)
	 */
	tap_eq(rapid_ctl_fair_cut(r, 18534, 0, 32, 30, 1448, tau), r - 72398,
	       "fair cut: twice the packets: l / (tau / 4) of the way to half the rate");
	tap_eq(rapid_ctl_fair_cut(r, 18534, 0, 32, 30, 1448, 4 * RAPID_NSEC_PER_MSEC),
	       2500053, "fair cut: a stream longer than tau / 4 goes all the way");
	tap_eq(rapid_ctl_fair_cut(r, 9268, 0, 32, 30, 1448, 60000ULL * RAPID_NSEC_PER_MSEC),
	       r - 1, "fair cut: a step that rounds to 0 is one B/s: still below r_avg");
	tap_ok(rapid_ctl_fair_cut(r, 18534, 0, 64, 30, 1448, tau) == 0,
	       "fair cut: 64 packets are more than 18.534 ms hold");
	/* bounds: every input at its largest */
	tap_ok(rapid_ctl_fair_cut(~0ULL, U32_MAX, 0, U32_MAX, RAPID_N_MAX, 65535,
				  ~0ULL) < RAPID_RATE_MAX,
	       "fair cut: r_avg, qd, pkts, mss and tau at their largest: no overflow, a cut");
	tap_eq(rapid_ctl_fair_cut(RAPID_RATE_MAX, RAPID_SHARE_QD_MAX_US, 0,
				  RAPID_FAIR_PKTS_MAX, 2, 65535, 1),
	       div64_u64(RAPID_RATE_MAX * RAPID_FAIR_PKTS_MAX * 65535,
			 RAPID_RATE_MAX / RAPID_USEC_PER_SEC *
			 RAPID_SHARE_QD_MAX_US),
	       "fair cut: 100 Gbit/s and a 60 s queue: the fair rate, exactly");
	tap_eq(rapid_ctl_fair_cut(r, 18534, 0, RAPID_FAIR_PKTS_MAX + 1, 30, 1448, tau),
	       0, "fair cut: pkts above RAPID_FAIR_PKTS_MAX count as it");
	/* a draining queue: below the stream before's sample */
	tap_eq(rapid_ctl_fair_cut(r, 18534, 18535, 32, 30, 1448, tau), 0,
	       "fair cut: a queue 1 us below the stream before's is draining: no cut");
	tap_eq(rapid_ctl_fair_cut(r, 18534, 18534, 32, 30, 1448, tau), r - 72398,
	       "fair cut: a queue as long as the stream before's holds: the cut");
	tap_eq(rapid_ctl_fair_cut(r, 18534, 9000, 32, 30, 1448, tau), r - 72398,
	       "fair cut: a growing queue: the cut");
	tap_eq(rapid_ctl_fair_cut(r, 18534, U32_MAX, 32, 30, 1448, tau), 0,
	       "fair cut: the stream before at U32_MAX: draining, no cut");

	/* what the controller does with it: an estimate above r_avg */
	rapid_cfg_default(&cfg);
	tap_eq(cfg.fair_pkts, 0, "fair cut: off by default (opt-in)");
	tap_eq(fair_cut_step(32, 18534, r + r / 4, 0), r - 72398,
	       "fair cut: a higher estimate while holding 64 packets: r_avg falls");
	tap_ok(fair_cut_step(32, 9267, r + r / 4, 0) > r,
	       "fair cut: ... holding 32 packets it rises (Eq. 6)");
	tap_ok(fair_cut_step(0, 18534, r + r / 4, 0) > r,
	       "fair cut: ... and with fair_pkts 0 whatever it holds");
	tap_eq(fair_cut_step(32, 18534, r + r / 4, 4), r + r / 4,
	       "fair cut: not during slow start's refinement (the estimate at once)");
	tap_eq(fair_cut_step(32, 18534, r - r / 20, 0), r - r / 20,
	       "fair cut: a lower estimate is the decrease's, not the fair cut's");
	/* with the law's queue samples: the stream before's is qd2_us */
	tap_eq(fair_cut_law_step(18534, 9000), r - 72398,
	       "fair cut: the law's samples 9 -> 18.5 ms (growing): r_avg falls");
	tap_eq(fair_cut_law_step(18534, 18534), r - 72398,
	       "fair cut: ... 18.5 -> 18.5 ms (standing): r_avg falls");
	tap_ok(fair_cut_law_step(18534, 29000) > r,
	       "fair cut: ... 29 -> 18.5 ms (draining): it rises (Eq. 6)");
}

/*
 * r_avg after one estimate `abest` at 5000000 B/s in steady state with
 * ai_pkts `pkts`, a standing queue of qd_us (queue_free as given), tau
 * 1.2 s and the report's count reading n_est (1/RAPID_NEST_ONE; a fresh
 * window, so this estimate does not move it); the stream of 30 x 1448 B
 * lasts 8.688 ms, 121467 / 2^24 of tau.
 */
static u64 ai_ctl_step_n(u32 pkts, u32 qd_us, u8 queue_free, u64 abest,
			 u16 n_est)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_law law;

	rapid_cfg_default(&cfg);
	cfg.ai_pkts = pkts;
	cfg.tau_ns = 1200ULL * RAPID_NSEC_PER_MSEC;
	ctl = steady_ctl(&cfg, 5000000);
	ctl.refine = 0;
	cfg.qd_us = qd_us;
	cfg.queue_free = queue_free;
	rapid_law_reset(&law);
	law.n_est = n_est;
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 11, abest, 1448,
			       100000, 3000);
	return ctl.r_avg;
}

/* the same with two flows counted (the step's gate open) */
static u64 ai_ctl_step(u32 pkts, u32 qd_us, u8 queue_free, u64 abest)
{
	return ai_ctl_step_n(pkts, qd_us, queue_free, abest,
			     2 * RAPID_NEST_ONE);
}

static void test_ai_step(void)
{
	/* 40 Mbit/s = 5000000 B/s; 4 packets of 1448 B are 5792 B, 1.1584 ms */
	const u64 r = 5000000, tau = 1200ULL * RAPID_NSEC_PER_MSEC;
	struct rapid_cfg cfg;

	tap_eq(rapid_stream_tau_frac(30, 1448, r, tau), 121467,
	       "ai: a stream of 30 x 1448 B at 40 Mbit/s is 121467 / 2^24 of 1.2 s");
	/* 5792 B per 50 ms = 115840 B/s; x 121467 >> 24 = 838.68 */
	tap_eq(rapid_ctl_ai_step(r, 0, 4, 30, 1448, tau), 838,
	       "ai: no queue: 4 packets per 50 ms, l / tau of it (838 B/s per stream)");
	/* 0.5 ms hold 2500 B: 3292 B per 50 ms = 65840 B/s; x l / tau = 476.7 */
	tap_eq(rapid_ctl_ai_step(r, 500, 4, 30, 1448, tau), 476,
	       "ai: a queue of 0.5 ms holds 2500 B: the packets still missing");
	tap_eq(rapid_ctl_ai_step(r, 1159, 4, 30, 1448, tau), 0,
	       "ai: 1.159 ms hold 5795 B, more than 4 packets: none");
	tap_eq(rapid_ctl_ai_step(r, 0, 0, 30, 1448, tau), 0, "ai: pkts 0 is off");
	tap_eq(rapid_ctl_ai_step(0, 0, 4, 30, 1448, tau), 0, "ai: r_avg 0: none");
	tap_eq(rapid_ctl_ai_step(r, 0, 4, 30, 0, tau), 0, "ai: mss 0: none");
	tap_eq(rapid_ctl_ai_step(r, 0, 4, 30, 1448, 1), 115840,
	       "ai: a stream longer than tau adds all of it");
	tap_eq(rapid_ctl_ai_step(r, 0, 4, 0, 1448, tau), 0,
	       "ai: an empty stream lasts nothing and adds nothing");
	tap_eq(rapid_ctl_ai_step(~0ULL, 0, U32_MAX, 2, 65535, 1),
	       (u64)RAPID_AI_PKTS_MAX * 65535 * RAPID_USEC_PER_SEC / RAPID_AI_T_US,
	       "ai: pkts above RAPID_AI_PKTS_MAX count as it, r_avg at its largest: no overflow");
	tap_eq(rapid_ctl_ai_step(~0ULL, U32_MAX, 4, RAPID_N_MAX, 65535, ~0ULL), 0,
	       "ai: a queue of U32_MAX us at the largest rate holds more: none");

	/* the controller */
	rapid_cfg_default(&cfg);
	tap_eq(cfg.ai_pkts, 4, "ai: 4 packets by default");
	tap_eq(ai_ctl_step(4, 0, 1, r - r / 10), r + 838,
	       "ai: an estimate the hold takes for noise: r_avg rises by the step");
	tap_eq(ai_ctl_step(0, 0, 1, r - r / 10), r,
	       "ai: ... and holds with ai_pkts 0");
	tap_eq(ai_ctl_step(4, 2000, 1, r - r / 10), r,
	       "ai: ... and holds while the flow has 4 packets in the queue");
	tap_ok(ai_ctl_step(4, 0, 0, r - r / 10) < r,
	       "ai: an estimate that cuts (a standing queue) cuts, no step");
	/* Eq. 6: 1/4 of r_avg x 121467 / 2^24 = 9050.2 (rounded up), above 838 */
	tap_eq(ai_ctl_step(4, 0, 1, r + r / 4), ai_ctl_step(0, 0, 1, r + r / 4),
	       "ai: a higher estimate whose Eq. 6 step is larger takes Eq. 6's");
	tap_eq(ai_ctl_step(4, 0, 1, r + 10000), r + 838,
	       "ai: ... and the step where Eq. 6's is smaller (10000 B/s above: 36)");

	/* the gate: the count must read RAPID_AI_GATE_NEST (1.5 flows) */
	tap_eq(ai_ctl_step_n(4, 0, 1, r - r / 10, RAPID_NEST_ONE), r,
	       "ai gate: a lone flow (count 1) holds on noise, no step");
	tap_eq(ai_ctl_step_n(4, 0, 1, r - r / 10, RAPID_AI_GATE_NEST - 1), r,
	       "ai gate: ... and just below the gate");
	tap_eq(ai_ctl_step_n(4, 0, 1, r - r / 10, RAPID_AI_GATE_NEST),
	       r + 838, "ai gate: at the gate the step applies");
	tap_eq(ai_ctl_step_n(4, 0, 1, r - r / 10, RAPID_NEST_MAX), r + 838,
	       "ai gate: ... and at the count's largest, the same step (not scaled by n)");
	tap_eq(ai_ctl_step_n(4, 0, 1, r + 10000, RAPID_NEST_ONE),
	       ai_ctl_step_n(0, 0, 1, r + 10000, RAPID_NEST_ONE),
	       "ai gate: a lone flow's higher estimate takes Eq. 6 alone");
	rapid_cfg_default(&cfg);
	cfg.ai_pkts = 4;
	tap_eq(rapid_ctl_ai_pkts(&cfg, NULL, true), 0,
	       "ai gate: no law, no step");
	{
		struct rapid_law law;

		rapid_law_reset(&law);
		law.n_est = 3 * RAPID_NEST_ONE;
		tap_eq(rapid_ctl_ai_pkts(&cfg, &law, false), 0,
		       "ai gate: not counting (refining, reordering, count off): no step");
		tap_eq(rapid_ctl_ai_pkts(&cfg, &law, true), 4,
		       "ai gate: counting three flows: ai_pkts");
		law.n_est = 0;
		tap_eq(rapid_ctl_ai_pkts(&cfg, &law, true), 0,
		       "ai gate: a count not yet taken (0) is not two flows");
	}
}

/* ---- the law for many flows: queue growth, proportional cuts ------- */

static void test_law_queue(void)
{
	struct rapid_law law;

	rapid_law_reset(&law);
	rapid_law_queue(&law, 1000, 500, 100000);
	tap_ok(law.valid && law.growth_ppm == 0, "law: first sample is the reference");
	/* 20 ms later (srtt 100 ms): too soon for a growth value */
	rapid_law_queue(&law, 21000, 2500, 100000);
	tap_eq(law.growth_ppm, 0, "law: no growth from less than half an srtt");
	/* 50 ms after the reference: 10 ms more queue in 50 ms = 0.2 s/s */
	rapid_law_queue(&law, 51000, 10500, 100000);
	tap_eq(law.growth_ppm, 200000, "law: growth = dqd / dt (10 ms in 50 ms = 200000 ppm)");
	tap_eq(law.ref_t_us, 1000, "law: the reference stays until an srtt old");
	/* 100 ms after the reference: it moves on */
	rapid_law_queue(&law, 101000, 500, 100000);
	tap_eq(law.growth_ppm, 0, "law: a queue back where it was: growth 0");
	tap_eq(law.ref_t_us, 101000, "law: the reference moves after an srtt");
	/* a draining queue: negative growth */
	rapid_law_queue(&law, 201000, 0, 100000);
	tap_eq(law.growth_ppm, -5000, "law: a draining queue gives a negative growth");
	/* wrap-around of the us clock */
	rapid_law_reset(&law);
	rapid_law_queue(&law, 0xffffff00U, 0, 1000);
	rapid_law_queue(&law, 0x00000f00U, 4096, 1000);
	tap_eq(law.growth_ppm, 1000000, "law: growth across the 32-bit us wrap (4096 us in 4096 us)");
	/* huge growth is bounded; a sample from the past is ignored */
	rapid_law_queue(&law, 0x00001000U, 4000000, 1);
	tap_eq(law.growth_ppm, (s32)RAPID_GROWTH_MAX, "law: growth bounded by RAPID_GROWTH_MAX");
	rapid_law_queue(&law, 0x00000100U, 0, 1);
	tap_eq(law.growth_ppm, (s32)RAPID_GROWTH_MAX, "law: a sample older than the reference is ignored");
	/* srtt 0: every sample counts */
	rapid_law_reset(&law);
	rapid_law_queue(&law, 10, 0, 0);
	rapid_law_queue(&law, 1010, 100, 0);
	tap_eq(law.growth_ppm, 100000, "law: srtt 0 (no sample yet) still measures");
}

static void test_law3(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_law law;
	enum rapid_ev ev;
	u64 r;
	int i;

	rapid_cfg_default(&cfg);
	cfg.law = RAPID_LAW_QUEUE;
	cfg.median = 1;

	/* a growing queue: cut by 1 / (1 + g), once per round trip */
	ctl = steady_ctl(&cfg, 1250000);
	ctl.launched_id = 20;
	rapid_law_reset(&law);
	law.valid = 1;
	law.growth_ppm = 250000;
	law.qd_us = 30000;
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 10, 100000, P_FULL, 50000, 0);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == 1000000,
	       "queue law: growing queue: r_avg / 1.25, the far lower ABest ignored");
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 11, 100000, P_FULL, 50000, 1000);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 1000000,
	       "queue law: no second cut for a stream sent before the first");
	/* a standing queue above the target: hold, even with a higher ABest */
	law.growth_ppm = 0;
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 21, 5000000, P_FULL, 50000, 2000);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 1000000,
	       "queue law: queue above its target: no increase");
	/* queue at the target: Eq. 6 towards the higher ABest */
	law.qd_us = cfg.q_target_us;
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 22, 5000000, P_FULL, 50000, 3000);
	r = rapid_filter_increase(1000000, 5000000, 30, P_FULL, cfg.tau_ns);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg == r,
	       "queue law: queue at the target: the tau filter's increase");
	/* a lower ABest without a queue: noise, hold */
	law.qd_us = 0;
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 23, 100000, P_FULL, 50000, 4000);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == r,
	       "queue law: lower ABest without a queue changes nothing");
	/* the report's rule without law state */
	cfg.cut_max = RAPID_CUT_MAX_MAX;
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, NULL, 24, 100000, P_FULL, 50000, 5000);
	tap_eq(ctl.r_avg, 100000, "queue law: no law state: the report's rule");

	/* n equal flows, each cut by the same growth: the sum loses E */
	{
		u64 sum0 = 0, sum1 = 0;

		for (i = 0; i < 12; i++) {
			ctl = steady_ctl(&cfg, 500000 + 50000 * i);
			ctl.launched_id = 5;
			rapid_law_reset(&law);
			law.growth_ppm = 200000;	/* R = 1.2 C */
			law.qd_us = 10000;
			sum0 += ctl.r_avg;
			rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 3, 1, P_FULL,
					       50000, 0);
			sum1 += ctl.r_avg;
		}
		tap_near((double)sum1, sum0 / 1.2, 12,
			 "queue law: 12 flows cut by 1/(1+g) together remove exactly the excess (%llu -> %llu)",
			 (unsigned long long)sum0, (unsigned long long)sum1);
	}

	/*
	 * adaptive tau: a big overshoot raises it to its level (3 per
	 * RAPID_GROWTH_BIG), back one per RAPID_TAU_X_DECAY_RTTS srtt
	 */
	cfg.adapt_tau = 1;
	ctl = steady_ctl(&cfg, 1000000);
	ctl.launched_id = 40;
	rapid_law_reset(&law);
	law.growth_ppm = RAPID_GROWTH_BIG + 1;
	law.qd_us = 10000;
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 30, 1, P_FULL, 100000, 0);
	tap_eq(law.tau_x, 3, "queue law: an overshoot just above RAPID_GROWTH_BIG sets tau x3");
	law.growth_ppm = 0;
	law.qd_us = 0;
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 41, 2000000, P_FULL, 100000, 50000);
	tap_eq(law.tau_x, 3, "queue law: tau stays up within RAPID_TAU_X_DECAY_RTTS srtt of the cut");
	r = ctl.r_avg;
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 42, 2000000, P_FULL, 100000,
			       RAPID_TAU_X_DECAY_RTTS * 100000);
	tap_eq(law.tau_x, 2, "queue law: tau comes back by one per RAPID_TAU_X_DECAY_RTTS srtt without a cut");
	law.qd_us = 10000;
	for (i = 0; i < 10; i++) {
		law.growth_ppm = 8000000;
		law.dec_id = 0;
		rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 50 + i, 1, P_FULL, 100000, 0);
	}
	tap_eq(law.tau_x, RAPID_TAU_X_MAX, "queue law: tau's multiple is bounded (level 240 -> 64)");
	/* the level is the overshoot's, not the flow's history */
	law.tau_x = 10;
	law.growth_ppm = 2 * RAPID_GROWTH_BIG;	/* level 6 */
	law.dec_id = 0;
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 61, 1, P_FULL, 100000, 0);
	tap_eq(law.tau_x, 10, "queue law: a cut whose level is below tau_x leaves it");
	law.growth_ppm = 5 * RAPID_GROWTH_BIG;	/* level 15 */
	law.dec_id = 0;
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 62, 1, P_FULL, 100000, 0);
	tap_eq(law.tau_x, 15, "queue law: a bigger overshoot raises tau_x to its level");
	{
		struct rapid_law a, b;

		/* two flows on one queue, one at 1 and one at 40, see one cut */
		rapid_law_reset(&a);
		rapid_law_reset(&b);
		a.tau_x = 1;
		b.tau_x = 40;
		rapid_law_raise_tau(&a, 10 * RAPID_GROWTH_BIG);
		rapid_law_raise_tau(&b, 10 * RAPID_GROWTH_BIG);
		tap_ok(a.tau_x == 30 && b.tau_x == 40,
		       "queue law: one overshoot brings a flow at x1 to the level (30) where doubling made x2");
	}
	cfg.adapt_tau = 0;
	rapid_law_reset(&law);
	law.growth_ppm = 8000000;
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 70, 1, P_FULL, 100000, 0);
	tap_eq(law.tau_x, 1, "queue law: adapt_tau 0 leaves tau alone");

	/* delay noise: growth within the noise's reach is no queue */
	cfg.adapt_tau = 0;
	ctl = steady_ctl(&cfg, 1000000);
	ctl.launched_id = 80;
	rapid_law_reset(&law);
	law.noise_us = 3000;		/* target 2 ms + 2 x 3 ms */
	law.qd_us = 7000;
	law.growth_ppm = 100000;
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 75, 2000000, P_FULL, 100000, 0);
	tap_ok(ev == RAPID_EV_INCREASE,
	       "queue law: a 'growing' qd of 7 ms within 2 ms + 2 x 3 ms of noise is no queue");
	law.qd_us = 9000;
	r = ctl.r_avg;
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 81, 2000000, P_FULL, 100000, 0);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg < r, "queue law: above the noise it is");
	/* noise is measured from successive samples */
	rapid_law_reset(&law);
	for (i = 0; i < 200; i++)
		rapid_law_queue(&law, 1000 + i * 10000, (i & 1) ? 4000 : 0, 50000);
	tap_near((double)law.noise_us, 4000, 400,
		 "queue law: qd alternating 0 / 4 ms reads as 4 ms of noise (%u)", law.noise_us);
	/* a queue that rises and falls in ramps (the flows' own cycle) is no noise */
	rapid_law_reset(&law);
	for (i = 0; i < 200; i++)
		rapid_law_queue(&law, 1000 + i * 10000,
				(u32)(i % 40 < 20 ? i % 40 : 40 - i % 40) * 2000, 50000);
	tap_ok(law.noise_us < 500,
	       "queue law: a queue ramping 0-40 ms and back reads as < 0.5 ms of noise (%u)",
	       law.noise_us);

	/* probing: no queue, estimate at or below r_avg */
	cfg.probe_milli = 20;
	ctl = steady_ctl(&cfg, 1000000);
	rapid_law_reset(&law);
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 1, 500000, P_FULL, 100000, 0);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 1000000,
	       "queue law: a lower estimate holds r_avg (probing is the stream clock's)");
	ev = rapid_ctl_law_tick(&ctl, &cfg, &law, 2, P_FULL, 100000, 0);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg > 1000000 &&
	       ctl.r_avg <= 1000000 + 20000,
	       "queue law: tick, probe_milli 20: at most 2%% of r_avg per srtt without a queue (%llu)",
	       (unsigned long long)ctl.r_avg);
	law.qd_us = 5000;
	r = ctl.r_avg;
	rapid_ctl_law_tick(&ctl, &cfg, &law, 3, P_FULL, 100000, 0);
	tap_eq(ctl.r_avg, r, "queue law: tick: no probing with a queue above the target");
	law.growth_ppm = 500000;
	ctl.launched_id = 9;
	ev = rapid_ctl_law_tick(&ctl, &cfg, &law, 4, P_FULL, 100000, 0);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == r * 2 / 3,
	       "queue law: tick: a growing queue cuts without an estimate");
	cfg.probe_milli = 0;
	law.qd_us = 0;
	law.growth_ppm = 0;
	r = ctl.r_avg;
	rapid_ctl_law_tick(&ctl, &cfg, &law, 10, P_FULL, 100000, 0);
	tap_eq(ctl.r_avg, r, "queue law: tick, probe_milli 0: no change without a queue");
	ctl.phase = RAPID_PHASE_SS;
	cfg.probe_milli = 20;
	rapid_ctl_law_tick(&ctl, &cfg, &law, 11, P_FULL, 100000, 0);
	tap_eq(ctl.r_avg, r, "queue law: tick: nothing in slow start");
}

/*
 * Two flows on one link that start with different counts (1 and 3): each
 * rises by the same unslowed step d / its count per window (Eq. 6: the
 * spare is the same for both), and ABest of each is the link less the
 * other's rate; every fourth window both cut by 20% (no sample).  The
 * report's law counts against the unslowed rise (sym): every flow's
 * sample is 1 + the others' rises / d, whatever its own count, so the
 * two converge to one value; counted against the own slowed rise (the
 * queue law's count), a flow that rises slower samples a larger count,
 * and any split with 1/m0 + 1/m1 = 1 stays (docs/rapid.md, "Counting the
 * flows").  Returns the final counts.
 */
static void count_two(bool sym, u32 *m0, u32 *m1)
{
	const u64 c = 100000000, d = 100000;
	struct rapid_law law[2];
	u64 r[2] = { 1000000, 1000000 };
	u32 t, i;
	int k;

	rapid_law_reset(&law[0]);
	rapid_law_reset(&law[1]);
	law[0].n_est = RAPID_NEST_ONE;
	law[1].n_est = 3 * RAPID_NEST_ONE;
	for (k = 0, t = 1000; k < 400; k++, t += 50000) {
		for (i = 0; i < 2; i++)
			if (sym)
				rapid_law_count_report(&law[i], c - r[1 - i],
						       r[i], 50000, t,
						       RAPID_DEF_COUNT_UP_MILLI);
			else
				rapid_law_count_flows(&law[i], c - r[1 - i],
						      r[i], 50000, t);
		for (i = 0; i < 2; i++) {
			if (k % 4 == 3)
				r[i] -= r[i] / 5;
			else
				r[i] += d * RAPID_NEST_ONE / law[i].n_est;
		}
	}
	*m0 = law[0].n_est;
	*m1 = law[1].n_est;
}

/*
 * A flow at 4 MB/s whose first estimate is 8 MB/s, then one 0.2 MB/s below
 * its r_avg then (returned); *got: r_avg after it.
 */
static u64 cut_share_step(u32 cut_share_us, u64 *got)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_law law;
	u64 r;

	rapid_cfg_default(&cfg);
	cfg.cut_share_us = cut_share_us;
	cfg.hold_milli = 0;
	cfg.median = 1;
	ctl = steady_ctl(&cfg, 4000000);
	rapid_law_reset(&law);
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 1, 8000000, P_FULL, 50000, 1000);
	r = ctl.r_avg;
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 2, r - 200000, P_FULL, 50000, 2000);
	*got = ctl.r_avg;
	return r;
}

/*
 * The cut scaled by the flow's share (rapid_ctl_cut_share()): the highest
 * estimate of the last seconds stands in for the link; a flow at half of
 * it cuts half of what the estimate asks; a lone flow (ab_max <= r_avg)
 * the whole; the decay of the maximum; the controller with it on and off.
 */
static void test_cut_share(void)
{
	struct rapid_cfg cfg;
	struct rapid_law law;
	u64 big = RAPID_RATE_MAX, r, got;

	tap_eq(rapid_ctl_cut_share(4000000, 3000000, 8000000), 3500000,
	       "cut share: at half of the highest estimate, half the cut");
	tap_eq(rapid_ctl_cut_share(4000000, 3000000, 4000000), 3000000,
	       "cut share: the highest estimate at r_avg (alone): the whole cut");
	tap_eq(rapid_ctl_cut_share(4000000, 3000000, 0), 3000000,
	       "cut share: no maximum yet: the whole cut");
	tap_eq(rapid_ctl_cut_share(4000000, 5000000, 8000000), 5000000,
	       "cut share: a higher estimate passes unchanged");
	tap_eq(rapid_ctl_cut_share(1000, 999, big), 999,
	       "cut share: a cut that scales to nothing still cuts 1 B/s (stays a decrease)");
	r = rapid_ctl_cut_share(big - 1, 1, big);
	tap_ok(r < big - 1 && r >= 1 && r < big / 512,
	       "cut share: the largest rates do not overflow (%llu)", (unsigned long long)r);

	rapid_law_reset(&law);
	rapid_law_track_max(&law, 8000000, 5000000, 1000);
	rapid_law_track_max(&law, 1, 5000000, 2501000);
	tap_ok(law.ab_max >= 3999000 && law.ab_max <= 4001000,
	       "cut share: the maximum loses half in half its span (%llu)",
	       (unsigned long long)law.ab_max);
	rapid_law_track_max(&law, 6000000, 5000000, 2502000);
	tap_eq(law.ab_max, 6000000, "cut share: a higher estimate is the new maximum");
	rapid_law_track_max(&law, 2000000, 5000000, 2501000);
	tap_eq(law.ab_max, 6000000, "cut share: a clock that went back takes nothing away");
	rapid_law_track_max(&law, 2000000, 5000000, 7600000);
	tap_eq(law.ab_max, 2000000, "cut share: after a silence of the span the old maximum is gone");
	rapid_law_track_max(&law, 9000000, 0, 7700000);
	tap_eq(law.ab_max, 2000000, "cut share: span 0 (off) tracks nothing");

	/* the controller: a flow at 4 MB/s that saw 8 MB/s gets an estimate 0.2 MB/s low */
	rapid_cfg_default(&cfg);
	tap_eq(cfg.cut_share_us, 0, "cut share: off by default (opt-in)");
	r = cut_share_step(5000000, &got);
	tap_ok(got > r - 200000 + 50000 && got < r,
	       "cut share: on (5 s), a flow below the highest estimate cuts part of the overshoot (%llu of %llu -> %llu)",
	       (unsigned long long)(r - got), 200000ULL, (unsigned long long)got);
	r = cut_share_step(0, &got);
	tap_eq(got, r - 200000, "cut share: off (0), the whole overshoot is cut");
}

/* The report's law at 2 MB/s, each estimate alone, no jump or acceleration. */
static void count_ctl(struct rapid_cfg *cfg, struct rapid_ctl *ctl,
		      struct rapid_law *law)
{
	rapid_cfg_default(cfg);
	cfg->median = 1;
	cfg->jump_milli = 0;
	cfg->accel_max = 0;
	*ctl = steady_ctl(cfg, 2000000);
	rapid_law_reset(law);
}

/*
 * A flow at 2 MB/s, 200 estimates 20 ms apart on a 60 ms srtt (with
 * @reorders all but the first on a path that reorders), then one of 6 MB/s.
 * !@shared: alone, its estimates jump between 6 MB/s and 1.7 MB/s (the
 * lab's normal 2 ms jitter: 27-30 and 8-13 Mbit/s around r_avg 10), two
 * lows in five.  @shared: others rise with it, its estimate falls by three
 * times its own rise between two estimates.  *n: its count before the last
 * one; *r0, *r1: r_avg before and after it.
 */
static void count_noisy(bool reorders, bool shared, u32 *n, u64 *r0,
			u64 *r1)
{
	u64 a = 6000000, r_prev = 2000000;

	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_law law;
	u32 k, t;

	count_ctl(&cfg, &ctl, &law);
	/* the first in order (it opens the count's window), then reordered */
	for (k = 0, t = 1000; k < 200; k++, t += 20000) {
		cfg.reorders = reorders && k > 0;
		if (shared) {
			a -= 3 * (ctl.r_avg - r_prev);
			r_prev = ctl.r_avg;
		} else {
			a = k % 5 == 0 || k % 5 == 3 ? 1700000 : 6000000;
		}
		rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, k + 1, a, P_FULL,
				       60000, t);
	}
	*n = law.n_est;
	*r0 = ctl.r_avg;
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, k + 1, 6000000, P_FULL,
			       60000, t);
	*r1 = ctl.r_avg;
	if (reorders)
		tap_eq(law.n_t_us, 0, "count flows: the window an in-order estimate opened closes while the path reorders");
}

/*
 * The report's count: a lone flow's noisy estimates average to 1 flow; the
 * falls of a shared path count, but not while the path reorders.
 */
static void test_law_count_reorder(void)
{
	struct rapid_cfg cfg;
	u64 r0, r1, want;
	u32 n;

	rapid_cfg_default(&cfg);
	count_noisy(false, false, &n, &r0, &r1);
	tap_ok(n <= RAPID_NEST_ONE + RAPID_NEST_ONE / 4,
	       "count flows: a lone flow's noisy estimates average to 1 flow (%u/16)",
	       n);
	count_noisy(false, true, &n, &r0, &r1);
	tap_ok(n >= RAPID_NEST_ONE + RAPID_NEST_ONE / 2,
	       "count flows: on a path in order, an estimate that falls with the rises counts (%u/16)",
	       n);
	want = rapid_filter_increase(r0, 6000000, cfg.n, P_FULL,
				     div_u64(cfg.tau_ns * n, RAPID_NEST_ONE));
	tap_eq(r1, want, "count flows: in order, Eq. 6 rises with tau x that count");
	count_noisy(true, true, &n, &r0, &r1);
	tap_ok(n <= RAPID_NEST_ONE,
	       "count flows: not while the path reorders (%u/16)", n);
	want = rapid_filter_increase(r0, 6000000, cfg.n, P_FULL, cfg.tau_ns);
	tap_eq(r1, want, "count flows: while it reorders, Eq. 6 rises with tau itself");
}

/* count_win()'s weight of a rise of the estimate (cfg->count_up_milli) */
static u32 count_up_milli = RAPID_DEF_COUNT_UP_MILLI;

/*
 * One window of the report's count: r_avg rises by @rise (B/s) in it, the
 * estimate ends it at @a.  Windows are 100 ms long from *t.
 */
static void count_win(struct rapid_law *law, u64 *r, u64 rise, u64 a, u32 *t)
{
	rapid_law_count_report(law, a, *r, 100000, *t, count_up_milli);
	*r += rise;
	*t += 100000;
}

/* The report's count, sample by sample (rapid_law_count_report()). */
static void test_law_count_report(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_law law;
	u64 r = 1000000;
	u32 t = 1000, k, low;

	/* two windows to start: the first opens, the second has no rise yet */
	rapid_law_reset(&law);
	count_win(&law, &r, 100000, 5000000, &t);
	count_win(&law, &r, 100000, 5000000, &t);
	/* the estimate falls by 40 times the rise: a sample of 41 flows */
	count_win(&law, &r, 100000, 1000000, &t);
	tap_eq(law.n_s[0], RAPID_NEST_BIAS + 41 * RAPID_NEST_ONE,
	       "count report: a fall of 40 rises samples 41 flows");
	tap_eq(law.n_est, RAPID_NEST_ONE,
	       "count report: one sample alone moves nothing (the median's missing samples are 1 flow)");
	count_win(&law, &r, 100000, 1000000 - 4000000 / 10 * 11 / 10, &t);
	tap_ok(law.n_est > 2 * RAPID_NEST_ONE,
	       "count report: a second one in a row counts (%u/16)", law.n_est);

	/* signed: a rise of the estimate samples less than 1 flow */
	rapid_law_reset(&law);
	r = 1000000;
	t = 1000;
	count_win(&law, &r, 100000, 5000000, &t);
	count_win(&law, &r, 100000, 5000000, &t);
	count_win(&law, &r, 100000, 5300000, &t);	/* up 3 rises */
	tap_eq(law.n_s[0], RAPID_NEST_BIAS + RAPID_NEST_ONE - 3 * RAPID_NEST_ONE,
	       "count report: a rise of the estimate by 3 rises samples 1 - 3 flows");
	/* then down and up by 3 rises, window after window */
	for (k = 0; k < 40; k++)
		count_win(&law, &r, r / 10, k & 1 ? 5000000 + 3 * (r / 10) : 5000000,
			  &t);
	tap_ok(law.n_est <= RAPID_NEST_ONE + RAPID_NEST_ONE / 4,
	       "count report: falls undone by as large rises average to 1 flow (%u/16)",
	       law.n_est);
	/* count_up_milli weighs the rises: 0 is the rectified count */
	for (low = 0; low <= 1; low++) {
		struct rapid_law w;
		u64 rw = 1000000;
		u32 tw = 1000;

		count_up_milli = low ? 0 : 500;
		rapid_law_reset(&w);
		for (k = 0; k < 42; k++)
			count_win(&w, &rw, rw / 10, k < 2 || k & 1 ?
				  5000000 + 3 * (rw / 10) : 5000000, &tw);
		tap_ok(low ? w.n_est >= 2 * RAPID_NEST_ONE - RAPID_NEST_ONE / 4 :
		       w.n_est > RAPID_NEST_ONE + RAPID_NEST_ONE / 4 &&
		       w.n_est < 2 * RAPID_NEST_ONE - RAPID_NEST_ONE / 4,
		       "count report: count_up_milli %u: the same noise counts %s (%u/16)",
		       count_up_milli, low ? "1.75 flows or more, rectified" :
		       "1.25-1.75 flows, between signed and rectified", w.n_est);
	}
	count_up_milli = RAPID_DEF_COUNT_UP_MILLI;
	for (k = 0; k < 100; k++)
		count_win(&law, &r, r / 10, k & 1 ? 1 : RAPID_RATE_MAX, &t);
	tap_ok(law.n_acc >= RAPID_NEST_BIAS + 2 * RAPID_NEST_ONE - RAPID_NEST_MAX &&
	       law.n_est >= RAPID_NEST_ONE && law.n_est <= RAPID_NEST_MAX,
	       "count report: estimates that swing across the whole range stay bounded (%u/16, acc %u)",
	       law.n_est, law.n_acc);

	/*
	 * A lone flow counted 8 flows rises 1/80 of r_avg per window, below
	 * the gate of r_avg / 32; its unslowed rise (1/10, the rise times
	 * its count) is not, and its unmoved estimate brings the count back
	 * to 1.
	 */
	rapid_law_reset(&law);
	law.n_est = 8 * RAPID_NEST_ONE;
	law.n_acc = RAPID_NEST_BIAS + 8 * RAPID_NEST_ONE;
	r = 1000000;
	t = 1000;
	for (k = 0; k < 20; k++)
		count_win(&law, &r, div_u64(r * RAPID_NEST_ONE, 10 * law.n_est),
			  5000000, &t);
	tap_ok(law.n_est <= RAPID_NEST_ONE + 2,
	       "count report: a high count keeps sampling against the unslowed rise (%u/16)",
	       law.n_est);

	/* windows of at least tau / 16: 75 ms at 20 ms srtt */
	count_ctl(&cfg, &ctl, &law);
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 1, 3000000, P_FULL, 20000, 1000);
	low = law.n_t_us;
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 2, 3000000, P_FULL, 20000, 41000);
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 3, 3000000, P_FULL, 20000, 71000);
	tap_ok(low == 1000 && law.n_t_us == low,
	       "count report: at 20 ms srtt, no window closes before tau / 16 (%u)", law.n_t_us);
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 4, 3000000, P_FULL, 20000, 77000);
	tap_eq(law.n_t_us, 77000, "count report: ... and one does after it");
}

static void test_law_count_sym(void)
{
	u32 a0, a1, s0, s1;

	count_two(true, &s0, &s1);
	tap_ok(s0 + 1 >= s1 && s1 + 1 >= s0,
	       "count flows, the report's law: two flows that start at counts 1 and 3 converge to one count (%u/16, %u/16)",
	       s0, s1);
	tap_ok(s0 >= 24 && s0 <= 28,
	       "count flows, the report's law: two flows count (1 + sqrt(5)) / 2 = 1.6 (%u/16)", s0);
	count_two(false, &a0, &a1);
	tap_ok(a1 > a0 + 8,
	       "count flows, counted against the own slowed rise: the split stays (%u/16, %u/16)",
	       a0, a1);
}

/*
 * Counting the flows that rise together: a lone flow's ABest does not
 * move with its own increases; each of n flows rising in step sees it
 * fall n - 1 times as fast as it rises.
 */
static void test_law_count_flows(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_law law;
	u64 r, r1, r2;
	u32 t;
	int k;

	/* alone: r_avg rises 10% per srtt, ABest stays at 5 MB/s */
	rapid_law_reset(&law);
	r = 1000000;
	for (k = 0, t = 1000; k < 20; k++, t += 50000) {
		rapid_law_count_flows(&law, 5000000, r, 50000, t);
		r += r / 10;
	}
	tap_eq(law.n_est, RAPID_NEST_ONE, "count flows: alone, ABest unmoved: 1 flow");
	/* 12 in step: each rise of d takes 11 d off the next window's ABest */
	rapid_law_reset(&law);
	r = 1000000;
	{
		u64 a = 8000000, prev_rise = 0;

		for (k = 0, t = 1000; k < 30; k++, t += 50000) {
			a -= 11 * prev_rise;
			rapid_law_count_flows(&law, a, r, 50000, t);
			prev_rise = r / 20;	/* 5% per srtt */
			r += prev_rise;
		}
	}
	tap_ok(law.n_est >= 11 * RAPID_NEST_ONE && law.n_est <= 13 * RAPID_NEST_ONE,
	       "count flows: 12 rising in step: n_est %u/16 in [11, 13]", law.n_est);
	/* they stop rising: after the window of the last rise, n_est keeps
	 * its value whatever ABest does (no information)
	 */
	for (k = 0; k < 2; k++, t += 50000)
		rapid_law_count_flows(&law, 1000000, r, 50000, t);
	r1 = law.n_est;
	for (k = 0; k < 10; k++, t += 50000)
		rapid_law_count_flows(&law, k & 1 ? 100000 : 9000000, r, 50000, t);
	tap_eq(law.n_est, r1, "count flows: no rise, no sample");
	/* alone again: rises with ABest unmoved bring it back to 1 */
	for (k = 0; k < 40; k++, t += 50000) {
		rapid_law_count_flows(&law, 1000000, r, 50000, t);
		r += r / 10;
	}
	tap_ok(law.n_est <= RAPID_NEST_ONE + 2, "count flows: alone again: back to 1 (%u/16)", law.n_est);
	/* alone, rising: one step of cross traffic (ABest -2 MB/s in one
	 * window) is not the others' increases: the median ignores it
	 */
	rapid_law_reset(&law);
	r = 1000000;
	for (k = 0, t = 1000; k < 20; k++, t += 50000) {
		rapid_law_count_flows(&law, k < 10 ? 5000000 : 3000000, r, 50000, t);
		r += r / 10;
	}
	tap_eq(law.n_est, RAPID_NEST_ONE, "count flows: a cross-traffic step during a rise: still 1 flow");
	tap_eq(rapid_median3(7, 1, 4), 4, "median3: 7 1 4 -> 4");
	tap_eq(rapid_median3(1, 7, 7), 7, "median3: 1 7 7 -> 7");
	tap_eq(rapid_median3(U32_MAX, 0, 5), 5, "median3: extremes");
	/* windows shorter than srtt give nothing; time going back neither */
	rapid_law_reset(&law);
	rapid_law_count_flows(&law, 5000000, 1000000, 50000, 1000);
	rapid_law_count_flows(&law, 1000000, 2000000, 50000, 20000);
	rapid_law_count_flows(&law, 1000000, 3000000, 50000, 500);
	tap_ok(law.n_r[1] == 1000000 && law.n_t_us == 1000,
	       "count flows: a window shorter than srtt, or from the past, is no window");
	/* a collapse of ABest against a tiny rise: the sample is bounded */
	rapid_law_reset(&law);
	rapid_law_count_flows(&law, RAPID_RATE_MAX, 1000, 1, 10);
	rapid_law_count_flows(&law, RAPID_RATE_MAX, 2000, 1, 20);
	for (k = 0; k < 40; k++)
		rapid_law_count_flows(&law, k & 1 ? RAPID_RATE_MAX : 1,
				      (u64)(k + 3) * 1000, 1, 30 + 10 * k);
	tap_ok(law.n_est <= RAPID_NEST_MAX && law.n_est > 32 * RAPID_NEST_ONE,
	       "count flows: huge falls bounded by RAPID_NEST_MAX (%u/16)", law.n_est);
	/* across the 32-bit us wrap */
	rapid_law_reset(&law);
	rapid_law_count_flows(&law, 5000000, 1000000, 1000, 0xfffff000U);
	rapid_law_count_flows(&law, 5000000, 2000000, 1000, 0x00000100U);
	tap_ok(law.n_r[1] == 2000000, "count flows: a window across the us wrap counts");

	/* the law: tau x n_est on increases, only with count_flows */
	rapid_cfg_default(&cfg);
	cfg.law = RAPID_LAW_QUEUE;
	cfg.median = 1;
	cfg.count_flows = 1;
	ctl = steady_ctl(&cfg, 1000000);
	rapid_law_reset(&law);
	law.valid = 1;
	law.tau_x = 1;
	law.n_est = 8 * RAPID_NEST_ONE;
	law.n_t_us = 1;	/* counting started: this estimate is no window */
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 5, 3000000, P_FULL, 50000, 100);
	r1 = rapid_filter_increase(1000000, 3000000, ctl.n, P_FULL, cfg.tau_ns * 8);
	tap_eq(ctl.r_avg, r1, "queue law: 8 flows counted: increase with 8 tau");
	cfg.count_flows = 0;
	ctl = steady_ctl(&cfg, 1000000);
	rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 6, 3000000, P_FULL, 50000, 200);
	r2 = rapid_filter_increase(1000000, 3000000, ctl.n, P_FULL, cfg.tau_ns);
	tap_eq(ctl.r_avg, r2, "queue law: count_flows 0: the plain tau");
	tap_ok(r1 < r2, "queue law: 8 counted flows rise slower than one");
}

/* Feed a queue of qd_us every 20 ms for dur_us from t (srtt 40 ms). */
static u32 law_feed(struct rapid_law *law, const struct rapid_cfg *cfg,
		    u32 t, u32 dur_us, u32 qd_us)
{
	u32 end = t + dur_us;

	for (; t < end; t += 20000) {
		rapid_law_queue(law, t, qd_us, 40000);
		rapid_law_competing(law, cfg, 40000, 1000000, t);
	}
	return t;
}

/*
 * A standing queue of qd_us on a path of base_us (srtt = base), sampled
 * every base / 2 for 15 base RTTs (at least 0.6 s): does it compete?
 */
static bool law_floor_competes(const struct rapid_cfg *cfg, u32 qd_us,
			       u32 base_us)
{
	struct rapid_law law;
	u32 step = base_us / 2, end = 15 * base_us;

	rapid_law_reset(&law);
	if (end < 600000)
		end = 600000;
	for (u32 t = 1000; t <= end; t += step) {
		rapid_law_queue(&law, t, qd_us, base_us);
		rapid_law_competing(&law, cfg, base_us, 1000000, t);
	}
	return law.compete;
}

static void test_law_drain_compete(void)
{
	struct rapid_cfg cfg;
	struct rapid_law law;

	tap_eq(rapid_law_drain_rate(1000000, 1000, 2000, 100000, 250), 1000000,
	       "drain rate: queue below the target: r_avg");
	tap_eq(rapid_law_drain_rate(1000000, 12000, 2000, 100000, 250), 900000,
	       "drain rate: 10 ms above the target, T 100 ms: 10%% below r_avg");
	tap_eq(rapid_law_drain_rate(1000000, 500000, 2000, 100000, 250), 750000,
	       "drain rate: at most max_milli off");
	tap_eq(rapid_law_drain_rate(1000000, 500000, 2000, 0, 250), 1000000,
	       "drain rate: T 0: no drain");
	tap_eq(rapid_law_drain_rate(5, 500000, 2000, 1, 1000), 1,
	       "drain rate: never 0");
	tap_ok(rapid_law_drain_rate(~0ULL, 3000, 2000, 100000, 250) <= RAPID_RATE_MAX,
	       "drain rate: huge r_avg clamped, no overflow");

	rapid_cfg_default(&cfg);
	cfg.compete = 1;
	rapid_law_reset(&law);
	/* a standing queue of 20 ms for a second (srtt 40 ms): compete */
	for (u32 t = 1000; t <= 1200000; t += 20000)
		rapid_law_queue(&law, t, 20000, 40000);
	tap_ok(rapid_law_competing(&law, &cfg, 40000, 1000000, 0),
	       "compete: a 20 ms floor over a second on a 40 ms path");
	/*
	 * A cubic flow's back-off: the queue dips to 2 ms (below half of the
	 * 5 ms threshold, max(compete_us 4 ms, 40 ms / 8), above a quarter)
	 * for 100 ms every two seconds and is back at 20 ms: competing
	 * throughout.
	 */
	{
		bool all = true;
		u32 t = 1220000;

		for (; t <= 9000000; t += 20000) {
			rapid_law_queue(&law, t, t % 2000000 >= 500000 &&
					t % 2000000 < 600000 ? 2000 : 20000,
					40000);
			all = rapid_law_competing(&law, &cfg, 40000, 1000000, 0) && all;
		}
		tap_ok(all, "compete: held through a dip to 2 ms every 2 s (a loss-based flow's back-offs)");
		/* the competitor leaves: the queue falls to 1.2 ms */
		t = law_feed(&law, &cfg, t, 20000, 1200);
		tap_ok(!law.compete,
		       "compete: left at the first sample below 5 ms / 4");
		t = law_feed(&law, &cfg, t, 1200000, 20000);
		tap_ok(law.compete, "compete: back with a 20 ms floor");
	}
	/*
	 * The threshold: max(compete_us, base / 8).  A flow that joined a
	 * cubic flow measures its base on top of cubic's least queue (57 ms
	 * on a 40 ms path) and a floor of 11 ms above it over a second; a
	 * quarter of that base (14 ms) never saw it (docs/rapid-deviations.md
	 * #compete-join).  A floor just below the threshold is no competitor.
	 */
	tap_ok(law_floor_competes(&cfg, 11000, 57000),
	       "compete: an 11 ms floor above a joiner's 57 ms base (57 / 8 = 7.1 ms)");
	tap_ok(law_floor_competes(&cfg, 5100, 40000),
	       "compete: a 5.1 ms floor on a 40 ms path (above 40 / 8)");
	tap_ok(!law_floor_competes(&cfg, 4900, 40000),
	       "compete: a 4.9 ms floor on a 40 ms path is not above 40 / 8");
	tap_ok(law_floor_competes(&cfg, 4100, 20000),
	       "compete: a 4.1 ms floor on a 20 ms path (above compete_us 4 ms)");
	tap_ok(!law_floor_competes(&cfg, 3900, 20000),
	       "compete: a 3.9 ms floor on a 20 ms path is not above compete_us");
	/* compete_us is its own: the queue law's target does not move it */
	cfg.q_target_us = 100;
	tap_ok(!law_floor_competes(&cfg, 3900, 20000),
	       "compete: q_target_us does not move the threshold");
	cfg.q_target_us = 2000;
	cfg.compete_us = 8000;
	tap_ok(law_floor_competes(&cfg, 8100, 40000) &&
	       !law_floor_competes(&cfg, 7900, 40000),
	       "compete: compete_us 8 ms: 8.1 ms competes, 7.9 ms does not");
	cfg.compete_us = RAPID_DEF_COMPETE_US;
	tap_ok(!law_floor_competes(&cfg, 19000, 160000),
	       "compete: 19 ms on a 160 ms path is not above 160 / 8");
	tap_ok(law_floor_competes(&cfg, 21000, 160000),
	       "compete: 21 ms on a 160 ms path is");
	/* RAPID's own transient queues: no compete */
	rapid_law_reset(&law);
	for (u32 t = 1000; t <= 2500000; t += 20000)
		rapid_law_queue(&law, t, (t / 20000) % 5 ? 30000 : 500, 40000);
	tap_ok(!rapid_law_competing(&law, &cfg, 40000, 1000000, 0),
	       "compete: a queue that drains every 100 ms is no competitor");
	cfg.compete = 0;
	law.compete = 1;
	tap_ok(!rapid_law_competing(&law, &cfg, 40000, 1000000, 0), "compete: off by configuration");
}

/*
 * The report's law while competing (rapid_law_competing() set
 * law->compete): the queue law's step with compete on, for ABest and for
 * the stream clock; without it the report's law as before.
 */
static void test_report_compete(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_law law;
	enum rapid_ev ev;
	u64 want, l_ns;

	rapid_cfg_default(&cfg);		/* law 0, cut_max 1/8 */
	cfg.median = 1;
	cfg.compete = 1;
	cfg.probe_milli = 20;
	rapid_law_reset(&law);
	law.valid = 1;
	law.qd_us = 20000;			/* the competitor's queue */

	/* not competing: a lower estimate cuts r_avg by 1/8 */
	ctl = steady_ctl(&cfg, 1000000);
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 2, 500000, P_FULL,
				    40000, 0);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == 875000,
	       "report compete: off: a lower estimate cuts 1/8 (got %llu)",
	       (unsigned long long)ctl.r_avg);
	tap_eq(rapid_ctl_law_tick(&ctl, &cfg, &law, 3, P_FULL, 40000, 1000),
	       RAPID_EV_NONE, "report compete: off: no stream-clock step");

	/* competing: the lower estimate is the competitor's queue, held */
	law.compete = 1;
	ctl = steady_ctl(&cfg, 1000000);
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 2, 500000, P_FULL,
				    40000, 0);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 1000000,
	       "report compete: on: a lower estimate changes nothing");
	/* a growing queue: no cut while competing (the loss responses stay) */
	law.growth_ppm = 250000;
	ctl.launched_id = 20;
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 10, 500000, P_FULL,
				    40000, 1000);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 1000000,
	       "report compete: on: a growing queue cuts nothing (it is the competitor's)");
	cfg.compete = 0;	/* the same under the queue law without compete */
	cfg.law = RAPID_LAW_QUEUE;
	law.compete = 0;
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 11, 500000, P_FULL,
				    40000, 2000);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == 800000,
	       "report compete: (queue law, not competing: the same growth cuts 1/1.25)");
	cfg.law = RAPID_LAW_REPORT;
	cfg.compete = 1;
	law.compete = 1;
	law.growth_ppm = 0;

	/*
	 * The stream clock: at least compete_pkts packets per srtt every
	 * srtt.  At 100 kB/s a 30-packet stream outlasts the 40 ms srtt, so
	 * one step is a whole srtt's: 2 * 1448 B / 40 ms = 72400 B/s, more
	 * than 2% of r_avg.
	 */
	ctl = steady_ctl(&cfg, 100000);
	ev = rapid_ctl_law_tick(&ctl, &cfg, &law, 30, P_FULL, 40000, 3000);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg == 172400,
	       "report compete: tick: + 2 packets per srtt (100000 -> %llu, want 172400)",
	       (unsigned long long)ctl.r_avg);
	/* at 100 MB/s 2% of r_avg is more: the probe's share, per stream */
	ctl = steady_ctl(&cfg, 100000000);
	l_ns = rapid_stream_duration_ns(ctl.n, P_FULL, 100000000);
	want = 100000000 + div64_u64(2000000 * l_ns, 40000ULL * 1000);
	rapid_ctl_law_tick(&ctl, &cfg, &law, 31, P_FULL, 40000, 4000);
	tap_eq(ctl.r_avg, want, "report compete: tick: 2%% per srtt where that is more");
	/* compete_pkts 0 and probe off: nothing */
	cfg.compete_pkts = 0;
	cfg.probe_milli = 0;
	ctl = steady_ctl(&cfg, 100000);
	tap_eq(rapid_ctl_law_tick(&ctl, &cfg, &law, 32, P_FULL, 40000, 5000),
	       RAPID_EV_NONE, "report compete: tick: compete_pkts 0, probe off: no step");
	/* the largest values: no overflow, r_avg clamped */
	cfg.compete_pkts = RAPID_COMPETE_PKTS_MAX;
	ctl = steady_ctl(&cfg, RAPID_RATE_MAX - 1);
	rapid_ctl_law_tick(&ctl, &cfg, &law, 33, 65535, 1, 6000);
	tap_eq(ctl.r_avg, RAPID_RATE_MAX,
	       "report compete: tick: 64 packets of 64 KB per 1 us srtt: clamped");
}

/*
 * The keep after competing (rapid_law_competing(), rapid_law_keep()): the
 * end of competing keeps the report's law's cuts at no less than
 * keep_milli of the rate then, for keep_us; never up, loss responses still
 * cut, competing again, the time or compete off end it.
 */
static void test_compete_keep(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_law law;
	enum rapid_ev ev;
	u32 t;

	rapid_cfg_default(&cfg);
	tap_ok(cfg.keep_milli == RAPID_DEF_KEEP_MILLI &&
	       cfg.keep_us == RAPID_DEF_KEEP_MS * 1000U &&
	       cfg.keep_arm_us == RAPID_DEF_KEEP_ARM_MS * 1000U,
	       "keep: defaults 750/1000 for 10 s after 2 s of competing");
	cfg.median = 1;
	cfg.compete = 1;
	rapid_law_reset(&law);
	t = law_feed(&law, &cfg, 1000, 1200000, 20000);
	tap_ok(law.compete, "keep: competing after 1.2 s of a 20 ms queue");
	t = law_feed(&law, &cfg, t, 1000000, 1000);
	tap_ok(!law.compete && !law.keep_rate,
	       "keep: none after competing shorter than keep_arm (2 s)");
	t = law_feed(&law, &cfg, t, 3000000, 20000);
	tap_ok(law.compete && !law.keep_rate, "keep: none while competing");
	t = law_feed(&law, &cfg, t, 20000, 1000);	/* the queue empties */
	tap_ok(!law.compete && law.keep_rate == 750000 && law.keep_t_us == t - 20000,
	       "keep: competing ended at r_avg 1e6: keep 750000 (got %llu)",
	       (unsigned long long)law.keep_rate);
	rapid_law_competing(&law, &cfg, 40000, 2000000, t);
	tap_eq(law.keep_rate, 750000, "keep: set once, at the end (a later r_avg does not move it)");

	/* the report's law: a lower estimate cuts to no less than the keep */
	ctl = steady_ctl(&cfg, 800000);
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 2, 100000, P_FULL,
				    40000, t);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == 750000,
	       "keep: 800000 -> 750000, not 1/8 below (got %llu)",
	       (unsigned long long)ctl.r_avg);
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 3, 100000, P_FULL,
				    40000, t);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 750000,
	       "keep: at the keep a lower estimate changes nothing");
	ctl = steady_ctl(&cfg, 600000);
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 2, 100000, P_FULL,
				    40000, t);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 600000,
	       "keep: below the keep already: held, never raised to it");
	ctl = steady_ctl(&cfg, 4000000);
	ev = rapid_ctl_on_abest_law(&ctl, &cfg, NULL, &law, 2, 3800000, P_FULL,
				    40000, t);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == 3800000,
	       "keep: an estimate above the keep: the law's cut as before");
	/* a loss response still cuts below it */
	ctl = steady_ctl(&cfg, 800000);
	rapid_ctl_stream_started(&ctl, 5);
	rapid_ctl_stream_started(&ctl, 6);
	rapid_ctl_on_stream_done(&ctl, &cfg, 5, true);
	ev = rapid_ctl_on_stream_done(&ctl, &cfg, 6, true);
	tap_ok(ev == RAPID_EV_LOSS_REDUCE && ctl.r_avg == 560000,
	       "keep: a loss response cuts below it (800000 * 0.7)");
	tap_ok(rapid_law_keep(&law, 560000, 100000) == 560000,
	       "keep: ... and the next lower estimate holds there");

	/* it ends after keep_us, across the u32 clock's wrap */
	law.keep_t_us = 0xfffff000U;
	rapid_law_competing(&law, &cfg, 40000, 1000000,
			    0xfffff000U + cfg.keep_us - 1);
	tap_eq(law.keep_rate, 750000, "keep: still there 1 us before its end (clock wrapped)");
	rapid_law_competing(&law, &cfg, 40000, 1000000,
			    0xfffff000U + cfg.keep_us);
	tap_eq(law.keep_rate, 0, "keep: gone after keep_us");
	tap_eq(rapid_law_keep(&law, 800000, 100000), 100000,
	       "keep: none: the estimate passes");

	/* competing again ends it; keep_milli 0, keep_us 0, compete 0: none */
	law.keep_rate = 750000;
	law.keep_t_us = t;
	law_feed(&law, &cfg, t, 3000000, 20000);
	tap_ok(law.compete && !law.keep_rate, "keep: competing again ends it");
	cfg.keep_milli = 0;
	law_feed(&law, &cfg, t + 3000000, 20000, 1000);
	tap_ok(!law.compete && !law.keep_rate, "keep: keep_milli 0: none");
	cfg.keep_milli = RAPID_KEEP_MILLI_MAX;
	cfg.keep_us = 0;
	law_feed(&law, &cfg, t + 3100000, 3000000, 20000);
	law_feed(&law, &cfg, t + 6100000, 20000, 1000);
	tap_ok(!law.compete && !law.keep_rate, "keep: keep_us 0: none");
	cfg.keep_us = RAPID_KEEP_MS_MAX * 1000U;
	cfg.keep_arm_us = 0;
	law_feed(&law, &cfg, t + 6200000, 1200000, 20000);
	law_feed(&law, &cfg, t + 7400000, 20000, 1000);
	tap_eq(law.keep_rate, 1000000, "keep: keep_arm 0, keep 1000/1000: r_avg after a short episode");
	law_feed(&law, &cfg, t + 7500000, 1200000, 20000);
	cfg.compete = 0;
	rapid_law_competing(&law, &cfg, 40000, 1000000, t + 8800000);
	tap_ok(!law.compete && !law.keep_rate, "keep: compete switched off: none");
	/* the largest rate and share: bounded, no overflow */
	cfg.compete = 1;
	law.compete = 1;
	law.win_min_us = 0;
	law.prev_min_us = 0;
	rapid_law_competing(&law, &cfg, 40000, ~0ULL, t + 5300000);
	tap_eq(law.keep_rate, RAPID_RATE_MAX,
	       "keep: r_avg ~0 at keep 1000/1000: RAPID_RATE_MAX");
}

/* ---- losses ---------------------------------------------------------- */

static void test_loss(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	enum rapid_ev ev;
	u32 id;

	rapid_cfg_default(&cfg);
	ctl = steady_ctl(&cfg, 10000000);
	for (id = 1; id <= 20; id++)
		rapid_ctl_stream_started(&ctl, id);

	ev = rapid_ctl_on_stream_done(&ctl, &cfg, 1, true);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 10000000,
	       "loss: one lossy stream (isolated loss) changes nothing");
	ev = rapid_ctl_on_stream_done(&ctl, &cfg, 2, false);
	ev = rapid_ctl_on_stream_done(&ctl, &cfg, 3, true);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 10000000,
	       "loss: a clean stream in between resets the count");
	ev = rapid_ctl_on_stream_done(&ctl, &cfg, 4, true);
	tap_ok(ev == RAPID_EV_LOSS_REDUCE && ctl.r_avg == 7000000,
	       "loss: second consecutive lossy stream -> r_avg * 0.7");
	ev = rapid_ctl_on_stream_done(&ctl, &cfg, 5, true);
	ev = rapid_ctl_on_stream_done(&ctl, &cfg, 6, true);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 7000000,
	       "loss: streams sent before the reduction do not reduce again");
	rapid_ctl_stream_started(&ctl, 21);
	ev = rapid_ctl_on_stream_done(&ctl, &cfg, 21, true);
	tap_ok(ev == RAPID_EV_LOSS_REDUCE && ctl.r_avg == 4900000,
	       "loss: persisting into streams sent after it -> reduce again (one per RTT)");
	ev = rapid_ctl_undo(&ctl, &cfg);
	tap_ok(ev == RAPID_EV_UNDO && ctl.r_avg == 7000000,
	       "loss: undo restores the r_avg before the last reduction");
	tap_eq(rapid_ctl_undo(&ctl, &cfg), RAPID_EV_NONE, "loss: a second undo does nothing");
	rapid_ctl_stream_started(&ctl, 40);
	rapid_ctl_on_stream_done(&ctl, &cfg, 40, true);
	rapid_ctl_on_stream_done(&ctl, &cfg, 41, true);
	tap_eq(ctl.r_avg, 4900000, "loss: reduced again (7e6 * 0.7)");
	rapid_ctl_on_abest(&ctl, &cfg, 50, 20000000, P_FULL);
	tap_ok(rapid_ctl_undo(&ctl, &cfg) == RAPID_EV_NONE && ctl.r_avg > 4900000 &&
	       ctl.r_avg < 7000000, "loss: an applied ABest clears the undo state");

	cfg.loss_factor = 1000;
	ctl = steady_ctl(&cfg, 10000000);
	rapid_ctl_on_stream_done(&ctl, &cfg, 1, true);
	ev = rapid_ctl_on_stream_done(&ctl, &cfg, 2, true);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 10000000,
	       "loss: loss_factor = 1000 disables the reduction");
	cfg.loss_factor = 100;
	cfg.min_rate = 5000000;
	ctl = steady_ctl(&cfg, 10000000);
	rapid_ctl_on_stream_done(&ctl, &cfg, 1, true);
	rapid_ctl_on_stream_done(&ctl, &cfg, 2, true);
	tap_eq(ctl.r_avg, 5000000, "loss: reduction clamps to min_rate");
	rapid_cfg_default(&cfg);

	/* RTO: slow start from r_avg / 4 */
	ctl = steady_ctl(&cfg, 10000000);
	ev = rapid_ctl_on_rto(&ctl, &cfg, 0);
	tap_ok(ev == RAPID_EV_RTO && ctl.phase == RAPID_PHASE_SS && ctl.n == 2 &&
	       ctl.m == 2000 && ctl.r_avg == 2500000,
	       "rto: slow start, N=2, m=2, r_1 = r_avg / 4");
	ev = rapid_ctl_undo(&ctl, &cfg);
	tap_ok(ev == RAPID_EV_UNDO && ctl.phase == RAPID_PHASE_STEADY &&
	       ctl.r_avg == 10000000 && ctl.n == 30,
	       "rto: undo (spurious RTO) restores steady state and r_avg");
	ctl = steady_ctl(&cfg, 2000);
	rapid_ctl_on_rto(&ctl, &cfg, 0);
	tap_eq(ctl.r_avg, RAPID_RATE_MIN, "rto: restart rate not below min_rate");
	/* 4 packets of 1448 B per 100 ms: 57920 B/s */
	tap_eq(rapid_rto_floor(1448, 100000), 57920, "rto floor: 4 MSS per srtt");
	tap_eq(rapid_rto_floor(0, 100000), 0, "rto floor: 0 without an MSS");
	tap_eq(rapid_rto_floor(1448, 0), 0, "rto floor: 0 without an srtt");
	tap_ok(rapid_rto_floor(65535, 1) == 262140000000ULL,
	       "rto floor: a 64 KB MSS over 1 us does not overflow");
	/*
	 * RTOs in a row (one per ACK of new data in the loss state): r_avg / 4
	 * the first time (100000 -> 25000), then the floor (57920 is above
	 * 25000: r_avg stays), never the 10 kbit/s min_rate they reached.
	 */
	ctl = steady_ctl(&cfg, 100000);
	rapid_ctl_on_rto(&ctl, &cfg, 0);
	tap_eq(ctl.r_avg, 25000, "rto: without a floor 100000 -> 25000");
	ctl = steady_ctl(&cfg, 400000);
	rapid_ctl_on_rto(&ctl, &cfg, rapid_rto_floor(1448, 100000));
	tap_eq(ctl.r_avg, 100000, "rto: r_avg / 4 when above the floor");
	rapid_ctl_on_rto(&ctl, &cfg, rapid_rto_floor(1448, 100000));
	tap_eq(ctl.r_avg, 57920, "rto: the floor when r_avg / 4 is below it");
	rapid_ctl_on_rto(&ctl, &cfg, rapid_rto_floor(1448, 100000));
	rapid_ctl_on_rto(&ctl, &cfg, rapid_rto_floor(1448, 100000));
	tap_eq(ctl.r_avg, 57920, "rto: RTOs in a row stay at the floor");
	ctl = steady_ctl(&cfg, 40000);
	rapid_ctl_on_rto(&ctl, &cfg, rapid_rto_floor(1448, 100000));
	tap_eq(ctl.r_avg, 40000, "rto: a rate already below the floor is kept, not raised");

	/* slow start ignores stream losses (it reacts on recovery) */
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_on_stream_done(&ctl, &cfg, 1, true);
	ev = rapid_ctl_on_stream_done(&ctl, &cfg, 2, true);
	tap_ok(ev == RAPID_EV_NONE && ctl.phase == RAPID_PHASE_SS,
	       "loss: stream losses in slow start leave it to recovery");
	tap_eq(rapid_ctl_on_recovery(&ctl, &cfg), RAPID_EV_SS_EXIT, "loss: recovery in slow start exits");
	tap_eq(rapid_ctl_on_recovery(&ctl, &cfg), RAPID_EV_NONE, "loss: recovery in steady state: no change");
}

static void test_fixed(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	struct rapid_schedule s;

	rapid_cfg_default(&cfg);
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_set_fixed(&ctl, &cfg, 2500000);
	rapid_ctl_schedule(&ctl, &s);
	tap_ok(ctl.phase == RAPID_PHASE_FIXED && s.r_avg == 2500000 && s.n == 30 &&
	       s.m == 1070, "fixed: r_avg held, steady N and m");
	tap_eq(rapid_ctl_on_abest(&ctl, &cfg, 1, 100, P_FULL), RAPID_EV_IGNORED, "fixed: ABest ignored");
	rapid_ctl_on_stream_done(&ctl, &cfg, 1, true);
	rapid_ctl_on_stream_done(&ctl, &cfg, 2, true);
	tap_eq(rapid_ctl_on_rto(&ctl, &cfg, 0), RAPID_EV_NONE, "fixed: RTO ignored");
	tap_eq(ctl.r_avg, 2500000, "fixed: losses ignored");
	rapid_ctl_set_fixed(&ctl, &cfg, 0);
	tap_eq(ctl.r_avg, RAPID_RATE_MIN, "fixed: rate 0 clamps to 10 kbit/s");
	/* an uninitialised controller (zeroed socket state) refuses input */
	memset(&ctl, 0, sizeof(ctl));
	tap_eq(rapid_ctl_on_abest(&ctl, &cfg, 1, 100, P_FULL), RAPID_EV_IGNORED,
	       "zeroed controller ignores ABest");
	tap_eq(rapid_ctl_on_rto(&ctl, &cfg, 0), RAPID_EV_NONE, "zeroed controller ignores RTO");
}

/* ---- cwnd ------------------------------------------------------------ */

static void test_cwnd(void)
{
	/* 100 Mbit/s, 100 ms: BDP = 1.25e6 / 1448 = 863.3 -> 864; 2*864+60+4 */
	tap_eq(rapid_cwnd_target(12500000, 100000, P_FULL, 30), 1792,
	       "cwnd: 100 Mbit/s x 100 ms, N=30 -> 2*864 + 60 + 4 = 1792");
	/* no RTT sample: 1 s; 10 kbit/s: 1250 B -> 1 packet -> 2+60+4 */
	tap_eq(rapid_cwnd_target(1250, 0, P_FULL, 30), 66, "cwnd: srtt 0 counts as 1 s");
	tap_eq(rapid_cwnd_target(RAPID_RATE_MAX, ~0ULL, 1, 128), U32_MAX,
	       "cwnd: saturates at U32_MAX without overflow");
	tap_eq(rapid_cwnd_target(0, 100000, 0, 2), 2 + 4 + 4,
	       "cwnd: rate 0, mss 0 guarded (1 B/s, 1 B)");
}

/* rapid_cwnd_want(): what rapid_set_cwnd() sets before the clamp */
static void test_cwnd_want(void)
{
	struct rapid_ctl ctl = { .r_avg = 12500000, .n = 8, .phase = RAPID_PHASE_SS };
	struct rapid_cursor cur = { .r_avg = 6250000, .k = 8, .sent = 3 };

	/* slow start, stream open with 5 of 8 packets left: in flight + 5 */
	tap_eq(rapid_cwnd_want(&ctl, &cur, false, false, 20, 100000, P_FULL), 25,
	       "cwnd_want: slow start, stream open: in flight + packets left");
	cur.sent = 8;
	tap_eq(rapid_cwnd_want(&ctl, &cur, false, false, 20, 100000, P_FULL), 20,
	       "cwnd_want: slow start, stream sent, not acknowledged: in flight only");
	tap_eq(rapid_cwnd_want(&ctl, &cur, true, false, 20, 100000, P_FULL), 28,
	       "cwnd_want: slow start, stream acknowledged: in flight + next N (8)");
	cur.k = 0;
	tap_eq(rapid_cwnd_want(&ctl, &cur, false, false, 0, 100000, P_FULL), 8,
	       "cwnd_want: slow start before the first stream: N");
	cur.k = 8;
	/* recovery or steady state: 2 * BDP of max(r_avg) + 2 N + 4 (test_cwnd) */
	tap_eq(rapid_cwnd_want(&ctl, &cur, false, true, 20, 100000, P_FULL),
	       2 * 864 + 16 + 4, "cwnd_want: slow start in recovery: the target of r_avg");
	ctl.phase = RAPID_PHASE_STEADY;
	ctl.r_avg = 1250000;		/* 10 Mbit/s; the stream's 50 Mbit/s is higher */
	/* 6.25e6 B/s x 0.1 s / 1448 = 431.6 -> 432 */
	tap_eq(rapid_cwnd_want(&ctl, &cur, false, false, 20, 100000, P_FULL),
	       2 * 432 + 16 + 4, "cwnd_want: steady: the target of the higher of the two r_avg");
}

static void test_drain(void)
{
	const u64 a = 6250000;	/* 50 Mbit/s */

	tap_eq(rapid_drain_abest(a, 0, 40000, 250), a, "drain: no standing queue, ABest unchanged");
	/* qd 1 ms against a 40 ms base RTT: 1000 * 1 / 40 = 25 (1/1000) off */
	tap_eq(rapid_drain_abest(a, 1000, 40000, 250), a - a * 25 / 1000,
	       "drain: 1 ms of queue at 40 ms RTT takes 2.5%% off");
	/* base RTT below 10 ms counts as 10 ms: 1 ms -> 10% */
	tap_eq(rapid_drain_abest(a, 1000, 2000, 250), a - a / 10,
	       "drain: short paths use T = 10 ms (1 ms of queue -> 10%%)");
	tap_eq(rapid_drain_abest(a, 30000, 40000, 250), a - a / 4,
	       "drain: at most max_milli off (25%%)");
	tap_eq(rapid_drain_abest(a, 90000, 40000, 1000), 1,
	       "drain: a queue above T with max 100%% leaves the floor of 1 B/s");
	tap_eq(rapid_drain_abest(a, 1000, 40000, 0), a, "drain: max_milli 0 is off");
	tap_eq(rapid_drain_abest(0, 1000, 40000, 250), 0, "drain: no estimate stays none");
	tap_ok(rapid_drain_abest(~0ULL, 1000, 40000, 250) < ~0ULL,
	       "drain: a huge ABest saturates at RAPID_RATE_MAX first, no overflow");
	tap_eq(rapid_drain_abest(a, 1000, 40000, 5000), a - a * 25 / 1000,
	       "drain: max_milli above 1000 is 1000");
}

static void test_congestive(void)
{
	tap_ok(!rapid_loss_congestive(0, 20000), "congestive: no standing queue, random loss");
	tap_ok(!rapid_loss_congestive(1999, 8000), "congestive: below the 2 ms floor");
	tap_ok(rapid_loss_congestive(2000, 8000), "congestive: at the 2 ms floor (short path)");
	tap_ok(!rapid_loss_congestive(4999, 40000), "congestive: below base/8 at 40 ms");
	tap_ok(rapid_loss_congestive(5000, 40000), "congestive: base/8 at 40 ms");
	tap_ok(rapid_loss_congestive(U32_MAX, U32_MAX), "congestive: huge values do not wrap");
	tap_eq(rapid_qd_denoise(5000, 2000, 20000), 1000, "denoise: 5 ms less 2 x 2 ms of mdev");
	tap_eq(rapid_qd_denoise(3000, 2000, 20000), 0, "denoise: jitter alone is no queue");
	tap_eq(rapid_qd_denoise(U32_MAX, U32_MAX, U32_MAX), U32_MAX - U32_MAX / 2,
	       "denoise: no overflow");
	tap_eq(rapid_qd_denoise(7000, 0, 20000), 7000, "denoise: no noise, all queue");
	tap_eq(rapid_qd_denoise(1200000, 300000, 20000), 1190000,
	       "denoise: a filling buffer (mdev 300 ms) keeps its queue: allowance <= base / 2");
	/* rapid_standing_qd(): max(stream sample, the sample since), denoised */
	tap_eq(rapid_standing_qd(3000, 0, 40000, 0), 3000,
	       "standing_qd: nothing since the stream: its sample");
	tap_eq(rapid_standing_qd(3000, 8000, 40000, 0), 8000,
	       "standing_qd: a higher sample since (48 - 40 ms) wins");
	tap_eq(rapid_standing_qd(3000, 1000, 40000, 0), 3000,
	       "standing_qd: a lower one does not lower the sample");
	tap_eq(rapid_standing_qd(3000, 8000, 40000, 1000), 6000,
	       "standing_qd: less 2 x mdev (1 ms) of noise");
}

/* The base RTT and the queue sample on a path that reorders (robust-base). */
static void test_robust_base(void)
{
	struct rapid_rtt_win w = { .n = 0 };
	struct rapid_wmin m = { 0 };
	u32 i;

	tap_eq(rapid_rtt_win_median(&w), 0, "rtt_win: no sample, no median");
	rapid_rtt_win_push(&w, 60000);
	tap_eq(rapid_rtt_win_median(&w), 60000, "rtt_win: one sample is its median");
	/* 60 ms samples, one in four 30 ms ahead (netem's reorder 25%) */
	w.n = 0;
	for (i = 0; i < 12; i++)
		rapid_rtt_win_push(&w, i % 4 ? 60000 + i : 30000);
	/* sorted: 30000 x 3, 60001 60002 60003 60005 ...: the upper middle */
	tap_eq(rapid_rtt_win_median(&w), 60005,
	       "rtt_win: a quarter of fast samples do not move the median");
	for (i = 0; i < 40; i++)
		rapid_rtt_win_push(&w, 1);
	tap_eq(w.n, RAPID_RTT_SAMPLES, "rtt_win: keeps the first RAPID_RTT_SAMPLES only");
	tap_eq(rapid_rtt_win_median(&w), 60002,
	       "rtt_win: ... 4 more of 1 us: 7 of 16 fast, the median is still a slow one");
	tap_eq(rapid_rtt_win_base(&w, rapid_rtt_win_median(&w)), 60002,
	       "rtt_win: base: a full window gives its median");
	w.n = RAPID_RTT_BASE_SAMPLES;
	tap_eq(rapid_rtt_win_base(&w, rapid_rtt_win_median(&w)), rapid_rtt_win_median(&w),
	       "rtt_win: base: RAPID_RTT_BASE_SAMPLES samples give their median");
	w.n = RAPID_RTT_BASE_SAMPLES - 1;
	tap_eq(rapid_rtt_win_base(&w, rapid_rtt_win_median(&w)), 0,
	       "rtt_win: base: one fewer gives none");
	w.n = 1;
	w.us[0] = 10039;
	tap_eq(rapid_rtt_win_base(&w, rapid_rtt_win_median(&w)), 0,
	       "rtt_win: base: one fast sample (a stream in loss recovery) is no base");
	w.n = 0;
	tap_eq(rapid_rtt_win_base(&w, rapid_rtt_win_median(&w)), 0, "rtt_win: base: empty");
	for (i = 0; i < RAPID_RTT_BASE_SAMPLES; i++)
		rapid_rtt_win_push(&w, i < RAPID_RTT_BASE_SAMPLES / 2 ? 10000 : 20000);
	tap_eq(rapid_rtt_win_base(&w, rapid_rtt_win_median(&w)), 20000,
	       "rtt_win: base: 4 fast of 8 leave the median slow");
	w.n = 255;	/* corrupt count: bounded */
	tap_ok(rapid_rtt_win_median(&w) > 0, "rtt_win: a count above the array reads the array");
	rapid_rtt_win_push(&w, 5);
	tap_eq(w.n, 255, "rtt_win: ... and a push past it writes nothing");

	/* windowed minimum in halves of 100 ticks */
	tap_eq(rapid_wmin_get(&m), 0, "wmin: empty");
	rapid_wmin_update(&m, 0, 5, 100);
	tap_eq(rapid_wmin_get(&m), 0, "wmin: 0 is no value");
	rapid_wmin_update(&m, 60000, 10, 100);
	rapid_wmin_update(&m, 61000, 50, 100);
	tap_eq(rapid_wmin_get(&m), 60000, "wmin: the lowest of the half");
	rapid_wmin_update(&m, 62000, 120, 100);
	tap_eq(rapid_wmin_get(&m), 60000, "wmin: the half before still counts");
	rapid_wmin_update(&m, 63000, 230, 100);
	tap_eq(rapid_wmin_get(&m), 62000, "wmin: two halves later it is gone");
	rapid_wmin_update(&m, 64000, 500, 100);
	tap_eq(rapid_wmin_get(&m), 64000,
	       "wmin: after a gap of halves without values, only the new one");
	rapid_wmin_update(&m, 50000, 0x10, 100);	/* the clock wrapped */
	tap_eq(rapid_wmin_get(&m), 50000, "wmin: a clock that wraps starts a new half");
	rapid_wmin_update(&m, 70000, 0x20, 0);
	tap_eq(rapid_wmin_get(&m), 70000, "wmin: half 0 keeps the newest value only");

	tap_eq(rapid_base_rtt(30000, 0), 30000, "base_rtt: no base_med, TCP's min RTT");
	tap_eq(rapid_base_rtt(30000, 60000), 60000,
	       "base_rtt: reordering: the lowest stream median, not the fast packets' 30 ms");
	tap_eq(rapid_base_rtt(60000, 60400), 60400,
	       "base_rtt: in order the median adds a few packets at most");
	tap_eq(rapid_base_rtt(61000, 60000), 61000, "base_rtt: never below TCP's min RTT");
	tap_eq(rapid_base_rtt(U32_MAX, 0), U32_MAX, "base_rtt: nothing known");
	tap_eq(rapid_base_rtt(U32_MAX, 60000), 60000, "base_rtt: base_med before any min RTT");

	tap_eq(rapid_qd_sample(U32_MAX, 30000, 60000, 60000), 0, "qd_sample: no RTT sample, no queue");
	tap_eq(rapid_qd_sample(62000, 60000, 0, 0), 2000, "qd_sample: in order: lowest RTT - min RTT");
	tap_eq(rapid_qd_sample(59000, 60000, 0, 0), 0, "qd_sample: below the min RTT: none");
	tap_eq(rapid_qd_sample(61000, 30000, 62000, 60000), 2000,
	       "qd_sample: reordering: the min RTT says 31 ms, the median 2 ms");
	tap_eq(rapid_qd_sample(30500, 30000, 71000, 60000), 500,
	       "qd_sample: a fast packet in the stream: the smaller (0.5 ms)");
	tap_eq(rapid_qd_sample(61000, 60000, 59000, 60000), 0,
	       "qd_sample: a median below base_med is no queue");
	tap_eq(rapid_qd_sample(20040, 10000, 0, 20000), 0,
	       "qd_sample: reordering and no median (only SACKs since): no queue (not 10 ms)");
	tap_eq(rapid_qd_sample(U32_MAX - 1, 0, U32_MAX, 1), U32_MAX - 1,
	       "qd_sample: huge values do not wrap");
}

/*
 * The held min RTT (rapid_min_hold_update(), docs/rapid-deviations.md
 * #min-hold): the trace of 50-rapid-loss's reordering run that cut r_avg
 * (20 ms path, 10% of the packets 10 ms early, TCP's min RTT 20033 ->
 * 12552 -> 11913 -> 10038 us, the reordering counted ~60 ms after the
 * first fall).
 */
struct min_hold_step {
	u32 min_us, now_us;
	u8 hold;		/* 0: none; 1: the hold; 2: the hold, now_us + the hold */
	u32 want;
	const char *what;
};

/* Feed TCP's min RTTs of @step to @h with a hold of @hold_us. */
static void min_hold_steps(struct rapid_min_hold *h, u32 hold_us,
			   const struct min_hold_step *step, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		tap_eq(rapid_min_hold_update(h, step[i].min_us,
					     step[i].now_us + (step[i].hold == 2 ? hold_us : 0),
					     step[i].hold ? hold_us : 0),
		       step[i].want, "min_hold: %s", step[i].what);
}

static void test_min_hold(void)
{
	const u32 hold = RAPID_MIN_HOLD_RTTS * 20000;
	static const struct min_hold_step trace[] = {
		{ U32_MAX, 0, 1, 0, "TCP's none is no value" },
		{ 0, 0, 1, 0, "0 is no value" },
		{ 20033, 1000, 1, 20033, "the first value at once" },
		{ 17530, 1100000, 1, 17530, "a fall of less than 1/8 (2.5 of 20 ms) at once" },
		{ 20033, 1200000, 1, 20033, "(and the rise back)" },
		{ 17529, 1200000, 1, 17529, "a fall of 1/8 (2504 us) at once" },
		{ 20033, 1200000, 1, 20033, "(the rise back)" },
		{ 17528, 1200000, 1, 20033, "a fall of 1/8 and 1 us is held" },
		{ 20033, 1200000, 1, 20033, "(TCP's min back: the pending fall is dropped)" },
		{ 12552, 1290000, 1, 20033, "a fall is not taken at once" },
		{ 11913, 1300000, 1, 20033, "... nor a further fall 10 ms later" },
		{ 10038, 1360000, 1, 20033,
		  "... nor when TCP counts the reordering (70 ms after the first)" },
	};
	static const struct min_hold_step after[] = {
		{ 10038, 1289999, 2, 20033, "one us short of the hold from the first fall: still held" },
		{ 10038, 1290000, 2, 10038, "after the hold, the fall is taken" },
		{ 30000, 1500000, 1, 30000, "a rise (TCP's window expired) at once" },
		{ 20000, 1600000, 1, 30000, "a new fall is held again" },
		{ 31000, 1610000, 1, 31000, "a rise above the held value drops the pending fall" },
		{ 20000, 1620000, 1, 31000, "... so a fall after it starts its own hold" },
		{ 20000, 1619999, 2, 31000, "... which lasts from then" },
		{ 25000, 0xfffff000U, 0, 25000, "hold 0 (no srtt yet) takes a fall at once" },
		{ 21000, 0xfffff000U, 1, 25000, "a fall just before the clock wraps" },
		{ 21000, 0x00001000U, 1, 25000, "... the clock wrapped 8 ms later: still held" },
		{ 21000, 0xfffff000U, 2, 21000, "... and taken a hold after the fall, across the wrap" },
	};
	struct rapid_min_hold h = { 0 };

	tap_eq(rapid_min_hold_get(&h, 20500), 20500, "min_hold: nothing held: TCP's min RTT");
	/* the trace of 50-rapid-loss (see above), then what it gives */
	min_hold_steps(&h, hold, trace, sizeof(trace) / sizeof(trace[0]));
	tap_eq(rapid_min_hold_get(&h, 10038), 20033, "min_hold: get returns the held value");
	tap_eq(rapid_qd_sample(20000, rapid_min_hold_get(&h, 10038), 0, 0), 0,
	       "min_hold: so the stream's lowest RTT (20 ms) is no standing queue (was 8 ms)");
	tap_ok(!rapid_loss_congestive(rapid_standing_qd(0, 0, 20033, 300), 20033),
	       "min_hold: ... and a loss then is random");
	min_hold_steps(&h, hold, after, sizeof(after) / sizeof(after[0]));
}

static void test_ss_floor(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;

	/* 2 packets of 1448 B in 40 ms: 72400 B/s (579 kbit/s) */
	tap_eq(rapid_ss_floor(2, 1448, 40000), 72400, "ss floor: 2 * 1448 B per 40 ms");
	tap_eq(rapid_ss_floor(2, 1448, 0), 0, "ss floor: no RTT sample, no floor");
	tap_ok(rapid_ss_floor(255, 65535, 1) > 0, "ss floor: largest inputs do not overflow");
	rapid_cfg_default(&cfg);
	rapid_ctl_init(&ctl, &cfg);
	tap_ok(rapid_ctl_ss_raise(&ctl, &cfg, 72400) && ctl.r_avg == 72400 && ctl.dirty,
	       "ss floor: raises slow start's r_avg as a new epoch");
	tap_ok(!rapid_ctl_ss_raise(&ctl, &cfg, 1000), "ss floor: never lowers");
	ctl.phase = RAPID_PHASE_STEADY;
	tap_ok(!rapid_ctl_ss_raise(&ctl, &cfg, 1ULL << 30), "ss floor: not in steady state");
	ctl.phase = RAPID_PHASE_SS;
	tap_ok(rapid_ctl_ss_raise(&ctl, &cfg, ~0ULL) && ctl.r_avg == cfg.max_rate,
	       "ss floor: clamped to max_rate");
}

/*
 * A slow-start chirp that TCP sent as one or two packets (the first
 * flight, docs/rapid-deviations.md#ss-blank) gives no estimate; the
 * report's first stream of two packets does.
 */
static void test_ss_blank(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	u32 k;

	rapid_cfg_default(&cfg);
	cfg.ss_n_init = 8;
	rapid_ctl_init(&ctl, &cfg);
	tap_eq(ctl.n, 8, "ss blank: the first stream planned as 8 packets");
	for (k = 0; k <= 2; k++)
		tap_ok(rapid_ctl_ss_blank(&ctl, k),
		       "ss blank: a chirp of 8 sent as %u packets probed nothing", k);
	tap_ok(!rapid_ctl_ss_blank(&ctl, 3), "ss blank: 3 packets are a chirp (Eq. 5 with N = 3)");
	tap_ok(!rapid_ctl_ss_blank(&ctl, 8), "ss blank: the whole stream is one");
	ctl.phase = RAPID_PHASE_STEADY;
	tap_ok(!rapid_ctl_ss_blank(&ctl, 1), "ss blank: not in steady state");
	rapid_cfg_default(&cfg);
	rapid_ctl_init(&ctl, &cfg);
	tap_eq(ctl.n, 2, "ss blank: the default first stream is the report's 2");
	tap_ok(!rapid_ctl_ss_blank(&ctl, 1) && !rapid_ctl_ss_blank(&ctl, 2),
	       "ss blank: its one- and two-packet streams count (they grow slow start)");
	ctl.n = 0;
	tap_ok(!rapid_ctl_ss_blank(&ctl, 0), "ss blank: no parameters yet, nothing to judge");
}

/*
 * Steady state's floor (rapid_cfg_steady_floor(), docs/rapid-deviations.md
 * #compete-join): two packets per srtt, in steady state only.
 */
static void steady_floor_cfg(struct rapid_cfg *cfg, struct rapid_ctl *ctl,
			     u32 mss, u32 srtt_us)
{
	rapid_cfg_default(cfg);
	rapid_cfg_steady_floor(cfg, ctl, mss, srtt_us);
}

static void test_steady_floor(void)
{
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	enum rapid_ev ev;

	rapid_cfg_default(&cfg);
	ctl = steady_ctl(&cfg, 1000000);
	/* 2 packets of 1448 B in 40 ms: 72400 B/s */
	steady_floor_cfg(&cfg, &ctl, 1448, 40000);
	tap_eq(cfg.min_rate, 72400, "steady floor: 2 * 1448 B per 40 ms");
	steady_floor_cfg(&cfg, &ctl, 1448, 0);
	tap_eq(cfg.min_rate, RAPID_RATE_MIN, "steady floor: no RTT sample, min_rate alone");
	steady_floor_cfg(&cfg, &ctl, 0, 40000);
	tap_eq(cfg.min_rate, RAPID_RATE_MIN, "steady floor: no mss, min_rate alone");
	rapid_cfg_default(&cfg);
	cfg.min_rate = 1000000;
	rapid_cfg_steady_floor(&cfg, &ctl, 1448, 40000);
	tap_eq(cfg.min_rate, 1000000, "steady floor: a higher min_rate stays");
	rapid_cfg_default(&cfg);
	cfg.max_rate = 50000;
	rapid_cfg_steady_floor(&cfg, &ctl, 1448, 40000);
	tap_eq(cfg.min_rate, 50000, "steady floor: at most max_rate");
	rapid_cfg_default(&cfg);
	rapid_cfg_steady_floor(&cfg, &ctl, 65535, 1);
	tap_eq(cfg.min_rate, cfg.max_rate, "steady floor: largest mss, 1 us srtt: max_rate, no overflow");
	rapid_cfg_default(&cfg);
	rapid_ctl_init(&ctl, &cfg);
	rapid_cfg_steady_floor(&cfg, &ctl, 1448, 40000);
	tap_eq(cfg.min_rate, RAPID_RATE_MIN, "steady floor: not in slow start");
	tap_eq(cfg.steady_floor, 72400, "steady floor: known in slow start, for its exit");
	rapid_cfg_default(&cfg);
	ctl.phase = RAPID_PHASE_FIXED;
	rapid_cfg_steady_floor(&cfg, &ctl, 1448, 40000);
	tap_ok(cfg.min_rate == RAPID_RATE_MIN && !cfg.steady_floor,
	       "steady floor: none in the lab's fixed-rate mode");

	/*
	 * Slow start ends at the floor at least, by an estimate or by a
	 * fast recovery (a low early estimate left it at 0.4 Mbit/s on a
	 * 20 ms path, where a 30-packet stream lasts 0.8 s: docs/rapid.md
	 * "Switching to RAPID").  init rate 12500 B/s: r_1 = 12500.
	 */
	rapid_cfg_default(&cfg);
	rapid_ctl_init(&ctl, &cfg);
	rapid_cfg_steady_floor(&cfg, &ctl, 1448, 40000);
	rapid_ctl_stream_started(&ctl, 1);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 1, 6250, 1448);
	tap_ok(ev == RAPID_EV_SS_EXIT && ctl.r_avg == 72400,
	       "steady floor: slow start's exit on ABest r_1 / 2 = 6250 B/s is at the floor (got %llu)",
	       (unsigned long long)ctl.r_avg);
	rapid_cfg_default(&cfg);
	rapid_ctl_init(&ctl, &cfg);
	rapid_cfg_steady_floor(&cfg, &ctl, 1448, 40000);
	ev = rapid_ctl_on_recovery(&ctl, &cfg);
	tap_ok(ev == RAPID_EV_SS_EXIT && ctl.r_avg == 72400,
	       "steady floor: slow start's exit on a recovery at r_1 = 12500 B/s is at the floor (got %llu)",
	       (unsigned long long)ctl.r_avg);
	rapid_cfg_default(&cfg);
	rapid_ctl_init(&ctl, &cfg);
	ev = rapid_ctl_on_recovery(&ctl, &cfg);
	tap_ok(ev == RAPID_EV_SS_EXIT && ctl.r_avg == 12500,
	       "steady floor: unknown (no srtt): the recovery exit stays at r_1");
	rapid_cfg_default(&cfg);
	rapid_ctl_init(&ctl, &cfg);
	rapid_cfg_steady_floor(&cfg, &ctl, 1448, 40000);
	rapid_ctl_stream_started(&ctl, 1);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 1, 12500, 1448);	/* no trend */
	{
		struct rapid_schedule s;

		rapid_ctl_schedule(&ctl, &s);
		tap_ok(ev == RAPID_EV_SS_GROW && rapid_schedule_rate(&s, 1) == 12500,
		       "steady floor: slow start itself is not raised to it (r_1 %llu)",
		       (unsigned long long)rapid_schedule_rate(&s, 1));
	}

	/* the report's law: an estimate of nearly nothing stops at the floor */
	report_cfg(&cfg);
	ctl = steady_ctl(&cfg, 1000000);
	rapid_cfg_steady_floor(&cfg, &ctl, 1448, 40000);
	ev = rapid_ctl_on_abest(&ctl, &cfg, 1, 1000, 1448);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == 72400,
	       "steady floor: ABest 1 kB/s takes r_avg to 2 packets per srtt, no lower");
	ev = rapid_ctl_on_abest(&ctl, &cfg, 2, 200000, 1448);
	tap_ok(ev == RAPID_EV_INCREASE, "steady floor: and up again from there");
}

/* ---- the median of the newest estimates (rapid-deviations.md#median-of-three) */

/*
 * The refinement's streams: each leaves after the previous estimate came
 * back (a round trip shorter than a stream), so none is stale.
 */
static enum rapid_ev refine_feed(struct rapid_ctl *ctl, struct rapid_cfg *cfg,
				 struct rapid_abest_hist *h, u32 id, u64 abest)
{
	rapid_ctl_stream_started(ctl, id);
	return rapid_ctl_on_abest_hist(ctl, cfg, h, id, abest, P_FULL);
}

static void test_median(void)
{
	struct rapid_abest_hist h = { 0 };
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	enum rapid_ev ev;
	u32 id, i;
	u64 m;

	tap_eq(rapid_hist_push_median(&h, 500, 3), 500, "median: one estimate is its own median");
	tap_eq(rapid_hist_push_median(&h, 100, 3), 500,
	       "median: of two the upper one (one low estimate alone changes nothing)");
	tap_eq(rapid_hist_push_median(&h, 300, 3), 300, "median: of 500, 100, 300 is 300");
	tap_eq(rapid_hist_push_median(&h, 900, 3), 300, "median: the oldest leaves (100, 300, 900)");
	tap_eq(rapid_hist_push_median(&h, 1000, 3), 900, "median: 300, 900, 1000");
	tap_eq(rapid_hist_push_median(&h, 7, 1), 7, "median: window 1 is the estimate itself");
	tap_eq(rapid_hist_push_median(&h, 0, 0), 0, "median: window 0 counts as 1");
	rapid_hist_reset(&h);
	for (i = 1; i <= 20; i++)
		m = rapid_hist_push_median(&h, i, 100);
	tap_eq(m, 17, "median: window clamped to RAPID_MEDIAN_MAX (14..20 -> 17), ring wraps");
	h.next = 200;	/* corrupted state: reset, no out-of-bounds write */
	tap_eq(rapid_hist_push_median(&h, 42, 3), 42, "median: a corrupt ring index resets the history");
	tap_eq(h.count, 1, "median: ... to one entry");
	rapid_hist_reset(&h);
	rapid_hist_push_median(&h, RAPID_RATE_MAX, 3);
	rapid_hist_push_median(&h, ~0ULL, 3);
	tap_eq(rapid_hist_push_median(&h, 0, 3), RAPID_RATE_MAX, "median: extremes (0, max, ~0)");

	/* the controller with a history: one outlier on either side ignored */
	report_cfg(&cfg);
	rapid_hist_reset(&h);
	ctl = steady_ctl(&cfg, 10000000);
	id = 1;
	for (i = 0; i < 3; i++)
		rapid_ctl_on_abest_hist(&ctl, &cfg, &h, id++, 10000000, P_FULL);
	ev = rapid_ctl_on_abest_hist(&ctl, &cfg, &h, id++, 2000000, P_FULL);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 10000000,
	       "median 3: one low estimate (x0.2) leaves r_avg alone");
	ev = rapid_ctl_on_abest_hist(&ctl, &cfg, &h, id++, 6000000, P_FULL);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == 6000000,
	       "median 3: a second low one is adopted at once (the higher of the two)");
	ev = rapid_ctl_on_abest_hist(&ctl, &cfg, &h, id++, 60000000, P_FULL);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 6000000,
	       "median 3: one high estimate (x10) moves nothing");
	ev = rapid_ctl_on_abest_hist(&ctl, &cfg, &h, id++, 9000000, P_FULL);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg > 6000000 && ctl.r_avg < 9000000,
	       "median 3: two high ones raise r_avg through the tau filter only");
	cfg.median = 1;
	ev = rapid_ctl_on_abest_hist(&ctl, &cfg, &h, id++, 1000000, P_FULL);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == 1000000,
	       "median 1: the report's rule (every lower estimate at once)");
	cfg.median = 3;
	ev = rapid_ctl_on_abest_hist(&ctl, &cfg, &h, id - 3, 1, P_FULL);
	tap_ok(ev == RAPID_EV_IGNORED && ctl.r_avg == 1000000 && h.count == 7,
	       "median 3: a stale id is ignored before it enters the history");

	/* slow-start exit seeds the history with the exit estimate */
	rapid_ctl_init(&ctl, &cfg);
	rapid_hist_reset(&h);
	h.count = 5;
	rapid_ctl_stream_started(&ctl, 1);
	ev = rapid_ctl_on_abest_hist(&ctl, &cfg, &h, 1, 10000, P_FULL);
	tap_ok(ev == RAPID_EV_SS_EXIT && h.count == 1 && ctl.r_avg == 10000,
	       "median: the slow-start exit restarts the history with its estimate");

	/* after the exit, higher estimates are adopted at once until one is not */
	tap_eq(ctl.refine, RAPID_DEF_SS_REFINE, "refine: slow start's exit arms ss_refine");
	ev = refine_feed(&ctl, &cfg, &h, 2, 4000000);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg == 4000000,
	       "refine: a higher estimate after the exit is adopted at once (x400)");
	ev = refine_feed(&ctl, &cfg, &h, 3, 8000000);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 4000000 &&
	       ctl.refine == RAPID_DEF_SS_REFINE - 2,
	       "refine: median(1e4, 4e6, 8e6) = r_avg: the ramp goes on, one stream behind");
	ev = refine_feed(&ctl, &cfg, &h, 4, 9000000);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg == 8000000,
	       "refine: median(4e6, 8e6, 9e6) = 8e6 adopted at once");
	ev = refine_feed(&ctl, &cfg, &h, 5, 6000000);
	ev = refine_feed(&ctl, &cfg, &h, 6, 6000000);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 8000000 && ctl.refine != 0 &&
	       ctl.refine_low,
	       "refine: one median below r_avg alone does not end it");
	ev = refine_feed(&ctl, &cfg, &h, 7, 6000000);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.r_avg == 6000000 && ctl.refine == 0,
	       "refine: the second in a row ends it (and decreases as usual)");
	ev = refine_feed(&ctl, &cfg, &h, 8, 9000000);
	ev = refine_feed(&ctl, &cfg, &h, 9, 9000000);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg > 6000000 && ctl.r_avg < 6600000,
	       "refine: then the tau filter again");
	/*
	 * The demo's trace (50 Mbit/s idle path, helper loaded): the exit at
	 * 37.8 Mbit/s (capped), 50.4, then 8.5 from the stream after one the
	 * receive window held back, then 51.4: the refinement goes on at
	 * 50.4, where ending it at the first low median (37.8) left r_avg at
	 * 75% of the link for the tau filter.  Scaled here to B/s.
	 */
	rapid_ctl_init(&ctl, &cfg);
	rapid_hist_reset(&h);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest_hist(&ctl, &cfg, &h, 1, 10000, P_FULL);
	refine_feed(&ctl, &cfg, &h, 2, 6300000);
	ev = refine_feed(&ctl, &cfg, &h, 3, 1062500);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 6300000 && ctl.refine_low,
	       "refine: a lone low estimate (median of the exit, 6.3e6, 1.06e6) keeps r_avg");
	ev = refine_feed(&ctl, &cfg, &h, 4, 6425000);
	tap_ok(ev == RAPID_EV_NONE && ctl.r_avg == 6300000 &&
	       ctl.refine == RAPID_DEF_SS_REFINE - 2 && !ctl.refine_low,
	       "refine: a higher one after it clears it, the refinement goes on");
	ev = refine_feed(&ctl, &cfg, &h, 5, 7000000);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg == 6425000,
	       "refine: and adopts the next higher median at once");
	/*
	 * At a high rate a round trip holds more streams than the budget:
	 * those that left before a raise report at most their own top and
	 * must not spend it (1 Gbit/s, 100 ms: 24 round trips to the link
	 * with them counted, 9 without).  Each estimate alone (median 1).
	 */
	cfg.median = 1;
	rapid_ctl_init(&ctl, &cfg);
	rapid_hist_reset(&h);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest_hist(&ctl, &cfg, &h, 1, 10000, P_FULL);
	for (id = 2; id <= 40; id++)
		rapid_ctl_stream_started(&ctl, id);	/* the exit's round trip */
	ev = rapid_ctl_on_abest_hist(&ctl, &cfg, &h, 2, 3300000, P_FULL);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg == 3300000 &&
	       ctl.refine == RAPID_DEF_SS_REFINE - 1,
	       "refine stale: the first stream after the exit raises r_avg");
	for (id = 3; id <= 40; id++)
		rapid_ctl_on_abest_hist(&ctl, &cfg, &h, id, 3300000, P_FULL);
	tap_ok(ctl.r_avg == 3300000 && ctl.refine == RAPID_DEF_SS_REFINE - 1,
	       "refine stale: 38 streams sent before the raise do not spend the budget");
	ev = refine_feed(&ctl, &cfg, &h, 41, 9900000);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg == 9900000 &&
	       ctl.refine == RAPID_DEF_SS_REFINE - 2,
	       "refine stale: the first stream sent after it raises again and spends one");
	for (id = 42; id <= 50; id++)	/* left before the second raise */
		rapid_ctl_on_abest_hist(&ctl, &cfg, &h, id, 9900000, P_FULL);
	tap_eq(ctl.refine, RAPID_DEF_SS_REFINE - 2,
	       "refine stale: nor do those sent before the second raise");
	ev = rapid_ctl_on_abest_hist(&ctl, &cfg, &h, 51, 6000000, P_FULL);
	tap_ok(ev == RAPID_EV_NONE && ctl.refine_low && ctl.r_avg == 9900000,
	       "refine stale: a stale stream's lower estimate still counts as low");
	ev = rapid_ctl_on_abest_hist(&ctl, &cfg, &h, 52, 6000000, P_FULL);
	tap_ok(ev == RAPID_EV_DECREASE && ctl.refine == 0 && ctl.r_avg == 6000000,
	       "refine stale: and a second one ends the refinement");
	cfg.median = 3;
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest_hist(&ctl, &cfg, &h, 1, 10000, P_FULL);
	for (id = 2; id <= 17; id++)
		refine_feed(&ctl, &cfg, &h, id, 10000 + id);
	tap_eq(ctl.refine, 0, "refine: 16 fresh streams spend a budget of 16");
	cfg.ss_refine = 1;
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest_hist(&ctl, &cfg, &h, 1, 10000, P_FULL);
	rapid_ctl_on_abest_hist(&ctl, &cfg, &h, 2, 4000000, P_FULL);
	tap_ok(ctl.r_avg == 4000000 && ctl.refine == 0,
	       "refine: at most ss_refine streams (1)");
	cfg.ss_refine = 0;
	cfg.tau_ns = 60ULL * RAPID_NSEC_PER_SEC;	/* l = 4.3 s < tau */
	rapid_ctl_init(&ctl, &cfg);
	rapid_ctl_stream_started(&ctl, 1);
	rapid_ctl_on_abest_hist(&ctl, &cfg, &h, 1, 10000, P_FULL);
	ev = rapid_ctl_on_abest_hist(&ctl, &cfg, &h, 2, 4000000, P_FULL);
	tap_ok(ev == RAPID_EV_INCREASE && ctl.r_avg > 10000 && ctl.r_avg < 4000000,
	       "refine: ss_refine = 0 is the report's rule (tau filter)");
	cfg.ss_refine = RAPID_DEF_SS_REFINE;
	rapid_ctl_enter_steady(&ctl, &cfg, 10000);
	tap_eq(ctl.refine, 0, "refine: entering steady state otherwise (recovery, undo) does not arm it");
}

/*
 * The re-acquire jump (rapid_jump_step()): estimates fed one stream every
 * 10 ms with srtt 100 ms through the controller's steady-state path.
 */
#define J_SRTT	100000U
static u32 jump_feed(struct rapid_ctl *ctl, const struct rapid_cfg *cfg,
		     struct rapid_abest_hist *h, u32 *id, u32 *now, u64 abest,
		     u32 count)
{
	u32 ev = RAPID_EV_NONE;

	while (count--) {
		*now += 10000;
		ev = rapid_ctl_on_abest_law(ctl, cfg, h, NULL, (*id)++, abest,
					    P_FULL, J_SRTT, *now);
	}
	return ev;
}

/*
 * A fresh history and a controller in steady state at r, fed `count`
 * estimates at r: the flat path before a step.
 */
static struct rapid_ctl jump_restart(const struct rapid_cfg *cfg,
				     struct rapid_abest_hist *h, u32 *id,
				     u32 *now, u64 r, u32 count)
{
	struct rapid_ctl ctl = steady_ctl(cfg, r);

	rapid_hist_reset(h);
	jump_feed(&ctl, cfg, h, id, now, r, count);
	return ctl;
}

/* Feed `count` estimates 10 ms apart with the given queue state. */
static void accel_feed(struct rapid_ctl *ctl, struct rapid_cfg *cfg,
		       struct rapid_abest_hist *h, u32 *id, u32 *now,
		       u64 abest, bool queue_free, u32 count)
{
	cfg->queue_free = queue_free;
	jump_feed(ctl, cfg, h, id, now, abest, count);
}

static void test_accel(void)
{
	const u64 r30 = 3750000, r40 = 5000000;	/* 30, 40 Mbit/s in B/s */
	const u32 per_srtt = J_SRTT / 10000;	/* estimates per srtt */
	struct rapid_abest_hist h = { 0 };
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	u32 id = 1, now = 1000000, i;
	u64 r_acc, r_eq6, r, lvl;
	u8 top;

	rapid_cfg_default(&cfg);
	tap_eq(cfg.accel_max, RAPID_DEF_ACCEL_MAX, "accel: on by default (3)");
	cfg.jump_milli = 0;		/* Eq. 6 and the acceleration alone */

	/* a lone flow at 30 Mbit/s, a step to 40, no queue */
	ctl = steady_ctl(&cfg, r30);
	accel_feed(&ctl, &cfg, &h, &id, &now, r30, true, 20);
	tap_eq(h.acc, 0, "accel: estimates at r_avg: the full tau");
	top = 0;
	for (i = 0; i < 5 * per_srtt; i++) {
		accel_feed(&ctl, &cfg, &h, &id, &now, r40, true, 1);
		if (h.acc > top)
			top = h.acc;
		if (i == per_srtt)
			tap_eq(h.acc, 1, "accel: one srtt of a gap halves tau");
		if (i == 2 * per_srtt + 1)
			tap_eq(h.acc, 2, "accel: two srtt, a quarter");
	}
	tap_eq(top, RAPID_DEF_ACCEL_MAX, "accel: up to accel_max");
	tap_ok(h.acc < top, "accel: and down again as r_avg comes within 1/8 (acc %u)",
	       h.acc);
	r_acc = ctl.r_avg;

	cfg.accel_max = 0;
	rapid_hist_reset(&h);
	ctl = steady_ctl(&cfg, r30);
	accel_feed(&ctl, &cfg, &h, &id, &now, r30, true, 20);
	accel_feed(&ctl, &cfg, &h, &id, &now, r40, true, 5 * per_srtt);
	r_eq6 = ctl.r_avg;
	tap_ok(h.acc == 0 && r_eq6 > r30 && r_eq6 < r30 + (r40 - r30) / 2,
	       "accel: accel_max = 0 is Eq. 6 alone (%llu B/s after 5 srtt)",
	       (unsigned long long)r_eq6);
	tap_ok(r_acc - r30 > 2 * (r_eq6 - r30),
	       "accel: after 5 srtt it closed over twice Eq. 6's share of the gap (%llu vs %llu B/s)",
	       (unsigned long long)(r_acc - r30), (unsigned long long)(r_eq6 - r30));
	tap_ok(r_acc < r40, "accel: and never passed the estimate");
	cfg.accel_max = 200;		/* out of range: clamped */
	rapid_hist_reset(&h);
	ctl = steady_ctl(&cfg, r30);
	accel_feed(&ctl, &cfg, &h, &id, &now, r30, true, 20);
	for (i = 0; i < 10 * per_srtt; i++)	/* a gap of 30% that stays */
		accel_feed(&ctl, &cfg, &h, &id, &now,
			   ctl.r_avg + ctl.r_avg * 3 / 10, true, 1);
	tap_eq(h.acc, RAPID_ACCEL_MAX_MAX, "accel: accel_max 200 is held to %u",
	       RAPID_ACCEL_MAX_MAX);
	cfg.accel_max = RAPID_DEF_ACCEL_MAX;

	/* with a standing queue: never */
	rapid_hist_reset(&h);
	ctl = steady_ctl(&cfg, r30);
	accel_feed(&ctl, &cfg, &h, &id, &now, r30, false, 20);
	accel_feed(&ctl, &cfg, &h, &id, &now, r40, false, 5 * per_srtt);
	tap_ok(h.acc == 0 && ctl.r_avg == r_eq6,
	       "accel: a standing queue: the full tau (same r_avg as accel_max = 0)");

	/* a gap over r_avg / 2 (a spare shared with others): held */
	rapid_hist_reset(&h);
	ctl = steady_ctl(&cfg, r30);
	accel_feed(&ctl, &cfg, &h, &id, &now, r30, true, 20);
	accel_feed(&ctl, &cfg, &h, &id, &now, 2 * r30, true, 2 * per_srtt);
	tap_eq(h.acc, 0, "accel: estimates at 2 r_avg do not accelerate");

	/* raw estimates spread over more than r_avg / 2: held */
	rapid_hist_reset(&h);
	ctl = steady_ctl(&cfg, r30);
	accel_feed(&ctl, &cfg, &h, &id, &now, r30, true, 20);
	top = 0;
	for (i = 0; i < 2 * per_srtt; i++) {
		accel_feed(&ctl, &cfg, &h, &id, &now, 4250000, true, 1);	/* 34 */
		top = h.acc > top ? h.acc : top;
		accel_feed(&ctl, &cfg, &h, &id, &now, 6250000, true, 1);	/* 50 */
		top = h.acc > top ? h.acc : top;
		accel_feed(&ctl, &cfg, &h, &id, &now, 4500000, true, 1);	/* 36 */
		top = h.acc > top ? h.acc : top;
	}
	tap_eq(top, 0, "accel: 34 / 50 / 36 Mbit/s on 30 (spread 16 > 15): held throughout");

	/* it overshot while accelerating: others rose too, a lock */
	rapid_hist_reset(&h);
	ctl = steady_ctl(&cfg, r30);
	accel_feed(&ctl, &cfg, &h, &id, &now, r30, true, 20);
	accel_feed(&ctl, &cfg, &h, &id, &now, r40, true, 2 * per_srtt + 2);
	tap_eq(h.acc, 2, "accel: two srtt into a step");
	accel_feed(&ctl, &cfg, &h, &id, &now, r40, false, 1);
	tap_ok(h.acc == 0 && h.acc_locked && h.acc_lock_n == 1,
	       "accel: a standing queue while accelerating: back to tau, locked");
	accel_feed(&ctl, &cfg, &h, &id, &now, r40, true,
		   RAPID_ACCEL_LOCK_RTTS * per_srtt - 2);
	tap_eq(h.acc, 0, "accel: no acceleration for %u srtt", RAPID_ACCEL_LOCK_RTTS);
	r = ctl.r_avg + ctl.r_avg * 3 / 10;
	accel_feed(&ctl, &cfg, &h, &id, &now, r, true, 2 * per_srtt + 2);
	tap_ok(!h.acc_locked && h.acc >= 1, "accel: then again (acc %u)", h.acc);
	/* a cut from elsewhere (a loss response) counts the same */
	ctl.r_avg -= ctl.r_avg / 4;
	accel_feed(&ctl, &cfg, &h, &id, &now, r, true, 1);
	tap_ok(h.acc == 0 && h.acc_locked && h.acc_lock_n == 2,
	       "accel: r_avg cut while accelerating: locked for twice as long");
	/* the lock ends early only at a new level of the estimates */
	r = ctl.r_avg;
	accel_feed(&ctl, &cfg, &h, &id, &now, r, true, 6 * per_srtt);
	lvl = h.jump_lvl;
	accel_feed(&ctl, &cfg, &h, &id, &now, lvl + lvl / 10, true,
		   2 * per_srtt);
	tap_ok(h.acc == 0 && h.acc_locked,
	       "accel: estimates 1/10 above the level keep the lock");
	lvl = h.jump_lvl;
	accel_feed(&ctl, &cfg, &h, &id, &now, lvl + lvl / 6, true, cfg.median);
	tap_ok(!h.acc_locked && h.acc_lock_n == 2,
	       "accel: a median 1/6 above it (a new level) ends the lock, lock_n kept");
	accel_feed(&ctl, &cfg, &h, &id, &now, lvl + lvl / 6, true, per_srtt + 1);
	tap_ok(h.acc >= 1, "accel: and it accelerates again (acc %u)", h.acc);
	/* the gap closes: acc steps down, lock_n with it at the end */
	rapid_hist_reset(&h);
	h.acc_lock_n = 2;
	ctl = steady_ctl(&cfg, r30);
	accel_feed(&ctl, &cfg, &h, &id, &now, r30, true, 20);
	accel_feed(&ctl, &cfg, &h, &id, &now, r40, true, 3 * per_srtt + 3);
	tap_eq(h.acc, 3, "accel: three srtt into a step");
	accel_feed(&ctl, &cfg, &h, &id, &now, ctl.r_avg + ctl.r_avg / 16, true,
		   per_srtt + 1);
	tap_eq(h.acc, 2, "accel: a gap under r_avg / 8: one step down per srtt");
	accel_feed(&ctl, &cfg, &h, &id, &now, ctl.r_avg + ctl.r_avg / 16, true,
		   2 * per_srtt + 2);
	tap_ok(h.acc == 0 && h.acc_lock_n == 1 && !h.acc_locked,
	       "accel: ended without an overshoot: lock_n down by one, no lock");
	accel_feed(&ctl, &cfg, &h, &id, &now, r40, true, 2 * per_srtt + 2);
	accel_feed(&ctl, &cfg, &h, &id, &now, ctl.r_avg, true, 1);
	tap_ok(h.acc == 0 && !h.acc_locked,
	       "accel: an estimate not above r_avg ends it at once, no lock");

	/* the clock wraps */
	rapid_hist_reset(&h);
	ctl = steady_ctl(&cfg, r30);
	now = U32_MAX - 30 * 10000;
	accel_feed(&ctl, &cfg, &h, &id, &now, r30, true, 20);
	accel_feed(&ctl, &cfg, &h, &id, &now, r40, true, 2 * per_srtt + 2);
	tap_eq(h.acc, 2, "accel: across the wrap of the us clock");
	/* the longest lock stays under a minute whatever the srtt */
	h.acc_lock_n = RAPID_ACCEL_LOCK_N_MAX;
	rapid_accel_lock(&h, U32_MAX, now);
	tap_ok(h.acc_lock_us - now == RAPID_ACCEL_LOCK_MAX_US,
	       "accel: a lock at srtt U32_MAX lasts %u us", RAPID_ACCEL_LOCK_MAX_US);
}

/*
 * The report's law with pace_drain (docs/rapid-deviations.md#pace-drain):
 * the drain moves from the estimates to the streams' rate, the estimates
 * are taken bias_milli lower, and the jump's level lags the judged three.
 */
static void test_pace_drain(void)
{
	const u64 a = 6250000;	/* 50 Mbit/s */
	const u64 r30 = 3750000, r36 = 4500000;	/* 30, 36 Mbit/s in B/s */
	struct rapid_abest_hist h = { 0 };
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	u32 id = 1, now = 1000000;

	rapid_cfg_default(&cfg);
	tap_ok(cfg.pace_drain == 1 && cfg.bias_milli == 31,
	       "pace_drain: on by default, bias_milli 31");
	/* the estimate side */
	tap_eq(rapid_report_abest(a, 1000, 40000, 250, false, 0),
	       rapid_drain_abest(a, 1000, 40000, 250),
	       "pace_drain: off, no bias: the estimate less the drain (the law before)");
	tap_eq(rapid_report_abest(a, 1000, 40000, 250, true, 0), a,
	       "pace_drain: on: the queue does not touch the estimate");
	tap_eq(rapid_report_abest(a, 0, 40000, 250, true, 31), a - a * 31 / 1000,
	       "pace_drain: bias_milli 31 takes 3.1%% off");
	tap_eq(rapid_report_abest(a, 1000, 40000, 250, false, 31),
	       rapid_drain_abest(a, 1000, 40000, 250) -
	       rapid_drain_abest(a, 1000, 40000, 250) * 31 / 1000,
	       "pace_drain: off with a bias: the drain, then the bias");
	tap_eq(rapid_report_abest(a, 0, 40000, 250, true, 5000), a - a / 4,
	       "pace_drain: a bias above RAPID_BIAS_MILLI_MAX is that (1/4)");
	tap_eq(rapid_report_abest(0, 1000, 40000, 250, true, 31), 0,
	       "pace_drain: no estimate stays none");
	tap_eq(rapid_report_abest(1, 0, 40000, 250, true, 250), 1,
	       "pace_drain: 1 B/s stays 1, never 0");
	tap_ok(rapid_report_abest(~0ULL, 0, 40000, 250, true, 31) < RAPID_RATE_MAX,
	       "pace_drain: a huge estimate saturates at RAPID_RATE_MAX first");
	/* the rate side */
	tap_eq(rapid_report_pace_rate(a, 1000, 40000, 250, false), a,
	       "pace_drain: off: streams at r_avg");
	tap_eq(rapid_report_pace_rate(a, 1000, 40000, 250, true), a - a * 25 / 1000,
	       "pace_drain: 1 ms of queue at 40 ms: streams 2.5%% below r_avg");
	tap_eq(rapid_report_pace_rate(a, 0, 40000, 250, true), a,
	       "pace_drain: no queue: streams at r_avg");
	tap_eq(rapid_report_pace_rate(a, 90000, 40000, 250, true), a - a / 4,
	       "pace_drain: at most drain_max below r_avg");
	tap_eq(rapid_report_pace_rate(a, 1000, 40000, 0, true), a,
	       "pace_drain: drain_max 0 is off");
	/* which drain the next stream gets (rapid_ctl_stream_rate()) */
	{
		struct rapid_law law = { 0 };

		ctl = steady_ctl(&cfg, a);
		tap_eq(rapid_ctl_stream_rate(&ctl, &cfg, &law, 1000, 40000, 250),
		       a - a * 25 / 1000,
		       "stream rate: the report's law, pace_drain: r_avg less the drain");
		tap_eq(rapid_ctl_stream_rate(&ctl, &cfg, NULL, 1000, 40000, 250), a,
		       "stream rate: no law state: r_avg");
		law.compete = 1;
		tap_eq(rapid_ctl_stream_rate(&ctl, &cfg, &law, 1000, 40000, 250), a,
		       "stream rate: competing: r_avg");
		law.compete = 0;
		cfg.pace_drain = 0;
		tap_eq(rapid_ctl_stream_rate(&ctl, &cfg, &law, 1000, 40000, 250), a,
		       "stream rate: pace_drain 0: r_avg (the drain is on ABest)");
		cfg.pace_drain = 1;
		cfg.law = RAPID_LAW_QUEUE;
		law.qd_us = 12000;
		law.noise_us = 0;
		tap_eq(rapid_ctl_stream_rate(&ctl, &cfg, &law, 1000, 40000, 250),
		       rapid_law_drain_rate(a, 12000, cfg.q_target_us,
					    cfg.law_t_us, 250),
		       "stream rate: the queue law: its drain of its own qd");
		tap_ok(rapid_law_drain_rate(a, 12000, cfg.q_target_us,
					    cfg.law_t_us, 250) < a,
		       "stream rate: ... which is below r_avg here");
		ctl.refine = 1;
		tap_eq(rapid_ctl_stream_rate(&ctl, &cfg, &law, 1000, 40000, 250), a,
		       "stream rate: the queue law during the refinement: r_avg");
		cfg.law = RAPID_LAW_REPORT;
		rapid_ctl_enter_ss(&ctl, &cfg, 2, a);
		tap_eq(rapid_ctl_stream_rate(&ctl, &cfg, &law, 1000, 40000, 250),
		       ctl.r_avg, "stream rate: slow start: r_avg");
	}

	/*
	 * The jump's level: a step of 20% (30 -> 36 Mbit/s) clears the
	 * margin of 3/16 over the level of the estimates before it, not over
	 * one the step's own estimates have already raised (jump_mean = 0,
	 * the test on three; the mean's below).
	 */
	cfg.jump_mean = 0;
	ctl = steady_ctl(&cfg, r30);
	jump_feed(&ctl, &cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, r36, RAPID_JUMP_STREAMS);
	tap_eq(ctl.r_avg, r36,
	       "pace_drain: a 20%% step is adopted at its third estimate");
	cfg.pace_drain = 0;
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, r36, RAPID_JUMP_STREAMS);
	tap_ok(ctl.r_avg < r30 + r30 / 20,
	       "pace_drain: 0: the level fed the step misses the margin (Eq. 6 only)");
	cfg.pace_drain = 1;
	/* a level of nothing yet (a reset history) starts at the estimate */
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 1);
	tap_eq(h.jump_lvl, r30, "pace_drain: the first estimate starts the level");
	jump_feed(&ctl, &cfg, &h, &id, &now, r36, 2);
	tap_eq(h.jump_lvl, r30,
	       "pace_drain: the newest three do not move the level");
	/* the mean of six: the level is fed the estimate that leaves them */
	cfg.jump_mean = 6;
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 1);
	jump_feed(&ctl, &cfg, &h, &id, &now, r36, 6 - 2);
	tap_eq(h.jump_lvl, r30,
	       "pace_drain: jump_mean 6: the newest five do not move the level");
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, r36, 5);
	tap_ok(ctl.r_avg < r30 + r30 / 20,
	       "pace_drain: jump_mean 6: five estimates of a 20%% step: Eq. 6 only");
	jump_feed(&ctl, &cfg, &h, &id, &now, r36, 1);
	tap_eq(ctl.r_avg, r36,
	       "pace_drain: jump_mean 6: the sixth: a jump to their mean");
}

static void test_jump(void)
{
	const u64 r30 = 3750000, r40 = 5000000;	/* 30, 40 Mbit/s in B/s */
	struct rapid_abest_hist h = { 0 };
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	u32 id = 1, now = 1000000;
	u64 r;

	rapid_cfg_default(&cfg);
	tap_eq(cfg.jump_milli, RAPID_DEF_JUMP_MILLI, "jump: on by default (1000)");
	tap_eq(cfg.jump_mean, 6, "jump: on the mean of 6 by default");
	cfg.jump_mean = 0;	/* the test on three (test_jump_mean(): six) */

	/* a lone flow at 30 Mbit/s, then a step to 40 */
	ctl = steady_ctl(&cfg, r30);
	jump_feed(&ctl, &cfg, &h, &id, &now, r30, 20);
	tap_eq(ctl.r_avg, r30, "jump: estimates at r_avg change nothing");
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, RAPID_JUMP_STREAMS - 1);
	tap_ok(ctl.r_avg < r30 + r30 / 50,
	       "jump: %u estimates of a step are not enough (Eq. 6 only)",
	       RAPID_JUMP_STREAMS - 1);
	r = ctl.r_avg;
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, 1);
	tap_eq(ctl.r_avg, r + r / 4,
	       "jump: the next takes the gap at once, at most r_avg / 4");
	r = ctl.r_avg;
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, 25);
	tap_ok(h.jump_abest == 0 && !h.jump_locked && ctl.r_avg > r,
	       "jump: estimates that stay up after it: verdict passed, no lock");

	/* the same with jump_milli = 0: the report's rule, Eq. 6 alone */
	cfg.jump_milli = 0;
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, RAPID_JUMP_STREAMS);
	tap_ok(ctl.r_avg > r30 && ctl.r_avg < r30 + r30 / 20,
	       "jump: jump_milli = 0 is Eq. 6 alone (a few %% in %u streams)",
	       RAPID_JUMP_STREAMS);
	cfg.jump_milli = 500;
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, RAPID_JUMP_STREAMS - 1);
	r = ctl.r_avg;
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, 1);
	tap_eq(ctl.r_avg, r + (r40 - r) / 2,
	       "jump: jump_milli = 500 takes half the gap");
	cfg.jump_milli = RAPID_DEF_JUMP_MILLI;

	/* noise: high estimates that do not agree, or one low among them */
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, 1);
	jump_feed(&ctl, &cfg, &h, &id, &now, r30, 1);
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, 1);
	tap_ok(ctl.r_avg < r30 + r30 / 50, "jump: 40, 30, 40 is not a step");
	jump_feed(&ctl, &cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, 4400000, 1);
	jump_feed(&ctl, &cfg, &h, &id, &now, 6000000, 1);
	jump_feed(&ctl, &cfg, &h, &id, &now, 4400000, 1);
	tap_ok(ctl.r_avg < r30 + r30 / 20,
	       "jump: 35 / 48 / 35 Mbit/s spread more than 1/4: no jump");

	/* a spare capacity above the flow's own rate: shared, no jump */
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, 3 * r30, RAPID_JUMP_STREAMS);
	r = ctl.r_avg;
	cfg.jump_milli = 0;
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, 3 * r30, RAPID_JUMP_STREAMS);
	cfg.jump_milli = RAPID_DEF_JUMP_MILLI;
	tap_ok(ctl.r_avg == r && r < r30 * 2,
	       "jump: estimates above 2 r_avg: Eq. 6 only, as with jump_milli = 0");

	/* others rose too: the verdict locks the jumps out for a while */
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, RAPID_JUMP_STREAMS);
	tap_ok(ctl.r_avg > r30 + r30 / 4, "jump: taken");
	jump_feed(&ctl, &cfg, &h, &id, &now, 4000000, 25);
	tap_ok(h.jump_locked && ctl.r_avg == 4000000,
	       "jump: the estimates fell by more than half of it: locked");
	jump_feed(&ctl, &cfg, &h, &id, &now, 5200000, RAPID_JUMP_STREAMS);
	tap_ok(ctl.r_avg < 4200000,
	       "jump: locked, a new step is Eq. 6's alone");
	jump_feed(&ctl, &cfg, &h, &id, &now, 4000000, 80);
	tap_ok(!h.jump_locked && ctl.r_avg == 4000000,
	       "jump: the lock ends after %u srtt", RAPID_JUMP_LOCK_RTTS);
	jump_feed(&ctl, &cfg, &h, &id, &now, 5200000, RAPID_JUMP_STREAMS - 1);
	r = ctl.r_avg;
	jump_feed(&ctl, &cfg, &h, &id, &now, 5200000, 1);
	tap_eq(ctl.r_avg, r + r / 4, "jump: then a step jumps again");

	/* no srtt, or no history: never */
	rapid_hist_reset(&h);
	ctl = steady_ctl(&cfg, r30);
	for (r = 0; r < 25; r++)
		rapid_ctl_on_abest_law(&ctl, &cfg, &h, NULL, id++,
				       r < 20 ? r30 : r40, P_FULL, 0, now);
	tap_ok(ctl.r_avg < r30 + r30 / 10, "jump: srtt 0 (unknown): none");
	tap_eq(rapid_jump_step(&h, r30, r40, 1000, 0, now, 0), 0,
	       "jump: rapid_jump_step() with srtt 0 is 0");
	tap_eq(rapid_jump_step(&h, r30, r40, 0, J_SRTT, now, 0), 0,
	       "jump: rapid_jump_step() with jump_milli 0 is 0");
}

/*
 * The jump on the mean of the newest jump_mean raw estimates
 * (rapid_jump_agree_mean()): estimates that swing by +-15% as beside a
 * lab's CBR, fed as in test_jump().
 */
static void jump_feed_noisy(struct rapid_ctl *ctl, const struct rapid_cfg *cfg,
			    struct rapid_abest_hist *h, u32 *id, u32 *now,
			    u64 mid, u32 count)
{
	/* a deterministic swing of period 4: +15%, -5%, +5%, -15% */
	static const int pct[4] = { 15, -5, 5, -15 };
	u32 i;

	for (i = 0; i < count; i++)
		jump_feed(ctl, cfg, h, id, now,
			  mid + (s64)mid * pct[(*id) % 4] / 100, 1);
}

static void test_jump_mean(void)
{
	const u64 r30 = 3750000, r40 = 5000000;	/* 30, 40 Mbit/s in B/s */
	struct rapid_abest_hist h = { 0 };
	struct rapid_cfg cfg;
	struct rapid_ctl ctl;
	u32 id = 1, now = 1000000, i, k, n;
	u64 r, mean, top = 0;

	rapid_cfg_default(&cfg);
	k = cfg.jump_mean = 6;		/* the option as measured */
	cfg.accel_max = 0;		/* the jump and Eq. 6 alone */

	/* noise alone (+-15%) around a path at 30 Mbit/s: never a jump */
	ctl = steady_ctl(&cfg, r30 - r30 / 10);
	jump_feed_noisy(&ctl, &cfg, &h, &id, &now, r30, 400);
	for (i = 0; i < 400; i++) {
		jump_feed_noisy(&ctl, &cfg, &h, &id, &now, r30, 1);
		if (ctl.r_avg > top)
			top = ctl.r_avg;
	}
	tap_ok(top < r30 + r30 / 20 && !h.jump_abest,
	       "jump_mean: +-15%% noise for 800 streams: no jump (r_avg at most %llu)",
	       (unsigned long long)top);
	tap_ok(h.jump_dev > r30 / 10 && h.jump_dev < r30 / 3,
	       "jump_mean: the noise is measured (%llu B/s: consecutive estimates 10-30%% apart)",
	       (unsigned long long)h.jump_dev);
	tap_ok(h.jump_lvl > r30 - r30 / 20 && h.jump_lvl < r30 + r30 / 20,
	       "jump_mean: the level is their mean");
	/* a step to 40 in that noise: a jump to the mean within k streams */
	r = ctl.r_avg;
	for (n = 1; n <= k && ctl.r_avg < r + r / 8; n++)
		jump_feed_noisy(&ctl, &cfg, &h, &id, &now, r40, 1);
	tap_ok(ctl.r_avg > r40 - r40 / 8 && ctl.r_avg < r40 + r40 / 8 &&
	       h.jump_abest == ctl.r_avg,
	       "jump_mean: a noisy step of 33%%: a jump near it (%llu) at its %u-th estimate (at most %u)",
	       (unsigned long long)ctl.r_avg, n - 1, k);

	/* a clean step: the jump waits for the mean, and goes to it */
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, 3);
	tap_ok(ctl.r_avg < r30 + r30 / 20,
	       "jump_mean: three estimates of a clean step of 33%%: the mean of six is short of the level + 3/16");
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, 1);
	tap_eq(ctl.r_avg, (2 * r30 + 4 * r40) / 6,
	       "jump_mean: the fourth: a jump to the mean of the newest six");
	tap_eq(h.jump_lvl, r30,
	       "jump_mean: the level is not restarted at the jump (the path before it)");
	/*
	 * a lone flow's false jump: the estimates after it fall by more than
	 * half of it but not below the level (the path before): no lock
	 */
	jump_feed(&ctl, &cfg, &h, &id, &now, r30, 25);
	tap_ok(!h.jump_locked && !h.jump_abest && !h.jump_cont,
	       "jump_mean: the estimates fell back to the level: verdict done, no lock, no continuation");
	r = ctl.r_avg;
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, k);
	tap_ok(ctl.r_avg > r + r / 8,
	       "jump_mean: no lock: the next step jumps within %u estimates", k);

	/*
	 * the jump to the mean of six lands short of a clean step; the
	 * verdict passes, and one continuation takes the rest at once
	 */
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, 4);
	tap_ok(h.jump_abest && ctl.r_avg < r40 - r40 / 16,
	       "jump_mean: a clean step: the jump lands short of it");
	for (n = 0; n < 40 && h.jump_abest; n++)
		jump_feed(&ctl, &cfg, &h, &id, &now, r40, 1);
	tap_ok(!h.jump_abest && !h.jump_locked && !h.jump_cont &&
	       ctl.r_avg >= r40 - r40 / 64 && ctl.r_avg <= r40,
	       "jump_mean: the verdict passed: one continuation to the estimates (%llu of %llu)",
	       (unsigned long long)ctl.r_avg, (unsigned long long)r40);
	r = ctl.r_avg;
	jump_feed(&ctl, &cfg, &h, &id, &now, r40 + r40 / 10, 9);
	tap_ok(ctl.r_avg < r + r / 20,
	       "jump_mean: one continuation only: estimates 10%% above it are Eq. 6's");
	/* a verdict that passed, estimates short of 1/16 above r_avg: none */
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, 4);
	for (n = 0; n < 40 && h.jump_abest; n++)
		jump_feed(&ctl, &cfg, &h, &id, &now, 4700000, 1);
	tap_ok(h.jump_cont && !h.jump_locked && ctl.r_avg < 4700000,
	       "jump_mean: passed, estimates 1/32 above r_avg: the continuation waits");
	jump_feed(&ctl, &cfg, &h, &id, &now, 4700000, 10);
	r = ctl.r_avg;
	jump_feed(&ctl, &cfg, &h, &id, &now, r + r / 8, 6);
	tap_ok(!h.jump_cont && ctl.r_avg < r + r / 20,
	       "jump_mean: an srtt later it has lapsed (r_avg %llu, the estimates 1/8 above %llu)",
	       (unsigned long long)ctl.r_avg, (unsigned long long)r);
	/* a lower estimate among the six: none */
	{
		struct rapid_abest_hist hc = { 0 };

		for (i = 0; i < 6; i++)
			rapid_hist_push_median(&hc, i ? r40 : r30, 3);
		tap_eq(rapid_jump_cont_gain(&hc, r30 + r30 / 10, k, 1000), 0,
		       "jump_mean: continuation: one estimate below r_avg: none");
		tap_eq(rapid_jump_cont_gain(&hc, r30 - r30 / 10, k, 1000),
		       (r30 - r30 / 10) >> 2,
		       "jump_mean: continuation: at most r_avg / 4");
		tap_eq(rapid_jump_cont_gain(&hc, r30, k, 500),
		       ((r30 + 5 * r40) / 6 - r30) / 2,
		       "jump_mean: continuation: jump_milli's share of the gap");
		tap_eq(rapid_jump_cont_gain(&hc, r30, 7, 1000), 0,
		       "jump_mean: continuation: fewer estimates than k: none");
		tap_eq(rapid_jump_cont_gain(&hc, r30, RAPID_JUMP_MEAN_MAX + 1, 1000), 0,
		       "jump_mean: continuation: k out of range: none");
		tap_eq(rapid_jump_cont_gain(&hc, r40 / 2 - 1, k, 1000), 0,
		       "jump_mean: continuation: an estimate above 2 r_avg: none");
	}

	/* others rose too: the estimates fall 1/16 below the level: locked */
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, r40, 4);
	tap_ok(h.jump_abest && ctl.r_avg > r30 + r30 / 8, "jump_mean: taken");
	jump_feed(&ctl, &cfg, &h, &id, &now, r30 - r30 / 16 - r30 / 64, 25);
	tap_ok(h.jump_locked,
	       "jump_mean: the estimates fell by more than half of it and 1/16 below the level: locked");
	r = ctl.r_avg;
	jump_feed(&ctl, &cfg, &h, &id, &now, 4312500, k);
	tap_ok(h.jump_locked && ctl.r_avg < r + r / 20,
	       "jump_mean: locked, a step short of 1/4 above the level is Eq. 6's alone");
	jump_feed(&ctl, &cfg, &h, &id, &now, 5200000, k);
	tap_ok(!h.jump_locked && ctl.r_avg > r + r / 4,
	       "jump_mean: locked, a new level (the mean 1/4 above the level) ends the lock: a jump (%llu from %llu)",
	       (unsigned long long)ctl.r_avg, (unsigned long long)r);
	/* the unlock's test alone */
	{
		struct rapid_abest_hist hu = { 0 };

		for (i = 0; i < 6; i++) {
			rapid_jump_level(&hu, r30);
			rapid_hist_push_median(&hu, r30 + r30 / 4, 3);
		}
		tap_ok(rapid_jump_unlock(&hu, r30, k),
		       "jump_mean: unlock: six estimates 1/4 above the level: yes");
		tap_ok(!rapid_jump_unlock(&hu, r30, 0),
		       "jump_mean: unlock: jump_mean 0: no");
		tap_ok(!rapid_jump_unlock(&hu, r30 + r30 / 8, k),
		       "jump_mean: unlock: the mean's test fails (less than 1/8 above r_avg): no");
		rapid_hist_push_median(&hu, r30 + r30 / 8, 3);
		tap_ok(!rapid_jump_unlock(&hu, r30, k),
		       "jump_mean: unlock: their mean short of 1/4 above the level: no");
	}

	/* estimates above 2 r_avg: none */
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, 3 * r30, k);
	tap_ok(ctl.r_avg < r30 + r30 / 10 && !h.jump_abest,
	       "jump_mean: estimates above 2 r_avg: Eq. 6 only");
	/* estimates 10% above r_avg: none */
	ctl = jump_restart(&cfg, &h, &id, &now, r30, 20);
	jump_feed(&ctl, &cfg, &h, &id, &now, r30 + r30 / 10, k + 4);
	tap_ok(!h.jump_abest && ctl.r_avg < r30 + r30 / 10,
	       "jump_mean: estimates 10%% above r_avg: no jump");

	/* the test and the step themselves, on a history built by hand */
	rapid_hist_reset(&h);
	tap_ok(!rapid_jump_agree_mean(&h, r30, k, &mean),
	       "jump_mean: no estimates: no");
	for (i = 0; i < 6; i++) {
		rapid_jump_level(&h, r30);
		rapid_hist_push_median(&h, r30, 3);
	}
	tap_ok(h.jump_lvl == r30 && h.jump_dev == 0,
	       "jump_mean: equal estimates: the level is theirs, no noise");
	rapid_hist_push_median(&h, r40, 3);
	tap_ok(rapid_jump_agree_mean(&h, r30, 1, &mean) && mean == r40,
	       "jump_mean: k = 1: the newest alone");
	tap_ok(!rapid_jump_agree_mean(&h, r30, 6, &mean) && mean == (5 * r30 + r40) / 6,
	       "jump_mean: one outlier among six: their mean is short");
	/* the noise's margin: a mean 1/4 above the level, noise of 1/4 */
	{
		struct rapid_abest_hist hn = { 0 };

		for (i = 0; i < 6; i++) {
			rapid_jump_level(&hn, r30);
			rapid_hist_push_median(&hn, r30 + r30 / 4, 3);
		}
		hn.jump_dev = r30 / 4;
		tap_ok(!rapid_jump_agree_mean(&hn, r30, 6, &mean),
		       "jump_mean: a mean 1/4 above the level within 1.15 x a noise of 1/4: no");
		hn.jump_dev = 0;
		tap_ok(rapid_jump_agree_mean(&hn, r30, 6, &mean) && mean == r30 + r30 / 4,
		       "jump_mean: ... and without that noise: yes (the floor is 3/16)");
	}
	tap_ok(!rapid_jump_agree_mean(&h, r30, 0, &mean) &&
	       !rapid_jump_agree_mean(&h, r30, RAPID_JUMP_MEAN_MAX + 1, &mean),
	       "jump_mean: k = 0 or above the ring: no");
	tap_eq(rapid_jump_step(&h, r30, r30, 1000, J_SRTT, now, 1), 0,
	       "jump_mean: a median at r_avg: no jump, whatever the mean");
	for (i = 0; i < 6; i++)
		rapid_hist_push_median(&h, r30 * 19 / 10, 3);
	tap_eq(rapid_jump_step(&h, r30, r30 * 19 / 10, 1000, J_SRTT, now, k),
	       r30 + r30 / 2, "jump_mean: at most r_avg / 2 at once");
	rapid_hist_reset(&h);
	for (i = 0; i < 6; i++) {
		rapid_jump_level(&h, RAPID_RATE_MAX);
		rapid_hist_push_median(&h, RAPID_RATE_MAX, 3);
	}
	h.jump_dev = RAPID_RATE_MAX;
	tap_ok(!rapid_jump_agree_mean(&h, RAPID_RATE_MAX / 2, 6, &mean) &&
	       mean == RAPID_RATE_MAX,
	       "jump_mean: the largest estimates, level and noise: no overflow, no jump");
	tap_eq(rapid_jump_step(&h, r30, r40, 1000, 0, now, k), 0,
	       "jump_mean: srtt 0: no jump");
}

int main(void)
{
	test_ss_floor();
	test_ss_blank();
	test_steady_floor();
	test_drain();
	test_congestive();
	test_robust_base();
	test_min_hold();
	test_rho();
	test_paper_defaults();
	test_rates_vs_reference();
	test_stream_sums();
	test_extremes();
	test_short_streams();
	test_edt_credit();
	test_conversions();
	test_slow_start_table4();
	test_ss_n_init();
	test_stream_fit();
	test_slow_start_rules();
	test_tau_filter();
	test_decrease();
	test_bounded_decrease();
	test_queue_free_share();
	test_reorder_hold();
	test_fair_cut();
	test_ai_step();
	test_law_queue();
	test_law3();
	test_law_drain_compete();
	test_report_compete();
	test_compete_keep();
	test_law_count_flows();
	test_law_count_sym();
	test_law_count_report();
	test_law_count_reorder();
	test_cut_share();
	test_median();
	test_wide_refine();
	test_jump();
	test_jump_mean();
	test_pace_drain();
	test_accel();
	test_loss();
	test_fixed();
	test_cwnd();
	test_cwnd_want();
	return tap_done();
}
