// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of pert_math.h, the arithmetic tcp_pert.c runs.
 *
 * Expectations come from double-precision transcriptions of the PERT
 * formulas (ref_*() below), from brute force over the samples fed in, or
 * from numbers worked out by hand in the comments; never from the
 * functions under test.
 */
#include <math.h>
#include <string.h>

#include "tap.h"
#include "pert_math.h"
#include "cc_info.h"

#define ONE	((double)PERT_PROB_ONE)
#define AONE	((double)PERT_ALPHA_ONE)

static u32 rng_state = 2463534242U;

/* xorshift32: reproducible pseudo-random numbers for the tests */
static u32 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* ---- double-precision references ------------------------------------ */

/* RED gentle curve, probability in [0, 1] */
static double ref_prob(double q, double t1, double t2, double t3, double pmax)
{
	double p;

	if (q < t1)
		return 0;
	if (q < t2)
		return pmax * (q - t1) / (t2 - t1);
	p = pmax + (1 - pmax) * (q - t2) / (t3 - t2);
	return p > 1 ? 1 : p;
}

static double ref_beta(double q, double maxq, double lo, double hi)
{
	double b = q / (q + maxq);

	return b < lo ? lo : b > hi ? hi : b;
}

/* RFC 5348 5.4 with the open interval, intervals newest first */
static double ref_li_rate(const double *closed, int k, double open)
{
	static const double w[8] = { 1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2 };
	double tot0 = 0, tot1 = 0, wtot = 0;
	int i;

	if (!k)
		return 0;
	for (i = 0; i < k; i++) {
		wtot += w[i];
		tot1 += closed[i] * w[i];
		tot0 += (i ? closed[i - 1] : open) * w[i];
	}
	return wtot / (tot0 > tot1 ? tot0 : tot1);
}

/* ---- parameters ----------------------------------------------------- */

static void test_params(void)
{
	struct pert_params p;
	u32 lo, hi;

	pert_params_default(&p);
	tap_ok(pert_params_valid(&p), "params: defaults are valid");
	tap_eq(p.t1_us, 5000, "params: T1 default 5 ms (slides)");
	tap_eq(p.t2_us, 10000, "params: T2 default 10 ms (slides)");
	tap_eq(p.pmax_permille, 50, "params: pmax default 0.05 (slides)");

	pert_param_bounds(PERT_PARAM_T1_US, &p, &lo, &hi);
	tap_ok(lo == 100 && hi == 9999, "params: T1 in [100, T2 - 1]");
	pert_param_bounds(PERT_PARAM_T2_US, &p, &lo, &hi);
	tap_ok(lo == 5001 && hi == 2000000, "params: T2 in [T1 + 1, 2 s]");

	p.t1_us = p.t2_us;
	tap_ok(!pert_params_valid(&p), "params: T1 == T2 refused");
	pert_params_default(&p);
	p.t2_us = 4000;
	tap_ok(!pert_params_valid(&p), "params: T2 < T1 refused");
	pert_params_default(&p);
	p.beta_min = 300;
	p.beta_max = 200;
	tap_ok(!pert_params_valid(&p), "params: beta_min > beta_max refused");
	pert_params_default(&p);
	p.beta_max = 513;
	tap_ok(!pert_params_valid(&p), "params: beta_max > 1/2 refused");
	pert_params_default(&p);
	p.alpha_max = 0;
	tap_ok(!pert_params_valid(&p), "params: alpha_max 0 refused");
	pert_params_default(&p);
	p.compete_pct = 65;
	tap_ok(!pert_params_valid(&p),
	       "params: compete_pct must stay below the 65%% ramp end");
	pert_params_default(&p);
	pert_param_store(&p, PERT_PARAM_MAX_RTT_WIN_MS, 600001);
	tap_ok(!pert_params_valid(&p), "params: window above 600 s refused");
	tap_eq(pert_param_get(&p, PERT_PARAM_MAX_RTT_WIN_MS), 600001,
	       "params: store/get round trip");
	pert_param_bounds(PERT_PARAM_NR, &p, &lo, &hi);
	tap_ok(lo > hi, "params: unknown parameter has an empty range");

	pert_params_default(&p);
	tap_ok(p.compete_phase == 1 && p.compete_enter == 2 &&
	       p.compete_exit == 3,
	       "params: compete phase on, enter 2, exit 3 updates by default");
	p.compete_phase = 0;
	tap_ok(pert_params_valid(&p), "params: compete_phase 0 (off) valid");
	p.compete_phase = 2;
	tap_ok(!pert_params_valid(&p), "params: compete_phase 2 refused");
	pert_params_default(&p);
	p.compete_enter = 0;
	tap_ok(!pert_params_valid(&p), "params: compete_enter 0 refused");
	pert_params_default(&p);
	p.compete_exit = 101;
	tap_ok(!pert_params_valid(&p), "params: compete_exit 101 refused");
	pert_param_bounds(PERT_PARAM_COMPETE_EXIT, &p, &lo, &hi);
	tap_ok(lo == 1 && hi == 100, "params: compete_exit in [1, 100]");
	pert_params_default(&p);
	pert_param_store(&p, PERT_PARAM_COMPETE_ENTER, 7);
	tap_eq(pert_param_get(&p, PERT_PARAM_COMPETE_ENTER), 7,
	       "params: compete_enter store/get round trip");
	pert_params_default(&p);
	tap_ok(p.ss_exit_us == 2000 && p.compete_beta == 358,
	       "params: ss_exit_us 2 ms, compete_beta 0.35 by default");
	p.ss_exit_us = 0;
	tap_ok(pert_params_valid(&p), "params: ss_exit_us 0 (off) valid");
	p.ss_exit_us = PERT_SS_EXIT_US_MAX + 1;
	tap_ok(!pert_params_valid(&p), "params: ss_exit_us above 100 ms refused");
	pert_params_default(&p);
	p.compete_beta = 15;
	tap_ok(!pert_params_valid(&p), "params: compete_beta 15 refused");
	p.compete_beta = 513;
	tap_ok(!pert_params_valid(&p), "params: compete_beta 513 refused");
	pert_param_bounds(PERT_PARAM_COMPETE_BETA, &p, &lo, &hi);
	tap_ok(lo == 16 && hi == 512, "params: compete_beta in [16, 512]");
	pert_param_store(&p, PERT_PARAM_SS_EXIT_US, 4000);
	pert_param_store(&p, PERT_PARAM_COMPETE_BETA, 300);
	tap_ok(pert_param_get(&p, PERT_PARAM_SS_EXIT_US) == 4000 &&
	       pert_param_get(&p, PERT_PARAM_COMPETE_BETA) == 300,
	       "params: ss_exit_us, compete_beta store/get round trip");

	/* 0.05 * 65536 = 3276.8 -> 3277; 1000 per mille is exactly 1 */
	tap_eq(pert_pmax_prob(50), 3277, "params: pmax 50/1000 = 3277/65536");
	tap_eq(pert_pmax_prob(1000), PERT_PROB_ONE, "params: pmax 1000/1000 = 1");
	tap_eq(PERT_PROB_ONE, 1U << PERT_PROB_SHIFT, "scales: PROB_ONE = 2^16");
	tap_eq(PERT_ALPHA_ONE, 1U << PERT_ALPHA_SHIFT, "scales: ALPHA_ONE = 2^10");
	tap_eq(PERT_BETA_ONE, 1U << PERT_BETA_SHIFT, "scales: BETA_ONE = 2^10");
}

/* ---- the RED response curve ----------------------------------------- */

static void test_curve(void)
{
	const u32 t1 = 5000, t2 = 10000, t3 = 20000, pmax = 3277;
	u32 q, worst = 0;
	int mono = 1;
	u32 prev = 0;

	/* below and at T1: 0; T1 itself is the start of the ramp */
	tap_eq(pert_response_prob(0, t1, t2, t3, pmax), 0, "curve: curq 0 -> 0");
	tap_eq(pert_response_prob(4999, t1, t2, t3, pmax), 0,
	       "curve: just below T1 -> 0");
	tap_eq(pert_response_prob(5000, t1, t2, t3, pmax), 0,
	       "curve: exactly T1 -> 0 (ramp starts)");
	/* 3277 * 1 / 5000 = 0.65 -> 0; 3277 * 2 / 5000 = 1.31 -> 1 */
	tap_eq(pert_response_prob(5002, t1, t2, t3, pmax), 1,
	       "curve: just above T1 -> 3277*2/5000 = 1");
	/* 3277 * 2500 / 5000 = 1638.5 -> 1638 */
	tap_eq(pert_response_prob(7500, t1, t2, t3, pmax), 1638,
	       "curve: midway T1..T2 -> pmax / 2 = 1638");
	/* 3277 * 4999 / 5000 = 3276.34 -> 3276 */
	tap_eq(pert_response_prob(9999, t1, t2, t3, pmax), 3276,
	       "curve: just below T2 -> 3276");
	tap_eq(pert_response_prob(10000, t1, t2, t3, pmax), pmax,
	       "curve: exactly T2 -> pmax");
	/* 3277 + 62259 * 1 / 10000 = 3277 + 6.2 -> 3283 */
	tap_eq(pert_response_prob(10001, t1, t2, t3, pmax), 3283,
	       "curve: just above T2 -> 3283 (gentle part)");
	/* 3277 + 62259 * 5000 / 10000 = 3277 + 31129.5 -> 34406 */
	tap_eq(pert_response_prob(15000, t1, t2, t3, pmax), 34406,
	       "curve: midway T2..T3 -> 34406");
	/* 3277 + 62259 * 9999 / 10000 = 3277 + 62252.8 -> 65529 */
	tap_eq(pert_response_prob(19999, t1, t2, t3, pmax), 65529,
	       "curve: just below T3 -> 65529");
	tap_eq(pert_response_prob(20000, t1, t2, t3, pmax), PERT_PROB_ONE,
	       "curve: exactly T3 -> 1");
	tap_eq(pert_response_prob(20001, t1, t2, t3, pmax), PERT_PROB_ONE,
	       "curve: just above T3 -> 1");
	tap_eq(pert_response_prob(U32_MAX, t1, t2, t3, pmax), PERT_PROB_ONE,
	       "curve: clipped at 1 far above T3");

	for (q = 0; q <= 30000; q += 7) {
		u32 got = pert_response_prob(q, t1, t2, t3, pmax);
		double want = ref_prob(q, t1, t2, t3, pmax / ONE) * ONE;
		u32 d = (u32)fabs(got - want + 0.0);

		if (fabs(got - want) >= 1.0 && d > worst)
			worst = d;
		if (got < prev)
			mono = 0;
		prev = got;
	}
	tap_eq(worst, 0, "curve: within 1/65536 of the double reference");
	tap_ok(mono, "curve: non-decreasing in curq");

	/* pmax = 1: the gentle part is flat at 1 */
	tap_eq(pert_response_prob(15000, t1, t2, t3, PERT_PROB_ONE),
	       PERT_PROB_ONE, "curve: pmax 1 -> 1 from T2 on");
	tap_eq(pert_response_prob(15000, t1, t2, t3, 2 * PERT_PROB_ONE),
	       PERT_PROB_ONE, "curve: pmax above 1 clipped");
	/* degenerate T2 <= T1: a step to pmax at T1, no division by zero */
	tap_eq(pert_response_prob(4999, 5000, 5000, 20000, pmax), 0,
	       "curve: T1 == T2 below T1 -> 0");
	tap_eq(pert_response_prob(5000, 5000, 5000, 20000, pmax), pmax,
	       "curve: T1 == T2 at T1 -> pmax");
	tap_eq(pert_response_prob(5000, 5000, 5000, 5000, pmax), PERT_PROB_ONE,
	       "curve: T1 == T2 == T3 -> 1 at T1");

	/* T3 = max(2 T2, 0.65 (max - min)) */
	tap_eq(pert_t3_us(10000, 10000, 20000, 65), 20000,
	       "T3: small span -> 2 T2");
	/* 0.65 * (60000 - 10000) = 32500 */
	tap_eq(pert_t3_us(10000, 10000, 60000, 65), 32500,
	       "T3: 0.65 * 50 ms = 32.5 ms");
	tap_eq(pert_t3_us(10000, PERT_WIN_MIN_EMPTY, 0, 65), 20000,
	       "T3: no min/max yet -> 2 T2");
	tap_eq(pert_t3_us(2000000, 0, U32_MAX, 100), U32_MAX,
	       "T3: saturates at U32_MAX");
}

/* ---- the draw and the once-per-RTT limit ---------------------------- */

static void test_decide(void)
{
	u32 i, hits = 0;
	const u32 n = 1000000, prob = 19661;	/* 0.3 * 65536 = 19660.8 */

	tap_ok(!pert_decide(0, 0), "decide: p 0 never (rnd 0)");
	tap_ok(!pert_decide(0, U32_MAX), "decide: p 0 never (rnd max)");
	tap_ok(pert_decide(PERT_PROB_ONE, U32_MAX), "decide: p 1 always");
	tap_ok(pert_decide(1, 65535), "decide: p 2^-16 accepts rnd < 2^16");
	tap_ok(!pert_decide(1, 65536), "decide: p 2^-16 refuses rnd = 2^16");
	/* 3277 << 16 = 214761472 */
	tap_ok(pert_decide(3277, 214761471), "decide: boundary below accepted");
	tap_ok(!pert_decide(3277, 214761472), "decide: boundary refused");
	for (i = 0; i < n; i++)
		hits += pert_decide(prob, rng());
	/* binomial sd = sqrt(0.3 * 0.7 / 1e6) = 0.00046: 10 sd */
	tap_near(hits / (double)n, prob / ONE, 0.005,
		 "decide: frequency matches p = 0.3");
}

static void test_once_per_rtt(void)
{
	const u32 srtt = 10000;
	u32 t, una, resp_seq = 0, resp_us = 0, last = 0, n = 0;
	u32 min_gap = U32_MAX;
	bool responded = false;
	int two_in_rtt = 0;

	tap_ok(pert_may_respond(false, 0, 12345, 0, 999, srtt),
	       "once/RTT: no response yet -> may respond");
	tap_ok(!pert_may_respond(true, 999, 1000, 1000000, 0, srtt),
	       "once/RTT: window not yet ACKed -> no, however late");
	tap_ok(!pert_may_respond(true, 1000, 1000, 9999, 0, srtt),
	       "once/RTT: window ACKed but less than srtt -> no");
	tap_ok(pert_may_respond(true, 1000, 1000, 10000, 0, srtt),
	       "once/RTT: window ACKed and one srtt -> yes");
	tap_ok(pert_may_respond(true, 0x10, 0xffffff00U, 10000, 0, srtt),
	       "once/RTT: sequence wrap handled");
	tap_ok(pert_may_respond(true, 1000, 1000, 6000, 0xfffff000U, srtt),
	       "once/RTT: time wrap handled (6000 + 4096 >= srtt)");
	tap_ok(!pert_may_respond(true, 1000, 1000, 5000, 0xfffff000U, srtt),
	       "once/RTT: time wrap handled (5000 + 4096 < srtt)");
	tap_ok(!pert_seq_before(5, 5) && pert_seq_before(4, 5) &&
	       pert_seq_before(0xfffffff0U, 3), "seq: before() wrap-safe");

	/*
	 * A flow that would respond on every ACK (p = 1): one ACK per ms
	 * acknowledging the data sent one RTT (10 ms) earlier; 1 s.
	 * Responses must be at least one srtt apart, and keep happening.
	 */
	for (t = 0; t <= 1000000; t += 1000) {
		una = t / 1000;			/* segment number ACKed now */
		if (pert_may_respond(responded, una, resp_seq, t, resp_us,
				     srtt)) {
			if (responded && t - last < min_gap)
				min_gap = t - last;
			if (responded && t - last < srtt)
				two_in_rtt = 1;
			last = t;
			responded = true;
			resp_seq = una + 10;	/* snd_nxt: one RTT ahead */
			resp_us = t;
			n++;
		}
	}
	tap_ok(!two_in_rtt, "once/RTT: never two responses within one RTT");
	tap_eq(min_gap, srtt, "once/RTT: responses one srtt apart at p = 1");
	tap_eq(n, 101, "once/RTT: 1 s at 10 ms RTT -> 101 responses");
}

/* ---- beta and the window -------------------------------------------- */

static void test_beta(void)
{
	u32 q, worst = 0;

	tap_eq(pert_beta(0, 10000, 128, 512), 128,
	       "beta: empty queue -> beta_min 1/8 (random loss)");
	tap_eq(pert_beta(10000, 10000, 128, 512), 512,
	       "beta: curq = maxq -> 1/2");
	/* 5000 * 1024 / 15000 = 341.33 -> 341 */
	tap_eq(pert_beta(5000, 10000, 128, 512), 341, "beta: 5/(5+10) = 341");
	tap_eq(pert_beta(100000, 10000, 128, 512), 512,
	       "beta: curq > maxq clamped to beta_max");
	tap_eq(pert_beta(5000, 10000, 16, 256), 256,
	       "beta: custom beta_max respected");
	tap_eq(pert_beta(0, 0, 16, 512), 16, "beta: 0/0 -> beta_min");
	for (q = 0; q < 200000; q += 997) {
		double want = ref_beta(q, 40000, 128 / 1024.0, 0.5) * 1024;
		u32 got = pert_beta(q, 40000, 128, 512);

		if (fabs(got - want) >= 1.0)
			worst++;
	}
	tap_eq(worst, 0, "beta: within 1/1024 of curq/(curq+maxq) reference");

	/* ceil(100 * 341 / 1024) = ceil(33.30) = 34 -> 66 */
	tap_eq(pert_cwnd_after_decrease(100, 341), 66,
	       "decrease: 100 * (1 - 341/1024) -> 66");
	tap_eq(pert_cwnd_after_decrease(1000, 512), 500,
	       "decrease: beta 1/2 halves");
	/* ceil(4 * 128 / 1024) = ceil(0.5) = 1 -> 3 */
	tap_eq(pert_cwnd_after_decrease(4, 128), 3,
	       "decrease: small window loses at least one packet");
	tap_eq(pert_cwnd_after_decrease(3, 512), 2, "decrease: floor of 2");
	tap_eq(pert_cwnd_after_decrease(1, 512), 2,
	       "decrease: ssthresh never below 2");
	tap_eq(pert_cwnd_after_decrease(U32_MAX, 512), 2147483647U,
	       "decrease: no overflow at U32_MAX");
}

static void test_ai(void)
{
	u32 acc = 0, cwnd, i;
	double ref = 1000;

	cwnd = pert_cwnd_ai(10, &acc, 10, PERT_ALPHA_ONE, 100000);
	tap_ok(cwnd == 11 && acc == 0, "ai: alpha 1, one window -> +1");
	acc = 0;
	/* 20 * 1536 = 30720 = 3 * 10 * 1024 */
	cwnd = pert_cwnd_ai(10, &acc, 20, 1536, 100000);
	tap_ok(cwnd == 13 && acc == 0, "ai: alpha 1.5, two windows -> +3");
	acc = 0;
	cwnd = pert_cwnd_ai(10, &acc, 20, 1536, 12);
	tap_eq(cwnd, 12, "ai: capped at cwnd_clamp");

	/* per-ACK cwnd += alpha / cwnd, alpha 1.5, 2000 ACKs from 1000 */
	acc = 0;
	cwnd = 1000;
	for (i = 0; i < 2000; i++) {
		cwnd = pert_cwnd_ai(cwnd, &acc, 1, 1536, U32_MAX);
		ref += 1.5 / ref;
	}
	tap_near(cwnd + acc / (cwnd * 1024.0), ref, 0.01,
		 "ai: per-ACK growth matches alpha/cwnd reference");
	acc = 0;
	cwnd = pert_cwnd_ai(U32_MAX - 1, &acc, U32_MAX, 32 * 1024, U32_MAX);
	tap_eq(cwnd, U32_MAX, "ai: saturates at U32_MAX");
	acc = 0;
	cwnd = pert_cwnd_ai(0, &acc, 1, 1024, 100);
	tap_eq(cwnd, 2, "ai: cwnd 0 treated as 1");
}

/* ---- srtt ----------------------------------------------------------- */

static void test_srtt(void)
{
	u64 s = 0;
	double ref = 0, worst = 0;
	int i, moved = 1, stalled = 0;
	u32 r, prev;

	s = pert_srtt_update(0, 5000);
	tap_eq(s, 5000ULL << PERT_SRTT_SHIFT, "srtt: first sample initialises");
	tap_eq(pert_srtt_us(s), 5000, "srtt: read back in us");
	tap_eq(pert_srtt_update(0, 0), 1ULL << PERT_SRTT_SHIFT,
	       "srtt: a 0 us sample counts as 1 us (srtt never 0)");

	s = 0;
	for (i = 0; i < 20000; i++) {
		r = 1000 + rng() % 100000;
		s = pert_srtt_update(s, r);
		ref = i ? 0.99 * ref + 0.01 * r : r;
		if (fabs(s / 1024.0 - ref) > worst)
			worst = fabs(s / 1024.0 - ref);
	}
	tap_ok(worst < 0.1, "srtt: EWMA within 0.1 us of double (worst %.4f)",
	       worst);

	/* 10 us -> 12 us: unscaled integers would stall at 10 */
	s = pert_srtt_update(0, 10);
	ref = 10;
	for (i = 0; i < 100; i++) {
		prev = pert_srtt_us(s);
		s = pert_srtt_update(s, 12);
		ref = 0.99 * ref + 0.01 * 12;
	}
	(void)prev;
	/* 10 + 2 (1 - 0.99^100) = 11.268 */
	tap_near(s / 1024.0, ref, 0.01, "srtt: small rtt moves (10 -> 12 us)");
	tap_near(ref, 11.268, 0.001, "srtt: hand value 10 + 2 (1 - 0.99^100)");

	/* 1000 us -> 1 us: every step must move until within 0.05 us */
	s = pert_srtt_update(0, 1000);
	for (i = 0; i < 3000; i++) {
		u64 n = pert_srtt_update(s, 1);

		if (n >= s && s > (1ULL << PERT_SRTT_SHIFT) + 50)
			stalled = 1;
		if (n > s)
			moved = 0;
		s = n;
	}
	tap_ok(!stalled && moved, "srtt: decays every step towards 1 us");
	tap_eq(pert_srtt_us(s), 1, "srtt: converges to 1 us");
}

/* ---- windowed min/max RTT ------------------------------------------- */

/*
 * One sample into both windows, through the module's two calls: tcp_pert.c
 * feeds pert_win_update_min() the raw RTT sample and pert_win_update_max()
 * PERT's srtt; these tests give both the same series (test_window_hold()
 * below feeds them apart, as the module does).
 */
static void win_update(struct pert_rtt_win *w, u32 v_us, u32 now_us,
		       u32 min_win_us, u32 max_win_us, bool hold_min)
{
	pert_win_update_min(w, v_us, now_us, min_win_us, hold_min);
	pert_win_update_max(w, v_us, now_us, max_win_us);
}

#define NSAMP 4000

/*
 * Samples every 50 ms for 200 s with a 10 s min window and a 30 s max
 * window; brute force over the samples kept in arrays checks that the
 * value in force covers at least the last W/2 and nothing older than W.
 */
static void test_windows(u32 t0)
{
	static u32 ts[NSAMP], v[NSAMP];
	const u32 wmin = 10000000, wmax = 30000000, step = 50000;
	struct pert_rtt_win w;
	int i, j, bad_min = 0, bad_max = 0;

	pert_win_reset(&w, t0);
	tap_eq(pert_win_min(&w), PERT_WIN_MIN_EMPTY, "win: empty min after reset");
	tap_eq(pert_win_max(&w), 0, "win: empty max after reset");

	for (i = 0; i < NSAMP; i++) {
		u32 lo_all = U32_MAX, lo_half = U32_MAX, hi_all = 0, hi_half = 0;
		u32 now = t0 + (u32)i * step;

		/* a slowly wandering base plus noise, and a route change */
		v[i] = (i < 2000 ? 20000 : 50000) + rng() % 5000 +
		       (u32)(10000 * (1 + sin(i / 300.0)));
		ts[i] = now;
		win_update(&w, v[i], now, wmin, wmax, false);
		for (j = i; j >= 0 && now - ts[j] <= wmax; j--) {
			u32 age = now - ts[j];

			if (age <= wmin && v[j] < lo_all)
				lo_all = v[j];
			if (age < wmin / 2 && v[j] < lo_half)
				lo_half = v[j];
			if (v[j] > hi_all)
				hi_all = v[j];
			if (age < wmax / 2 && v[j] > hi_half)
				hi_half = v[j];
		}
		if (pert_win_min(&w) < lo_all || pert_win_min(&w) > lo_half)
			bad_min++;
		if (pert_win_max(&w) > hi_all || pert_win_max(&w) < hi_half)
			bad_max++;
	}
	tap_eq(bad_min, 0, "win (t0 %u): min covers >= W/2 and nothing older than W",
	       t0);
	tap_eq(bad_max, 0, "win (t0 %u): max covers >= W/2 and nothing older than W",
	       t0);
}

static void test_window_policy(void)
{
	const u32 wmin = 10000000, wmax = 60000000;
	struct pert_rtt_win w;
	u32 t;

	/* a route change to a longer path: min re-learned within W */
	pert_win_reset(&w, 0);
	win_update(&w, 20000, 0, wmin, wmax, false);
	for (t = 100000; t < 9900000; t += 100000)
		win_update(&w, 80000, t, wmin, wmax, false);
	tap_eq(pert_win_min(&w), 20000, "win: old min still in force at 9.8 s");
	for (; t <= 10000000; t += 100000)
		win_update(&w, 80000, t, wmin, wmax, false);
	tap_eq(pert_win_min(&w), 80000,
	       "win: route change -> min re-learned by W = 10 s");
	tap_eq(pert_win_max(&w), 80000, "win: max follows the larger samples");

	/* max decays: a 300 ms spike is forgotten after the max window */
	pert_win_reset(&w, 0);
	win_update(&w, 300000, 0, wmin, wmax, false);
	for (t = 100000; t <= 59900000; t += 100000)
		win_update(&w, 30000, t, wmin, wmax, false);
	tap_eq(pert_win_max(&w), 300000, "win: max spike kept within W");
	for (; t <= 60000000; t += 100000)
		win_update(&w, 30000, t, wmin, wmax, false);
	tap_eq(pert_win_max(&w), 30000, "win: max spike dropped after W = 60 s");

	/* idle longer than W: everything re-learned from the next sample */
	pert_win_reset(&w, 0);
	win_update(&w, 10000, 0, wmin, wmax, false);
	win_update(&w, 90000, 1000, wmin, wmax, false);
	win_update(&w, 40000, 70000000, wmin, wmax, false);
	tap_ok(pert_win_min(&w) == 40000 && pert_win_max(&w) == 40000,
	       "win: idle > W drops both slots");

	/* min <= max always (both include the latest sample) */
	tap_eq(pert_rtt_span_us(30000, 20000), 0, "span: max < min -> 0");
	tap_eq(pert_rtt_span_us(PERT_WIN_MIN_EMPTY, 0), 0, "span: unknown -> 0");
	tap_eq(pert_curq_us(25000, 20000), 5000, "curq: srtt - min");
	tap_eq(pert_curq_us(15000, 20000), 0, "curq: srtt below min -> 0");
	tap_eq(pert_curq_us(15000, PERT_WIN_MIN_EMPTY), 0, "curq: no min -> 0");
	tap_eq(pert_maxq_us(20000, 25000, 10000), 10000, "maxq: floor 10 ms");
	tap_eq(pert_maxq_us(20000, 80000, 10000), 60000, "maxq: max - min");
}

/*
 * The compete phase holds min_rtt: a competitor's standing queue (80 ms
 * samples over a 20 ms path) must not become the path delay, however
 * long it lasts; max_rtt keeps ageing; after the hold the held minimum
 * stays in force for W/2 .. W, then the window re-learns.
 */
static void test_window_hold(void)
{
	const u32 wmin = 10000000, wmax = 60000000;
	struct pert_rtt_win w;
	u32 t, bad = 0;

	pert_win_reset(&w, 0);
	win_update(&w, 20000, 0, wmin, wmax, false);
	win_update(&w, 300000, 100000, wmin, wmax, false);
	for (t = 200000; t < 70000000; t += 100000) {
		win_update(&w, 80000, t, wmin, wmax, true);
		if (pert_win_min(&w) != 20000)
			bad++;
	}
	tap_eq(bad, 0, "win hold: min 20 ms kept for 70 s of 80 ms samples");
	tap_eq(pert_win_max(&w), 80000,
	       "win hold: max still ages (300 ms spike gone after 60 s)");
	win_update(&w, 15000, t, wmin, wmax, true);
	tap_eq(pert_win_min(&w), 15000, "win hold: a lower sample still counts");
	/* hold ends at t = 70.0 s; the last held sample restarted the epoch */
	for (t += 100000; t < 75000000; t += 100000)
		win_update(&w, 80000, t, wmin, wmax, false);
	tap_eq(pert_win_min(&w), 15000,
	       "win hold: held min in force W/2 after the hold (75 s)");
	for (; t <= 80000000; t += 100000)
		win_update(&w, 80000, t, wmin, wmax, false);
	tap_eq(pert_win_min(&w), 80000,
	       "win hold: re-learned within W after the hold (80 s)");

	/* the module feeds raw samples to min and srtt to max */
	pert_win_reset(&w, 0);
	pert_win_update_min(&w, 20000, 0, wmin, false);
	pert_win_update_max(&w, 20000, 0, wmax);
	pert_win_update_min(&w, 145000, 1000, wmin, false);	/* delayed ACK */
	pert_win_update_max(&w, 21250, 1000, wmax);		/* srtt */
	tap_ok(pert_win_min(&w) == 20000 && pert_win_max(&w) == 21250,
	       "win: min and max fed separately (an outlier stays out of max)");
	pert_win_update_min(&w, 19000, 2000, wmin, false);
	tap_ok(pert_win_min(&w) == 19000 && pert_win_max(&w) == 21250,
	       "win: a min sample leaves max alone");

	/* without the hold the same samples re-learn within W = 10 s */
	pert_win_reset(&w, 0);
	win_update(&w, 20000, 0, wmin, wmax, false);
	for (t = 100000; t <= 10000000; t += 100000)
		win_update(&w, 80000, t, wmin, wmax, false);
	tap_eq(pert_win_min(&w), 80000, "win: no hold -> standing queue taken as min");
}

/* ---- phases and alpha ----------------------------------------------- */

static void test_classify(void)
{
	tap_eq(pert_classify(0, 5000, 100000, 50, 0), PERT_REGION_HIGH_SPEED,
	       "region: empty queue -> high speed");
	tap_eq(pert_classify(5000, 5000, 100000, 50, 0), PERT_REGION_HIGH_SPEED,
	       "region: curq = T1 -> high speed");
	tap_eq(pert_classify(5001, 5000, 100000, 50, 0), PERT_REGION_SAFE,
	       "region: just above T1 -> safe");
	tap_eq(pert_classify(49999, 5000, 100000, 50, 0), PERT_REGION_SAFE,
	       "region: just below maxq/2 -> safe");
	tap_eq(pert_classify(50000, 5000, 100000, 50, 0), PERT_REGION_COMPETE,
	       "region: curq = maxq/2 -> compete");
	tap_eq(pert_classify(5000, 5000, 10000, 50, 0), PERT_REGION_HIGH_SPEED,
	       "region: T1 = maxq/2 -> high speed wins");
	tap_eq(pert_classify(5001, 5000, 10000, 50, 0), PERT_REGION_COMPETE,
	       "region: no safe region when maxq/2 <= T1 (no floor)");
}
/* the compete region's floor, 2 T2 (T2 = 10 ms: 20 ms) */
static void test_classify_floor(void)
{
	tap_eq(pert_compete_floor_us(10000), 20000, "floor: 2 T2");
	tap_eq(pert_compete_floor_us(U32_MAX / 2 + 1), U32_MAX,
	       "floor: 2 T2 saturates");
	tap_eq(pert_classify(9000, 5000, 10000, 50, 20000), PERT_REGION_SAFE,
	       "region: maxq = min_maxq, curq 9 ms below the 20 ms floor -> safe");
	tap_eq(pert_classify(19999, 5000, 10000, 50, 20000), PERT_REGION_SAFE,
	       "region: 1 us below the floor -> safe");
	tap_eq(pert_classify(20000, 5000, 10000, 50, 20000), PERT_REGION_COMPETE,
	       "region: at the floor (above maxq/2) -> compete");
	tap_eq(pert_classify(39999, 5000, 80000, 50, 20000), PERT_REGION_SAFE,
	       "region: above the floor, below maxq/2 -> safe");
	tap_eq(pert_classify(40000, 5000, 80000, 50, 20000), PERT_REGION_COMPETE,
	       "region: maxq/2 above the floor -> compete");
	tap_eq(pert_classify(30000, 40000, 10000, 50, 20000),
	       PERT_REGION_HIGH_SPEED, "region: high speed still wins over the floor");
	tap_eq(pert_classify(U32_MAX, 5000, U32_MAX, 60, U32_MAX),
	       PERT_REGION_COMPETE, "region: extremes, no overflow");
}

/* ---- start-up and the compete phase's own rules ---------------------- */

static void test_ss_exit(void)
{
	u8 above = 0;
	int i, n = 0;

	/* 8 samples in a row at min + thresh exit, on the 8th */
	for (i = 0; i < 7; i++)
		n += pert_ss_exit_step(&above, 42000, 40000, 2000);
	tap_eq(n, 0, "ss exit: 7 samples above do not exit");
	tap_eq(pert_ss_exit_step(&above, 42000, 40000, 2000), 1,
	       "ss exit: the 8th sample in a row at min + thresh exits");
	tap_eq(above, PERT_SS_EXIT_SAMPLES, "ss exit: counter saturates at 8");
	tap_eq(pert_ss_exit_step(&above, 90000, 40000, 2000), 1,
	       "ss exit: stays true while samples stay above");
	/* one sample below restarts the count: bursts and delayed ACKs */
	above = 0;
	for (i = 0; i < 100; i++)
		n += pert_ss_exit_step(&above, (i % 4) ? 80000 : 41999, 40000,
				       2000);
	tap_eq(n, 0, "ss exit: 1 us below the threshold every 4th sample never exits");
	/* off, unknown min, overflow */
	above = 0;
	for (i = 0; i < 20; i++)
		n += pert_ss_exit_step(&above, U32_MAX, 40000, 0);
	tap_eq(n, 0, "ss exit: thresh 0 switches it off");
	for (i = 0; i < 20; i++)
		n += pert_ss_exit_step(&above, U32_MAX, PERT_WIN_MIN_EMPTY, 2000);
	tap_eq(n, 0, "ss exit: no min_rtt yet -> never");
	above = 0;
	for (i = 0; i < 8; i++)
		n += pert_ss_exit_step(&above, U32_MAX, U32_MAX - 1, 100000);
	tap_eq(n, 0, "ss exit: min + thresh above U32_MAX, no wrap");
	above = 0;
	for (i = 0; i < 8; i++)
		n = pert_ss_exit_step(&above, U32_MAX, 1, PERT_SS_EXIT_US_MAX);
	tap_eq(n, 1, "ss exit: largest sample and threshold exit");
}

static void test_beta_ref(void)
{
	struct pert_params p;

	pert_params_default(&p);
	tap_eq(pert_beta_ref_us(10000, 40000), 40000,
	       "beta ref: min_rtt above maxq -> min_rtt");
	tap_eq(pert_beta_ref_us(85000, 20000), 85000,
	       "beta ref: maxq above min_rtt -> maxq (the papers' case)");
	tap_eq(pert_beta_ref_us(10000, PERT_WIN_MIN_EMPTY), 10000,
	       "beta ref: no min_rtt -> maxq");
	/* demo path: 40 ms, curq 8 ms, maxq 10 ms: 8/48 = 0.1667 -> 170 */
	tap_eq(pert_decrease_beta(8000, 10000, 40000, false, &p), 170,
	       "decrease beta: 8 / (8 + max(10, 40)) = 170/1024");
	/* papers' case: 8 / (8 + 10) = 455 */
	tap_eq(pert_decrease_beta(8000, 10000, 5000, false, &p), 455,
	       "decrease beta: 8 / (8 + 10) = 455/1024 when min_rtt < maxq");
	tap_eq(pert_decrease_beta(0, 10000, 40000, false, &p), 128,
	       "decrease beta: empty queue -> beta_min");
	tap_eq(pert_decrease_beta(8000, 10000, 40000, true, &p), 358,
	       "decrease beta: compete phase -> compete_beta 0.35");
	p.compete_beta = 16;
	tap_eq(pert_decrease_beta(80000, 10000, 40000, true, &p), 16,
	       "decrease beta: compete_beta whatever the queue");
}

static void test_squeeze(void)
{
	struct pert_phase ph;
	int i;

	pert_phase_reset(&ph, 0);
	tap_eq(pert_phase_entry_ssthresh(&ph, 7), 7,
	       "squeeze: no response -> ssthresh kept");
	/* responses at 80, 40, 20, ... keep the first window */
	for (i = 80; i >= 2; i /= 2)
		pert_phase_note_response(&ph, i);
	tap_eq(ph.squeeze_cwnd, 80, "squeeze: the window before the first response");
	/* a safe update does not forget it, a high-speed update does */
	pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	tap_eq(ph.squeeze_cwnd, 80, "squeeze: a safe update keeps it");
	pert_phase_track(&ph, PERT_RULE_HIGH_SPEED, 2, 3);
	tap_eq(ph.squeeze_cwnd, 0, "squeeze: a high-speed update (queue empty) forgets it");
	pert_phase_note_response(&ph, 60);
	pert_phase_note_response(&ph, 30);
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	tap_eq(pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3), 1,
	       "squeeze: two compete updates enter the phase");
	tap_eq(pert_phase_entry_ssthresh(&ph, 3), 60,
	       "squeeze: entry ssthresh = the window before the squeeze");
	tap_eq(ph.squeeze_cwnd, 0, "squeeze: consumed at entry");
	pert_phase_note_response(&ph, 50);
	tap_eq(ph.squeeze_cwnd, 0, "squeeze: responses in the phase are not recorded");
	pert_phase_reset(&ph, 0);
	pert_phase_note_response(&ph, 20);
	tap_eq(pert_phase_entry_ssthresh(&ph, 100), 100,
	       "squeeze: never lowers ssthresh");
}

/*
 * A synthetic flow: srtt 10 ms, cwnd 10, one packet ACKed per ms (a
 * window per RTT), so a full window takes 10 ms and the cadence is 50 ms.
 * region_of(t) gives the region at time t (ms).  Records the update
 * times; returns the number of alpha changes.
 */
struct sim {
	u32 alpha, updates, min_gap_ms, last_ms, hs, compete, safe;
	u32 entered_ms, left_ms, changes;
	struct pert_phase ph;
};

static void sim_init(struct sim *s)
{
	memset(s, 0, sizeof(*s));
	s->alpha = PERT_ALPHA_ONE;
	s->min_gap_ms = U32_MAX;
	pert_phase_reset(&s->ph, 0);
}

static void sim_ack(struct sim *s, u32 t_ms, enum pert_region region,
		    u32 target)
{
	enum pert_alpha_rule r = pert_phase_step(&s->ph, region, 1, 10,
						 t_ms * 1000, 10000, 5);

	if (r == PERT_RULE_NONE)
		return;
	if (pert_phase_track(&s->ph, r, 2, 3)) {
		s->changes++;
		if (s->ph.compete)
			s->entered_ms = t_ms;
		else
			s->left_ms = t_ms;
	}
	if (s->updates && t_ms - s->last_ms < s->min_gap_ms)
		s->min_gap_ms = t_ms - s->last_ms;
	s->last_ms = t_ms;
	s->updates++;
	s->hs += r == PERT_RULE_HIGH_SPEED;
	s->compete += r == PERT_RULE_COMPETE;
	s->safe += r == PERT_RULE_SAFE;
	s->alpha = pert_alpha_apply(s->alpha, r, target, 32);
}

static void test_phase_high_speed(void)
{
	struct sim s;
	u32 t, at_32 = 0, steps_ok = 1, prev = PERT_ALPHA_ONE;

	sim_init(&s);
	for (t = 1; t <= 5000; t++) {
		sim_ack(&s, t, PERT_REGION_HIGH_SPEED, PERT_TARGET_NONE);
		if (s.alpha != prev) {
			/* each change is exactly +0.5 */
			if (s.alpha - prev != 512)
				steps_ok = 0;
			prev = s.alpha;
			if (s.alpha == 32 * PERT_ALPHA_ONE && !at_32)
				at_32 = t;
		}
	}
	tap_ok(steps_ok, "phase HS: alpha rises in +0.5 steps");
	tap_eq(s.alpha, 32 * PERT_ALPHA_ONE, "phase HS: alpha ends at 32");
	/* 62 steps of 0.5 from 1 to 32, one per 50 ms: the 62nd at 3.1 s */
	tap_eq(at_32, 3100, "phase HS: 62 updates, one per 5 srtt -> 3.1 s");
	tap_eq(s.min_gap_ms, 50, "phase HS: updates exactly 5 srtt apart");
	tap_eq(s.safe + s.compete, 0, "phase HS: no other rule fired");
}

static void test_phase_compete(void)
{
	struct sim s;
	u32 t, above = 0, prev;
	/* p'/p = 2: target = 1 + p'/p = 3 at >= 0.65 maxq */
	u32 target = pert_compete_target(70000, 100000, 50, 2048, 32);

	tap_eq(target, 3 * PERT_ALPHA_ONE, "target: 1 + p'/p = 3 at 0.70 maxq");
	tap_eq(pert_compete_target(65000, 100000, 50, 2048, 32),
	       3 * PERT_ALPHA_ONE, "target: full at exactly 0.65 maxq");
	/* linear ramp: at 0.575 maxq halfway, 1 + 2 * 0.5 = 2 */
	tap_eq(pert_compete_target(57500, 100000, 50, 2048, 32),
	       2 * PERT_ALPHA_ONE, "target: ramp halfway -> 2");
	/* 0.53 maxq: 1 + 2 * 3/15 = 1.4 -> 1024 + 409.6 -> 1433 */
	tap_near(pert_compete_target(53000, 100000, 50, 2048, 32) / AONE,
		 1.4, 1.0 / 1024, "target: ramp at 0.53 maxq -> 1.4");
	tap_eq(pert_compete_target(50000, 100000, 50, 2048, 32),
	       PERT_ALPHA_ONE, "target: 1 at maxq/2");
	tap_eq(pert_compete_target(70000, 100000, 50, PERT_RATIO_NONE, 32),
	       PERT_TARGET_NONE, "target: none when p = 0");
	tap_eq(pert_compete_target(70000, 100000, 50, PERT_RATIO_NONE - 1, 32),
	       32 * PERT_ALPHA_ONE, "target: capped at alpha_max");
	tap_eq(pert_compete_target(70000, 100000, 50, 0, 32),
	       PERT_ALPHA_ONE, "target: p' = 0 -> 1");

	sim_init(&s);
	prev = s.alpha;
	for (t = 1; t <= 5000; t++) {
		sim_ack(&s, t, PERT_REGION_COMPETE, target);
		if (s.alpha > target)
			above = 1;
		prev = s.alpha;
	}
	(void)prev;
	tap_ok(!above, "phase compete: alpha never above target");
	tap_eq(s.alpha, target, "phase compete: alpha reaches target");
	tap_eq(s.hs + s.safe, 0, "phase compete: only the compete rule fired");
	/* (3 - 1) / (102/1024) = 20.08 -> 21 updates to get there */
	tap_eq(pert_alpha_apply(PERT_ALPHA_ONE + 20 * 102, PERT_RULE_COMPETE,
				target, 32), target,
	       "phase compete: 21st +0.1 step clipped to target");

	/* p = 0: +0.1 per update up to alpha_max */
	sim_init(&s);
	for (t = 1; t <= 20000; t++)
		sim_ack(&s, t, PERT_REGION_COMPETE, PERT_TARGET_NONE);
	tap_eq(s.alpha, 32 * PERT_ALPHA_ONE, "phase compete p=0: up to 32");
	tap_near(pert_alpha_apply(PERT_ALPHA_ONE, PERT_RULE_COMPETE,
				  PERT_TARGET_NONE, 32) / AONE, 1.1, 0.001,
		 "phase compete: step is +0.1");
	/* above target: min(alpha + 0.1, target) drops to the target */
	tap_eq(pert_alpha_apply(10 * PERT_ALPHA_ONE, PERT_RULE_COMPETE,
				3 * PERT_ALPHA_ONE, 32), 3 * PERT_ALPHA_ONE,
	       "phase compete: alpha above target drops to it");
}

static void test_phase_safe(void)
{
	struct sim s;
	u32 t, prev, bad = 0;
	double ref = 32;

	sim_init(&s);
	s.alpha = 32 * PERT_ALPHA_ONE;
	prev = s.alpha;
	for (t = 1; t <= 5000; t++) {
		sim_ack(&s, t, PERT_REGION_SAFE, PERT_TARGET_NONE);
		if (s.alpha != prev) {
			ref = ref * 0.9 < 1 ? 1 : ref * 0.9;
			/* truncation may lose < 1/1024 per step */
			if (fabs(s.alpha / AONE - ref) > s.safe / 1024.0 + 1e-9)
				bad++;
			prev = s.alpha;
		}
	}
	tap_eq(bad, 0, "phase safe: alpha * 0.9 per update (double ref)");
	tap_eq(s.alpha, PERT_ALPHA_ONE, "phase safe: decays to 1 and stays");
	tap_eq(s.hs + s.compete, 0, "phase safe: only the safe rule fired");
	tap_eq(pert_alpha_apply(1100, PERT_RULE_SAFE, 0, 32), PERT_ALPHA_ONE,
	       "phase safe: floor at 1");
	tap_eq(pert_alpha_apply(40 * PERT_ALPHA_ONE, PERT_RULE_HIGH_SPEED,
				PERT_TARGET_NONE, 32), 32 * PERT_ALPHA_ONE,
	       "phase HS: alpha above a lowered alpha_max is capped");
	tap_eq(pert_alpha_apply(5000, PERT_RULE_NONE, 0, 32), 5000,
	       "phase: no rule, no change");
}

static void test_phase_changes(void)
{
	struct pert_phase ph;
	struct sim s;
	u32 t;

	/* region change resets the count */
	pert_phase_reset(&ph, 0);
	pert_phase_step(&ph, PERT_REGION_HIGH_SPEED, 7, 10, 1000, 10000, 5);
	tap_eq(ph.pkts, 7, "phase: count accumulates in a region");
	pert_phase_step(&ph, PERT_REGION_HIGH_SPEED, 3, 10, 2000, 10000, 5);
	tap_eq(ph.pkts, 10, "phase: count accumulates further");
	pert_phase_step(&ph, PERT_REGION_COMPETE, 2, 10, 3000, 10000, 5);
	tap_eq(ph.pkts, 2, "phase: region change resets the count");
	ph.pkts = U32_MAX - 1;
	pert_phase_step(&ph, PERT_REGION_COMPETE, 5, 10, 4000, 10000, 5);
	tap_eq(ph.pkts, U32_MAX, "phase: count saturates");

	/* alternating HS / compete every 5 ms: never a full window */
	sim_init(&s);
	s.alpha = 8 * PERT_ALPHA_ONE;
	for (t = 1; t <= 2000; t++)
		sim_ack(&s, t, (t / 5) % 2 ? PERT_REGION_COMPETE :
					     PERT_REGION_HIGH_SPEED,
			PERT_TARGET_NONE);
	tap_ok(s.hs == 0 && s.compete == 0 && s.safe == s.updates,
	       "phase: mixed windows never grow alpha (safe rule only)");
	tap_eq(s.alpha, PERT_ALPHA_ONE, "phase: mixed windows decay alpha");
	tap_eq(s.min_gap_ms, 50, "phase: cadence holds while mixed");

	/* high speed with one excursion to safe 3 ms before an update */
	sim_init(&s);
	for (t = 1; t <= 100; t++)
		sim_ack(&s, t, t == 97 ? PERT_REGION_SAFE :
					 PERT_REGION_HIGH_SPEED,
			PERT_TARGET_NONE);
	/* update at 50 ms: HS (+0.5); at 100 ms only 3 HS ACKs -> safe */
	tap_ok(s.hs == 1 && s.safe == 1,
	       "phase: a region change just before an update voids the window");
}

/* the compete phase: entry, exit, hysteresis (enter 2, exit 3) */
static void test_phase_track(void)
{
	struct pert_phase ph;
	struct sim s;
	u32 t;
	bool ch;

	pert_phase_reset(&ph, 0);
	tap_ok(!pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3) && !ph.compete,
	       "track: one compete update does not enter");
	ch = pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	tap_ok(ch && ph.compete, "track: the second in a row enters");
	tap_ok(!pert_phase_track(&ph, PERT_RULE_NONE, 2, 3) && ph.compete,
	       "track: no update, no change");
	pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	tap_ok(ph.compete, "track: two safe updates do not leave");
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	tap_ok(ph.compete, "track: a compete update restarts the exit count");
	ch = pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	tap_ok(ch && !ph.compete, "track: the third safe update in a row leaves");

	pert_phase_reset(&ph, 0);
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	tap_ok(!ph.compete, "track: compete, safe, compete does not enter");
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	tap_ok(ph.compete, "track: ... until two in a row");
	ch = pert_phase_track(&ph, PERT_RULE_HIGH_SPEED, 2, 3);
	tap_ok(ch && !ph.compete,
	       "track: a high-speed update (queue empty) leaves at once");

	pert_phase_reset(&ph, 0);
	tap_ok(pert_phase_track(&ph, PERT_RULE_COMPETE, 1, 1) && ph.compete,
	       "track: enter 1 -> the first compete update enters");
	pert_phase_restart(&ph, 5000);
	tap_ok(ph.compete && ph.pkts == 0 && ph.last_update_us == 5000 &&
	       ph.region == PERT_REGION_NONE,
	       "track: RTO restart keeps the phase, restarts count and cadence");
	pert_phase_reset(&ph, 0);
	tap_ok(!ph.compete && !ph.streak, "track: reset leaves the phase");

	/* a streak counter that cannot wrap: 300 updates, enter at 300 */
	pert_phase_reset(&ph, 0);
	for (t = 0; t < 300; t++)
		pert_phase_track(&ph, PERT_RULE_COMPETE, 300, 3);
	tap_ok(!ph.compete && ph.streak == PERT_STREAK_MAX,
	       "track: streak saturates at 255 (no wrap to 0)");

	/* flow: compete region from t = 1 ms; updates every 50 ms */
	sim_init(&s);
	for (t = 1; t <= 199; t++)
		sim_ack(&s, t, PERT_REGION_COMPETE, PERT_TARGET_NONE);
	tap_eq(s.entered_ms, 100, "track flow: entered at the 2nd update (100 ms)");
	for (; t <= 1000; t++)
		sim_ack(&s, t, PERT_REGION_SAFE, PERT_TARGET_NONE);
	/* updates at 200 (mixed window), 250, 300: the third leaves */
	tap_eq(s.left_ms, 300, "track flow: left at the 3rd safe update (300 ms)");

	/* dips into safe for 60 ms of every 400 ms never leave the phase */
	sim_init(&s);
	for (t = 1; t <= 20000; t++)
		sim_ack(&s, t, t % 400 < 60 && t > 400 ? PERT_REGION_SAFE :
							  PERT_REGION_COMPETE,
			PERT_TARGET_NONE);
	tap_ok(s.changes == 1 && s.ph.compete,
	       "track flow: short dips of the competitor do not end the phase");
}

/*
 * The hold (pert_phase_note_loss()): a loss in the compete phase keeps it
 * through the dip it opens, however long; a dip without a loss still ends
 * it after compete_exit updates, a high-speed update at once.
 */
static void test_phase_hold(void)
{
	struct pert_phase ph;
	struct sim s;
	u32 t, i;
	bool ch;

	pert_phase_reset(&ph, 0);
	tap_ok(ph.held == 0, "hold: reset clears it");
	pert_phase_note_loss(&ph);
	tap_ok(ph.held == 0, "hold: a loss outside the phase does not hold");
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	pert_phase_note_loss(&ph);
	tap_ok(ph.compete && ph.held == PERT_HELD_LOSS,
	       "hold: a loss in the phase holds it");
	/* srtt lags: the update right after the loss may still be compete */
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	tap_ok(ph.held == PERT_HELD_LAG,
	       "hold: one compete update before the dip keeps the hold");
	for (i = 0; i < 300; i++)
		pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	tap_ok(ph.compete && ph.held == PERT_HELD_DIP && ph.streak == 0,
	       "hold: 300 safe updates in the held dip do not leave");
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	tap_ok(ph.compete && ph.held == 0,
	       "hold: the compete region after the dip ends the hold");
	pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	ch = pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	tap_ok(ch && !ph.compete,
	       "hold: a dip without a loss still leaves at the 3rd update");

	pert_phase_reset(&ph, 0);
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	pert_phase_note_loss(&ph);
	pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	ch = pert_phase_track(&ph, PERT_RULE_HIGH_SPEED, 2, 3);
	tap_ok(ch && !ph.compete && ph.held == 0,
	       "hold: a high-speed update (queue empty) still leaves at once");
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	tap_ok(ph.compete && ph.held == 0,
	       "hold: re-entering starts without a hold");
	pert_phase_note_loss(&ph);
	pert_phase_restart(&ph, 1000);
	tap_ok(ph.held == PERT_HELD_LOSS, "hold: an RTO restart keeps it");

	/* a dip that begins two compete updates after the loss is not its */
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	pert_phase_track(&ph, PERT_RULE_COMPETE, 2, 3);
	tap_ok(ph.compete && ph.held == 0,
	       "hold: a second compete update before any dip ends it");
	pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	ch = pert_phase_track(&ph, PERT_RULE_SAFE, 2, 3);
	tap_ok(ch && !ph.compete,
	       "hold: ... and a later dip (the competitor gone) leaves at the 3rd");

	/*
	 * flow, 10 ms srtt, updates every 50 ms: a Reno-like sawtooth of 2 s,
	 * a loss at its top, then 1.5 s below the compete threshold: the
	 * phase entered once and never left; the same dips without the
	 * losses leave in each of them
	 */
	sim_init(&s);
	for (t = 1; t <= 20000; t++) {
		bool dip = t >= 400 && (t - 400) % 2000 < 1500;

		if (t >= 400 && (t - 400) % 2000 == 0)
			pert_phase_note_loss(&s.ph);
		sim_ack(&s, t, dip ? PERT_REGION_SAFE : PERT_REGION_COMPETE,
			PERT_TARGET_NONE);
	}
	tap_ok(s.changes == 1 && s.ph.compete,
	       "hold flow: loss-opened dips of 1.5 s every 2 s never leave");
	sim_init(&s);
	for (t = 1; t <= 20000; t++)
		sim_ack(&s, t, t >= 400 && (t - 400) % 2000 < 1500 ?
			PERT_REGION_SAFE : PERT_REGION_COMPETE,
			PERT_TARGET_NONE);
	tap_ok(s.changes > 10,
	       "hold flow: the same dips without a loss leave each time");
}

/* ---- loss intervals ------------------------------------------------- */

/* feed intervals oldest first, leave @open packets in the open one */
static void li_feed(struct pert_li *li, const u32 *oldest_first, int n,
		    u32 open)
{
	int i;

	pert_li_reset(li);
	for (i = 0; i < n; i++) {
		pert_li_add(li, oldest_first[i]);
		pert_li_event(li);
	}
	pert_li_add(li, open);
}

static void test_loss_intervals(void)
{
	static const u32 hundreds[8] = { 100, 100, 100, 100, 100, 100, 100, 100 };
	/* oldest first 80 .. 10, so newest first 10, 20, ..., 80 */
	static const u32 mixed[8] = { 80, 70, 60, 50, 40, 30, 20, 10 };
	static const double mixed_nf[8] = { 10, 20, 30, 40, 50, 60, 70, 80 };
	static const u32 three[3] = { 150, 100, 50 };
	struct pert_li li;
	u32 i, prev, mono = 1, worst = 0;

	pert_li_reset(&li);
	tap_eq(pert_li_rate(&li), 0, "li: no event yet -> p = 0");
	pert_li_add(&li, 5000);
	tap_eq(pert_li_rate(&li), 0, "li: packets but no event -> p = 0");

	/* 8 x 100: I_mean = 600 / 6 = 100, p = 0.01 -> 655.36 -> 655 */
	li_feed(&li, hundreds, 8, 0);
	tap_eq(pert_li_rate(&li), 655, "li: intervals 100 x 8 -> p = 0.01");
	/*
	 * newest first 10 20 30 40 50 60 70 80, open 0:
	 * I_tot1 = 10+20+30+40 + .8*50 + .6*60 + .4*70 + .2*80 = 220
	 * I_tot0 = 0 + 10+20+30 + .8*40 + .6*50 + .4*60 + .2*70 = 160
	 * p = 6 / 220 = 0.0272727 -> 1787.35 -> 1787
	 */
	li_feed(&li, mixed, 8, 0);
	tap_eq(pert_li_rate(&li), 1787, "li: mixed 10..80 -> 6/220");
	tap_near(pert_li_rate(&li) / ONE, ref_li_rate(mixed_nf, 8, 0),
		 1.0 / ONE, "li: mixed agrees with the RFC 5348 reference");
	/*
	 * open 100: I_tot0 = 100 + 60 + 32 + 30 + 24 + 14 = 260 > 220
	 * p = 6 / 260 = 0.0230769 -> 1512.37 -> 1512
	 */
	li_feed(&li, mixed, 8, 100);
	tap_eq(pert_li_rate(&li), 1512,
	       "li: open interval above the mean counts -> 6/260");
	/* open 30: I_tot0 = 30 + 140 = 190 < 220: left out, still 6/220 */
	li_feed(&li, mixed, 8, 30);
	tap_eq(pert_li_rate(&li), 1787,
	       "li: open interval below the mean ignored");
	/*
	 * 3 intervals (newest first 50, 100, 150): W = 3, I_tot1 = 300,
	 * p = 0.01; open 400: I_tot0 = 400 + 50 + 100 = 550 -> 3/550
	 * = 0.0054545 -> 357.47 -> 357
	 */
	li_feed(&li, three, 3, 0);
	tap_eq(pert_li_rate(&li), 655, "li: k = 3 normalises the weights");
	li_feed(&li, three, 3, 400);
	tap_eq(pert_li_rate(&li), 357, "li: k = 3 with open 400 -> 3/550");
	/* single interval of 0 packets: p = 1 */
	pert_li_reset(&li);
	pert_li_event(&li);
	tap_eq(pert_li_rate(&li), PERT_PROB_ONE, "li: zero-length interval -> 1");

	/* p decays while no event comes: 6 / max(600, open + 500) */
	li_feed(&li, hundreds, 8, 0);
	prev = pert_li_rate(&li);
	for (i = 1; i <= 100000; i += 37) {
		u32 now;

		pert_li_add(&li, 37);
		now = pert_li_rate(&li);
		if (now > prev)
			mono = 0;
		prev = now;
	}
	tap_ok(mono, "li: p never rises while the open interval grows");
	li_feed(&li, hundreds, 8, 1100);
	/* 6 / 1600 = 0.00375 -> 245.76 -> 246 */
	tap_eq(pert_li_rate(&li), 246, "li: open 1100 -> p = 6/1600");

	/* the ring never grows: 1000 events keep 8, the newest 8 */
	pert_li_reset(&li);
	for (i = 1; i <= 1000; i++) {
		pert_li_add(&li, i);
		pert_li_event(&li);
	}
	tap_eq(li.count, 8, "li: ring holds at most 8 intervals");
	tap_eq(sizeof(li.closed) / sizeof(li.closed[0]), 8,
	       "li: fixed 8-slot storage");
	tap_ok(pert_li_closed(&li, 0) == 1000 && pert_li_closed(&li, 7) == 993,
	       "li: newest 1000 ... oldest 993 kept");
	{
		double nf[8];

		for (i = 0; i < 8; i++)
			nf[i] = 1000 - i;
		tap_near(pert_li_rate(&li) / ONE, ref_li_rate(nf, 8, 0),
			 1.0 / ONE, "li: after wrap agrees with reference");
	}

	/* random histories against the reference */
	for (i = 0; i < 2000; i++) {
		u32 n = 1 + rng() % 12, j, open = rng() % 5000, iv[12];
		double nf[8];
		int k = n < 8 ? (int)n : 8;
		double want;

		for (j = 0; j < n; j++)
			iv[j] = 1 + rng() % 3000;
		li_feed(&li, iv, (int)n, open);
		for (j = 0; j < (u32)k; j++)
			nf[j] = iv[n - 1 - j];
		want = ref_li_rate(nf, k, open) * ONE;
		if (fabs(pert_li_rate(&li) - want) > 0.5 + 1e-9)
			worst++;
	}
	tap_eq(worst, 0, "li: 2000 random histories within rounding of RFC 5348");

	pert_li_reset(&li);
	pert_li_add(&li, U32_MAX - 5);
	pert_li_add(&li, 100);
	tap_eq(li.open, U32_MAX, "li: open interval saturates");
	pert_li_event(&li);
	/* 1 / 4.3e9 is below the 2^-17 resolution: rounds to 0 */
	tap_eq(pert_li_rate(&li), 0, "li: huge interval -> p rounds to 0");

	/* p'/p from the sums: early 50 x 8 (p' = 0.02), loss 100 x 8 */
	{
		static const u32 fifties[8] = { 50, 50, 50, 50, 50, 50, 50, 50 };
		static const u32 big[2] = { 2000000000U, 1000000000U };
		struct pert_li e, l;

		li_feed(&e, fifties, 8, 0);
		li_feed(&l, hundreds, 8, 0);
		tap_eq(pert_li_ratio(&e, &l), 2048, "ratio: p'/p = 2");
		tap_eq(pert_li_ratio(&l, &e), 512, "ratio: p'/p = 1/2");
		pert_li_reset(&l);
		tap_eq(pert_li_ratio(&e, &l), PERT_RATIO_NONE,
		       "ratio: no loss yet -> none");
		pert_li_reset(&e);
		li_feed(&l, hundreds, 8, 0);
		tap_eq(pert_li_ratio(&e, &l), 0, "ratio: no response yet -> 0");
		/*
		 * rates too small for 1/65536: loss mean (1e9 + 2e9) / 2 =
		 * 1.5e9, early mean 50 -> p'/p = 3e7, saturating below NONE
		 */
		li_feed(&e, fifties, 8, 0);
		li_feed(&l, big, 2, 0);
		tap_eq(pert_li_ratio(&e, &l), 30000000ULL * 1024 > U32_MAX ?
		       PERT_RATIO_NONE - 1 : 30000000U * 1024,
		       "ratio: tiny p still gives p'/p (saturated)");
		/* loss mean 1.5e6 (rate 6.7e-7 rounds to 0), early 1.5e6/8 */
		{
			static const u32 l2[2] = { 2000000, 1000000 };
			static const u32 e2[2] = { 250000, 125000 };

			li_feed(&e, e2, 2, 0);
			li_feed(&l, l2, 2, 0);
			tap_eq(pert_li_rate(&l), 0, "ratio: p itself rounds to 0");
			tap_eq(pert_li_ratio(&e, &l), 8 * 1024,
			       "ratio: p'/p = 8 exactly from the sums");
		}
	}
}

/* ---- the compete-phase budget --------------------------------------- */

static void test_budget(void)
{
	static const u32 k1000[8] = { 1000, 1000, 1000, 1000,
				      1000, 1000, 1000, 1000 };
	struct pert_li li;
	int i, bad = 0, n_tested = 0;
	u32 since, taken, signals, alpha;

	/* I_mean 1000: alpha 3 may take one per 1000 / 2 = 500 packets */
	li_feed(&li, k1000, 8, 0);
	tap_ok(!pert_compete_budget_ok(499, 3 * PERT_ALPHA_ONE, &li),
	       "budget: alpha 3, I 1000: 499 packets too few");
	tap_ok(pert_compete_budget_ok(500, 3 * PERT_ALPHA_ONE, &li),
	       "budget: alpha 3, I 1000: 500 packets enough");
	/* alpha 32: 1000 / 31 = 32.3 */
	tap_ok(!pert_compete_budget_ok(32, 32 * PERT_ALPHA_ONE, &li) &&
	       pert_compete_budget_ok(33, 32 * PERT_ALPHA_ONE, &li),
	       "budget: alpha 32: one per 32.3 packets");
	/* alpha 1 + 1/1024: one per 1000 * 1024 packets */
	tap_ok(!pert_compete_budget_ok(1023999, PERT_ALPHA_ONE + 1, &li) &&
	       pert_compete_budget_ok(1024000, PERT_ALPHA_ONE + 1, &li),
	       "budget: alpha 1 + 1/1024: one per 1024000 packets");
	tap_ok(!pert_compete_budget_ok(U32_MAX, PERT_ALPHA_ONE, &li),
	       "budget: alpha 1 -> losses only, never early");
	/* alpha above the 64 cap counts as 64: 1000 / 63 = 15.9 */
	tap_ok(!pert_compete_budget_ok(15, 200 * PERT_ALPHA_ONE, &li) &&
	       pert_compete_budget_ok(16, 200 * PERT_ALPHA_ONE, &li),
	       "budget: alpha above 64 counts as 64");
	/* open interval 5000 above the mean: I = 50000 / 30 = 1666.7 */
	li_feed(&li, k1000, 8, 5000);
	tap_ok(!pert_compete_budget_ok(833, 3 * PERT_ALPHA_ONE, &li) &&
	       pert_compete_budget_ok(834, 3 * PERT_ALPHA_ONE, &li),
	       "budget: a long loss-free stretch lowers p and the budget");
	pert_li_reset(&li);
	pert_li_add(&li, 100000);
	tap_ok(!pert_compete_budget_ok(U32_MAX, 32 * PERT_ALPHA_ONE, &li),
	       "budget: no loss yet (p = 0) -> losses only");
	/* largest values: no overflow, true */
	for (i = 0; i < 8; i++) {
		pert_li_add(&li, U32_MAX);
		pert_li_event(&li);
	}
	tap_ok(pert_compete_budget_ok(U32_MAX, 64 * PERT_ALPHA_ONE, &li),
	       "budget: U32_MAX intervals and packets, no overflow");
	tap_ok(!pert_compete_budget_ok(1000, 64 * PERT_ALPHA_ONE, &li),
	       "budget: huge intervals need many packets");

	/* random histories against since * (alpha - 1) >= 1 / p in doubles */
	for (i = 0; i < 3000; i++) {
		double closed[8], need;
		u32 raw[8], k = 1 + rng() % 8, j, open = rng() % 20000;
		bool got;

		pert_li_reset(&li);
		for (j = 0; j < k; j++)
			raw[j] = 1 + rng() % 20000;	/* oldest first */
		li_feed(&li, raw, (int)k, open);
		for (j = 0; j < k; j++)
			closed[j] = raw[k - 1 - j];	/* newest first */
		alpha = PERT_ALPHA_ONE + rng() % (40 * PERT_ALPHA_ONE);
		since = rng() % 30000;
		need = 1.0 / ref_li_rate(closed, (int)k, open);
		got = pert_compete_budget_ok(since, alpha, &li);
		if (fabs(since * ((alpha - 1024.0) / 1024) - need) < 1e-6 * need)
			continue;	/* exactly at the boundary: skip */
		n_tested++;
		if (got != (since * ((alpha - 1024.0) / 1024) >= need &&
			    alpha > PERT_ALPHA_ONE))
			bad++;
	}
	tap_ok(bad == 0 && n_tested > 2900,
	       "budget: 3000 random histories agree with the double reference (%d bad)",
	       bad);

	/*
	 * A flow in the compete phase: a signal every 200 packets (p = 1, once
	 * per RTT at cwnd 200), a loss every 10000 (p = 1e-4).  With alpha 5
	 * it may take (alpha - 1) p = 4 per 10000 packets: one per 2500, i.e.
	 * at the 13th signal (2600 packets) -> 10^6 / 2600 = 384.6.
	 */
	alpha = 5 * PERT_ALPHA_ONE;
	pert_li_reset(&li);
	since = 0;
	taken = 0;
	signals = 0;
	for (i = 1; i <= 1000000; i++) {
		pert_li_add(&li, 1);
		since++;
		if (i % 10000 == 0)
			pert_li_event(&li);
		if (i % 200 == 0) {
			signals++;
			if (pert_compete_budget_ok(since, alpha, &li)) {
				taken++;
				since = 0;
			}
		}
	}
	tap_ok(taken <= 400 && taken >= 380,
	       "budget flow: alpha 5 takes <= (alpha - 1) p: %u of %u signals",
	       taken, signals);
	/* alpha = 1 + p'/p = 51: the budget covers every signal */
	alpha = 51 * PERT_ALPHA_ONE;
	pert_li_reset(&li);
	since = 0;
	taken = 0;
	for (i = 1; i <= 1000000; i++) {
		pert_li_add(&li, 1);
		since++;
		if (i % 10000 == 0)
			pert_li_event(&li);
		if (i % 200 == 0 && i > 10000 &&
		    pert_compete_budget_ok(since, alpha, &li)) {
			taken++;
			since = 0;
		}
	}
	tap_eq(taken, (1000000 - 10000) / 200,
	       "budget flow: alpha = 1 + p'/p takes every signal (the papers)");
}

/* ---- get_info (cc_info.h) ---------------------------------------- */

static void test_info(void)
{
	char buf[64];
	u64 bw;

	/* ss's bw is a rate: 47 x 1448 B per 20 ms = 3.4 MB/s */
	bw = cc_info_window_rate(47, 1448, 20000);
	tap_eq(bw, 3402800, "info: bw = cwnd * mss / srtt (47 x 1448 B / 20 ms)");
	/* what `ss -tin` prints: sprint_bw("%.0f", bw * 8.0) */
	snprintf(buf, sizeof(buf), "%.0f", (double)bw * 8.0);
	tap_ok(!strcmp(buf, "27222400"), "info: ss -tin shows 27.2 Mbit/s (%s)", buf);
	tap_eq(cc_info_window_rate(47, 1448, 0), 0, "info: no srtt -> bw 0");
	/* cwnd over bw x min_rtt: srtt 20 ms, min_rtt 16 ms -> 1.25 = 320/256 */
	tap_eq(cc_info_cwnd_gain(47, 1448, bw, 16000), 320,
	       "info: cwnd_gain = srtt / min_rtt = 1.25 (320/256)");
	tap_eq(cc_info_cwnd_gain(47, 1448, bw, 0), 0, "info: no min_rtt -> no gain");
	tap_eq(cc_info_cwnd_gain(47, 1448, 0, 16000), 0, "info: no bw -> no gain");
	tap_eq(cc_info_cwnd_gain(47, 1448, bw, U32_MAX), 0,
	       "info: min_rtt ~0 (no sample) -> no gain");
	tap_eq(cc_info_cwnd_gain(U32_MAX, 65535, 1, 1000000), U32_MAX,
	       "info: gain saturates");
	tap_eq(cc_info_sockopt(~0U), 1, "info: TCP_CC_INFO's ext ~0U -> own record");
	tap_eq(cc_info_sockopt(0xff), 0, "info: inet_diag's 8-bit ext -> tcp_bbr_info");
	tap_eq(cc_info_milli16(1536, PERT_ALPHA_SHIFT), 1500, "info: alpha 1.5 -> 1500");
	tap_eq(cc_info_milli16(512, PERT_BETA_SHIFT), 500, "info: beta 1/2 -> 500");
	tap_eq(cc_info_milli16(U32_MAX, 0), 0xffff, "info: milli saturates at 65535");
	tap_eq(sizeof(struct pert_cc_info), 20, "info: struct pert_cc_info is 20 bytes");
	tap_eq(sizeof(struct rapid_cc_info), 20, "info: struct rapid_cc_info is 20 bytes");
	tap_eq(sizeof(struct icc_cc_info), 12, "info: struct icc_cc_info is 12 bytes");
}

int main(void)
{
	test_params();
	test_curve();
	test_decide();
	test_once_per_rtt();
	test_beta();
	test_ai();
	test_srtt();
	test_windows(0);
	test_windows(U32_MAX - 50000000);	/* across the u32 us wrap */
	test_window_policy();
	test_window_hold();
	test_classify();
	test_classify_floor();
	test_ss_exit();
	test_beta_ref();
	test_squeeze();
	test_phase_high_speed();
	test_phase_compete();
	test_phase_safe();
	test_phase_changes();
	test_phase_track();
	test_phase_hold();
	test_loss_intervals();
	test_budget();
	test_info();
	return tap_done();
}
