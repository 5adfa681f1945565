// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of rapid_pathchirp.h: RAPID's p-stream analysis (PathChirp's
 * excursions plus RAPID's rules), its robustness rules, the feedback option
 * codec and the plausibility bound.
 *
 * Expectations come from hand-worked delay sequences, from an independent
 * double-precision re-implementation of the excursion algorithm written from
 * the notes (ref_estimate() below), and from a fluid model of a single
 * bottleneck (capacity C, cross traffic X, avail-bw A = C - X) that the
 * p-streams of a double-precision geometric schedule pass through.
 */
#include <math.h>
#include <string.h>

#include "tap.h"
#include "rapid_pathchirp.h"

static const struct rapid_pc_clock clk_ns = { .tick_ns = 1, .bits = 64 };

#define P_BYTES 1500

/* ------------------------------------------------------------------ */
/* Helpers                                                            */

static int run_stream(const uint64_t *snd, const uint64_t *rcv,
		      const uint32_t *bytes, int n,
		      const struct rapid_pc_params *p,
		      struct rapid_pc_result *res)
{
	struct rapid_pc_obs o;
	int k;

	rapid_pc_obs_init(&o, 7, &clk_ns, &clk_ns);
	for (k = 0; k < n; k++)
		rapid_pc_obs_add(&o, k, snd[k], rcv[k],
				 bytes ? bytes[k] : P_BYTES);
	return rapid_pc_estimate(&o, p, res);
}

/* Geometric send times: gap k = g0 / ratio^k ns (rounded), from t0. */
static void make_chirp(uint64_t *snd, int n, uint64_t t0, double g0,
		       double ratio)
{
	double t = 0;
	int k;

	for (k = 0; k < n; k++) {
		snd[k] = t0 + (uint64_t)llround(t);
		t += g0 / pow(ratio, k);
	}
}

/* Rate of gap k (bytes/s) in double, from integer send times. */
static double rate_of(const uint64_t *snd, int k, double bytes)
{
	return bytes * 1e9 / (double)(snd[k + 1] - snd[k]);
}

/*
 * Independent reference of the notes' algorithm (PathChirp steps 1-6 plus
 * RAPID's rules), in double precision.  q in any unit, R in bytes/s, dt
 * the send gaps.  Returns the rule.
 */
struct ref_out {
	double d, abest;
	int rule, open, nvalid;
	int mark[RAPID_PSTREAM_MAX];
};

static int ref_estimate(const double *q, const double *R, const double *dt,
			int n, double F, int L, double noise,
			struct ref_out *out)
{
	double E[RAPID_PSTREAM_MAX], num = 0, den = 0;
	int i, j, k, open = -1;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n - 1;) {
		double mx = 0, dh;
		int end = -1, h;

		if (!(q[i + 1] - q[i] > 0)) {
			i++;
			continue;
		}
		for (j = i + 1; j < n; j++) {
			if (q[j] - q[i] > mx)
				mx = q[j] - q[i];
			if (q[j] - q[i] < mx / F) {
				end = j;
				break;
			}
		}
		/* the floor bounds the height of a rise */
		if (!(mx > noise)) {
			if (end < 0)
				break;
			i = end;
			continue;
		}
		/* the start: last packet before the floor within 1/F of it */
		for (h = i + 1; !(q[h] - q[i] > noise); h++)
			;
		dh = q[h] - q[i];
		for (k = h - 1; k > i; k--)
			if (q[k] - q[i] <= dh / F)
				break;
		i = k;
		if (end < 0) {
			open = i;
			break;
		}
		if (end - i >= L) {
			out->nvalid++;
			for (k = i; k <= end - 1; k++)
				if (q[k + 1] - q[k] > 0)
					out->mark[k] = 1;
		}
		i = end;
	}
	for (k = 0; k < n - 1; k++) {
		if (open >= 0 && k >= open)
			E[k] = R[open];
		else if (out->mark[k])
			E[k] = R[k];
		else
			E[k] = open >= 0 ? R[open] : R[n - 2];
		num += E[k] * dt[k];
		den += dt[k];
	}
	out->d = num / den;
	out->open = open;
	if (open == 0) {
		out->rule = RAPID_PC_RULE_EARLY_TREND;
		out->abest = R[0] / 2;
	} else if (!out->nvalid && (open < 0 || open == n - 2)) {
		out->rule = RAPID_PC_RULE_NO_TREND;
		out->abest = R[n - 2];
	} else {
		out->rule = RAPID_PC_RULE_EXCURSION;
		out->abest = out->d;
	}
	return out->rule;
}

/* Reference from integer stamps (q in ns, exact in double). */
static int ref_from_stamps(const uint64_t *snd, const uint64_t *rcv,
			   const uint32_t *bytes, int n, double F, int L,
			   double noise, struct ref_out *out)
{
	double q[RAPID_PSTREAM_MAX], R[RAPID_PSTREAM_MAX], dt[RAPID_PSTREAM_MAX];
	int k;

	for (k = 0; k < n; k++)
		q[k] = (double)(int64_t)((rcv[k] - rcv[0]) - (snd[k] - snd[0]));
	for (k = 0; k < n - 1; k++) {
		dt[k] = (double)(snd[k + 1] - snd[k]);
		R[k] = (bytes ? bytes[k] : P_BYTES) * 1e9 / dt[k];
	}
	return ref_estimate(q, R, dt, n, F, L, noise, out);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(double *v, int n, double p)
{
	int i;

	qsort(v, n, sizeof(*v), cmp_double);
	i = (int)ceil(p * n) - 1;
	if (i < 0)
		i = 0;
	return v[i];
}

/* ------------------------------------------------------------------ */
/* Arithmetic helpers                                                 */

static uint64_t lcg_state = 0x2545F4914F6CDD1DULL;

static uint64_t rnd64(void)
{
	/* xorshift64* */
	lcg_state ^= lcg_state >> 12;
	lcg_state ^= lcg_state << 25;
	lcg_state ^= lcg_state >> 27;
	return lcg_state * 0x2545F4914F6CDD1DULL;
}

static double rnd01(void)
{
	return (double)(rnd64() >> 11) / 9007199254740992.0;
}

static void test_mul_div(void)
{
	int i, bad = 0;

	tap_eq(rapid_pc_mul_div(3, 5, 2), 7, "mul_div: 3*5/2 = 7");
	tap_ok(rapid_pc_mul_div(1, 1, 0) == U64_MAX, "mul_div: /0 saturates");
	tap_ok(rapid_pc_mul_div(U64_MAX, U64_MAX, U64_MAX) == U64_MAX,
	       "mul_div: max*max/max = max");
	tap_ok(rapid_pc_mul_div(U64_MAX, 2, 3) ==
	       (uint64_t)(((unsigned __int128)U64_MAX * 2) / 3),
	       "mul_div: 128-bit intermediate");
	tap_ok(rapid_pc_mul_div(U64_MAX, 2, 1) == U64_MAX,
	       "mul_div: quotient overflow saturates");
	for (i = 0; i < 200000; i++) {
		uint64_t a = rnd64() >> (rnd64() % 64);
		uint64_t b = rnd64() >> (rnd64() % 64);
		uint64_t c = (rnd64() >> (rnd64() % 64)) | 1;
		unsigned __int128 w = (unsigned __int128)a * b / c;
		uint64_t want = w >> 64 ? U64_MAX : (uint64_t)w;

		if (rapid_pc_mul_div(a, b, c) != want)
			bad++;
	}
	tap_eq(bad, 0, "mul_div: 200000 random triples match __int128");
	tap_eq(rapid_pc_fls64(0), 0, "fls64(0)");
	tap_eq(rapid_pc_fls64(1), 1, "fls64(1)");
	tap_eq(rapid_pc_fls64(1ULL << 63), 64, "fls64(2^63)");
}

/* ------------------------------------------------------------------ */
/* Hand-made delay sequences                                          */

#define HN 20

/*
 * Build a 20-packet stream with send gap k = 100 us / 1.1^k and the given
 * relative queuing delays (ns): rcv_k = snd_k + 1 ms + q_k.
 */
static void hand_stream(const int64_t *q, uint64_t *snd, uint64_t *rcv)
{
	int k;

	make_chirp(snd, HN, 1000000, 100000, 1.1);
	for (k = 0; k < HN; k++)
		rcv[k] = snd[k] + 1000000 + q[k];
}

/* D of the notes for a given set of marked gaps and fill rate index. */
static double hand_d(const uint64_t *snd, const int *marked, int fill)
{
	double num = 0, den = 0;
	int k;

	for (k = 0; k < HN - 1; k++) {
		double dt = (double)(snd[k + 1] - snd[k]);
		double e = marked[k] ? rate_of(snd, k, P_BYTES) :
				       rate_of(snd, fill, P_BYTES);
		num += e * dt;
		den += dt;
	}
	return num / den;
}

static void test_hand(void)
{
	struct rapid_pc_params p;
	struct rapid_pc_result r;
	uint64_t snd[HN], rcv[HN];
	int marked[HN] = { 0 };
	double want;
	int rule, k;

	rapid_pc_params_init(&p);
	p.recv_gap_min_ns = 0;
	p.f_milli = RAPID_PC_F_PATHCHIRP;	/* the cases are PathChirp's */
	p.q_noise_ns = 0;

	/* A: flat until packet 5, rising to the end: open excursion at l=4 */
	{
		int64_t q[HN] = { 0, 0, 0, 0, 0, 10, 30, 60, 100, 150, 210,
				  280, 360, 450, 550, 660, 780, 910, 1050, 1200 };
		hand_stream(q, snd, rcv);
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(rule, RAPID_PC_RULE_EXCURSION, "hand A: open excursion rule");
		tap_eq(r.open_start, 4, "hand A: open excursion starts at gap 4");
		tap_near(r.abest, rate_of(snd, 4, P_BYTES), 1,
			 "hand A: ABest = R_4 (E_k = R_l everywhere)");
		tap_eq(r.excursions, 0, "hand A: no closed excursion");
	}
	/* B: one excursion 1..7 ends by F at j=7 (20 < 50/1.5), length 6 */
	{
		int64_t q[HN] = { 0, 0, 10, 20, 30, 40, 50, 20, 0, 0, 0, 0, 0,
				  0, 0, 0, 0, 0, 0, 0 };
		hand_stream(q, snd, rcv);
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		memset(marked, 0, sizeof(marked));
		for (k = 1; k <= 5; k++)
			marked[k] = 1;
		want = hand_d(snd, marked, HN - 2);
		tap_eq(rule, RAPID_PC_RULE_EXCURSION, "hand B: excursion rule");
		tap_eq(r.excursions, 1, "hand B: one valid excursion");
		tap_eq(r.marked[0], 0x3eULL, "hand B: gaps 1..5 marked");
		tap_eq(r.open_start, RAPID_PC_NONE, "hand B: nothing open");
		tap_near(r.abest, want, 3, "hand B: D by hand");
	}
	/* C: same shape but length 4 (< L = 5): invalid, so no trend */
	{
		int64_t q[HN] = { 0, 0, 10, 20, 30, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				  0, 0, 0, 0, 0, 0 };
		hand_stream(q, snd, rcv);
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(rule, RAPID_PC_RULE_NO_TREND, "hand C: short excursion ignored");
		tap_near(r.abest, rate_of(snd, HN - 2, P_BYTES), 1,
			 "hand C: ABest = r_{N-1}");
		tap_eq(r.marked[0], 0, "hand C: nothing marked");
		/* ... and valid with L = 4 */
		p.min_excursion = 4;
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(rule, RAPID_PC_RULE_EXCURSION, "hand C: valid with L = 4");
		tap_eq(r.marked[0], 0xeULL, "hand C: L=4 marks gaps 1..3");
		p.min_excursion = RAPID_PC_L_DEFAULT;
	}
	/*
	 * D: the F boundary is strict.  i=1, max 30 at 4; 20 == 30/1.5 does not
	 * end it, 19 at packet 6 does (j=6, length 5: valid).
	 */
	{
		int64_t q[HN] = { 0, 0, 10, 20, 30, 20, 19, 0, 0, 0, 0, 0, 0,
				  0, 0, 0, 0, 0, 0, 0 };
		hand_stream(q, snd, rcv);
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(rule, RAPID_PC_RULE_EXCURSION, "hand D: ends at 19, not 20");
		tap_eq(r.marked[0], 0xeULL, "hand D: increases 1..3 marked");
		/* with F = 1.4, 20 < 30/1.4 ends it at j=5: length 4, invalid */
		p.f_milli = 1400;
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(rule, RAPID_PC_RULE_NO_TREND, "hand D: F=1.4 ends it early");
		p.f_milli = RAPID_PC_F_PATHCHIRP;
	}
	/*
	 * E: two valid excursions, then an open one at gap 15.
	 * 1: i=0? no: q0=q1.  i=1 .. ends j=7 (length 6): marks 1,2,4,5
	 *    (q3 = q4 not an increase).  Next from 7: i=8 (q8 < q9) .. ends
	 *    j=14 (length 6): marks 8..12 minus 11.  Open at 15.
	 */
	{
		int64_t q[HN] = { 0, 0, 40, 80, 80, 120, 160, 30, 30, 70, 110,
				  150, 150, 190, 40, 40, 60, 80, 100, 120 };
		hand_stream(q, snd, rcv);
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		memset(marked, 0, sizeof(marked));
		marked[1] = marked[2] = marked[4] = marked[5] = 1;
		marked[8] = marked[9] = marked[10] = marked[12] = 1;
		for (k = 15; k < HN - 1; k++)
			marked[k] = 0;	/* E_k = R_l there */
		want = hand_d(snd, marked, 15);
		tap_eq(rule, RAPID_PC_RULE_EXCURSION, "hand E: excursion rule");
		tap_eq(r.excursions, 2, "hand E: two valid excursions");
		tap_eq(r.open_start, 15, "hand E: open excursion at 15");
		tap_eq(r.marked[0], 0x1736ULL, "hand E: marked gaps");
		tap_near(r.abest, want, 3, "hand E: D by hand");
	}
	/* F: rising from packet 0: trend from the first packet, r_1 / 2 */
	{
		int64_t q[HN];

		for (k = 0; k < HN; k++)
			q[k] = 7 * k * k;
		hand_stream(q, snd, rcv);
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(rule, RAPID_PC_RULE_EARLY_TREND, "hand F: early trend");
		tap_near(r.abest, rate_of(snd, 0, P_BYTES) / 2, 1,
			 "hand F: ABest = r_1 / 2");
		tap_near(r.pathchirp, rate_of(snd, 0, P_BYTES), 1,
			 "hand F: PathChirp alone says r_1");
	}
	/* G: rising from packet 1 (q_1 < q_2): r_2, not the early rule */
	{
		int64_t q[HN];

		for (k = 0; k < HN; k++)
			q[k] = k < 2 ? 0 : 9 * (k - 1) * (k - 1);
		hand_stream(q, snd, rcv);
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(rule, RAPID_PC_RULE_EXCURSION, "hand G: trend from packet 3");
		tap_near(r.abest, rate_of(snd, 1, P_BYTES), 1, "hand G: ABest = r_2");
	}
	/* H: all equal, strictly decreasing: no trend, top rate */
	{
		int64_t q[HN] = { 0 };

		hand_stream(q, snd, rcv);
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(rule, RAPID_PC_RULE_NO_TREND, "hand H: all equal: no trend");
		tap_near(r.abest, rate_of(snd, HN - 2, P_BYTES), 1,
			 "hand H: ABest = r_{N-1}");
		tap_eq(r.abest, r.top_rate, "hand H: last rate is the top rate");
		for (k = 0; k < HN; k++)
			q[k] = 5000 - 100 * k;
		hand_stream(q, snd, rcv);
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(rule, RAPID_PC_RULE_NO_TREND, "hand H: decreasing: no trend");
		tap_near(r.abest, rate_of(snd, HN - 2, P_BYTES), 1,
			 "hand H: decreasing: ABest = r_{N-1}");
	}
	/* I: one uptick on the last gap: open at n-2, still "no trend" */
	{
		int64_t q[HN] = { 0 };

		q[HN - 1] = 50;
		hand_stream(q, snd, rcv);
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(rule, RAPID_PC_RULE_NO_TREND, "hand I: last-gap uptick");
		tap_eq(r.open_start, HN - 2, "hand I: open at n-2");
		tap_near(r.abest, rate_of(snd, HN - 2, P_BYTES), 1,
			 "hand I: ABest = r_{N-1}");
	}
	/* J: a closed excursion reaching to the end without ending is open */
	{
		int64_t q[HN] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				  100, 200, 300, 250, 210 };
		hand_stream(q, snd, rcv);
		rule = run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(r.open_start, 14, "hand J: 210 >= 300/1.5: still open");
		tap_near(r.abest, rate_of(snd, 14, P_BYTES), 1,
			 "hand J: ABest = R_14");
	}
	/* K: payload sizes: R_k uses the packet before the gap */
	{
		int64_t q[HN] = { 0 };
		uint32_t by[HN];

		for (k = 0; k < HN; k++)
			by[k] = 1000 + k;
		by[HN - 1] = 1;		/* short last packet: not used */
		hand_stream(q, snd, rcv);
		rule = run_stream(snd, rcv, by, HN, &p, &r);
		tap_near(r.abest, rate_of(snd, HN - 2, 1000 + HN - 2), 1,
			 "hand K: rate of last gap uses bytes of packet n-2");
	}
	/*
	 * L: noise floor.  q jitters 0/300 up to packet 11, then rises by
	 * 1000 per packet.  Exact: the open excursion starts at 10 (0 < 300);
	 * with q_noise_ns = 300 the 0/300 bumps are no rise (not above the
	 * floor), and the trend starts at 11, the last packet within 1/F
	 * (F = 1.5) of its first height above the floor (1000 - 0).
	 */
	{
		int64_t q[HN];

		for (k = 0; k < HN; k++)
			q[k] = k < 12 ? (k % 2) * 300 : 1000 * (k - 11);
		hand_stream(q, snd, rcv);
		run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(r.open_start, 10, "hand L: exact: open at 10");
		tap_near(r.abest, rate_of(snd, 10, P_BYTES), 1, "hand L: R_10");
		p.q_noise_ns = 300;
		run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(r.open_start, 11, "hand L: noise 300: open at 11");
		tap_near(r.abest, rate_of(snd, 11, P_BYTES), 1, "hand L: R_11");
		p.q_noise_ns = 299;
		run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(r.open_start, 10, "hand L: noise 299: open at 10");
		p.q_noise_ns = 0;
	}
	/*
	 * M: the floor bounds a rise's height, not its steps.  Even gaps of
	 * 4000 ns (3 Gbit/s of 1500-byte packets), q rising by 500 ns per
	 * packet from packet 10 on: below q_noise_ns = 1000 at every step (a
	 * per-step floor saw no trend), above it in two.
	 */
	{
		uint64_t s2[HN], r2[HN];

		make_chirp(s2, HN, 1000000, 4000, 1.0);
		for (k = 0; k < HN; k++)
			r2[k] = s2[k] + 1000000 + (k <= 10 ? 0 : 500 * (k - 10));
		p.f_milli = 6000;	/* the start: within 1/6 of the height */
		p.q_noise_ns = 1000;
		run_stream(s2, r2, NULL, HN, &p, &r);
		tap_eq(r.open_start, 10, "hand M: 500-ns steps, floor 1000: open at 10");
		/* a ramp to exactly the floor, then flat: no queue */
		for (k = 0; k < HN; k++)
			r2[k] = s2[k] + 1000000 +
				(k <= 10 ? 0 : k >= 15 ? 1000 : 200 * (k - 10));
		run_stream(s2, r2, NULL, HN, &p, &r);
		tap_eq(r.rule, RAPID_PC_RULE_NO_TREND,
		       "hand M: a rise to the floor and no higher is no trend");
		p.q_noise_ns = 999;
		run_stream(s2, r2, NULL, HN, &p, &r);
		tap_eq(r.open_start, 10, "hand M: ... one above it is (floor 999)");
		p.q_noise_ns = 0;
		p.f_milli = RAPID_PC_F_PATHCHIRP;
	}
	/*
	 * N: the start of a rise behind jitter.  F = 6; q is 0 up to packet
	 * 4, then 300/100 jitter (never back below 0 + maxq / F: the walk
	 * from 4 survives), then from packet 10 on 300 + 1000 per packet.
	 * PathChirp (no floor) opens at 4; with q_noise_ns = 1000 the rise
	 * first exceeds the floor at 10 (1300), and the last packet within
	 * 1300 / 6 of q_4 is 8 (100): open at 8.
	 */
	{
		int64_t q[HN];

		for (k = 0; k < HN; k++)
			q[k] = k <= 4 ? 0 : k < 10 ? (k % 2 ? 300 : 100) :
			       300 + 1000 * (k - 9);
		hand_stream(q, snd, rcv);
		p.f_milli = 6000;
		run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(r.open_start, 4, "hand N: no floor: open at 4");
		p.q_noise_ns = 1000;
		run_stream(snd, rcv, NULL, HN, &p, &r);
		tap_eq(r.open_start, 8, "hand N: floor 1000: open at 8");
		tap_near(r.abest, rate_of(snd, 8, P_BYTES), 1, "hand N: R_8");
		p.q_noise_ns = 0;
		p.f_milli = RAPID_PC_F_PATHCHIRP;
	}
}

/* Random delay patterns against the double reference. */
static void test_random_vs_ref(void)
{
	struct rapid_pc_params p;
	struct rapid_pc_result r;
	struct ref_out ref;
	uint64_t snd[RAPID_PSTREAM_MAX], rcv[RAPID_PSTREAM_MAX];
	int it, k, rule_bad = 0, val_bad = 0, mark_bad = 0, seen[4] = { 0 };

	rapid_pc_params_init(&p);
	p.recv_gap_min_ns = 0;
	for (it = 0; it < 20000; it++) {
		int n = 3 + (int)(rnd64() % (RAPID_PSTREAM_MAX - 2));
		int style = (int)(rnd64() % 4);
		double ratio = 1.0 + 0.2 * rnd01(), g0 = 20000 + 2e6 * rnd01();
		int64_t q = 0;

		/* keep the last send gap >= 5 us: receive order stays intact */
		if (ratio > pow(g0 / 5000, 1.0 / (n - 1)))
			ratio = pow(g0 / 5000, 1.0 / (n - 1));

		p.f_milli = 1000 + (uint32_t)(rnd64() % 2000);
		p.min_excursion = 1 + (uint32_t)(rnd64() % 8);
		p.q_noise_ns = it % 3 ? 0 : (uint32_t)(rnd64() % 400);
		make_chirp(snd, n, rnd64(), g0, ratio);
		for (k = 0; k < n; k++) {
			switch (style) {
			case 0:	/* random walk */
				q += (int64_t)(rnd64() % 2001) - 1000;
				break;
			case 1:	/* flat then rising */
				if (k > n / 3)
					q += (int64_t)(rnd64() % 500);
				break;
			case 2:	/* bursts: up-ramps and drops */
				q = (k % 9 < 6) ? q + (int64_t)(rnd64() % 300) :
						  q / 3;
				break;
			default: /* small integer noise, many ties */
				q = (int64_t)(rnd64() % 3);
				break;
			}
			rcv[k] = snd[k] + 5000000 + (uint64_t)q;
		}
		run_stream(snd, rcv, NULL, n, &p, &r);
		ref_from_stamps(snd, rcv, NULL, n, p.f_milli / 1000.0,
				(int)p.min_excursion, p.q_noise_ns, &ref);
		seen[ref.rule]++;
		if (r.rule != ref.rule)
			rule_bad++;
		else if (r.abest > ref.abest + 1e-9 * ref.abest ||
			 r.abest < ref.abest - 3 - 1e-9 * ref.abest) {
			if (val_bad++ < 5)
				tap_diag("n %d rule %d got %llu want %.3f pc %llu refd %.3f open %d style %d",
					 n, r.rule, (unsigned long long)r.abest, ref.abest,
					 (unsigned long long)r.pathchirp, ref.d, ref.open, style);
		}
		for (k = 0; k < n - 1; k++)
			if (!!(r.marked[k / 64] & (1ULL << (k % 64))) !=
			    (ref.mark[k] && (ref.open < 0 || k < ref.open)))
				mark_bad++;
	}
	tap_eq(rule_bad, 0, "random: rule matches the reference (20000 streams)");
	tap_eq(val_bad, 0, "random: ABest = reference rounded down by <= 3 B/s");
	tap_eq(mark_bad, 0, "random: marked gaps match the reference");
	tap_ok(seen[1] && seen[2] && seen[3],
	       "random: all three rules exercised (%d/%d/%d)", seen[1], seen[2],
	       seen[3]);
}

/* ------------------------------------------------------------------ */
/* Stream sizes, params, loss, reordering, clocks                     */

static void test_sizes(void)
{
	struct rapid_pc_params p;
	struct rapid_pc_result r;
	struct rapid_pc_obs o;
	uint64_t snd[4], rcv[4];
	int rule;

	rapid_pc_params_init(&p);
	make_chirp(snd, 4, 100, 10000, 1.5);
	rcv[0] = 500;
	rcv[1] = rcv[0] + (snd[1] - snd[0]) + 100;	/* q rises: 0, 100 */
	rcv[2] = rcv[1] + (snd[2] - snd[1]) + 100;
	rcv[3] = rcv[2] + (snd[3] - snd[2]) + 100;

	rapid_pc_obs_init(&o, 1, &clk_ns, &clk_ns);
	rule = rapid_pc_estimate(&o, &p, &r);
	tap_eq(rule, RAPID_PC_RULE_INVALID, "sizes: empty stream: no estimate");
	tap_eq(r.abest, 0, "sizes: empty stream: ABest 0");
	tap_eq(run_stream(snd, rcv, NULL, 1, &p, &r), RAPID_PC_RULE_INVALID,
	       "sizes: one packet: no estimate");
	tap_eq(run_stream(snd, rcv, NULL, 2, &p, &r), RAPID_PC_RULE_INVALID,
	       "sizes: two packets: no estimate (min_pkts 3)");
	tap_eq(run_stream(snd, rcv, NULL, 3, &p, &r),
	       RAPID_PC_RULE_EARLY_TREND, "sizes: three rising: early trend");
	tap_near(r.abest, rate_of(snd, 0, P_BYTES) / 2, 1,
		 "sizes: three rising: r_1 / 2");
	p.min_pkts = 2;
	tap_eq(run_stream(snd, rcv, NULL, 2, &p, &r),
	       RAPID_PC_RULE_EARLY_TREND, "sizes: min_pkts 2: 2 rising: r_1/2");
	rcv[1] = rcv[0] + (snd[1] - snd[0]);
	tap_eq(run_stream(snd, rcv, NULL, 2, &p, &r), RAPID_PC_RULE_NO_TREND,
	       "sizes: min_pkts 2: 2 flat: no trend (slow start N = 2)");
	tap_near(r.abest, rate_of(snd, 0, P_BYTES), 1,
		 "sizes: min_pkts 2: 2 flat: ABest = r_1");

	/* invalid parameters refuse to estimate */
	p.min_pkts = 1;
	tap_ok(!rapid_pc_params_valid(&p), "params: min_pkts 1 invalid");
	tap_eq(run_stream(snd, rcv, NULL, 4, &p, &r), RAPID_PC_RULE_INVALID,
	       "params: invalid params: no estimate");
	rapid_pc_params_init(&p);
	tap_ok(rapid_pc_params_valid(&p), "params: defaults valid");
	p.f_milli = 999;
	tap_ok(!rapid_pc_params_valid(&p), "params: F < 1 invalid");
	p.f_milli = RAPID_PC_F_MAX + 1;
	tap_ok(!rapid_pc_params_valid(&p), "params: F too large invalid");
	rapid_pc_params_init(&p);
	p.min_excursion = 0;
	tap_ok(!rapid_pc_params_valid(&p), "params: L 0 invalid");
	rapid_pc_params_init(&p);
	p.recv_gap_min_ns = RAPID_PC_RECV_GAP_MIN_NS_MAX + 1;
	tap_ok(!rapid_pc_params_valid(&p), "params: gap threshold too big");

	tap_diag("sizeof(struct rapid_pc_obs) = %zu bytes, rapid_pc_result %zu,"
		 " rapid_pc_ctx (stack) %zu", sizeof(struct rapid_pc_obs),
		 sizeof(struct rapid_pc_result), sizeof(struct rapid_pc_ctx));
	tap_ok(sizeof(struct rapid_pc_obs) <= RAPID_PC_OBS_SIZE_MAX,
	       "sizes: rapid_pc_obs within RAPID_PC_OBS_SIZE_MAX");
}

/* A chirp with an increasing trend from gap 20: used by the loss tests. */
static void loss_stream(uint64_t *snd, uint64_t *rcv, int n)
{
	int k;

	make_chirp(snd, n, 1000, 200000, 1.07);
	for (k = 0; k < n; k++)
		rcv[k] = snd[k] + 300000 + (k > 20 ? 1000 * (k - 20) * (k - 20) : 0);
}

static void test_loss(void)
{
	struct rapid_pc_params p;
	struct rapid_pc_result r, full;
	struct rapid_pc_obs o;
	struct rapid_pc_pkt pk[30];
	uint64_t snd[30], rcv[30];
	int k, rule, ret;

	rapid_pc_params_init(&p);
	loss_stream(snd, rcv, 30);
	run_stream(snd, rcv, NULL, 30, &p, &full);
	tap_eq(full.rule, RAPID_PC_RULE_EXCURSION, "loss: complete stream");
	tap_eq(full.open_start, 20, "loss: complete stream: trend at gap 20");

	/* packet 26 lost: prefix 0..25 keeps the trend at 20 (5 gaps = L) */
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	for (k = 0; k < 30; k++) {
		if (k == 26)
			continue;
		ret = rapid_pc_obs_add(&o, k, snd[k], rcv[k], P_BYTES);
		if (k == 27)
			tap_eq(ret, RAPID_PC_ADD_STOPPED, "loss: hole stops at 27");
		if (k == 28)
			tap_eq(ret, RAPID_PC_ADD_IGNORED, "loss: later ignored");
	}
	rule = rapid_pc_estimate(&o, &p, &r);
	tap_eq(r.pkts, 26, "loss: prefix of 26 packets analysed");
	tap_ok(r.stop & RAPID_PC_STOP_LOSS, "loss: stop reason loss");
	tap_eq(rule, RAPID_PC_RULE_EXCURSION, "loss: prefix still has the trend");
	tap_eq(r.abest, full.abest, "loss: prefix gives the same ABest");

	/*
	 * packet 23 lost: the prefix ends in a rise of 2 gaps (20, 21), shorter
	 * than L: not trusted as a trend (it may have been about to end), so
	 * the prefix reads as no trend, a lower bound: the top rate it saw
	 */
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	for (k = 0; k < 23; k++)
		rapid_pc_obs_add(&o, k, snd[k], rcv[k], P_BYTES);
	rapid_pc_obs_stop(&o, RAPID_PC_STOP_LOSS);
	rule = rapid_pc_estimate(&o, &p, &r);
	tap_eq(rule, RAPID_PC_RULE_NO_TREND, "loss: a short rise at the cut is not a trend");
	tap_eq(r.open_start, RAPID_PC_NONE, "loss: ... no open excursion");
	tap_ok(r.abest > full.abest, "loss: ... so the lower bound lies above the trend's ABest");
	/* the same short rise at the end of a complete stream is a trend */
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	for (k = 0; k < 23; k++)
		rapid_pc_obs_add(&o, k, snd[k], rcv[k], P_BYTES);
	rule = rapid_pc_estimate(&o, &p, &r);
	tap_eq(rule, RAPID_PC_RULE_EXCURSION, "loss: the same rise ending a complete stream is a trend");

	/* loss at 10 (before the trend): prefix has no trend: r_10 */
	for (k = 0; k < 30; k++) {
		pk[k].snd = snd[k];
		pk[k].rcv = rcv[k];
		pk[k].bytes = P_BYTES;
		pk[k].flags = k == 10 ? RAPID_PC_PKT_LOST : 0;
	}
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	rapid_pc_obs_load(&o, pk, 30);
	rule = rapid_pc_estimate(&o, &p, &r);
	tap_eq(r.pkts, 10, "loss: flag at 10: 10 packets");
	tap_eq(rule, RAPID_PC_RULE_NO_TREND, "loss: early loss: no trend");
	tap_near(r.abest, rate_of(snd, 8, P_BYTES), 1,
		 "loss: early loss: top rate of the prefix (r_9)");

	/* reordered flag at 2: prefix of 2 < min_pkts: no estimate */
	pk[10].flags = 0;
	pk[2].flags = RAPID_PC_PKT_REORDERED;
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	rapid_pc_obs_load(&o, pk, 30);
	rule = rapid_pc_estimate(&o, &p, &r);
	tap_eq(rule, RAPID_PC_RULE_INVALID, "reorder: flag at 2: no estimate");
	tap_ok(r.stop & RAPID_PC_STOP_REORDER, "reorder: stop reason");

	/* packet 0 lost: nothing to refer to */
	pk[2].flags = 0;
	pk[0].flags = RAPID_PC_PKT_LOST;
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	rapid_pc_obs_load(&o, pk, 30);
	tap_eq(rapid_pc_estimate(&o, &p, &r), RAPID_PC_RULE_INVALID,
	       "loss: packet 0 lost: no estimate");

	/* arrival order 0..14, 16, 15, ...: 16 before 15 stops at 15 */
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	for (k = 0; k < 15; k++)
		rapid_pc_obs_add(&o, k, snd[k], rcv[k], P_BYTES);
	rapid_pc_obs_add(&o, 16, snd[16], rcv[16], P_BYTES);
	rapid_pc_obs_add(&o, 15, snd[15], rcv[15], P_BYTES);
	rapid_pc_estimate(&o, &p, &r);
	tap_eq(r.pkts, 15, "reorder: 16 before 15: prefix 15");

	/* receive clock going backwards is reordering */
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	for (k = 0; k < 12; k++)
		rapid_pc_obs_add(&o, k, snd[k], k == 8 ? rcv[7] - 1 : rcv[k],
				 P_BYTES);
	rapid_pc_estimate(&o, &p, &r);
	tap_eq(r.pkts, 8, "reorder: receive stamp backwards: prefix 8");
	tap_ok(r.stop & RAPID_PC_STOP_REORDER, "reorder: receive stamp reason");

	/* send time not increasing */
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	for (k = 0; k < 12; k++)
		rapid_pc_obs_add(&o, k, k == 6 ? snd[5] : snd[k], rcv[k],
				 P_BYTES);
	rapid_pc_estimate(&o, &p, &r);
	tap_eq(r.pkts, 6, "clock: equal send stamps: prefix 6");
	tap_ok(r.stop & RAPID_PC_STOP_CLOCK, "clock: reason");

	/* duplicates are ignored and do not stop the stream */
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	for (k = 0; k < 30; k++) {
		rapid_pc_obs_add(&o, k, snd[k], rcv[k], P_BYTES);
		if (k == 12)
			tap_eq(rapid_pc_obs_add(&o, 5, snd[5], rcv[12] + 1, P_BYTES),
			       RAPID_PC_ADD_DUP, "dup: duplicate flagged");
	}
	rapid_pc_estimate(&o, &p, &r);
	tap_eq(r.abest, full.abest, "dup: same answer as without the duplicate");
	tap_eq(r.stop, 0, "dup: not truncated");

	/* bad payloads */
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	for (k = 0; k < 10; k++)
		rapid_pc_obs_add(&o, k, snd[k], rcv[k], k == 7 ? 0 : P_BYTES);
	rapid_pc_estimate(&o, &p, &r);
	tap_eq(r.pkts, 7, "bytes: zero payload stops");
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	for (k = 0; k < 10; k++)
		rapid_pc_obs_add(&o, k, snd[k], rcv[k], k == 4 ? 65536 : 65535);
	rapid_pc_estimate(&o, &p, &r);
	tap_eq(r.pkts, 4, "bytes: > 65535 stops");
	tap_ok(r.stop & RAPID_PC_STOP_BYTES, "bytes: reason");

	/*
	 * Merged arrivals (GRO/LRO): packet 9 arrives as two segments in one
	 * skb.  It is not recorded (its time is the merge's), the stream
	 * stops there and the estimate comes from the prefix 0..8, the same
	 * as a stream cut after packet 8; one segment (or 0: not offloaded)
	 * is an ordinary packet.
	 */
	{
		struct rapid_pc_result pre;

		rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
		for (k = 0; k < 9; k++)
			rapid_pc_obs_add(&o, k, snd[k], rcv[k], P_BYTES);
		rapid_pc_estimate(&o, &p, &pre);
		rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
		for (k = 0; k < 30; k++) {
			ret = rapid_pc_obs_add_segs(&o, k, snd[k], rcv[k],
						    k == 9 ? 2 * P_BYTES : P_BYTES,
						    k == 9 ? 2 : k % 2);
			if (k == 9)
				tap_eq(ret, RAPID_PC_ADD_STOPPED,
				       "merged: the merged arrival stops the stream");
		}
		rapid_pc_estimate(&o, &p, &r);
		tap_eq(r.pkts, 9, "merged: the prefix before it (9 packets)");
		tap_eq(r.stop, RAPID_PC_STOP_MERGED, "merged: reason");
		tap_eq(r.abest, pre.abest, "merged: the prefix's estimate");
		rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
		for (k = 0; k < 30; k++)
			rapid_pc_obs_add_segs(&o, k, snd[k], rcv[k], P_BYTES,
					      k % 2);
		rapid_pc_estimate(&o, &p, &r);
		tap_eq(r.abest, full.abest, "merged: segs 0/1 are single packets");
		tap_eq(r.stop, 0, "merged: ... and do not stop");
		/* a duplicate of a recorded index stays a duplicate */
		tap_eq(rapid_pc_obs_add_segs(&o, 3, snd[3], rcv[29] + 1,
					     P_BYTES, 2),
		       RAPID_PC_ADD_DUP, "merged: an old index is a duplicate");
	}

	/* overflow: more than RAPID_PSTREAM_MAX packets */
	{
		uint64_t s2[RAPID_PSTREAM_MAX + 2];

		make_chirp(s2, RAPID_PSTREAM_MAX + 2, 0, 100000, 1.001);
		rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
		for (k = 0; k < RAPID_PSTREAM_MAX + 2; k++)
			ret = rapid_pc_obs_add(&o, k, s2[k], s2[k] + 777, 100);
		tap_eq(ret, RAPID_PC_ADD_IGNORED, "full: extra packets ignored");
		rule = rapid_pc_estimate(&o, &p, &r);
		tap_eq(r.pkts, RAPID_PSTREAM_MAX, "full: first MAX analysed");
		tap_ok(r.stop & RAPID_PC_STOP_FULL, "full: reason");
		tap_eq(rule, RAPID_PC_RULE_NO_TREND, "full: flat: no trend");
	}

	/* invalid clocks */
	{
		struct rapid_pc_clock bad = { .tick_ns = 0, .bits = 64 };

		tap_eq(rapid_pc_obs_init(&o, 3, &bad, &clk_ns), -1,
		       "clock: tick 0 refused");
		tap_eq(rapid_pc_obs_add(&o, 0, 1, 1, 100), RAPID_PC_ADD_IGNORED,
		       "clock: refused observation ignores packets");
		bad.tick_ns = 1;
		bad.bits = 8;
		tap_eq(rapid_pc_obs_init(&o, 3, &clk_ns, &bad), -1,
		       "clock: 8-bit counter refused");
	}
}

/* Same stream with wrapped clocks gives the same answer. */
static void test_wrap(void)
{
	struct rapid_pc_clock us32 = { .tick_ns = 1000, .bits = 32 };
	struct rapid_pc_clock ns32 = { .tick_ns = 1, .bits = 32 };
	struct rapid_pc_params p;
	struct rapid_pc_result a, b;
	struct rapid_pc_obs o;
	uint64_t snd[30], rcv[30];
	uint64_t offs[] = { 0, U64_MAX - 2000000, U64_MAX - 50, 1ULL << 63 };
	uint32_t uoffs[] = { 0, U32_MAX - 3000, U32_MAX, 0x7fffffff };
	int i, k;

	rapid_pc_params_init(&p);
	loss_stream(snd, rcv, 30);
	run_stream(snd, rcv, NULL, 30, &p, &a);
	for (i = 0; i < 4; i++) {
		rapid_pc_obs_init(&o, 1, &clk_ns, &clk_ns);
		for (k = 0; k < 30; k++)
			rapid_pc_obs_add(&o, k, snd[k] + offs[i],
					 rcv[k] + offs[3 - i], P_BYTES);
		rapid_pc_estimate(&o, &p, &b);
		tap_ok(b.abest == a.abest && b.rule == a.rule && b.pkts == 30,
		       "wrap: u64 ns clocks offset %d: same answer", i);
	}
	/* 32-bit ns receive counter: wraps every 4.29 s */
	rapid_pc_obs_init(&o, 1, &clk_ns, &ns32);
	for (k = 0; k < 30; k++)
		rapid_pc_obs_add(&o, k, snd[k],
				 (uint32_t)(rcv[k] + U32_MAX - 1000000), P_BYTES);
	rapid_pc_estimate(&o, &p, &b);
	tap_ok(b.abest == a.abest && b.rule == a.rule,
	       "wrap: 32-bit ns receive counter wrapping: same answer");

	/* 32-bit microsecond TSval as the send clock */
	{
		struct rapid_pc_result ref;

		rapid_pc_obs_init(&o, 1, &us32, &clk_ns);
		for (k = 0; k < 30; k++)
			rapid_pc_obs_add(&o, k, (uint32_t)(snd[k] / 1000), rcv[k],
					 P_BYTES);
		rapid_pc_estimate(&o, &p, &ref);
		for (i = 0; i < 4; i++) {
			uint64_t base = snd[0] / 1000;

			rapid_pc_obs_init(&o, 1, &us32, &clk_ns);
			for (k = 0; k < 30; k++)
				rapid_pc_obs_add(&o, k,
						 (uint32_t)(snd[k] / 1000 - base +
							    uoffs[i]),
						 rcv[k], P_BYTES);
			rapid_pc_estimate(&o, &p, &b);
			tap_ok(b.abest == ref.abest && b.rule == ref.rule &&
			       b.pkts == 30,
			       "wrap: 32-bit us TSval from %u: same answer",
			       uoffs[i]);
		}
		tap_ok(ref.rule == a.rule &&
		       fabs((double)ref.abest - a.abest) < 0.05 * a.abest,
		       "wrap: us send clock close to ns (quantisation)");
	}
	/* a send stamp "before" packet 0 (upper half of the range) */
	rapid_pc_obs_init(&o, 1, &us32, &clk_ns);
	rapid_pc_obs_add(&o, 0, 100, 0, P_BYTES);
	rapid_pc_obs_add(&o, 1, 200, 1000, P_BYTES);
	tap_eq(rapid_pc_obs_add(&o, 2, 99, 2000, P_BYTES),
	       RAPID_PC_ADD_STOPPED, "wrap: stamp before packet 0 stops");
}

/* ------------------------------------------------------------------ */
/* Fluid model                                                        */

/* on/off cross traffic: rate x_on during [on_start, on_end) intervals */
struct xtraffic {
	double x_cbr;		/* constant part (bit/s) */
	double x_on;		/* on/off part while on (bit/s) */
	double on_mean, off_mean;	/* mean period lengths (s) */
	double next_switch;	/* time of the next switch (s) */
	int on;
};

static double exp_rand(double mean)
{
	return -mean * log(1.0 - rnd01());
}

/* Advance workload W (s) from t0 to t1 under capacity C (bit/s). */
static double fluid_advance(struct xtraffic *x, double C, double W, double t0,
			    double t1)
{
	while (t0 < t1) {
		double seg_end = t1, rate;

		if (x->x_on > 0 && x->next_switch < t1)
			seg_end = x->next_switch > t0 ? x->next_switch : t0;
		rate = x->x_cbr + (x->on ? x->x_on : 0);
		W += (rate / C - 1.0) * (seg_end - t0);
		if (W < 0)
			W = 0;
		t0 = seg_end;
		if (x->x_on > 0 && seg_end >= x->next_switch) {
			x->on = !x->on;
			x->next_switch += exp_rand(x->on ? x->on_mean : x->off_mean);
		}
	}
	return W;
}

/*
 * One p-stream of N packets (P bytes) with the geometric schedule of RAPID
 * (Eq. 5: r_1 from r_avg, r_i = m^{i-1} r_1) through the bottleneck; send
 * and receive stamps in integer ns.  Returns the workload left.
 */
static double fluid_chirp(double C, struct xtraffic *x, double W,
			  double t_prev, double t_s, double ravg, int N,
			  double m, uint64_t *snd, uint64_t *rcv)
{
	double r1 = (pow(m, N - 1) - 1) / ((N - 1) * (m - 1) * pow(m, N - 2)) *
		    ravg;
	double t = 0, prev = t_prev;
	int k;

	for (k = 0; k < N; k++) {
		double ts;

		snd[k] = (uint64_t)llround(t_s * 1e9 + t);
		ts = snd[k] / 1e9;
		W = fluid_advance(x, C, W, prev, ts);
		prev = ts;
		rcv[k] = snd[k] + (uint64_t)llround((W + P_BYTES * 8 / C) * 1e9 +
						     10e6);
		W += P_BYTES * 8 / C;
		t += P_BYTES * 8 / (r1 * pow(m, k)) * 1e9;
	}
	return W;
}

static void test_fluid_cbr(void)
{
	const double As[] = { 15e6, 30e6, 50e6, 80e6 };
	const double C = 100e6, m = 1.07;
	struct rapid_pc_params p;
	struct rapid_pc_result r;
	int ai, i, N = 30;

	rapid_pc_params_init(&p);
	for (ai = 0; ai < 4; ai++) {
		double A = As[ai], err[200];
		int n_ok = 0, n_exact = 0, n_err = 0, trials = 200;

		for (i = 0; i < trials; i++) {
			struct xtraffic x = { .x_cbr = C - A };
			uint64_t snd[30], rcv[30];
			double u = 0.55 + 1.25 * rnd01();
			double est, Rl = 0;
			int k;

			fluid_chirp(C, &x, 0, 1.0 + 0.001 * i, 1.0 + 0.001 * i, u * A, N, m, snd,
				    rcv);
			run_stream(snd, rcv, NULL, N, &p, &r);
			est = r.abest * 8.0;
			/* exact fluid answer: the first gap faster than A */
			for (k = 0; k < N - 1; k++) {
				if (rate_of(snd, k, P_BYTES) * 8 > A) {
					Rl = rate_of(snd, k, P_BYTES) * 8;
					break;
				}
			}
			if (r.rule == RAPID_PC_RULE_EXCURSION &&
			    est > A && est <= A * m * 1.0001)
				n_ok++;
			if (fabs(est - Rl) <= 8 * 2)
				n_exact++;
			err[n_err++] = fabs(est - A) / A;
		}
		tap_eq(n_ok, trials,
		       "fluid CBR A=%.0f Mbit/s: every estimate in (A, m A]",
		       A / 1e6);
		tap_eq(n_exact, trials,
		       "fluid CBR A=%.0f Mbit/s: estimate = first rate above A",
		       A / 1e6);
		tap_diag("fluid CBR C=100 A=%.0f Mbit/s: %d p-streams (r_avg 0.55..1.8 A):"
			 " median rel err %.2f%%, p90 %.2f%%, max %.2f%%",
			 A / 1e6, n_err, 100 * pct(err, n_err, 0.5),
			 100 * pct(err, n_err, 0.9), 100 * pct(err, n_err, 1.0));
	}

	/* r_avg so high that A < r_1: early trend, r_1 / 2 */
	{
		struct xtraffic x = { .x_cbr = C - 30e6 };
		uint64_t snd[30], rcv[30];

		fluid_chirp(C, &x, 0, 1.0, 1.0, 4 * 30e6, N, m, snd, rcv);
		run_stream(snd, rcv, NULL, N, &p, &r);
		tap_eq(r.rule, RAPID_PC_RULE_EARLY_TREND,
		       "fluid: A below r_1: early trend");
		tap_near(r.abest, rate_of(snd, 0, P_BYTES) / 2, 1,
			 "fluid: A below r_1: r_1 / 2");
		/* r_avg so low that r_{N-1} < A: no trend */
		x.x_cbr = C - 80e6;
		fluid_chirp(C, &x, 0, 1.0, 1.0, 80e6 / 4, N, m, snd, rcv);
		run_stream(snd, rcv, NULL, N, &p, &r);
		tap_eq(r.rule, RAPID_PC_RULE_NO_TREND,
		       "fluid: A above r_{N-1}: no trend");
		tap_near(r.abest, rate_of(snd, N - 2, P_BYTES), 1,
			 "fluid: A above r_{N-1}: r_{N-1}");
	}
}

/*
 * The send clock a 32-bit microsecond TSval (wrapping mid-run), the receive
 * clock ns: quantisation costs at most one more rate step.
 */
static void test_fluid_tsval(void)
{
	const struct rapid_pc_clock us32 = { .tick_ns = 1000, .bits = 32 };
	const double As[] = { 15e6, 30e6, 50e6, 80e6 };
	const double C = 100e6, m = 1.07;
	struct rapid_pc_params p;
	struct rapid_pc_result r;
	struct rapid_pc_obs o;
	int ai, i, k;

	rapid_pc_params_init(&p);
	for (ai = 0; ai < 4; ai++) {
		double A = As[ai], err[200];
		int n_ok = 0, trials = 200;

		for (i = 0; i < trials; i++) {
			struct xtraffic x = { .x_cbr = C - A };
			uint64_t snd[30], rcv[30];
			double u = 0.55 + 1.25 * rnd01(), est;
			uint32_t base = U32_MAX - (uint32_t)(rnd64() % 20000);

			fluid_chirp(C, &x, 0, 1.0 + 0.001 * i, 1.0 + 0.001 * i,
				    u * A, 30, m, snd, rcv);
			rapid_pc_obs_init(&o, 1, &us32, &clk_ns);
			for (k = 0; k < 30; k++)
				rapid_pc_obs_add(&o, k, (uint32_t)(snd[k] / 1000 -
								   snd[0] / 1000 + base),
						 rcv[k], P_BYTES);
			rapid_pc_estimate(&o, &p, &r);
			est = r.abest * 8.0;
			if (r.rule == RAPID_PC_RULE_EXCURSION && est > A / m &&
			    est <= A * m * m)
				n_ok++;
			err[i] = fabs(est - A) / A;
		}
		tap_eq(n_ok, trials,
		       "fluid TSval-us A=%.0f Mbit/s: every estimate in (A/m, m^2 A]",
		       A / 1e6);
		tap_diag("fluid CBR, us TSval send clock, A=%.0f Mbit/s: median rel err"
			 " %.2f%%, p90 %.2f%%, max %.2f%%", A / 1e6,
			 100 * pct(err, trials, 0.5), 100 * pct(err, trials, 0.9),
			 100 * pct(err, trials, 1.0));
	}
}

/*
 * The receiver's noise floor (tcp_rapid_rx q_noise_ns, 10 us) under cross
 * traffic and stamping jitter (issue 18).  A packet sent at rate R into a
 * bottleneck of capacity C with avail-bw A adds (P / C)(1 - A / R) of
 * queuing delay: with cross traffic (A < C) the steps of a real trend are
 * bounded by the bottleneck's per-packet time P / C (12 us at 1 Gbit/s),
 * not by the send gap P / R, and a floor on every step (the rule before
 * this test) hid trends up to R = A + C / 8.  Receive stamps get a
 * stamping jitter: none, uniform in [0, 6] us, or exponential (mean 2 us,
 * at most 9 us), the receive softirq's wobble.  Per case, 200 p-streams
 * (r_avg 0.55..1.8 A, N = 30, m = 1.07, F = 6): the median of the signed
 * error (ABest - A) / A and its 10th percentile (the low tail).  The
 * noise-free answer (one rate step above A at most) has a median of about
 * +3.5%.
 */
enum { JIT_NONE, JIT_UNIFORM, JIT_EXP };

static double jitter_ns(int kind)
{
	double v;

	switch (kind) {
	case JIT_UNIFORM:
		return 6000 * rnd01();
	case JIT_EXP:
		v = exp_rand(2000);
		return v > 9000 ? 9000 : v;
	default:
		return 0;
	}
}

/* median and p10 of the signed relative error of 200 p-streams */
static void noise_case(double C, double A, uint32_t q_noise_ns, int jit,
		       double *med, double *p10)
{
	struct rapid_pc_params p;
	struct rapid_pc_result r;
	double err[200];
	int i, k, trials = 200;

	rapid_pc_params_init(&p);
	p.q_noise_ns = q_noise_ns;
	for (i = 0; i < trials; i++) {
		struct xtraffic x = { .x_cbr = C - A };
		uint64_t snd[30], rcv[30];
		double u = 0.55 + 1.25 * rnd01();

		fluid_chirp(C, &x, 0, 1.0 + 0.001 * i, 1.0 + 0.001 * i, u * A,
			    30, 1.07, snd, rcv);
		for (k = 0; k < 30; k++)
			rcv[k] += (uint64_t)llround(jitter_ns(jit));
		run_stream(snd, rcv, NULL, 30, &p, &r);
		err[i] = (r.abest * 8.0 - A) / A;
	}
	*med = pct(err, trials, 0.5);
	*p10 = pct(err, trials, 0.1);
}

static void test_fluid_noise(void)
{
	/* max: bound on |median|, the noise-free case's within 1.5 steps */
	static const struct {
		double C, A, max;
	} cs[] = {
		{ 100e6, 100e6, 0.10 }, { 100e6, 30e6, 0.10 },
		{ 100e6, 10e6, 0.10 }, { 1e9, 1e9, 0.20 }, { 1e9, 100e6, 0.20 },
	};
	static const char *const jn[] = { "none", "uniform 0-6 us",
					  "exp 2 us" };
	double med, p10, med0, p100;
	int c, j;

	for (c = 0; c < 5; c++) {
		double C = cs[c].C, A = cs[c].A;

		for (j = JIT_NONE; j <= JIT_EXP; j++) {
			noise_case(C, A, RAPID_PC_Q_NOISE_NS_RX_DEFAULT, j,
				   &med, &p10);
			noise_case(C, A, 0, j, &med0, &p100);
			tap_diag("noise C=%.0f A=%.0f Mbit/s jitter %s: floor 10 us: median %+.1f%% p10 %+.1f%%; no floor: median %+.1f%% p10 %+.1f%%",
				 C / 1e6, A / 1e6, jn[j], 100 * med, 100 * p10,
				 100 * med0, 100 * p100);
			if (j == JIT_NONE) {
				/* above A: the floor must not shift it up */
				tap_ok(med > 0 && med <= cs[c].max,
				       "noise C=%.0f A=%.0f: median error %+.1f%% in (0, %+.0f%%] with the 10 us floor",
				       C / 1e6, A / 1e6, 100 * med,
				       100 * cs[c].max);
				continue;
			}
			tap_ok(fabs(med) <= 0.15,
			       "noise C=%.0f A=%.0f jitter %s: median error %+.1f%% within 15%%",
			       C / 1e6, A / 1e6, jn[j], 100 * med);
			tap_ok(p10 >= -0.15,
			       "noise C=%.0f A=%.0f jitter %s: p10 %+.1f%% >= -15%% (no low tail)",
			       C / 1e6, A / 1e6, jn[j], 100 * p10);
			/* the jitter model has teeth: without a floor it bites */
			tap_ok(p100 < -0.25,
			       "noise C=%.0f A=%.0f jitter %s: without the floor p10 %+.1f%% < -25%%",
			       C / 1e6, A / 1e6, jn[j], 100 * p100);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Tolerant recording (reordering) and the stream's own jitter floor     */

/* Feed packets 0..n-1 to a tolerant obs in order of arrival (rcv). */
static int run_arrival_order(const uint64_t *snd, const uint64_t *rcv,
			     int n, const struct rapid_pc_clock *clk,
			     const struct rapid_pc_params *p,
			     struct rapid_pc_result *res, int tolerant)
{
	struct rapid_pc_obs o;
	int order[RAPID_PSTREAM_MAX], i, j;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = 1; i < n; i++)	/* insertion sort by arrival, stable */
		for (j = i; j > 0 && rcv[order[j]] < rcv[order[j - 1]]; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	rapid_pc_obs_init(&o, 3, clk, clk);
	if (tolerant)
		rapid_pc_obs_tolerate(&o);
	for (i = 0; i < n; i++)
		rapid_pc_obs_add(&o, order[i], snd[order[i]], rcv[order[i]],
				 P_BYTES);
	return rapid_pc_estimate(&o, p, res);
}

static double gauss(void)
{
	double u = rnd01(), v = rnd01();

	if (u < 1e-12)
		u = 1e-12;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void test_reorder(void)
{
	struct rapid_pc_params p;
	struct rapid_pc_result r0, r1, r2;
	struct xtraffic x = { .x_cbr = 10e6 };
	uint64_t snd[30], rcv[30], rcv2[30];
	struct rapid_pc_obs o;
	int k, ok;

	rapid_pc_params_init(&p);
	/* 20 Mbit/s, 10 of it cross traffic; r_avg near A */
	fluid_chirp(20e6, &x, 0, 1.0, 1.0, 10e6, 30, 1.07, snd, rcv);

	/* in order: tolerant recording changes nothing */
	run_stream(snd, rcv, NULL, 30, &p, &r0);
	run_arrival_order(snd, rcv, 30, &clk_ns, &p, &r1, 1);
	tap_ok(r0.abest == r1.abest && r0.rule == r1.rule && r1.pkts == 30 &&
	       !r1.reordered && !r1.stop,
	       "reorder: in order, tolerant = strict (%llu / %llu B/s, rule %d / %d)",
	       (unsigned long long)r0.abest, (unsigned long long)r1.abest,
	       r0.rule, r1.rule);
	tap_ok(r0.rule == RAPID_PC_RULE_EXCURSION,
	       "reorder: the reference stream has an excursion (rule %d)",
	       r0.rule);

	/* packet 12 overtakes everything by 30 ms (netem "reorder") */
	memcpy(rcv2, rcv, sizeof(rcv));
	rcv2[12] -= 30000000;
	run_arrival_order(snd, rcv2, 30, &clk_ns, &p, &r1, 0);
	tap_ok(r1.pkts == 0 || r1.rule == RAPID_PC_RULE_INVALID || r1.stop,
	       "reorder: an early packet stops strict recording (pkts %u)",
	       r1.pkts);
	run_arrival_order(snd, rcv2, 30, &clk_ns, &p, &r2, 1);
	tap_ok(r2.pkts == 30 && !r2.stop && r2.reordered == 2 &&
	       r2.abest * 100 >= r0.abest * 95 && r2.abest * 100 <= r0.abest * 105,
	       "reorder: tolerant, early packet: all 30, 2 marked, %llu B/s within 5%% of %llu",
	       (unsigned long long)r2.abest, (unsigned long long)r0.abest);

	/* packet 0 arrives after packet 1: the send reference moves back */
	memcpy(rcv2, rcv, sizeof(rcv));
	rcv2[0] = rcv[1] + 1000;
	run_arrival_order(snd, rcv2, 30, &clk_ns, &p, &r2, 1);
	tap_ok(r2.pkts == 30 && !r2.stop &&
	       r2.abest * 100 >= r0.abest * 95 && r2.abest * 100 <= r0.abest * 105,
	       "reorder: packet 0 late: rebased, %llu B/s within 5%% of %llu",
	       (unsigned long long)r2.abest, (unsigned long long)r0.abest);

	/* every fifth pair swapped by 1 ms */
	memcpy(rcv2, rcv, sizeof(rcv));
	for (k = 3; k + 1 < 30; k += 5)
		rcv2[k] = rcv[k + 1] + 500000;
	run_arrival_order(snd, rcv2, 30, &clk_ns, &p, &r2, 1);
	tap_ok(r2.pkts == 30 && r2.reordered >= 10 &&
	       r2.abest * 100 >= r0.abest * 85 && r2.abest * 100 <= r0.abest * 115,
	       "reorder: swapped pairs: %u marked, %llu B/s within 15%% of %llu",
	       r2.reordered, (unsigned long long)r2.abest,
	       (unsigned long long)r0.abest);

	/* a hole that never fills: the prefix before it */
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	rapid_pc_obs_tolerate(&o);
	for (k = 0; k < 30; k++)
		if (k != 17)
			rapid_pc_obs_add(&o, k, snd[k], rcv[k], P_BYTES);
	tap_ok(rapid_pc_obs_add(&o, 5, snd[5], rcv[29] + 1, P_BYTES) ==
	       RAPID_PC_ADD_DUP, "reorder: tolerant duplicate is a duplicate");
	rapid_pc_estimate(&o, &p, &r2);
	tap_ok(r2.pkts == 17 && (r2.stop & RAPID_PC_STOP_LOSS),
	       "reorder: hole at 17: prefix of %u packets, stop 0x%x",
	       r2.pkts, r2.stop);

	/* all in reverse order: bounded, no crash, every neighbour marked */
	memcpy(rcv2, rcv, sizeof(rcv));
	for (k = 0; k < 30; k++)
		rcv2[k] = rcv[29] + 1000 * (30 - k);
	run_arrival_order(snd, rcv2, 30, &clk_ns, &p, &r2, 1);
	tap_ok(r2.pkts == 30 && r2.reordered == 30 && r2.abest <= r2.top_rate,
	       "reorder: reversed stream: %u marked, estimate %llu <= top %llu",
	       r2.reordered, (unsigned long long)r2.abest,
	       (unsigned long long)r2.top_rate);

	/* single packet, and one packet arriving alone out of order */
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	rapid_pc_obs_tolerate(&o);
	rapid_pc_obs_add(&o, 9, snd[9], rcv[9], P_BYTES);
	tap_ok(rapid_pc_estimate(&o, &p, &r2) == RAPID_PC_RULE_INVALID &&
	       r2.pkts == 0, "reorder: one packet (index 9) alone: no estimate");

	/* 32-bit microsecond send clock wrapping, packet 0 arriving last */
	{
		static const struct rapid_pc_clock us32 = { .tick_ns = 1000,
							     .bits = 32 };
		uint64_t s32[30], r32[30];

		for (k = 0; k < 30; k++) {
			s32[k] = ((uint64_t)0xffffff00 + snd[k] / 1000 -
				  snd[0] / 1000) & 0xffffffffULL;
			r32[k] = ((uint64_t)0xfffff000 + rcv[k] / 1000 -
				  rcv[0] / 1000) & 0xffffffffULL;
		}
		/* arrival order by unwrapped time: packet 0 after packet 5 */
		memcpy(rcv2, rcv, sizeof(rcv));
		rcv2[0] = rcv[5] + 1000;
		rapid_pc_obs_init(&o, 3, &us32, &us32);
		rapid_pc_obs_tolerate(&o);
		for (k = 1; k <= 5; k++)
			rapid_pc_obs_add(&o, k, s32[k], r32[k], P_BYTES);
		rapid_pc_obs_add(&o, 0, s32[0],
				 (r32[5] + 1) & 0xffffffffULL, P_BYTES);
		for (k = 6; k < 30; k++)
			rapid_pc_obs_add(&o, k, s32[k], r32[k], P_BYTES);
		rapid_pc_estimate(&o, &p, &r2);
		tap_ok(r2.pkts == 30 && !r2.stop && r2.rule != 0,
		       "reorder: us32 clocks across the wrap, packet 0 last of six: %u packets, rule %d",
		       r2.pkts, r2.rule);
	}

	/* packet 0 overtook the previous stream: its stamps look in order */
	memcpy(rcv2, rcv, sizeof(rcv));
	rcv2[0] -= 30000000;
	run_arrival_order(snd, rcv2, 30, &clk_ns, &p, &r1, 1);
	rapid_pc_obs_init(&o, 3, &clk_ns, &clk_ns);
	rapid_pc_obs_tolerate(&o);
	for (k = 0; k < 30; k++)
		rapid_pc_obs_add(&o, k, snd[k], rcv2[k], P_BYTES);
	rapid_pc_obs_mark_overtook(&o, 0);
	rapid_pc_estimate(&o, &p, &r2);
	tap_ok(r1.rule == RAPID_PC_RULE_EARLY_TREND &&
	       r2.abest * 100 >= r0.abest * 95 && r2.abest * 100 <= r0.abest * 105,
	       "reorder: packet 0 overtook: rule %d unmarked, %llu B/s marked (reference %llu)",
	       r1.rule, (unsigned long long)r2.abest,
	       (unsigned long long)r0.abest);

	/* departures in any order: signed 32-bit steps, never below 0 */
	{
		uint64_t t = 0;

		tap_ok(rapid_dopt_unwrap_any(1000, 1000, 900, &t) && t == 900,
		       "unwrap_any: 100 ns back");
		tap_ok(!rapid_dopt_unwrap_any(1000, 1000, 1000U - 2000U, &t) &&
		       t == 900, "unwrap_any: below 0 refused, result untouched");
		tap_ok(rapid_dopt_unwrap_any(5000000000ULL, 0xffffff00U, 0x10,
					     &t) && t == 5000000000ULL + 0x110,
		       "unwrap_any: forward across the 32-bit wrap");
		tap_ok(rapid_dopt_unwrap_any(5000000000ULL, 0x10, 0xffffff00U,
					     &t) && t == 5000000000ULL - 0x110,
		       "unwrap_any: back across the 32-bit wrap");
	}

	/* the jitter measure: 0 on a clean ramp, ~1.65 s for noise */
	p.noise_mult = 6;
	run_stream(snd, rcv, NULL, 30, &p, &r2);
	tap_ok(r2.jitter_ns < 50000,
	       "jitter: clean fluid stream: J %u ns < 50 us", r2.jitter_ns);
	ok = 0;
	for (k = 0; k < 20; k++) {
		uint64_t rj[30];
		int i;

		for (i = 0; i < 30; i++)
			rj[i] = rcv[i] + 20000000 +
				(int64_t)llround(2e6 * gauss());
		run_arrival_order(snd, rj, 30, &clk_ns, &p, &r2, 1);
		ok += r2.jitter_ns > 1500000 && r2.jitter_ns < 6000000;
	}
	tap_ok(ok >= 16,
	       "jitter: normal, s = 2 ms: J in (1.5, 6) ms in %d of 20 streams",
	       ok);
	/* J below the mean send gap (cross traffic's scale) raises nothing */
	p.q_noise_ns = RAPID_PC_Q_NOISE_NS_RX_DEFAULT;
	{
		uint64_t rj[30];
		int i, below = 0, above = 0;

		for (k = 0; k < 20; k++) {
			for (i = 0; i < 30; i++)
				rj[i] = rcv[i] + (uint64_t)(100000 * rnd01());
			run_stream(snd, rj, NULL, 30, &p, &r2);
			below += r2.floor_ns == RAPID_PC_Q_NOISE_NS_RX_DEFAULT &&
				 r2.jitter_ns > 0;
			for (i = 0; i < 30; i++)
				rj[i] = rcv[i] + 20000000 +
					(int64_t)llround(2e6 * gauss());
			run_arrival_order(snd, rj, 30, &clk_ns, &p, &r2, 1);
			above += r2.floor_ns > 2000000;
		}
		tap_ok(below == 20 && above == 20,
		       "jitter: floor unchanged for 0-100 us noise (J below the mean gap) in %d of 20, above 2 ms for s = 2 ms in %d of 20",
		       below, above);
	}
	p.q_noise_ns = 0;
	p.noise_mult = RAPID_PC_NOISE_MULT_MAX + 1;
	tap_ok(!rapid_pc_params_valid(&p), "jitter: noise_mult above %d refused",
	       RAPID_PC_NOISE_MULT_MAX);
}

/*
 * Median relative error of 200 streams at C = A = 20 Mbit/s with normal
 * jitter of deviation @s_ns, fed in their order of arrival (netem's jitter
 * reorders), recorded tolerantly or not; p10 in *p10.
 */
static double jitter_case(double s_ns, uint32_t mult, int tolerant,
			  double *p10)
{
	struct rapid_pc_params p;
	struct rapid_pc_result r;
	double err[200];
	int i, k;

	rapid_pc_params_init(&p);
	p.q_noise_ns = RAPID_PC_Q_NOISE_NS_RX_DEFAULT;
	p.noise_mult = mult;
	for (i = 0; i < 200; i++) {
		struct xtraffic x = { .x_cbr = 0 };
		uint64_t snd[30], rcv[30];
		double u = 0.55 + 1.25 * rnd01();

		fluid_chirp(20e6, &x, 0, 1.0 + 0.05 * i, 1.0 + 0.05 * i,
			    u * 20e6, 30, 1.07, snd, rcv);
		for (k = 0; k < 30; k++)
			rcv[k] += 20000000 + (int64_t)llround(s_ns * gauss());
		run_arrival_order(snd, rcv, 30, &clk_ns, &p, &r, tolerant);
		err[i] = r.abest ? (r.abest * 8.0 - 20e6) / 20e6 : -1;
	}
	*p10 = pct(err, 200, 0.1);
	return pct(err, 200, 0.5);
}

static void test_fluid_jitter(void)
{
	static const double sd[] = { 500e3, 2e6, 5e6 };
	double med, p10, med0, p100, meds, p10s;
	int i;

	for (i = 0; i < 3; i++) {
		med = jitter_case(sd[i], RAPID_PC_NOISE_MULT_RX_DEFAULT, 1,
				  &p10);
		med0 = jitter_case(sd[i], 0, 1, &p100);
		meds = jitter_case(sd[i], RAPID_PC_NOISE_MULT_RX_DEFAULT, 0,
				   &p10s);
		tap_diag("jitter s=%.1f ms, C=A=20 Mbit/s, arrival order: tolerant, floor from J: median %+.0f%% p10 %+.0f%%; tolerant, 10 us floor only: median %+.0f%% p10 %+.0f%%; strict: median %+.0f%%",
			 sd[i] / 1e6, 100 * med, 100 * p10, 100 * med0,
			 100 * p100, 100 * meds);
		/* no low bias: a low median is what collapses the rate */
		tap_ok(med >= -0.25 && (sd[i] > 2e6 || med <= 0.25),
		       "jitter s=%.1f ms: tolerant, floor from J: median error %+.0f%% %s",
		       sd[i] / 1e6, 100 * med,
		       sd[i] > 2e6 ? ">= -25%" : "within 25%");
		tap_ok(meds < -0.3,
		       "jitter s=%.1f ms: strict recording stops at the first overtaking: median %+.0f%% < -30%%",
		       sd[i] / 1e6, 100 * meds);
	}
}

/* Extreme rates: 10 Kbit/s and 100 Gbit/s paths, still one step. */
static void test_fluid_extremes(void)
{
	struct rapid_pc_params p;
	struct rapid_pc_result r;
	struct rapid_pc_obs o;
	const double m = 1.07;
	int N = 30, k;

	rapid_pc_params_init(&p);
	{
		/* C = 20 Kbit/s, A = 10 Kbit/s: a p-stream lasts ~35 s */
		struct xtraffic x = { .x_cbr = 10e3 };
		uint64_t snd[30], rcv[30];

		fluid_chirp(20e3, &x, 0, 5.0, 5.0, 11e3, N, m, snd, rcv);
		rapid_pc_obs_init(&o, 1, &clk_ns, &clk_ns);
		for (k = 0; k < N; k++)
			rapid_pc_obs_add(&o, k, snd[k], rcv[k], P_BYTES);
		rapid_pc_estimate(&o, &p, &r);
		tap_ok(o.shift > 0, "extreme: 35 s stream coarsens offsets (shift %u)",
		       o.shift);
		tap_ok(r.rule == RAPID_PC_RULE_EXCURSION &&
		       r.abest * 8.0 > 10e3 && r.abest * 8.0 <= 10e3 * m * 1.001,
		       "extreme: A = 10 Kbit/s within one step (%.3f Kbit/s)",
		       r.abest * 8 / 1e3);
	}
	{
		/* C = 100 Gbit/s, A = 50 Gbit/s, 9000-byte packets */
		struct xtraffic x = { .x_cbr = 50e9 };
		uint64_t snd[30], rcv[30];
		double t = 0, W = 0, r1;

		r1 = (pow(m, N - 1) - 1) / ((N - 1) * (m - 1) * pow(m, N - 2)) *
		     45e9;
		for (k = 0; k < N; k++) {
			snd[k] = 1000 + (uint64_t)llround(t);
			W = fluid_advance(&x, 100e9, W, k ? snd[k - 1] / 1e9 : 0,
					  snd[k] / 1e9);
			rcv[k] = snd[k] + (uint64_t)llround((W + 72000 / 100e9) *
							     1e9) + 5000;
			W += 72000 / 100e9;
			t += 72000 / (r1 * pow(m, k)) * 1e9;
		}
		p.recv_gap_min_ns = 0;	/* real gaps here are ~1 us */
		rapid_pc_obs_init(&o, 1, &clk_ns, &clk_ns);
		for (k = 0; k < N; k++)
			rapid_pc_obs_add(&o, k, snd[k], rcv[k], 9000);
		rapid_pc_estimate(&o, &p, &r);
		tap_ok(r.rule == RAPID_PC_RULE_EXCURSION &&
		       r.abest * 8.0 > 50e9 * 0.995 &&
		       r.abest * 8.0 <= 50e9 * m * 1.01,
		       "extreme: A = 50 Gbit/s within one step (%.3f Gbit/s)",
		       r.abest * 8 / 1e9);
		/* and the option carries it */
		{
			struct rapid_opt in = { .abest = r.abest, .rule = r.rule };
			struct rapid_opt out;
			uint8_t buf[8];

			rapid_opt_encode(buf, 8, &in);
			rapid_opt_decode(buf, 8, &out);
			tap_ok(out.abest <= r.abest &&
			       out.abest >= r.abest * (1 - 1.0 / 256),
			       "extreme: 50 Gbit/s survives the option");
		}
	}
}

static void test_fluid_bursty(void)
{
	const double As[] = { 15e6, 30e6, 50e6, 80e6 };
	const double C = 100e6;
	struct rapid_pc_params p;
	struct rapid_pc_result r;
	int ai, i;

	rapid_pc_params_init(&p);
	for (ai = 0; ai < 4; ai++) {
		double A = As[ai], X = C - A, est[200], err[200], mean = 0;
		struct xtraffic x;
		double W = 0, t = 1.0;
		int n = 0, trials = 200;

		/* on/off: peak rate min(C, 2X), duty X / peak, mean cycle 2 ms */
		x.x_cbr = 0;
		x.x_on = X * 2 < C ? X * 2 : C;
		x.on_mean = 2e-3 * X / x.x_on;
		x.off_mean = 2e-3 - x.on_mean;
		x.on = 0;
		x.next_switch = t + exp_rand(x.off_mean);
		for (i = 0; i < trials; i++) {
			uint64_t snd[30], rcv[30];
			double u = 0.6 + 1.0 * rnd01();

			double t_next = t + 0.02 + 0.01 * rnd01();

			W = fluid_chirp(C, &x, W, t, t_next, u * A, 30, 1.07, snd,
					rcv);
			t = snd[29] / 1e9;
			if (run_stream(snd, rcv, NULL, 30, &p, &r) ==
			    RAPID_PC_RULE_INVALID)
				continue;
			est[n] = r.abest * 8.0;
			err[n] = fabs(est[n] - A) / A;
			mean += est[n];
			n++;
		}
		mean /= n;
		tap_eq(n, trials, "bursty A=%.0f: every p-stream gives an estimate",
		       A / 1e6);
		tap_ok(mean > 0.6 * A && mean < 1.5 * A,
		       "bursty A=%.0f Mbit/s: mean estimate %.1f within [0.6, 1.5] A",
		       A / 1e6, mean / 1e6);
		tap_diag("bursty on/off C=100 A=%.0f Mbit/s: %d p-streams: mean %.1f,"
			 " median rel err %.1f%%, p90 %.1f%%", A / 1e6, n,
			 mean / 1e6, 100 * pct(err, n, 0.5), 100 * pct(err, n, 0.9));
		(void)est;
	}
}

/* ------------------------------------------------------------------ */
/* Coalesced receive stamps                                           */

static void test_coalescing(void)
{
	struct rapid_pc_params p;
	struct rapid_pc_result clean, co, raw;
	uint64_t snd[40], rcv[40], rc[40];
	int k, g;

	rapid_pc_params_init(&p);

	/*
	 * q piecewise linear in send time: 0 up to packet 15, then 0.05 ns
	 * per ns of send time.  Groups 3..6 and 20..23 and 30..32 stamped
	 * at their last member: the repair restores q exactly (linear), so
	 * the answer is the clean one.
	 */
	make_chirp(snd, 40, 10000, 300000, 1.05);
	for (k = 0; k < 40; k++)
		rcv[k] = snd[k] + 200000 +
			 (k > 15 ? (uint64_t)((snd[k] - snd[15]) / 20) : 0);
	run_stream(snd, rcv, NULL, 40, &p, &clean);
	memcpy(rc, rcv, sizeof(rc));
	for (k = 3; k < 6; k++)
		rc[k] = rc[6];
	for (k = 20; k < 23; k++)
		rc[k] = rc[23];
	for (k = 30; k < 32; k++)
		rc[k] = rc[32];
	run_stream(snd, rc, NULL, 40, &p, &co);
	tap_eq(co.coalesced, 3 + 3 + 2, "coalesce: 8 packets repaired");
	tap_ok(co.rule == clean.rule && co.abest == clean.abest &&
	       co.open_start == clean.open_start,
	       "coalesce: linear q restored: same answer (%llu vs %llu)",
	       (unsigned long long)co.abest, (unsigned long long)clean.abest);
	p.recv_gap_min_ns = 0;
	run_stream(snd, rc, NULL, 40, &p, &raw);
	tap_eq(raw.coalesced, 0, "coalesce: threshold 0 disables the repair");
	tap_ok(raw.abest != clean.abest,
	       "coalesce: without the repair the answer differs");
	tap_diag("coalesce: linear case without repair: %s %llu (clean %s %llu)",
		 rapid_pc_rule_name(raw.rule), (unsigned long long)raw.abest,
		 rapid_pc_rule_name(clean.rule), (unsigned long long)clean.abest);
	p.recv_gap_min_ns = RAPID_PC_RECV_GAP_MIN_NS_DEFAULT;

	/* a group at the start (packets 0..3) takes q_3: flat */
	memcpy(rc, rcv, sizeof(rc));
	for (k = 0; k < 3; k++)
		rc[k] = rc[3];
	run_stream(snd, rc, NULL, 40, &p, &co);
	tap_eq(co.coalesced, 3, "coalesce: group at packet 0 repaired");
	tap_ok(co.rule == clean.rule && co.abest == clean.abest,
	       "coalesce: group at packet 0: same answer");

	/* the whole stream in one group: no information, no trend */
	for (k = 0; k < 40; k++)
		rc[k] = rcv[39];
	run_stream(snd, rc, NULL, 40, &p, &co);
	tap_eq(co.rule, RAPID_PC_RULE_NO_TREND, "coalesce: one big group: no trend");

	/* fluid chirps, every G packets delivered together at the last one */
	for (g = 2; g <= 6; g += 2) {
		const double A = 30e6, m = 1.07;
		int i, ok = 0, trials = 40;

		for (i = 0; i < trials; i++) {
			struct xtraffic x = { .x_cbr = 100e6 - A };
			uint64_t s[30], rr[30];

			fluid_chirp(100e6, &x, 0, 1.0, 1.0,
				    (0.7 + 0.8 * i / trials) * A, 30, m, s, rr);
			for (k = 0; k < 30; k++) {
				int last = (k / g) * g + g - 1;

				rc[k] = rr[last < 30 ? last : 29] + 50;
			}
			run_stream(s, rc, NULL, 30, &p, &co);
			if (co.abest * 8.0 >= A / pow(m, g) &&
			    co.abest * 8.0 <= A * m * 1.0001)
				ok++;
		}
		tap_eq(ok, trials,
		       "coalesce: fluid A=30, groups of %d: within [A/m^%d, m A]",
		       g, g);
	}
}

/* ------------------------------------------------------------------ */
/* Option codec                                                       */

/* decode from an exactly-sized heap copy, so ASan sees any overrun */
static int decode_exact(const uint8_t *src, int len, struct rapid_opt *out)
{
	uint8_t *buf = malloc(len ? len : 1);
	int ret;

	memcpy(buf, src, len);
	ret = rapid_opt_decode(buf, len, out);
	free(buf);
	return ret;
}

static void test_option(void)
{
	struct rapid_opt in = { 0 }, out;
	uint8_t buf[40];
	int bad = 0, i, ret;
	uint64_t v;

	/* rate code: round trip over 0 .. 2^40, rounded down < 1/256 */
	for (v = 0; v < 1000; v++)
		if (rapid_opt_rate_unpack(rapid_opt_rate_pack(v)) != v && v < 256)
			bad++;
	for (i = 0; i < 100000; i++) {
		double d;
		uint64_t back;

		v = (uint64_t)exp(log(1250.0) + rnd01() *
				  (log((double)RAPID_OPT_RATE_MAX) - log(1250)));
		if (v >= RAPID_OPT_RATE_MAX)
			v = RAPID_OPT_RATE_MAX - 1;
		back = rapid_opt_rate_unpack(rapid_opt_rate_pack(v));
		d = (double)(v - back) / v;
		if (back > v || d >= 1.0 / 256)
			bad++;
	}
	tap_eq(bad, 0, "option: rate code exact < 256, else rounds down < 0.4%%");
	tap_eq(rapid_opt_rate_unpack(rapid_opt_rate_pack(1250)), 1248,
	       "option: 10 Kbit/s = 1250 B/s -> 1248");
	tap_eq(rapid_opt_rate_unpack(rapid_opt_rate_pack(12500000000ULL)),
	       12482248704ULL, "option: 100 Gbit/s -> 12482248704 B/s");
	tap_eq(rapid_opt_rate_unpack(rapid_opt_rate_pack(U64_MAX)),
	       RAPID_OPT_RATE_MAX, "option: saturates at RAPID_OPT_RATE_MAX");
	tap_ok(rapid_opt_rate_pack(U64_MAX) <= 0x1fff, "option: code fits 13 bits");

	/* every code decodes to a monotone value and packs back to itself */
	for (i = 0, bad = 0; i <= 0x1fff; i++) {
		if (rapid_opt_rate_pack(rapid_opt_rate_unpack(i)) != i)
			bad++;
		if (i && rapid_opt_rate_unpack(i) <= rapid_opt_rate_unpack(i - 1))
			bad++;
	}
	tap_eq(bad, 0, "option: all 8192 codes are fixed points, increasing");

	/* full option round trips */
	for (i = 0, bad = 0; i < 20000; i++) {
		in.abest = rnd64() >> (rnd64() % 64);
		in.stream_id = (uint16_t)rnd64();
		in.rule = rnd64() % 4;
		in.truncated = rnd64() & 1;
		if (rapid_opt_encode(buf, 8, &in) != 8 ||
		    decode_exact(buf, 8, &out) != 0 ||
		    out.stream_id != in.stream_id || out.rule != in.rule ||
		    out.truncated != in.truncated ||
		    out.abest != rapid_opt_rate_unpack(rapid_opt_rate_pack(in.abest)))
			bad++;
	}
	tap_eq(bad, 0, "option: 20000 random round trips");
	in.abest = 1250;
	in.stream_id = 0xabcd;
	in.rule = RAPID_PC_RULE_NO_TREND;
	in.truncated = 1;
	tap_eq(rapid_opt_encode(buf, 8, &in), 8, "option: encode returns 8");
	tap_ok(buf[0] == 253 && buf[1] == 8 && buf[2] == 0x52 && buf[3] == 0x41 &&
	       buf[4] == 0xab && buf[5] == 0xcd,
	       "option: wire layout kind, len, ExID, stream id");
	tap_eq((buf[6] << 8 | buf[7]), (2 << 14) | (1 << 13) |
	       rapid_opt_rate_pack(1250), "option: wire layout rule/T/rate");
	tap_eq(rapid_opt_encode(buf, 7, &in), RAPID_OPT_ENOSPC,
	       "option: encode into 7 bytes refused");
	in.rule = 4;
	tap_eq(rapid_opt_encode(buf, 8, &in), RAPID_OPT_EINVAL,
	       "option: encode rule 4 refused");
	in.rule = RAPID_PC_RULE_NO_TREND;

	/* in a realistic area: NOP NOP TS(10) + ours */
	{
		uint8_t a[20] = { 1, 1, 8, 10, 1, 2, 3, 4, 5, 6, 7, 8 };

		rapid_opt_encode(a + 12, 8, &in);
		ret = decode_exact(a, 20, &out);
		tap_ok(ret == 0 && out.stream_id == 0xabcd && out.truncated == 1 &&
		       out.rule == RAPID_PC_RULE_NO_TREND && out.abest == 1248,
		       "option: found after NOP NOP timestamps");
		tap_eq(decode_exact(a, 19, &out), RAPID_OPT_ETRUNC,
		       "option: area cut inside ours: truncated");
		tap_eq(decode_exact(a, 12, &out), RAPID_OPT_ENOENT,
		       "option: area ending before ours: not found");
	}
	/* malformed inputs */
	{
		uint8_t a0[] = { 2, 0, 1, 1 };		/* len 0 */
		uint8_t a1[] = { 2, 1, 1, 1 };		/* len 1 */
		uint8_t a2[] = { 1, 1, 8, 12, 0, 0 };	/* len > remaining */
		uint8_t a3[] = { 1, 1, 1, 3 };		/* kind without len */
		uint8_t a4[] = { 253, 8, 0x52, 0x42, 0, 1, 0, 5 }; /* ExID */
		uint8_t a5[] = { 0, 253, 8, 0x52, 0x41, 0, 1, 0, 5 }; /* EOL */
		uint8_t a6[] = { 1, 1, 1, 253, 8, 0x52, 0x41, 0, 9, 0x40, 5 };
		uint8_t a7[] = { 253, 10, 0x52, 0x41, 0, 1, 0, 5, 0, 0 };
		uint8_t a8[] = { 253, 3, 0x52, 253, 8, 0x52, 0x41, 0, 2, 0, 6 };
		uint8_t a9[] = { 254, 8, 0x52, 0x41, 0, 1, 0, 5 };
		uint8_t a10[] = { 253, 2, 253, 8, 0x52, 0x41, 0, 3, 0, 7 };

		tap_eq(decode_exact(a0, 4, &out), RAPID_OPT_EBADLEN, "malformed: len 0");
		tap_eq(decode_exact(a1, 4, &out), RAPID_OPT_EBADLEN, "malformed: len 1");
		tap_eq(decode_exact(a2, 6, &out), RAPID_OPT_ETRUNC,
		       "malformed: len > remaining");
		tap_eq(decode_exact(a3, 4, &out), RAPID_OPT_ETRUNC,
		       "malformed: last byte a kind without length");
		tap_eq(decode_exact(a4, 8, &out), RAPID_OPT_ENOENT,
		       "malformed: wrong ExID is someone else's");
		tap_eq(decode_exact(a5, 9, &out), RAPID_OPT_ENOENT,
		       "malformed: EOL before ours ends the walk");
		ret = decode_exact(a6, 11, &out);
		tap_ok(ret == 0 && out.stream_id == 9 &&
		       out.rule == RAPID_PC_RULE_EXCURSION,
		       "malformed: NOP padding before ours is fine");
		tap_eq(decode_exact(a7, 10, &out), RAPID_OPT_EBADLEN,
		       "malformed: our ExID with len 10");
		ret = decode_exact(a8, 11, &out);
		tap_ok(ret == 0 && out.stream_id == 2,
		       "malformed: 253 too short for an ExID is skipped");
		tap_eq(decode_exact(a9, 8, &out), RAPID_OPT_ENOENT,
		       "malformed: kind 254 is not ours");
		ret = decode_exact(a10, 10, &out);
		tap_ok(ret == 0 && out.stream_id == 3, "malformed: 253 len 2 skipped");
		tap_eq(decode_exact(a0, 0, &out), RAPID_OPT_ENOENT,
		       "malformed: empty area");
		tap_eq(rapid_opt_decode(a0, -1, &out), RAPID_OPT_EINVAL,
		       "malformed: negative length");
		tap_eq(rapid_opt_decode(NULL, 4, &out), RAPID_OPT_EINVAL,
		       "malformed: NULL area");
		tap_eq(rapid_opt_decode(NULL, 0, &out), RAPID_OPT_ENOENT,
		       "malformed: NULL empty area");
	}
	/* random garbage: must return, never read out of bounds (ASan) */
	{
		int found = 0, counts[6] = { 0 };

		for (i = 0; i < 300000; i++) {
			uint8_t a[44];
			int len = (int)(rnd64() % 45), k;

			for (k = 0; k < len; k++) {
				uint64_t z = rnd64();

				a[k] = (z & 3) == 0 ? (uint8_t)(z >> 8) % 12 :
				       (z & 3) == 1 ? 253 : (uint8_t)(z >> 8);
				if ((z & 0xf0) == 0x10 && k + 8 <= len) {
					rapid_opt_encode(a + k, len - k, &in);
					k += 7;
				}
			}
			ret = decode_exact(a, len, &out);
			if (ret == 0)
				found++;
			if (ret <= 0 && ret >= -5)
				counts[-ret]++;
		}
		tap_eq(counts[0] + counts[1] + counts[2] + counts[3], 300000,
		       "fuzz: 300000 random areas: only 0/ENOENT/ETRUNC/EBADLEN");
		tap_diag("fuzz: found %d, enoent %d, etrunc %d, ebadlen %d", found,
			 counts[1], counts[2], counts[3]);
	}
}

static void test_plausible(void)
{
	tap_ok(rapid_abest_plausible(100, 100, 0), "plausible: = top");
	tap_ok(!rapid_abest_plausible(101, 100, 0), "plausible: > top refused");
	tap_ok(rapid_abest_plausible(110, 100, 100), "plausible: 10%% slack");
	tap_ok(!rapid_abest_plausible(111, 100, 100), "plausible: past slack");
	tap_ok(!rapid_abest_plausible(0, 100, 100), "plausible: 0 is not");
	tap_ok(!rapid_abest_plausible(5, 0, 100), "plausible: nothing sent");
	tap_ok(rapid_abest_plausible(U64_MAX, U64_MAX, 1000),
	       "plausible: saturation at U64_MAX");
	tap_ok(!rapid_abest_plausible(201, 100, 5000),
	       "plausible: slack clamped to 100%%");
	tap_eq(rapid_abest_clamp(500, 100, 100), 110, "clamp: to top + slack");
	tap_eq(rapid_abest_clamp(50, 100, 100), 50, "clamp: plausible unchanged");
	tap_eq(rapid_abest_clamp(0, 100, 100), 0, "clamp: 0 stays 0");
	/* a truthful estimate is always plausible with no slack */
	{
		struct rapid_pc_params p;
		struct rapid_pc_result r;
		uint64_t snd[30], rcv[30];
		int i, bad = 0;

		rapid_pc_params_init(&p);
		for (i = 0; i < 2000; i++) {
			int k;

			make_chirp(snd, 30, rnd64(), 1000 + 1e7 * rnd01(), 1.07);
			for (k = 0; k < 30; k++)
				rcv[k] = snd[k] + rnd64() % 100000 + k * (rnd64() % 5000);
			if (run_stream(snd, rcv, NULL, 30, &p, &r) &&
			    !rapid_abest_plausible(r.abest, r.top_rate, 0))
				bad++;
		}
		tap_eq(bad, 0, "plausible: 2000 truthful estimates <= top rate");
	}
}

int main(void)
{
	test_mul_div();
	test_hand();
	test_random_vs_ref();
	test_sizes();
	test_loss();
	test_wrap();
	test_fluid_cbr();
	test_fluid_tsval();
	test_fluid_noise();
	test_reorder();
	test_fluid_jitter();
	test_fluid_extremes();
	test_fluid_bursty();
	test_coalescing();
	test_option();
	test_plausible();
	return tap_done();
}
