/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arithmetic of the RAPID sender (V. Konda and J. Kaur, "RAPID:
 * Shrinking the Congestion-control Timescale", UNC TR08-011): the p-stream
 * schedule, the per-packet cursor the transmit hook walks, and the rate
 * controller (slow start, the tau filter, decreases, loss responses).
 * Shared by tcp_rapid.c and tests/unit/test_rapid_schedule.c.
 *
 * Pure: integers only (see cc_pure.h), no state of its own.
 *
 * The p-stream (Section 3.1, Eqns 1, 4, 5)
 * ----------------------------------------
 * A p-stream is N packets.  Packet i (i = 2..N) leaves P / r_{i-1} after
 * packet i-1, and packet 1 leaves P / r_0 after the last packet of the
 * previous stream, with r_0 = r_avg.  The rates are geometric,
 *
 *	r_i = m^(i-1) * r_1,				(Eq. 4)
 *
 * and r_avg is their harmonic mean over the N-1 gaps,
 *
 *	(N-1) / r_avg = sum_{i=1}^{N-1} 1 / r_i,		(Eq. 1)
 *
 * so that r_1 = r_avg * (m^(N-1) - 1) / ((N-1) (m-1) m^(N-2))	(Eq. 5)
 *	       = r_avg * rho,  rho = (1/(N-1)) * sum_{k=0}^{N-2} m^-k.
 *
 * A whole stream, its N-1 gaps plus the gap to the next stream, lasts
 * l = N * P / r_avg: the average rate is exactly r_avg.  For N = 30,
 * m = 1.07: r_1 = 0.4530 r_avg and r_{N-1} = m^28 r_1 = 3.0119 r_avg.  (The
 * report's "r_{N-1} ~ 3.22 r_avg" is m^29 r_1, the rate of an N-th gap that
 * Eq. 4 does not have; Table 4 counts the same way.  This code follows the
 * equations: an N-packet stream has N-1 rates.)
 *
 * Units and fixed point
 * ---------------------
 * Rates are bytes per second (u64) outside this file, in [1, RAPID_RATE_MAX]
 * (12.5e9 B/s = 100 Gbit/s; the module's floor is RAPID_RATE_MIN = 10 kbit/s).
 * Inside the schedule a rate is carried in 1/256 B/s (RAPID_RATE_FP_SHIFT)
 * so that the geometric steps keep their precision at 10 kbit/s.  m is in
 * 1/1000 (RAPID_M_SCALE: m = 1.07 is 1070).  rho is Q24.  Gaps are ns.
 *
 * Overflow bounds (u64 holds 1.8e19 ~ 2^64):
 *   rate           <= RAPID_RATE_MAX < 2^34 B/s
 *   rate_fp        <= RAPID_RATE_MAX << 8 < 2^42;  rate_fp * m < 2^42 * 2^16
 *   r_avg * rho    <  2^34 * 2^24 = 2^58;  (r_1 << 24) / rho likewise
 *   sum of m^-k    <= 127 * 2^30 < 2^37 (Q30)
 *   tau filter     (ABest - r_avg) * frac < 2^34 * 2^24 (frac is Q24 <= 1)
 *   stream length  N * P * 1e9 <= 128 * 65535 * 1e9 < 2^53 ns*B
 *   cwnd target    rate * srtt_us < 2^34 * 2^26 (srtt clamped to 67 s)
 * Rates that the geometric series would push past RAPID_RATE_MAX (large m
 * and N) saturate there; the average of such a stream is then slightly
 * below r_avg (a longer gap), never above it.
 */
#ifndef RAPID_CHIRP_H
#define RAPID_CHIRP_H

#include "cc_pure.h"

/* m in 1/1000: m = 1.07 is 1070. */
#define RAPID_M_SCALE		1000U
#define RAPID_M_MIN		1001U	/* parameter bounds (1.001 .. 4.000) */
#define RAPID_M_MAX		4000U
/* p-stream length bounds (packets). */
#define RAPID_N_MIN		2U
#define RAPID_N_MAX		128U

/* Defaults from the report (Section 3.1.4, 3.1.5, 3.2.2). */
#define RAPID_DEF_N		30U	/* steady-state p-stream length */
#define RAPID_DEF_M		1070U	/* steady-state m = 1.07 */
#define RAPID_SS_N_INIT		2U	/* slow start: first stream */
/*
 * slow start's first stream at a connection's start (cfg->ss_n_init; an
 * RTO's slow start keeps RAPID_SS_N_INIT): opt-in 8 with a higher
 * initial_rate_kbps (500) gets a lone flow to the link sooner and ends
 * the slow starts of flows that join many others at a rate near their
 * share (docs/rapid-deviations.md#ss-first-stream)
 */
#define RAPID_DEF_SS_N_FIRST	2U
#define RAPID_DEF_SS_N_MAX	16U	/* slow start: N doubles up to this */
#define RAPID_SS_M		2000U	/* slow start: m = 2 */
#define RAPID_DEF_INIT_KBPS	100U	/* initial r_avg, kbit/s */
/*
 * tau, ms: the report's is 200 ms; ours is six times that, so that the
 * increases of many flows together do not overshoot
 * (docs/rapid-deviations.md#many-flows).
 */
#define RAPID_REPORT_TAU_MS	200U
#define RAPID_DEF_TAU_MS	1200U

/* Rates: bytes per second.  1 kbit/s = 125 B/s. */
#define RAPID_BPS_PER_KBPS	125ULL
#define RAPID_RATE_MIN		1250ULL		/* 10 kbit/s */
#define RAPID_RATE_MAX		12500000000ULL	/* 100 Gbit/s */
#define RAPID_KBPS_MIN		10U
#define RAPID_KBPS_MAX		100000000U	/* 100 Gbit/s in kbit/s */

/* Internal rate precision: 1/256 B/s. */
#define RAPID_RATE_FP_SHIFT	8
#define RAPID_RATE_FP_MAX	(RAPID_RATE_MAX << RAPID_RATE_FP_SHIFT)
/* rho = r_1 / r_avg in Q24; the m^-k terms are summed in Q30. */
#define RAPID_RHO_SHIFT		24
#define RAPID_RHO_ONE		16777216U	/* 2^RAPID_RHO_SHIFT */
#define RAPID_SUM_SHIFT		30
/* The tau filter's step fraction l / tau in Q24. */
#define RAPID_FRAC_SHIFT	24

#define RAPID_NSEC_PER_SEC	1000000000ULL
#define RAPID_USEC_PER_SEC	1000000ULL
#define RAPID_NSEC_PER_MSEC	1000000ULL
#define RAPID_NSEC_PER_USEC	1000ULL
#define RAPID_TAU_MAX_MS	60000U		/* tau_ns <= 6e10 < 2^36 */

/*
 * "No increasing trend" (ABest == r_{N-1}) is recognised when ABest is
 * within 1/64 of the stream's top rate: the estimator may rebuild the rate
 * from measured send times and land a rounding error below it.  In slow
 * start neighbouring rates differ by 2x, so the tolerance cannot confuse
 * them.
 */
#define RAPID_TOP_TOL_SHIFT	6

/*
 * Adoption of estimates in steady state: the controller acts on the median
 * of the newest RAPID_DEF_MEDIAN per-stream estimates (1 = each estimate
 * alone, the report's rule; docs/rapid-deviations.md#median-of-three).
 */
#define RAPID_DEF_MEDIAN	3U
#define RAPID_MEDIAN_MAX	7U
/*
 * After slow start's exit, steady-state estimates (their median) above
 * r_avg are adopted at once, as in slow start, until the first one below
 * it, for at most RAPID_DEF_SS_REFINE streams sent after r_avg's last raise
 * (docs/rapid-deviations.md#exit-refinement): slow start's m = 2 streams
 * place the avail-bw only within a factor of 2, and its exit may be cut
 * to 4 times what the path delivered.
 */
#define RAPID_DEF_SS_REFINE	16U
/*
 * The refinement's streams probe wider than steady state's: rate ratio
 * RAPID_DEF_REFINE_M / 1000 (N = 30: the top at 7.4 times r_avg, where m
 * = 1.07 reaches 3.0 times), until the first estimate below its stream's
 * top by more than 1/8 or the refinement's end (ours,
 * docs/rapid-deviations.md#wide-refine).  Slow start's exit is usually a
 * cap, a lower bound of the avail-bw, and a steady-state stream from it
 * reads at most its own top: on a 100 Mbit/s, 100 ms path the exit at 26
 * Mbit/s took one round trip to 79 (the top) and another to 99; these
 * streams find 99 in the first.  0 probes with m.
 */
#define RAPID_DEF_REFINE_M	1120U
#define RAPID_SS_REFINE_MAX	255U
/*
 * The report's law in steady state (ours,
 * docs/rapid-deviations.md#pace-drain): the standing-queue drain slows the
 * streams (r_avg less the drain, rapid_report_pace_rate()) instead of
 * cutting the estimates r_avg follows, every estimate is taken
 * RAPID_DEF_BIAS_MILLI / 1000 lower (rapid_report_abest(): PathChirp's
 * ABest lies on average half a rate step above the avail-bw, which the
 * drain took out before), and the re-acquire jump's level is made of the
 * estimates older than the three it judges (rapid_ctl_on_abest_law()).
 * A drained queue then gives the rate back at once: after a step down of
 * the avail-bw r_avg had fallen to 0.7 of the new level and climbed back
 * through Eq. 6 for a second.  pace_drain 0 and bias_milli 0: the law
 * before 2026-12-06.
 */
#define RAPID_DEF_PACE_DRAIN	1U
#define RAPID_DEF_BIAS_MILLI	31U
#define RAPID_BIAS_MILLI_MAX	250U
/*
 * Slow start's exit rate is at most RAPID_DEF_SS_EXIT_DR / 1000 times the
 * highest delivery rate of the last round trips (cfg->ss_exit_cap, set by
 * the caller; ours, docs/rapid-deviations.md#exit-cap).  The exit is
 * usually the estimate cap itself (4 times that maximum, or twice a
 * stretched tail's rate, rapid_estimate_cap(): a stream's estimate above
 * it is cut to it and so ends slow start), which on a
 * loaded link is up to four times what is free: a flow joining eleven
 * others at 50 Mbit/s left slow start at 16-32 Mbit/s with ~5 free and
 * overflowed the buffer before its first steady-state estimate came back.
 * A lower exit (2000: twice the maximum) ends those overflows but costs
 * a flow that joins others the push that moves them: the default, 4000,
 * is the estimate cap alone.
 */
#define RAPID_DEF_SS_EXIT_DR	4000U
#define RAPID_SS_EXIT_DR_MIN	1000U
#define RAPID_SS_EXIT_DR_MAX	4000U
/*
 * While competing with a flow that keeps a standing queue
 * (rapid_law_competing()), r_avg rises by at least this many packets per
 * srtt every srtt, as a loss-based window does (Reno: one), so that the
 * loss responses and the increases make an AIMD pair against it.
 */
#define RAPID_DEF_COMPETE_PKTS	2U
#define RAPID_COMPETE_PKTS_MAX	64U
/*
 * A competitor that keeps a standing queue is one whose floor stays above
 * max(RAPID_DEF_COMPETE_US, base RTT / RAPID_COMPETE_BASE_DIV)
 * (rapid_law_competing()).  4 ms since 2026-12-07, its own constant:
 * before it was 4 x q_target_us (8 ms), the queue law's target tied to a
 * rule both laws use.  On vscubic's 40 ms path the threshold falls from
 * 8 ms to base / 8 = 5 ms, and a RAPID flow that joins a cubic flow
 * stays competing through more of cubic's post-loss dips (scale engine,
 * 16 seeds: +0.066 +- 0.021 of a fair share with cubic first, +0.044
 * +- 0.016 with RAPID first; manyflows, rttfair, dynamic and demo
 * unchanged; docs/rapid-deviations.md#compete-us).
 */
#define RAPID_DEF_COMPETE_US	4000U
#define RAPID_COMPETE_US_MIN	500U
#define RAPID_COMPETE_US_MAX	1000000U
/*
 * When competing ends (rapid_law_competing(): the queue the loss-based
 * flow kept emptied, at one of its back-offs or because it left), the
 * report's law does not cut r_avg below RAPID_DEF_KEEP_MILLI / 1000 of the
 * rate held at that moment for RAPID_DEF_KEEP_MS (ours,
 * docs/rapid-deviations.md#compete-keep; keep_milli 0: off), if competing
 * lasted RAPID_DEF_KEEP_ARM_MS or more (flows that join many others can
 * raise a queue that starts competing for 0.1-2 s).  A loss response
 * still cuts, and competing again ends the keep.
 */
#define RAPID_DEF_KEEP_MILLI	750U
#define RAPID_KEEP_MILLI_MAX	1000U
#define RAPID_DEF_KEEP_MS	10000U
#define RAPID_KEEP_MS_MAX	60000U
#define RAPID_DEF_KEEP_ARM_MS	2000U
/*
 * The re-acquire jump (rapid_jump_step(); ours,
 * docs/rapid-deviations.md#re-acquire-jump): the share of the gap to a
 * step up of the estimates adopted at once, 1/1000 (0: off).
 */
#define RAPID_DEF_JUMP_MILLI	1000U
/*
 * The jump's test on the mean of this many newest raw estimates
 * (rapid_jump_agree_mean(), docs/rapid-deviations.md#jump-mean); 0: the
 * newest RAPID_JUMP_STREAMS within a spread (rapid_jump_agree()).
 */
#define RAPID_DEF_JUMP_MEAN	6U
#define RAPID_JUMP_MEAN_MAX	RAPID_MEDIAN_MAX
#define RAPID_DEF_ACCEL_MAX	3U	/* tau / 8 at most */
#define RAPID_ACCEL_MAX_MAX	6U
#define RAPID_JUMP_MILLI_MAX	1000U
/*
 * Decreases in steady state (ours, docs/rapid-deviations.md#many-flows):
 * one estimate cuts r_avg by at most RAPID_DEF_CUT_MAX / 1000 of it
 * (1000: the report's rule, a lower ABest adopted at once), and an estimate
 * less than RAPID_DEF_HOLD_MILLI / 1000 below r_avg while there is no
 * standing queue changes nothing (0: off).  No standing queue: qd below
 * 1 / 2^RAPID_HOLD_QD_SHIFT of max(base RTT, RAPID_DRAIN_T_MIN_US).
 */
#define RAPID_DEF_COUNT_REPORT	1U	/* the report's law counts the flows */
/*
 * The weight of a rise of the estimate in the report's count's samples,
 * 1/1000: 1000 signed (a lone flow's noise averages to one flow), 0
 * rectified (docs/rapid-deviations.md#share-open).
 */
#define RAPID_DEF_COUNT_UP_MILLI	1000U
#define RAPID_COUNT_UP_MILLI_MAX	1000U
#define RAPID_DEF_CUT_MAX	125U
#define RAPID_CUT_MAX_MAX	1000U
/*
 * Opt-in (0: off, cut_max alone): a standing queue deepens that bound to
 * its share of the drain's T, qd / T (ours, rapid_cut_bound(),
 * docs/rapid-deviations.md#cut-deep; with cut_max 50 and fair_pkts 32,
 * the paper's scale).
 */
#define RAPID_DEF_CUT_DEEP	0U
#define RAPID_DEF_HOLD_MILLI	200U
#define RAPID_HOLD_MILLI_MAX	1000U
/*
 * Opt-in (0: off, the full cut): a lower estimate's cut scaled by r_avg
 * over the highest estimate of about the last cut_share_ms (ours,
 * rapid_ctl_cut_share(), docs/rapid-deviations.md#cut-share; measured
 * with 5000).
 */
#define RAPID_DEF_CUT_SHARE_MS	0U
#define RAPID_CUT_SHARE_MS_MIN	100U
#define RAPID_CUT_SHARE_MS_MAX	60000U
#define RAPID_HOLD_QD_SHIFT	7
/*
 * ... or the flow's own part of the queue, qd * r_avg, below share_pkts
 * packets (ours, rapid_queue_free_share(), docs/rapid-deviations.md#share).
 * 3 by default since 2026-12-07, beside the additive step that stops at
 * ai_pkts of the flow's packets (docs/rapid-deviations.md#share-ai): the
 * twelve flows of the lab's manyflows use more of the link, fig6's 100
 * flows are fairer; 0: the queue alone.
 */
#define RAPID_DEF_SHARE_PKTS	3U
#define RAPID_SHARE_PKTS_MAX	64U
#define RAPID_SHARE_QD_MAX_US	60000000U	/* a longer queue is nobody's share */
/*
 * While the path reorders, a lower estimate without a standing queue
 * (cfg->queue_free) does not cut r_avg at all (ours,
 * rapid_ctl_decrease_to(), docs/rapid-deviations.md#reorder-hold): the
 * streams' delays are out of order there and their estimates swing from
 * half to three times r_avg, but the standing queue, measured from the
 * streams' median RTTs while the path reorders (rapid_qd_sample()), still
 * says whether r_avg is above the avail-bw.  1: on (the default); 0: the
 * hold of hold_milli alone.
 */
#define RAPID_DEF_REORDER_HOLD	1U
/* opt-in (0: off): steady-state streams fit in this % of srtt */
#define RAPID_DEF_STREAM_SRTT_PCT	0U
/*
 * Opt-in (0: off): the fair cut (ours, rapid_ctl_fair_cut(),
 * docs/rapid-deviations.md#fair-cut): while the standing queue holds more
 * than fair_pkts of the flow's own packets, qd * r_avg > fair_pkts * mss,
 * an estimate above r_avg does not raise it but moves it towards the rate
 * at which the flow would hold fair_pkts, with the time constant
 * tau >> RAPID_FAIR_TAU_SHIFT (measured with 32), unless the queue is
 * draining (below the stream before's sample).
 */
#define RAPID_DEF_FAIR_PKTS	0U
#define RAPID_FAIR_PKTS_MAX	1024U
#define RAPID_FAIR_TAU_SHIFT	2

/*
 * Default 4 since 2026-12-06 (0: off): the equal additive increase (ours,
 * rapid_ctl_ai_step(), docs/rapid-deviations.md#additive): while the
 * report's count reads another flow (rapid_ctl_ai_pkts()) and the flow
 * holds fewer than ai_pkts of its own packets in the standing queue,
 * every estimate that does not cut r_avg raises it by at least the rate
 * of ai_pkts packets per RAPID_AI_T_US, times l / tau.
 */
#define RAPID_DEF_AI_PKTS	4U
#define RAPID_AI_PKTS_MAX	64U
#define RAPID_AI_T_US		50000U	/* 50 ms */
/*
 * The step only while the report's count reads at least this many flows
 * (1/RAPID_NEST_ONE; 24: 1.5 flows): a lone flow has no share to even
 * out.  The count is noisy: a lone flow beside CBR cross traffic read
 * 1.5 or more for 6-44% of its estimates in the lab (dynamic, traced), and
 * takes the step then (docs/rapid-deviations.md#additive-gate).
 */
#define RAPID_AI_GATE_NEST	24U

/* Persistent-loss response: r_avg *= loss_factor / 1000 (1000 = off). */
#define RAPID_DEF_LOSS_FACTOR	700U
#define RAPID_LOSS_FACTOR_MIN	100U
#define RAPID_LOSS_FACTOR_MAX	1000U
/* After an RTO slow start restarts from r_avg >> RAPID_RTO_SHIFT... */
#define RAPID_RTO_SHIFT		2
/* ... but not below this many packets per srtt (rapid_rto_floor()) */
#define RAPID_RTO_FLOOR_PKTS	4U
/*
 * Steady state's estimates and the law's steps take r_avg no lower than
 * this many packets per srtt (rapid_cfg_steady_floor()), TCP's least
 * window in congestion avoidance.
 */
#define RAPID_STEADY_FLOOR_PKTS	2U

/* cwnd headroom (packets) on top of 2 * BDP(r_avg, srtt) + 2 * N. */
#define RAPID_CWND_EXTRA	4U
#define RAPID_SRTT_MAX_US	67108864ULL	/* 2^26 us = 67 s */

/* ------------------------------------------------------------------ */
/* Conversions and clamps                                              */
/* ------------------------------------------------------------------ */

/* kbit/s -> bytes per second (exact). */
static inline u64 rapid_kbps_to_rate(u32 kbps)
{
	return (u64)kbps * RAPID_BPS_PER_KBPS;
}

/* bytes per second -> kbit/s, rounded down, saturating at U32_MAX. */
static inline u32 rapid_rate_to_kbps(u64 rate)
{
	u64 kbps = div_u64(rate, (u32)RAPID_BPS_PER_KBPS);

	return kbps > U32_MAX ? U32_MAX : (u32)kbps;
}

static inline u64 rapid_rate_clamp(u64 rate, u64 lo, u64 hi)
{
	if (rate < lo)
		return lo;
	return rate > hi ? hi : rate;
}

/* B/s of pkts packets of mss bytes per srtt_us (0: srtt unknown). */
static inline u64 rapid_pkts_rate(u32 pkts, u32 mss, u32 srtt_us)
{
	if (!srtt_us)
		return 0;
	/* mss < 2^16, 1e6 < 2^20: no overflow for pkts < 2^28 (callers: <= 255) */
	return div64_u64((u64)pkts * mss * RAPID_USEC_PER_SEC, srtt_us);
}

/* Internal rate (1/256 B/s) -> B/s, rounded to nearest, at least 1. */
static inline u64 rapid_rate_from_fp(u64 fp)
{
	u64 rate = (fp + (1ULL << (RAPID_RATE_FP_SHIFT - 1))) >>
		   RAPID_RATE_FP_SHIFT;

	return rate ? rate : 1;
}

/* m below 1.000 would make the rates decrease: treat it as 1.000. */
static inline u32 rapid_m_sane(u32 m)
{
	return m < RAPID_M_SCALE ? RAPID_M_SCALE : (m > 65535 ? 65535 : m);
}

/* One geometric step: rate_fp * m, saturating at RAPID_RATE_FP_MAX. */
static inline u64 rapid_rate_step(u64 fp, u32 m)
{
	u64 next;

	if (fp > RAPID_RATE_FP_MAX)
		fp = RAPID_RATE_FP_MAX;
	/* fp < 2^42 and m < 2^16: no overflow */
	next = div_u64(fp * rapid_m_sane(m) + RAPID_M_SCALE / 2, RAPID_M_SCALE);
	return next > RAPID_RATE_FP_MAX ? RAPID_RATE_FP_MAX : next;
}

/*
 * rho(N, m) = r_1 / r_avg in Q24 (Eq. 5 rewritten as a finite sum), in
 * (0, 1]: 1 for N = 2 or m = 1, about 1/(N-1) * m/(m-1) for large m^N.
 * Exact to a few units of 2^-24 (each m^-k term is rounded in Q30).
 * N below 2 is treated as 2, above RAPID_N_MAX as RAPID_N_MAX.
 */
static inline u32 rapid_rho(u32 n, u32 m)
{
	u64 q = 1ULL << RAPID_SUM_SHIFT;	/* m^-k, Q30 */
	u64 sum = 0;
	u32 k, gaps;

	if (n < RAPID_N_MIN)
		n = RAPID_N_MIN;
	if (n > RAPID_N_MAX)
		n = RAPID_N_MAX;
	m = rapid_m_sane(m);
	gaps = n - 1;
	for (k = 0; k < gaps; k++) {
		sum += q;
		/* q <= 2^30: q * 1000 < 2^40 */
		q = div_u64(q * RAPID_M_SCALE + m / 2, m);
	}
	/* sum / gaps in Q30 -> Q24, rounded: sum <= gaps * 2^30 */
	return (u32)div_u64(sum + ((u64)gaps << (RAPID_SUM_SHIFT -
						  RAPID_RHO_SHIFT - 1)),
			    gaps << (RAPID_SUM_SHIFT - RAPID_RHO_SHIFT));
}

/* ------------------------------------------------------------------ */
/* The schedule of one p-stream                                        */
/* ------------------------------------------------------------------ */

struct rapid_schedule {
	u64 r_avg;	/* B/s: average rate (Eq. 1), also r_0 */
	u64 r1_fp;	/* 1/256 B/s: r_1, the rate of the first gap */
	u32 rho;	/* Q24: r_1 / r_avg for (n, m) */
	u16 m;		/* 1/1000: rate ratio of successive gaps */
	u8 n;		/* packets in the stream, 2..RAPID_N_MAX */
};

/* Schedule from r_avg with a precomputed rho = rapid_rho(n, m). */
static inline void rapid_schedule_init_rho(struct rapid_schedule *s,
					   u64 r_avg, u32 n, u32 m, u32 rho)
{
	if (n < RAPID_N_MIN)
		n = RAPID_N_MIN;
	if (n > RAPID_N_MAX)
		n = RAPID_N_MAX;
	if (!rho || rho > RAPID_RHO_ONE)
		rho = rapid_rho(n, m);
	s->r_avg = rapid_rate_clamp(r_avg, 1, RAPID_RATE_MAX);
	s->n = (u8)n;
	s->m = (u16)rapid_m_sane(m);
	s->rho = rho;
	/* r_avg < 2^34, rho <= 2^24 */
	s->r1_fp = (s->r_avg * rho) >> (RAPID_RHO_SHIFT - RAPID_RATE_FP_SHIFT);
	if (!s->r1_fp)
		s->r1_fp = 1;
}

/*
 * Steady-state streams no longer than a share of the round trip (ours,
 * opt-in, cfg->stream_srtt_pct, docs/rapid-deviations.md#low-rate-streams):
 * a stream of N packets at r_avg lasts (N - 1) mss / r_avg, 1.4 s for 30
 * packets at 0.25 Mbit/s, and the controller hears from it once per
 * stream, so a flow at a low rate (a joiner beside a cubic flow, a slow
 * start that ended at a tenth of a megabit) moves once per 10-20 round
 * trips.  With the option a stream whose N packets would last longer than
 * stream_srtt_pct % of srtt has as many packets as fit (at least
 * RAPID_FIT_N_MIN), and m is raised so that its top is still at least
 * m^(N-2) times its first rate: the same range of rates, coarser steps.
 * 16, not 8: with 8 the steps of 1.37 (N = 30, m = 1.07) made the
 * estimates coarse enough to raise manyflows' q95 by 12 packets in the
 * scale engine (16: by 2, with the same gain in fairness).
 */
#define RAPID_FIT_N_MIN		16U
#define RAPID_FIT_PCT_MAX	1000U
#define RAPID_FIT_SPAN_SHIFT	20	/* spans in Q20 */
#define RAPID_FIT_SPAN_CAP	(1ULL << 50)
#define RAPID_FIT_SRTT_MAX_US	60000000U

/* m^steps (m in 1/1000) in Q20, saturating at RAPID_FIT_SPAN_CAP. */
static inline u64 rapid_fit_span(u32 m, u32 steps)
{
	u64 x = 1ULL << RAPID_FIT_SPAN_SHIFT;
	u32 k;

	m = rapid_m_sane(m);
	for (k = 0; k < steps; k++) {
		/*
		 * x < 2^50 and m < 2^16: x * m stays below 2^62 when x <=
		 * 2^46 or m <= 2^12 (every m up to RAPID_M_MAX); beyond
		 * both the product would wrap, so saturate
		 */
		if (x > (RAPID_FIT_SPAN_CAP >> 4) && m > (1U << 12))
			return RAPID_FIT_SPAN_CAP;
		x = div_u64(x * m, RAPID_M_SCALE);
		if (x >= RAPID_FIT_SPAN_CAP)
			return RAPID_FIT_SPAN_CAP;
	}
	return x;
}

/*
 * rapid_stream_fit() - N and m of a steady-state stream at @rate (B/s)
 * that lasts no longer than @pct % of @srtt_us: *n_out and *m_out are @n
 * and @m where the stream fits, or without the option (@pct 0), an
 * unknown srtt, mss or rate, or @n at most RAPID_FIT_N_MIN.
 */
static inline void rapid_stream_fit(u32 n, u32 m, u64 rate, u32 srtt_us,
				    u32 mss, u32 pct, u32 *n_out, u32 *m_out)
{
	u64 bytes, want;
	u32 ne, lo, hi;

	*n_out = n;
	*m_out = m;
	if (!pct || !srtt_us || !mss || !rate || n <= RAPID_FIT_N_MIN ||
	    n > RAPID_N_MAX || m > RAPID_M_MAX)
		return;
	rate = rapid_rate_clamp(rate, 1, RAPID_RATE_MAX);
	if (srtt_us > RAPID_FIT_SRTT_MAX_US)
		srtt_us = RAPID_FIT_SRTT_MAX_US;
	if (pct > RAPID_FIT_PCT_MAX)
		pct = RAPID_FIT_PCT_MAX;
	/* rate < 2^34, srtt < 2^26: bytes < 2^40, times pct < 2^50 */
	bytes = div_u64(rate * srtt_us, 1000000U);
	bytes = div_u64(bytes * pct, 100);
	if (bytes >= (u64)(n - 1) * mss)
		return;
	/* bytes < (n - 1) mss and n > RAPID_FIT_N_MIN: ne < n */
	ne = (u32)div_u64(bytes, mss) + 1;
	if (ne < RAPID_FIT_N_MIN)
		ne = RAPID_FIT_N_MIN;
	/* the least m' in [m, RAPID_M_MAX] with m'^(ne-2) >= m^(n-2) */
	want = rapid_fit_span(m, n - 2);
	lo = rapid_m_sane(m);
	hi = RAPID_M_MAX;
	if (rapid_fit_span(hi, ne - 2) < want) {
		lo = hi;
	} else {
		while (lo < hi) {
			u32 mid = lo + (hi - lo) / 2;

			if (rapid_fit_span(mid, ne - 2) >= want)
				hi = mid;
			else
				lo = mid + 1;
		}
	}
	*n_out = ne;
	*m_out = lo;
}

/* Schedule from r_avg (steady state): r_1 by Eq. 5. */
static inline void rapid_schedule_init(struct rapid_schedule *s, u64 r_avg,
				       u32 n, u32 m)
{
	rapid_schedule_init_rho(s, r_avg, n, m, rapid_rho(n, m));
}

/* r_avg (B/s) of the stream whose first rate is r_1, for a given rho. */
static inline u64 rapid_avg_from_first(u64 r_1, u32 rho)
{
	u64 r_avg;

	if (!rho)
		rho = 1;
	r_1 = rapid_rate_clamp(r_1, 1, RAPID_RATE_MAX);
	/* r_1 < 2^34: the shift stays below 2^58 */
	r_avg = div64_u64((r_1 << RAPID_RHO_SHIFT) + rho / 2, rho);
	return rapid_rate_clamp(r_avg, 1, RAPID_RATE_MAX);
}

/*
 * The rate of gap i of the stream, B/s: i = 1..n-1 is r_i (the gap after
 * packet i), i = 0 and i >= n are r_0 = r_avg (the gap between streams).
 */
static inline u64 rapid_schedule_rate(const struct rapid_schedule *s, u32 i)
{
	u64 fp = s->r1_fp;
	u32 j;

	if (i == 0 || i >= s->n)
		return s->r_avg;
	for (j = 1; j < i; j++)
		fp = rapid_rate_step(fp, s->m);
	return rapid_rate_from_fp(fp);
}

/* r_{N-1}: the highest rate the stream probes. */
static inline u64 rapid_schedule_top(const struct rapid_schedule *s)
{
	return rapid_schedule_rate(s, s->n - 1);
}

/*
 * Gap (ns) that a pacing rate gives a packet of payload_bytes: what
 * tcp_update_skb_after_send() adds, payload * NSEC_PER_SEC / rate, rounded
 * down.  A zero rate means "not paced" there, so 0 here too.
 */
static inline u64 rapid_schedule_gap_ns(u64 rate, u32 payload_bytes)
{
	if (!rate)
		return 0;
	return div64_u64((u64)payload_bytes * RAPID_NSEC_PER_SEC, rate);
}

/*
 * TCP's EDT step (tcp_update_skb_after_send()): the gap a packet of `len`
 * bytes gets at pacing rate `rate` when it left `credit` ns later than TCP
 * had planned: len * 1e9 / rate minus min(half of that, credit).
 */
static inline u64 rapid_tcp_gap_ns(u64 rate, u32 len, u64 credit)
{
	u64 gap = rapid_schedule_gap_ns(rate, len);
	u64 cut = gap / 2;

	return gap - (credit < cut ? credit : cut);
}

/*
 * The pacing rate to write so that TCP's step (rapid_tcp_gap_ns() with
 * this credit) still gives the schedule's gap for `rate`: ask for
 * gap + min(gap, credit).  With credit >= gap TCP then cuts half of 2 gap,
 * with credit < gap it cuts exactly the credit.  Exact to about
 * gap / rate + 1 ns.
 */
static inline u64 rapid_edt_rate(u64 rate, u32 len, u64 credit)
{
	u64 gap = rapid_schedule_gap_ns(rate, len);
	u64 ask, num, r;

	if (!credit || !gap)
		return rate;
	ask = gap + (credit < gap ? credit : gap);
	num = (u64)len * RAPID_NSEC_PER_SEC;
	r = div64_u64(num + ask / 2, ask);
	return r ? r : 1;
}

/* l = n * P / r_avg (ns): the duration of one stream including r_0's gap. */
static inline u64 rapid_stream_duration_ns(u32 n, u32 payload_bytes,
					   u64 r_avg)
{
	if (!r_avg)
		r_avg = 1;
	return div64_u64((u64)n * payload_bytes * RAPID_NSEC_PER_SEC, r_avg);
}

/* ------------------------------------------------------------------ */
/* Per-packet cursor: what the transmit hook walks                     */
/* ------------------------------------------------------------------ */

/*
 * A stream of k <= n packets.  k < n when fewer than n packets of data are
 * queued when the stream starts (footnote 5): the stream is then built for
 * N = k at the same r_avg, and k <= 2 is sent at a uniform r_avg.
 */
struct rapid_cursor {
	u64 r_avg;	/* B/s: the stream's r_avg, also its last gap */
	u64 next_fp;	/* 1/256 B/s: rate of the gap after the next packet */
	u16 m;		/* 1/1000: ratio applied after every gap */
	u8 k;		/* packets in this stream; 0 = no stream yet */
	u8 sent;	/* packets of it sent so far */
};

/* Packets in a stream when `avail` packets of data are queued. */
static inline u32 rapid_stream_len(u32 n, u32 avail)
{
	if (avail < 1)
		avail = 1;
	return avail < n ? avail : n;
}

/*
 * Turn the schedule `s` into the one a stream of min(n, avail) packets
 * really follows and return that length k: unchanged for k = n, Eq. 5 with
 * N = k at the same r_avg for 3 <= k < n, and a uniform r_avg (n = 2,
 * m = 1) for k <= 2.  rapid_schedule_rate() of the result gives the gaps.
 */
static inline u32 rapid_schedule_shorten(struct rapid_schedule *s, u32 avail)
{
	u32 k = rapid_stream_len(s->n, avail);

	if (k <= 2)
		rapid_schedule_init_rho(s, s->r_avg, 2, RAPID_M_SCALE,
					RAPID_RHO_ONE);
	else if (k < s->n)
		rapid_schedule_init(s, s->r_avg, k, s->m);
	return k;
}

/*
 * Start a stream from schedule `s` with `avail` packets of data queued.
 * If `eff` is not NULL it receives the schedule the stream follows (see
 * rapid_schedule_shorten()).  Returns the stream length k.
 */
static inline u32 rapid_cursor_start(struct rapid_cursor *c,
				     const struct rapid_schedule *s,
				     u32 avail, struct rapid_schedule *eff)
{
	struct rapid_schedule e = *s;
	u32 k = rapid_schedule_shorten(&e, avail);

	c->k = (u8)k;
	c->sent = 0;
	c->r_avg = e.r_avg;
	c->m = e.m;
	c->next_fp = e.r1_fp;
	if (eff)
		*eff = e;
	return k;
}

/* True while the stream still has packets to send. */
static inline bool rapid_cursor_open(const struct rapid_cursor *c)
{
	return c->sent < c->k;
}

/* Packets of the stream not yet sent. */
static inline u32 rapid_cursor_left(const struct rapid_cursor *c)
{
	return c->sent < c->k ? c->k - c->sent : 0;
}

/*
 * Account one packet of the stream and return the rate (B/s) of the gap
 * after it: r_sent for packets 1..k-1, r_avg after the last one (then
 * *last is set and the stream is closed).  On a closed cursor it returns
 * r_avg and sets *last.
 */
static inline u64 rapid_cursor_next(struct rapid_cursor *c, bool *last)
{
	u64 rate;

	if (c->sent >= c->k) {
		*last = true;
		return c->r_avg;
	}
	c->sent++;
	if (c->sent == c->k) {
		*last = true;
		return c->r_avg;
	}
	*last = false;
	rate = rapid_rate_from_fp(c->next_fp);
	c->next_fp = rapid_rate_step(c->next_fp, c->m);
	return rate;
}

/* Close the stream early (idle restart, RTO): the next packet starts anew. */
static inline void rapid_cursor_close(struct rapid_cursor *c)
{
	c->k = c->sent;
}

/* ------------------------------------------------------------------ */
/* The controller                                                      */
/* ------------------------------------------------------------------ */

enum rapid_law_kind {
	RAPID_LAW_REPORT = 0,	/* Eq. 6 up, lower estimates adopted at once */
	RAPID_LAW_QUEUE = 1,	/* rapid_law_step() */
};

struct rapid_cfg {
	u64 init_rate;		/* B/s: r_avg of the first stream */
	u64 min_rate;		/* B/s: floor of r_avg */
	u64 max_rate;		/* B/s: ceiling of r_avg and of r_1 */
	u64 tau_ns;		/* the tau of Eq. 6 */
	u32 loss_factor;	/* 1/1000: r_avg multiplier, persistent loss */
	u16 m;			/* 1/1000: steady-state m */
	u8 n;			/* steady-state N */
	u8 ss_n_max;		/* slow start: N doubles up to this */
	u8 ss_n_init;		/* slow start: N of a connection's first
				 * stream (RAPID_DEF_SS_N_FIRST)
				 */
	u8 median;		/* steady state acts on the median of this
				 * many newest estimates (1: each alone)
				 */
	u8 ss_refine;		/* after slow start, higher estimates are
				 * adopted at once until the first lower
				 * one, for at most this many streams
				 */
	u16 refine_m;		/* 1/1000: m of the refinement's streams
				 * until one finds a trend (0: m)
				 */
	u8 pace_drain;		/* the report's law drains a standing queue
				 * by the streams' rate, not r_avg, and the
				 * jump's level lags the judged estimates
				 * (RAPID_DEF_PACE_DRAIN)
				 */
	u16 bias_milli;		/* 1/1000: the report's law takes steady-state
				 * estimates this much lower (0: as they are)
				 */
	u64 ss_r1_cap;		/* B/s: slow start grows r_1 at most to this
				 * (0: no cap; set per ABest by the caller)
				 */
	u64 ss_exit_cap;	/* B/s: slow start ends at most at this
				 * (0: no cap; set per ABest by the caller)
				 */
	u8 law;			/* RAPID_LAW_REPORT or RAPID_LAW_QUEUE */
	u32 law_t_us;		/* the queue law's drain time T, us */
	u32 q_target_us;	/* the queue law's standing queue target, us */
	u8 adapt_tau;		/* the queue law adapts tau (struct rapid_law) */
	u8 compete;		/* both laws compete with a standing queue
				 * that is not theirs (rapid_law_competing())
				 */
	u8 compete_pkts;	/* while competing: r_avg rises by at least
				 * this many packets per srtt every srtt
				 */
	u32 compete_us;		/* a queue floor above the larger of this
				 * and base / RAPID_COMPETE_BASE_DIV is a
				 * competitor's, us
				 */
	u16 keep_milli;		/* 1/1000: after competing, the report's
				 * law cuts r_avg to no less than this share
				 * of the rate at its end (0: off) ...
				 */
	u32 keep_us;		/* ... for this long, us, after competing
				 * that lasted at least keep_arm_us
				 */
	u32 keep_arm_us;	/* us */
	u8 count_flows;		/* the queue law scales tau by n_est
				 * (rapid_law_count_flows())
				 */
	u16 probe_milli;	/* the queue law: probe up by this share of
				 * r_avg per srtt when the estimate is not
				 * above r_avg and there is no queue (0: off)
				 */
	u8 accel_max;		/* the report's law: Eq. 6's tau is halved
				 * per srtt of a gap that stays, at most
				 * this many times (rapid_accel_step(), 0:
				 * off)
				 */
	u8 jump_mean;		/* the jump's test: the mean of this many
				 * newest raw estimates (0: RAPID_JUMP_STREAMS
				 * within a spread)
				 */
	u16 jump_milli;		/* the report's law: share of the gap to a
				 * step up adopted at once (rapid_jump_step(),
				 * 0: off, Eq. 6 alone)
				 */
	u16 cut_max;		/* 1/1000: the largest cut of r_avg by one
				 * steady-state estimate (1000: adopt it)
				 */
	u16 hold_milli;		/* 1/1000: a lower estimate within this
				 * share of r_avg is ignored while
				 * queue_free (0: never)
				 */
	u32 cut_share_us;	/* a lower estimate's cut is scaled by
				 * r_avg / the highest estimate, which decays
				 * with this time constant (us; 0: off,
				 * rapid_ctl_cut_share())
				 */
	u16 fair_pkts;		/* the fair cut's share of the queue,
				 * packets (rapid_ctl_fair_cut(); 0: off)
				 */
	u16 ai_pkts;		/* the equal additive increase: packets
				 * per RAPID_AI_T_US, and the flow's part
				 * of the queue where it stops
				 * (rapid_ctl_ai_step(); 0: off)
				 */
	u32 cut_t_us;		/* the drain's T, us, against which qd_us
				 * deepens cut_max (rapid_cut_bound(); set
				 * per ABest by the caller, 0: cut_max alone)
				 */
	u32 qd_us;		/* the standing queue, us; set per ABest
				 * by the caller (0: none or unknown)
				 */
	u8 queue_free;		/* no standing queue (rapid_queue_free());
				 * set per ABest by the caller
				 */
	u8 queue_peers;		/* a standing queue that holds fewer than
				 * share_pkts of the flow's own packets
				 * (rapid_queue_peers()): its peers'; set
				 * per ABest by the caller
				 */
	u8 count_report;	/* the report's law scales Eq. 6's tau by
				 * n_est too, counted against the flow's
				 * unslowed rise, with signed samples
				 * (rapid_law_count_report(); 0: off)
				 */
	u16 count_up_milli;	/* 1/1000: the weight of a rise of the
				 * estimate in the report's count's samples
				 */
	u8 reorders;		/* the path reorders (TCP saw it within its
				 * min-RTT window); set per ABest by the
				 * caller: the report's law does not count
				 */
	u16 stream_srtt_pct;	/* steady-state streams last at most this
				 * % of srtt (rapid_stream_fit(); 0: off)
				 */
	u8 reorder_hold;	/* while the path reorders, no cut without
				 * a standing queue (queue_free), however
				 * low the estimate (0: off)
				 */
	u64 steady_floor;	/* B/s: steady state's least r_avg, also
				 * where slow start ends (0: unknown; set by
				 * rapid_cfg_steady_floor())
				 */
};

/* The module's defaults (the report's where it gives one). */
static inline void rapid_cfg_default(struct rapid_cfg *cfg)
{
	cfg->init_rate = rapid_kbps_to_rate(RAPID_DEF_INIT_KBPS);
	cfg->min_rate = RAPID_RATE_MIN;
	cfg->max_rate = RAPID_RATE_MAX;
	cfg->tau_ns = (u64)RAPID_DEF_TAU_MS * RAPID_NSEC_PER_MSEC;
	cfg->loss_factor = RAPID_DEF_LOSS_FACTOR;
	cfg->m = RAPID_DEF_M;
	cfg->n = RAPID_DEF_N;
	cfg->ss_n_max = RAPID_DEF_SS_N_MAX;
	cfg->ss_n_init = RAPID_DEF_SS_N_FIRST;
	cfg->median = RAPID_DEF_MEDIAN;
	cfg->ss_refine = RAPID_DEF_SS_REFINE;
	cfg->refine_m = RAPID_DEF_REFINE_M;
	cfg->pace_drain = RAPID_DEF_PACE_DRAIN;
	cfg->bias_milli = RAPID_DEF_BIAS_MILLI;
	cfg->ss_r1_cap = 0;
	cfg->ss_exit_cap = 0;
	cfg->law = RAPID_LAW_REPORT;
	cfg->law_t_us = 100000;
	cfg->q_target_us = 2000;
	cfg->adapt_tau = 0;
	cfg->compete = 0;
	cfg->compete_pkts = RAPID_DEF_COMPETE_PKTS;
	cfg->compete_us = RAPID_DEF_COMPETE_US;
	cfg->keep_milli = RAPID_DEF_KEEP_MILLI;
	cfg->keep_us = RAPID_DEF_KEEP_MS * 1000U;
	cfg->keep_arm_us = RAPID_DEF_KEEP_ARM_MS * 1000U;
	cfg->count_flows = 0;
	cfg->count_report = RAPID_DEF_COUNT_REPORT;
	cfg->count_up_milli = RAPID_DEF_COUNT_UP_MILLI;
	cfg->probe_milli = 0;
	cfg->jump_milli = RAPID_DEF_JUMP_MILLI;
	cfg->jump_mean = RAPID_DEF_JUMP_MEAN;
	cfg->accel_max = RAPID_DEF_ACCEL_MAX;
	cfg->cut_max = RAPID_DEF_CUT_MAX;
	cfg->hold_milli = RAPID_DEF_HOLD_MILLI;
	cfg->cut_share_us = RAPID_DEF_CUT_SHARE_MS * 1000U;
	cfg->fair_pkts = RAPID_DEF_FAIR_PKTS;
	cfg->ai_pkts = RAPID_DEF_AI_PKTS;
	cfg->reorder_hold = RAPID_DEF_REORDER_HOLD;
	cfg->stream_srtt_pct = RAPID_DEF_STREAM_SRTT_PCT;
	cfg->cut_t_us = 0;
	cfg->qd_us = 0;
	cfg->queue_free = 0;
	cfg->queue_peers = 0;
	cfg->reorders = 0;
	cfg->steady_floor = 0;
}

enum rapid_phase {
	RAPID_PHASE_SS = 0,	/* slow start: one stream per RTT, m = 2 */
	RAPID_PHASE_STEADY = 1,	/* N, m from the config, tau filter */
	RAPID_PHASE_FIXED = 2,	/* lab mode: r_avg held, ABest ignored */
};

enum rapid_ev {
	RAPID_EV_NONE = 0,	/* nothing changed */
	RAPID_EV_IGNORED,	/* stale, duplicate or not applicable */
	RAPID_EV_SS_GROW,	/* slow start: no trend, N doubled, r_1 = ABest */
	RAPID_EV_SS_EXIT,	/* slow start left: r_avg = ABest */
	RAPID_EV_INCREASE,	/* tau filter step towards a higher ABest */
	RAPID_EV_DECREASE,	/* lower ABest adopted at once */
	RAPID_EV_LOSS_REDUCE,	/* persistent loss: r_avg *= loss_factor */
	RAPID_EV_RTO,		/* RTO: slow start from r_avg / 4 */
	RAPID_EV_UNDO,		/* spurious loss: previous state restored */
};

struct rapid_ctl {
	u64 r_avg;		/* B/s: r_avg of the next stream */
	u64 undo_r_avg;		/* B/s: r_avg before the last loss response */
	u32 rho;		/* Q24: rapid_rho(n, m), cached */
	u32 last_id;		/* newest stream whose ABest was applied */
	u32 epoch_id;		/* first stream sent with current SS params
				 * (refinement: since r_avg's last raise)
				 */
	u32 launched_id;	/* newest stream started */
	u32 reduce_id;		/* launched_id at the last loss reduction */
	u16 m;			/* 1/1000: m of the next stream */
	u8 n;			/* N of the next stream; 0 = not initialised */
	u8 phase;		/* enum rapid_phase */
	u8 lossy;		/* consecutive completed streams with loss */
	u8 undo_phase;		/* phase before the last loss response */
	u8 undo_n;		/* N before the last loss response */
	u8 dirty;		/* SS params changed, no stream sent yet */
	u8 refine;		/* after slow start: streams left whose
				 * higher estimate is adopted at once
				 */
	u8 refine_low;		/* refinement: the last ABest was below
				 * r_avg (one more ends it)
				 */
	u8 wide;		/* refinement: streams probe with refine_m */
};

static inline void rapid_ctl_set_params(struct rapid_ctl *ctl, u32 n, u32 m)
{
	if (n < RAPID_N_MIN)
		n = RAPID_N_MIN;
	if (n > RAPID_N_MAX)
		n = RAPID_N_MAX;
	m = rapid_m_sane(m);
	if (ctl->n != n || ctl->m != m || !ctl->rho) {
		ctl->n = (u8)n;
		ctl->m = (u16)m;
		ctl->rho = rapid_rho(n, m);
	}
}

static inline void rapid_ctl_enter_steady(struct rapid_ctl *ctl,
					  const struct rapid_cfg *cfg,
					  u64 r_avg)
{
	ctl->phase = RAPID_PHASE_STEADY;
	ctl->wide = 0;
	rapid_ctl_set_params(ctl, cfg->n, cfg->m);
	ctl->r_avg = rapid_rate_clamp(r_avg, cfg->min_rate, cfg->max_rate);
	ctl->lossy = 0;
	ctl->refine = 0;
	ctl->refine_low = 0;
}

/* Slow start with N = n and first rate r_1 (r_avg follows from Eq. 1). */
static inline void rapid_ctl_enter_ss(struct rapid_ctl *ctl,
				      const struct rapid_cfg *cfg,
				      u32 n, u64 r_1)
{
	ctl->phase = RAPID_PHASE_SS;
	ctl->wide = 0;
	rapid_ctl_set_params(ctl, n, RAPID_SS_M);
	r_1 = rapid_rate_clamp(r_1, cfg->min_rate, cfg->max_rate);
	ctl->r_avg = rapid_avg_from_first(r_1, ctl->rho);
	if (ctl->r_avg < cfg->min_rate)
		ctl->r_avg = cfg->min_rate;
	ctl->dirty = 1;
	ctl->lossy = 0;
}

static inline void rapid_ctl_init(struct rapid_ctl *ctl,
				  const struct rapid_cfg *cfg)
{
	u32 n = cfg->ss_n_init;

	*ctl = (struct rapid_ctl){ 0 };
	/*
	 * N = 2 (the report's): one gap, r_1 = r_avg = the initial rate; at
	 * most ss_n_max (rapid_ctl_set_params() keeps it within
	 * RAPID_N_MIN..RAPID_N_MAX)
	 */
	if (n > cfg->ss_n_max)
		n = cfg->ss_n_max;
	rapid_ctl_enter_ss(ctl, cfg, n, cfg->init_rate);
}

/* Lab mode: hold r_avg at `rate` with the steady-state N and m. */
static inline void rapid_ctl_set_fixed(struct rapid_ctl *ctl,
				       const struct rapid_cfg *cfg, u64 rate)
{
	rapid_ctl_set_params(ctl, cfg->n, cfg->m);
	ctl->phase = RAPID_PHASE_FIXED;
	ctl->wide = 0;
	ctl->r_avg = rapid_rate_clamp(rate, RAPID_RATE_MIN, RAPID_RATE_MAX);
	ctl->undo_r_avg = 0;
	ctl->lossy = 0;
}

/*
 * m of the next steady-state stream: refine_m while the refinement's
 * streams have not found a trend (rapid_ctl_refine_narrow()), else m.
 */
static inline u32 rapid_ctl_steady_m(const struct rapid_ctl *ctl,
				     const struct rapid_cfg *cfg)
{
	return ctl->wide && cfg->refine_m ? cfg->refine_m : cfg->m;
}

/* The schedule of the next stream. */
static inline void rapid_ctl_schedule(const struct rapid_ctl *ctl,
				      struct rapid_schedule *s)
{
	rapid_schedule_init_rho(s, ctl->r_avg, ctl->n, ctl->m, ctl->rho);
}

/* A stream with this id has just started with rapid_ctl_schedule(). */
static inline void rapid_ctl_stream_started(struct rapid_ctl *ctl, u32 id)
{
	ctl->launched_id = id;
	if (ctl->dirty) {
		ctl->epoch_id = id;
		ctl->dirty = 0;
	}
}

/* "No increasing trend": ABest at (or above) the stream's top rate. */
static inline bool rapid_abest_is_top(u64 abest, u64 top)
{
	if (abest >= top)
		return true;
	return top - abest <= (top >> RAPID_TOP_TOL_SHIFT);
}

/*
 * Eq. 6, one step: r_avg + (l / tau) (ABest - r_avg) with l = n * P / r_avg,
 * for ABest > r_avg; l >= tau adopts ABest at once.  The step is rounded
 * up so that r_avg always moves.  Returns the new r_avg (B/s).
 */
/*
 * l / tau in 2^-RAPID_FRAC_SHIFT for the stream of n packets of mss at
 * r_avg (duration l), at most 1 (tau 0, or a stream at least tau long);
 * tau is taken at most RAPID_TAU_MAX_MS.  Eq. 6's share of the gap per
 * stream, and the fair cut's (rapid_ctl_fair_cut()).
 */
static inline u64 rapid_stream_tau_frac(u32 n, u32 mss, u64 r_avg,
					u64 tau_ns)
{
	u64 l_ns = rapid_stream_duration_ns(n, mss ? mss : 1, r_avg);

	if (tau_ns > (u64)RAPID_TAU_MAX_MS * RAPID_NSEC_PER_MSEC)
		tau_ns = (u64)RAPID_TAU_MAX_MS * RAPID_NSEC_PER_MSEC;
	if (!tau_ns || l_ns >= tau_ns)
		return 1ULL << RAPID_FRAC_SHIFT;
	/* l_ns < tau_ns < 2^36: the shift stays below 2^60 */
	return div64_u64(l_ns << RAPID_FRAC_SHIFT, tau_ns);
}

static inline u64 rapid_filter_increase(u64 r_avg, u64 abest, u32 n,
					u32 mss, u64 tau_ns)
{
	u64 frac, diff;

	abest = rapid_rate_clamp(abest, 1, RAPID_RATE_MAX);
	if (abest <= r_avg)
		return abest;
	if (!r_avg)
		return abest;
	frac = rapid_stream_tau_frac(n, mss, r_avg, tau_ns);
	if (frac >= 1ULL << RAPID_FRAC_SHIFT)
		return abest;
	diff = abest - r_avg;
	/* diff < 2^34, frac < 2^24 */
	return r_avg + ((diff * frac + (1ULL << RAPID_FRAC_SHIFT) - 1) >>
			RAPID_FRAC_SHIFT);
}

/* Is stream `id` newer than `ref` (serial-number arithmetic)? */
static inline bool rapid_id_after(u32 id, u32 ref)
{
	return (s32)(id - ref) > 0;
}

/*
 * Stream `id` left before the newest epoch: before the last change of slow
 * start's parameters, or of r_avg during the exit refinement (ctl->dirty:
 * no stream has left since).
 */
static inline bool rapid_ctl_stale(const struct rapid_ctl *ctl, u32 id)
{
	return ctl->dirty || rapid_id_after(ctl->epoch_id, id);
}

/*
 * The newest steady-state estimates of a connection (B/s), for the median
 * the controller acts on.  A single stream's estimate is noisy: cross
 * traffic that happens to leave a gap, or to arrive in a clump, moves the
 * start of the excursion by a few rate steps either way.  The report
 * adopts every lower estimate at once and raises r_avg only through the
 * tau filter, so r_avg sits on the low tail of the estimates (in the lab
 * at F = 6: per-stream medians -13 / -3 / +7% off the avail-bw at 0 / 30 /
 * 60 Mbit/s of cross traffic, r_avg -41 / -19 / -15%).  The median of
 * the newest three ignores one outlier on either side at the price of
 * one stream's delay (half a round trip at most at the default N) before
 * a real decrease is adopted.
 */
struct rapid_abest_hist {
	u64 rate[RAPID_MEDIAN_MAX];	/* B/s, a ring; newest at next - 1 */
	u8 count;			/* valid entries */
	u8 next;			/* slot of the next entry */
	u8 jump_locked;			/* jumps off until jump_lock_us */
	u8 jump_cont;			/* a verdict passed at jump_t_us: one
					 * continuation within an srtt
					 */
	u64 jump_abest;			/* B/s: the median at the last jump,
					 * 0: no verdict pending
					 */
	u64 jump_gain;			/* B/s: what that jump added */
	u64 jump_sum;			/* B/s: sum of the medians of the
					 * verdict's window
					 */
	u32 jump_cnt;			/* how many */
	u64 jump_dev;			/* B/s: slow EWMA of the difference
					 * between consecutive raw estimates fed
					 * to the level (their noise)
					 */
	u64 jump_prev;			/* B/s: the last of them */
	u64 jump_lvl;			/* B/s: slow EWMA of the raw estimates
					 * (gain 2^-RAPID_JUMP_LVL_SHIFT), the
					 * level a step is measured against
					 */
	u32 jump_t_us;			/* when it was taken */
	u32 jump_lock_us;		/* jumps off until then */
	u8 acc;				/* Eq. 6's tau is divided by 2^acc
					 * (rapid_accel_step())
					 */
	u32 acc_t_us;			/* when acc last changed or was held */
	u8 acc_locked;			/* no acceleration until acc_lock_us */
	u8 acc_lock_n;			/* the next lock lasts
					 * RAPID_ACCEL_LOCK_RTTS << this srtt
					 */
	u32 acc_lock_us;
	u64 acc_r;			/* B/s: r_avg after the last
					 * steady-state estimate
					 */
};

static inline void rapid_hist_reset(struct rapid_abest_hist *h)
{
	*h = (struct rapid_abest_hist){ 0 };
}

/* The i-th newest estimate (0: the newest); i < count. */
static inline u64 rapid_hist_newest(const struct rapid_abest_hist *h, u32 i)
{
	return h->rate[(h->next + 2 * RAPID_MEDIAN_MAX - 1 - i) %
		       RAPID_MEDIAN_MAX];
}

/* Insert x into v[0..n), sorted ascending (v has room for n + 1). */
static inline void rapid_sorted_insert(u64 *v, u32 n, u64 x)
{
	u32 j;

	for (j = n; j > 0 && v[j - 1] > x; j--)
		v[j] = v[j - 1];
	v[j] = x;
}

/*
 * Record `abest` and return the median of the newest min(count, window)
 * estimates (window clamped to 1..RAPID_MEDIAN_MAX); of an even number the
 * upper middle one, so that one low estimate alone never decreases r_avg.
 */
static inline u64 rapid_hist_push_median(struct rapid_abest_hist *h,
					 u64 abest, u32 window)
{
	u64 v[RAPID_MEDIAN_MAX];
	u32 n, i;

	if (window < 1)
		window = 1;
	if (window > RAPID_MEDIAN_MAX)
		window = RAPID_MEDIAN_MAX;
	if (h->next >= RAPID_MEDIAN_MAX || h->count > RAPID_MEDIAN_MAX)
		rapid_hist_reset(h);
	h->rate[h->next] = abest;
	h->next = (u8)((h->next + 1) % RAPID_MEDIAN_MAX);
	if (h->count < RAPID_MEDIAN_MAX)
		h->count++;
	n = h->count < window ? h->count : window;
	/* the newest n, insertion-sorted ascending (n <= 7) */
	for (i = 0; i < n; i++)
		rapid_sorted_insert(v, i, rapid_hist_newest(h, i));
	return v[n / 2];
}

/*
 * The re-acquire jump (ours; docs/rapid-deviations.md#re-acquire-jump).
 * Eq. 6 closes a gap to a higher ABest with the time constant tau whatever
 * its cause, so a lone flow re-acquires a step up of avail-bw in one to
 * two tau after the estimates show it, while n competing flows close a
 * spare capacity n times faster than one (a shorter tau for everybody
 * makes many flows oscillate more).  A step of the flow's own avail-bw
 * (cross traffic stopped) shows as estimates that jump together, well
 * above both r_avg and their own recent level, by less than the flow's
 * own rate; a spare capacity shared with others is, for each of n flows,
 * up to n times its own rate and shrinks while they rise.  A flow can
 * also tell afterwards: its own increase does not lower its later
 * estimates, a competitor's does.  So, in steady state under the
 * report's law:
 *
 *  - when the newest RAPID_JUMP_STREAMS raw estimates all lie at least
 *    1/2^RAPID_JUMP_MARGIN_SHIFT above r_avg, RAPID_JUMP_LVL_MARGIN/16
 *    above the level (a slow EWMA of the raw estimates, gain
 *    1/2^RAPID_JUMP_LVL_SHIFT per stream), at most r_avg above r_avg,
 *    and within 1/2^RAPID_JUMP_SPREAD_SHIFT of each other, r_avg takes
 *    jump_milli / 1000 of the gap to the median at once, at most
 *    r_avg / 2^RAPID_JUMP_MAX_SHIFT, and the level restarts at the median;
 *  - with jump_mean = k > 0 (the default, 6), instead: when the mean
 *    of the newest k raw estimates lies at least
 *    1/2^RAPID_JUMP_MARGIN_SHIFT above r_avg and RAPID_JUMP_DEV_MILLI
 *    / 1000 of the estimates' noise (at least RAPID_JUMP_LVL_MARGIN/16
 *    of the level, as for the test on three) above the level, none
 *    lies more than r_avg above r_avg, and the median (of the newest
 *    `median`, which one outlier does not move) lies
 *    1/2^RAPID_JUMP_MARGIN_SHIFT above r_avg too, r_avg takes
 *    jump_milli / 1000 of the gap to the mean, at most r_avg /
 *    2^RAPID_JUMP_MEAN_MAX_SHIFT; the level is fed the estimate that
 *    leaves the newest k, and does not restart at the jump.  The noise
 *    is a slow EWMA (the level's gain) of the difference between
 *    consecutive estimates, 1.13 standard deviations for independent
 *    ones.  Beside CBR cross traffic, whose datagrams a lab's fq sends
 *    in pairs, the estimates spread by 15% of their mean, and three of
 *    them within a spread of 1/4 and each 3/16 above the level came
 *    too seldom after a step of 25-33%: the scale engine's worst
 *    re-acquire 9.5 RTTs with the test on three, 5.7 with the mean of
 *    six (64 seeds, docs/rapid-deviations.md#jump-mean); a lone flow
 *    at the lab's 500 Mbit/s delivers as much with it (144-176 Mbit/s
 *    in seven boots, 149-188 without);
 *  - the verdict: the medians of the estimates from one to
 *    RAPID_JUMP_HOLD_RTTS + 1 srtt after the jump (the path after it) are
 *    averaged; if the mean lies more than half the jump below the median
 *    at the jump and (jump_mean > 0) 1/2^RAPID_JUMP_LOCK_LVL_SHIFT below
 *    the level (not restarted at the jump: by the verdict it has taken in the
 *    estimates after the jump that left the newest k, the more the faster
 *    the flow), others rose too, and jumps are off for
 *    RAPID_JUMP_LOCK_RTTS srtt (Eq. 6 alone, the report's rule).  Flows
 *    that took a spare capacity together took more than it, so each one's
 *    estimates fall below where they stood before; a lone flow's false
 *    jump (the estimates' noise beside CBR) leaves them at the level once
 *    its own queue is cut, and a lock then only held the next real step
 *    (lab, dynamic, nine pairs of boots: the worst re-acquire of a boot
 *    4.8 RTTs in the median against 7.7; the engine's 5.7 -> 5.1;
 *    docs/rapid-deviations.md#jump-lock-level).  No second jump before
 *    the verdict;
 *  - with jump_mean > 0, a verdict that passed (the estimates held the
 *    jump) allows one continuation within the next srtt: when none of
 *    the newest k lies below r_avg or more than r_avg above it and their
 *    mean lies 1/2^RAPID_JUMP_CONT_SHIFT above r_avg, r_avg takes
 *    jump_milli / 1000 of the gap to that mean, at most r_avg /
 *    2^RAPID_JUMP_CONT_MAX_SHIFT (rapid_jump_cont_gain()).  A jump on a
 *    window that still holds estimates of the path before lands short
 *    of the step, and the clean estimates after it lie less than 1/8
 *    above r_avg, which Eq. 6 alone then closed;
 *  - with jump_mean > 0, a lock ends early when the mean's test passes
 *    with a mean 1/2^RAPID_JUMP_UNLOCK_SHIFT above the level
 *    (rapid_jump_unlock()): the path has changed since the verdict.  A
 *    lone flow's false jump beside CBR can lock (its own queue holds the
 *    verdict's estimates under the level), and the lock then held a real
 *    step that came within 8 srtt (lab, dynamic, traced: 1.16 and
 *    1.83 s to re-acquire the first step in the two runs of one boot).
 *    Both measured together: docs/rapid-deviations.md#jump-cont.
 */
#define RAPID_JUMP_STREAMS	3U
#define RAPID_JUMP_MARGIN_SHIFT	3
#define RAPID_JUMP_SPREAD_SHIFT	2
#define RAPID_JUMP_MAX_SHIFT	2
#define RAPID_JUMP_LVL_SHIFT	4
#define RAPID_JUMP_LVL_MARGIN	3U	/* 1/16 of the level */
#define RAPID_JUMP_HOLD_RTTS	1U
#define RAPID_JUMP_LOCK_RTTS	8U
#define RAPID_JUMP_LOCK_LVL_SHIFT 4	/* the lock: 1/16 below the level */
#define RAPID_JUMP_CNT_MAX	65535U
#define RAPID_JUMP_DEV_MILLI	1150U	/* the mean's margin, noise x 1.15 */
#define RAPID_JUMP_MEAN_MAX_SHIFT 1	/* a jump on the mean: r_avg / 2 */
#define RAPID_JUMP_CONT_SHIFT	4	/* the continuation: 1/16 above */
#define RAPID_JUMP_CONT_MAX_SHIFT 2	/* ... at most r_avg / 4 */
#define RAPID_JUMP_UNLOCK_SHIFT	2	/* a mean 1/4 above the level */

/*
 * Lowest, highest and sum of the newest k raw estimates; false with fewer
 * than k (k = 0 included).  The sum is below 2^38 (k <= RAPID_MEDIAN_MAX
 * estimates clamped below 2^35).
 */
static inline bool rapid_hist_stats(const struct rapid_abest_hist *h, u32 k,
				    u64 *lo, u64 *hi, u64 *sum)
{
	u32 i;
	u64 x;

	if (!k || h->count < k || h->next >= RAPID_MEDIAN_MAX)
		return false;
	*lo = ~0ULL;
	*hi = 0;
	*sum = 0;
	for (i = 0; i < k; i++) {
		x = rapid_hist_newest(h, i);
		*sum += x;
		if (x < *lo)
			*lo = x;
		if (x > *hi)
			*hi = x;
	}
	return true;
}

/* Lowest and highest of the newest RAPID_JUMP_STREAMS raw estimates. */
static inline bool rapid_hist_range(const struct rapid_abest_hist *h,
				    u64 *lo, u64 *hi)
{
	u64 sum;

	return rapid_hist_stats(h, RAPID_JUMP_STREAMS, lo, hi, &sum);
}

/* One step of a slow EWMA (gain 2^-shift) of v towards x. */
static inline u64 rapid_ewma_step(u64 v, u64 x, u32 shift)
{
	return x >= v ? v + ((x - v) >> shift) : v - ((v - x) >> shift);
}

/*
 * The level: a slow EWMA of the raw steady-state estimates; and their
 * noise, a slow EWMA of the difference between consecutive ones.
 */
static inline void rapid_jump_level(struct rapid_abest_hist *h, u64 abest)
{
	u64 d = abest > h->jump_prev ? abest - h->jump_prev :
		h->jump_prev - abest;

	if (h->jump_prev)
		h->jump_dev = rapid_ewma_step(h->jump_dev, d,
					      RAPID_JUMP_LVL_SHIFT);
	h->jump_prev = abest;
	h->jump_lvl = h->jump_lvl ? rapid_ewma_step(h->jump_lvl, abest,
						    RAPID_JUMP_LVL_SHIFT) :
				    abest;
}

/* Do the newest RAPID_JUMP_STREAMS raw estimates agree on a step up? */
static inline bool rapid_jump_agree(const struct rapid_abest_hist *h,
				    u64 r_avg)
{
	u64 lo, hi;

	if (!rapid_hist_range(h, &lo, &hi))
		return false;
	/* jump_lvl < 2^35 (estimates are clamped to RAPID_RATE_MAX) */
	return hi <= 2 * r_avg &&
	       lo >= r_avg + (r_avg >> RAPID_JUMP_MARGIN_SHIFT) &&
	       lo >= h->jump_lvl + ((h->jump_lvl * RAPID_JUMP_LVL_MARGIN) >> 4) &&
	       hi - lo <= (lo >> RAPID_JUMP_SPREAD_SHIFT);
}

/*
 * Does the mean of the newest k raw estimates lie above r_avg and the
 * level by the margins of jump_mean (above)?  Sets *mean.  No: fewer than
 * k estimates, or k out of the ring's range.
 */
static inline bool rapid_jump_agree_mean(const struct rapid_abest_hist *h,
					 u64 r_avg, u32 k, u64 *mean)
{
	u64 lo, hi, sum, margin;

	if (k > RAPID_JUMP_MEAN_MAX || !rapid_hist_stats(h, k, &lo, &hi, &sum))
		return false;
	*mean = div_u64(sum, k);
	/* jump_dev < 2^35, RAPID_JUMP_DEV_MILLI < 2^11 */
	margin = div_u64(h->jump_dev * RAPID_JUMP_DEV_MILLI, 1000);
	if (margin < ((h->jump_lvl * RAPID_JUMP_LVL_MARGIN) >> 4))
		margin = (h->jump_lvl * RAPID_JUMP_LVL_MARGIN) >> 4;
	return hi <= 2 * r_avg &&
	       *mean >= r_avg + (r_avg >> RAPID_JUMP_MARGIN_SHIFT) &&
	       *mean >= h->jump_lvl + margin;
}

/*
 * The estimates a jump is judged on: the newest jump_mean, or
 * RAPID_JUMP_STREAMS; the level is fed the one that leaves them.
 */
static inline u32 rapid_jump_window(const struct rapid_cfg *cfg)
{
	if (cfg->jump_mean && cfg->jump_mean <= RAPID_JUMP_MEAN_MAX)
		return cfg->jump_mean;
	return RAPID_JUMP_STREAMS;
}

/*
 * jump_milli / 1000 of the gap from r_avg up to `to` (to > r_avg, both
 * below 2^35), at most cap.
 */
static inline u64 rapid_jump_share(u64 r_avg, u64 to, u32 jump_milli,
				   u64 cap)
{
	/* to - r_avg < 2^35, jump_milli <= 1000 < 2^10 */
	u64 gain = div_u64((to - r_avg) * jump_milli, 1000);

	return gain > cap ? cap : gain;
}

/*
 * Does a new level end the jump's lock: the mean's test (jump_mean k > 0)
 * passes with a mean 1/2^RAPID_JUMP_UNLOCK_SHIFT above the level?
 */
static inline bool rapid_jump_unlock(const struct rapid_abest_hist *h,
				     u64 r_avg, u32 k)
{
	u64 mean;

	return k && h->jump_lvl &&
	       rapid_jump_agree_mean(h, r_avg, k, &mean) &&
	       mean >= h->jump_lvl + (h->jump_lvl >> RAPID_JUMP_UNLOCK_SHIFT);
}

/*
 * The continuation after a verdict that passed: the gain to the mean of the
 * newest k raw estimates when none lies below r_avg or more than r_avg
 * above it and the mean lies 1/2^RAPID_JUMP_CONT_SHIFT above r_avg
 * (jump_milli / 1000 of the gap, at most r_avg / 2^RAPID_JUMP_CONT_MAX_SHIFT);
 * 0: none.
 */
static inline u64 rapid_jump_cont_gain(const struct rapid_abest_hist *h,
				       u64 r_avg, u32 k, u32 jump_milli)
{
	u64 lo, hi, sum, mean;

	if (k > RAPID_JUMP_MEAN_MAX || !rapid_hist_stats(h, k, &lo, &hi, &sum))
		return 0;
	mean = div_u64(sum, k);
	if (lo < r_avg || hi > 2 * r_avg ||
	    mean < r_avg + (r_avg >> RAPID_JUMP_CONT_SHIFT))
		return 0;
	return rapid_jump_share(r_avg, mean, jump_milli,
				r_avg >> RAPID_JUMP_CONT_MAX_SHIFT);
}

/*
 * One steady-state estimate (median `med`, already pushed into h) under the
 * report's law: the verdict on a pending jump, then a jump if the estimates
 * agree on one.  Returns the new r_avg, or 0 for no jump (Eq. 6 then as
 * usual).  srtt_us 0 (unknown) or jump_milli 0: never a jump.  jump_mean
 * k > 0: the test on the mean of the newest k raw estimates, and the jump
 * to that mean.
 */
static inline u64 rapid_jump_step(struct rapid_abest_hist *h, u64 r_avg,
				  u64 med, u32 jump_milli, u32 srtt_us,
				  u32 now_us, u32 jump_mean)
{
	u64 gain, cap;

	if (!jump_milli || !srtt_us)
		return 0;
	if (jump_milli > RAPID_JUMP_MILLI_MAX)
		jump_milli = RAPID_JUMP_MILLI_MAX;
	if (h->jump_abest && now_us - h->jump_t_us >= srtt_us) {
		if (now_us - h->jump_t_us <
		    (RAPID_JUMP_HOLD_RTTS + 1) * srtt_us) {
			/* the path after the jump: the window's medians */
			if (h->jump_cnt < RAPID_JUMP_CNT_MAX) {
				h->jump_sum += med;
				h->jump_cnt++;
			}
			return 0;
		}
		/*
		 * fell: mean + gain / 2 < the median at the jump.  Fell, and
		 * (the mean's test, which does not restart the level at the
		 * jump) the mean 1/16 below the level: others rose too.  Did
		 * not fall: the path held the jump.
		 */
		if (h->jump_cnt) {
			bool fell = h->jump_sum +
				    h->jump_cnt * (h->jump_gain >> 1) <
				    h->jump_cnt * h->jump_abest;

			if (fell &&
			    (!jump_mean || !h->jump_lvl ||
			     h->jump_sum < h->jump_cnt * (h->jump_lvl -
				(h->jump_lvl >> RAPID_JUMP_LOCK_LVL_SHIFT)))) {
				h->jump_locked = 1;
				h->jump_lock_us = now_us +
						  RAPID_JUMP_LOCK_RTTS * srtt_us;
			} else if (!fell && jump_mean) {
				h->jump_cont = 1;
				h->jump_t_us = now_us;
			}
		}
		h->jump_abest = 0;
	}
	if (h->jump_cont) {
		if (now_us - h->jump_t_us < srtt_us) {
			gain = rapid_jump_cont_gain(h, r_avg, jump_mean,
						    jump_milli);
			if (gain) {
				h->jump_cont = 0;
				return r_avg + gain;
			}
		} else {
			h->jump_cont = 0;
		}
	}
	if (h->jump_locked) {
		if ((s32)(now_us - h->jump_lock_us) < 0 &&
		    !rapid_jump_unlock(h, r_avg, jump_mean))
			return 0;
		h->jump_locked = 0;
	}
	if (h->jump_abest)
		return 0;
	if (jump_mean) {
		u64 mean;

		/* the median too: one outlier does not move it */
		if (med < r_avg + (r_avg >> RAPID_JUMP_MARGIN_SHIFT) ||
		    !rapid_jump_agree_mean(h, r_avg, jump_mean, &mean))
			return 0;
		med = mean;
		cap = r_avg >> RAPID_JUMP_MEAN_MAX_SHIFT;
	} else {
		if (med <= r_avg || !rapid_jump_agree(h, r_avg))
			return 0;
		cap = r_avg >> RAPID_JUMP_MAX_SHIFT;
	}
	gain = rapid_jump_share(r_avg, med, jump_milli, cap);
	if (!gain)
		return 0;
	h->jump_abest = med;
	/*
	 * The test on three: the next jump needs a new step.  The mean's
	 * keeps the level of the path before: its jump needs a mean 1/8
	 * above the new r_avg anyway, and a level restarted at a false
	 * jump's mean hid the step that came next (lab, dynamic, traced).
	 */
	if (!jump_mean)
		h->jump_lvl = med;
	h->jump_gain = gain;
	h->jump_sum = 0;
	h->jump_cnt = 0;
	h->jump_cont = 0;
	h->jump_t_us = now_us;
	return r_avg + gain;
}

/*
 * Acceleration (ours; docs/rapid-deviations.md#accel).  Eq. 6 with the
 * default tau (1.2 s, docs/rapid-deviations.md#many-flows) closes a gap to
 * a higher ABest in one to two seconds: a lone flow re-acquired a step up
 * of its avail-bw in 12-18 round trips.  n flows that share a spare
 * capacity close it n times faster than one, and each sees it as a gap
 * that is large and noisy against its own small rate; a lone flow's step
 * is a gap of a fraction of its rate that lasts.  So, in steady state
 * under the report's law, while there is no standing queue:
 *
 *  - when the median estimate lies 1/2^RAPID_ACCEL_GAP_SHIFT to
 *    1/2^RAPID_ACCEL_BIG_SHIFT of r_avg above r_avg and the newest
 *    RAPID_JUMP_STREAMS raw estimates lie within r_avg /
 *    2^RAPID_ACCEL_SPREAD_SHIFT of each other, each srtt of it halves
 *    tau once more (acc, at most accel_max times);
 *  - a median closer than that above r_avg takes acc down by one per
 *    srtt; one not above r_avg ends the acceleration at once;
 *  - a standing queue, or r_avg cut by anything since the last
 *    estimate, while acc > 0 means the flow overshot while accelerating
 *    (others rose too): acc = 0 and no acceleration for
 *    RAPID_ACCEL_LOCK_RTTS << lock_n srtt (at most RAPID_ACCEL_LOCK_MAX_US),
 *    lock_n up by one (at most RAPID_ACCEL_LOCK_N_MAX); an acceleration
 *    that ends without one takes lock_n down by one;
 *  - a median more than 1/2^RAPID_ACCEL_UNLOCK_SHIFT above the level (the
 *    jump's slow EWMA of the raw estimates) ends a lock at once: the
 *    path has changed since the overshoot the lock answered.  In steady
 *    state the estimates' noise alone set locks of up to 6.4 s that were
 *    still on at the next step of the flow's avail-bw (scale engine,
 *    dynamic, 64 seeds: worst re-acquire 7.6 -> 6.3 round trips on
 *    average, docs/rapid-deviations.md#accel).
 *
 * Returns the shift of tau (0: the full tau).
 */
#define RAPID_ACCEL_GAP_SHIFT	3	/* accelerate above r_avg + r_avg / 8 */
#define RAPID_ACCEL_BIG_SHIFT	1	/* ... up to r_avg + r_avg / 2 */
#define RAPID_ACCEL_SPREAD_SHIFT 1	/* raw estimates within r_avg / 2 */
#define RAPID_ACCEL_LOCK_RTTS	8U
#define RAPID_ACCEL_LOCK_N_MAX	4U
#define RAPID_ACCEL_LOCK_MAX_US	(60U * 1000000U)
#define RAPID_ACCEL_UNLOCK_SHIFT 3	/* a new level: 1/8 above the old */

static inline void rapid_accel_lock(struct rapid_abest_hist *h, u32 srtt_us,
				    u32 now_us)
{
	u64 d = ((u64)RAPID_ACCEL_LOCK_RTTS << h->acc_lock_n) * srtt_us;

	if (d > RAPID_ACCEL_LOCK_MAX_US)
		d = RAPID_ACCEL_LOCK_MAX_US;
	h->acc_lock_us = now_us + (u32)d;
	h->acc_locked = 1;
	if (h->acc_lock_n < RAPID_ACCEL_LOCK_N_MAX)
		h->acc_lock_n++;
}

static inline u32 rapid_accel_step(struct rapid_abest_hist *h, u64 r_avg,
				   u64 med, u32 accel_max, bool queue_free,
				   u32 srtt_us, u32 now_us)
{
	u64 lo, hi;

	if (accel_max > RAPID_ACCEL_MAX_MAX)
		accel_max = RAPID_ACCEL_MAX_MAX;
	if (!accel_max || !srtt_us) {
		h->acc = 0;
		return 0;
	}
	if (!queue_free || r_avg < h->acc_r) {
		if (h->acc)
			rapid_accel_lock(h, srtt_us, now_us);
		h->acc = 0;
		h->acc_t_us = now_us;
		return 0;
	}
	if (h->acc_locked && (s32)(now_us - h->acc_lock_us) >= 0)
		h->acc_locked = 0;
	/* jump_lvl < 2^35: the sum stays far below 2^64 */
	if (h->acc_locked && h->jump_lvl &&
	    med > h->jump_lvl + (h->jump_lvl >> RAPID_ACCEL_UNLOCK_SHIFT))
		h->acc_locked = 0;
	if (med <= r_avg || h->acc_locked) {
		h->acc = 0;
		h->acc_t_us = now_us;
		return 0;
	}
	if (med < r_avg + (r_avg >> RAPID_ACCEL_GAP_SHIFT)) {
		if (h->acc && now_us - h->acc_t_us >= srtt_us) {
			h->acc--;
			h->acc_t_us = now_us;
			if (!h->acc && h->acc_lock_n)
				h->acc_lock_n--;	/* ended clean */
		}
		return h->acc;
	}
	if (med > r_avg + (r_avg >> RAPID_ACCEL_BIG_SHIFT) ||
	    !rapid_hist_range(h, &lo, &hi) ||
	    hi - lo > (r_avg >> RAPID_ACCEL_SPREAD_SHIFT)) {
		h->acc_t_us = now_us;	/* held: no step up */
		return h->acc;
	}
	if (now_us - h->acc_t_us >= srtt_us) {
		if (h->acc < accel_max)
			h->acc++;
		h->acc_t_us = now_us;
	}
	return h->acc;
}

/*
 * The bottleneck queue's growth, from the standing queue qd the sender
 * measures once per stream (the lowest RTT over the stream less the path's
 * minimum).  While a FIFO bottleneck of capacity C is offered R > C, its
 * queue delay grows at (R - C) / C seconds per second, the same for every
 * flow through it, and every flow's share of what leaves is its share of
 * what arrives: cutting each rate by the factor C / R = 1 / (1 + growth)
 * removes exactly the excess, however many flows share the link.
 */
#define RAPID_PPM		1000000LL	/* growth unit: us per s */
/* Queue growth below this (us per s) is noise, not an excess rate. */
#define RAPID_GROWTH_MIN	20000

#define RAPID_GROWTH_MAX	(8 * RAPID_PPM)	/* bound of a growth value */

struct rapid_law {
	u32 ref_t_us;		/* time of the reference sample, us */
	u32 ref_qd_us;		/* its standing queue, us */
	s32 growth_ppm;		/* newest growth of the queue over at least
				 * half an srtt: us per s
				 */
	u32 dec_id;		/* launched_id at the last proportional
				 * decrease (0: none)
				 */
	u32 qd_us;		/* newest standing queue sample, us */
	u32 qd2_us;		/* the sample before it, us */
	u8 valid;		/* ref_* hold a sample */
	u8 tau_x;		/* Eq. 6's tau is multiplied by this (1..64):
				 * raised by a cut that found the flows had
				 * overshot by more than RAPID_GROWTH_BIG to
				 * the overshoot's level (RAPID_TAU_X_PER_BIG
				 * per RAPID_GROWTH_BIG), back by one per
				 * RAPID_TAU_X_DECAY_RTTS srtt without a cut
				 */
	u32 tau_t_us;		/* when tau_x last came down by one, us */
	u32 win_t_us;		/* start of the queue floor's window, us */
	u32 win_min_us;		/* lowest qd in this window, us */
	u32 prev_min_us;	/* ... and in the previous one */
	u8 compete;		/* a standing queue that is not ours: compete */
	u32 compete_t_us;	/* when competing began, us */
	u64 keep_rate;		/* B/s: the report's law cuts r_avg to no
				 * less than this (0: no keep) ...
				 */
	u32 keep_t_us;		/* ... since competing ended then, us */
	u32 noise_us;		/* half the second difference of successive
				 * qd samples, us (EWMA, gain 1/8): delay
				 * noise of the path, which a queue target
				 * must clear
				 */
	u32 n_t_us;		/* start of the flow count's window, us
				 * (0: none yet)
				 */
	u64 n_a;		/* B/s: the estimate at that start */
	u64 n_r[2];		/* B/s: r_avg at the last two starts */
	u16 n_est;		/* flows increasing together, in
				 * 1/RAPID_NEST_ONE (0: not yet counted)
				 */
	u16 n_s[3];		/* its newest samples, newest first
				 * (0: none; the report's count keeps
				 * them plus RAPID_NEST_BIAS)
				 */
	u16 n_acc;		/* the report's count before its floor
				 * of one flow, plus RAPID_NEST_BIAS
				 * (0: none yet)
				 */
	u64 ab_max;		/* B/s: the highest estimate, decaying
				 * with time constant cfg->cut_share_us
				 * (rapid_law_track_max())
				 */
	u32 ab_max_t_us;	/* when it was last updated, us */
};

/*
 * Competition with a flow that keeps a standing queue (a loss-based one):
 * the queue's floor, its lowest value over the last one to two windows of
 * max(RAPID_COMPETE_WIN_US, 4 srtt), stays above max(cfg->compete_us
 * (RAPID_DEF_COMPETE_US), base / RAPID_COMPETE_BASE_DIV).  RAPID flows
 * among themselves drain the queue to its target within T, so only a
 * buffer-filling competitor holds it up that long.  An eighth of the base
 * RTT, not the quarter of before 2026-11-28: a flow that joins a cubic flow measures its base RTT on top
 * of the least queue cubic leaves (at 1 BDP of buffer cubic never drains
 * it), so the floor it sees swings between 0 and ~60% of the buffer and
 * stayed above a quarter of that inflated base only at the top of cubic's
 * sawtooth (scale engine, vscubic with cubic first, 14 seeds: 0.41 of a
 * fair share, against 0.63 with the eighth; manyflows, rttfair, dynamic,
 * demo and fig6's own seed unchanged; a sixteenth with 2 x target took
 * fig6's two flows at 1 Gbit/s into competing with each other,
 * docs/rapid-deviations.md#compete-join).  It ends when
 * the floor falls below 1 / RAPID_COMPETE_EXIT_DIV of that threshold.
 * A quarter, not the half of before 2026-11-27: a cubic flow's back-off
 * took the floor below half of it, and under the report's law the end
 * of competing costs RAPID most of its rate within a second.  Not longer
 * than one floor either: RAPID flows that all compete hold a queue up
 * among themselves, and only the deep dip after their common loss
 * response lets them out (docs/rapid-deviations.md#compete).
 */
#define RAPID_COMPETE_WIN_US	500000U
#define RAPID_COMPETE_BASE_DIV	8U
#define RAPID_COMPETE_EXIT_DIV	4U

/* An overshoot this large (us per s) means the increases were too fast. */
#define RAPID_GROWTH_BIG	100000
#define RAPID_TAU_X_PER_BIG	3	/* tau_x's level per RAPID_GROWTH_BIG */
#define RAPID_TAU_X_MAX		64
#define RAPID_TAU_X_DECAY_RTTS	4	/* tau_x comes down by one per this many srtt */

/*
 * A cut found an overshoot of g (us per s) above RAPID_GROWTH_BIG: tau_x
 * goes up to the overshoot's level, RAPID_TAU_X_PER_BIG per
 * RAPID_GROWTH_BIG (at most RAPID_TAU_X_MAX), or stays where it is if it
 * is higher.  The level is a function of the queue's growth, which every
 * flow through the bottleneck sees alike, so the flows that share it slow
 * their increases by the same factor; a per-flow history (doubling per
 * cut) let flows on one queue hold very different multiples (docs/rapid.md,
 * "The queue law").
 */
static inline void rapid_law_raise_tau(struct rapid_law *law, s64 g)
{
	s64 lv = div64_s64(g * RAPID_TAU_X_PER_BIG, RAPID_GROWTH_BIG);

	if (lv > RAPID_TAU_X_MAX)
		lv = RAPID_TAU_X_MAX;
	if (lv > law->tau_x)
		law->tau_x = (u8)lv;
}

static inline void rapid_law_reset(struct rapid_law *law)
{
	*law = (struct rapid_law){ 0 };
}

/*
 * A standing-queue sample qd_us at now_us.  The growth is measured from a
 * reference at least srtt_us / 2 old; the reference moves on once it is an
 * srtt old, so that a value spans half to one round trip.
 */
static inline void rapid_law_queue(struct rapid_law *law, u32 now_us,
				   u32 qd_us, u32 srtt_us)
{
	s64 dq, g;
	u32 dt;

	if (law->valid) {
		/*
		 * Noise from the second difference of the samples: a queue
		 * that ramps up or down (the flows' own dynamics, which the
		 * first difference counted as noise, raising the target with
		 * every oscillation) adds nothing; independent noise of
		 * deviation s adds about 1.2 s, alternation its full swing.
		 */
		s64 d2 = (s64)qd_us - 2 * (s64)law->qd_us + (s64)law->qd2_us;
		u64 d = (u64)(d2 < 0 ? -d2 : d2) / 2;

		if (d > RAPID_GROWTH_MAX)
			d = RAPID_GROWTH_MAX;
		law->noise_us = law->noise_us - (law->noise_us >> 3) +
				((u32)d >> 3);
	}
	law->qd2_us = law->valid ? law->qd_us : qd_us;
	law->qd_us = qd_us;
	if (!law->win_t_us || now_us - law->win_t_us >=
	    (srtt_us * 4 > RAPID_COMPETE_WIN_US ? srtt_us * 4 :
	     RAPID_COMPETE_WIN_US)) {
		law->prev_min_us = law->win_t_us ? law->win_min_us : qd_us;
		law->win_min_us = qd_us;
		law->win_t_us = now_us ? now_us : 1;
	} else if (qd_us < law->win_min_us) {
		law->win_min_us = qd_us;
	}
	if (!law->valid) {
		law->ref_t_us = now_us;
		law->ref_qd_us = qd_us;
		law->growth_ppm = 0;
		law->valid = 1;
		return;
	}
	dt = now_us - law->ref_t_us;
	if ((s32)dt <= 0 || dt < srtt_us / 2)
		return;
	dq = (s64)qd_us - (s64)law->ref_qd_us;
	g = div64_s64(dq * RAPID_PPM, dt);
	if (g > RAPID_GROWTH_MAX)
		g = RAPID_GROWTH_MAX;
	if (g < -RAPID_GROWTH_MAX)
		g = -RAPID_GROWTH_MAX;
	law->growth_ppm = (s32)g;
	if (dt >= srtt_us) {
		law->ref_t_us = now_us;
		law->ref_qd_us = qd_us;
	}
}

/* The queue's floor (us): its lowest value over the last one to two windows. */
static inline u32 rapid_law_floor(const struct rapid_law *law)
{
	return law->win_min_us < law->prev_min_us ? law->win_min_us :
	       law->prev_min_us;
}

/*
 * Update law->compete from the floor; base_us is the path's minimum RTT,
 * r_avg the flow's rate (B/s) and now_us the clock.  The end of competing
 * starts the keep (cfg->keep_milli of r_avg, for cfg->keep_us); competing
 * again, the keep's time running out or compete switched off end it.
 */
static inline bool rapid_law_competing(struct rapid_law *law,
				       const struct rapid_cfg *cfg, u32 base_us,
				       u64 r_avg, u32 now_us)
{
	u32 thr = cfg->compete_us, floor = rapid_law_floor(law);
	u8 was = law->compete;

	if (thr < base_us / RAPID_COMPETE_BASE_DIV)
		thr = base_us / RAPID_COMPETE_BASE_DIV;
	if (!cfg->compete)
		law->compete = 0;
	else if (floor > thr)
		law->compete = 1;
	else if (floor < thr / RAPID_COMPETE_EXIT_DIV)
		law->compete = 0;
	if (law->compete && !was)
		law->compete_t_us = now_us;
	if (law->compete || !cfg->compete ||
	    (u32)(now_us - law->keep_t_us) >= cfg->keep_us)
		law->keep_rate = 0;
	if (was && !law->compete && cfg->compete && cfg->keep_us &&
	    (u32)(now_us - law->compete_t_us) >= cfg->keep_arm_us) {
		law->keep_rate = div_u64(rapid_rate_clamp(r_avg, 0,
							  RAPID_RATE_MAX) *
					 cfg->keep_milli, 1000);
		law->keep_t_us = now_us;
	}
	return law->compete;
}

/*
 * The report's law's decrease to `abest` (B/s) after competing ended: no
 * lower than the keep while it lasts, and never up (r_avg, B/s).
 */
static inline u64 rapid_law_keep(const struct rapid_law *law, u64 r_avg,
				 u64 abest)
{
	u64 keep = law->keep_rate < r_avg ? law->keep_rate : r_avg;

	return abest < keep ? keep : abest;
}

/*
 * How many flows increase together with this one, from how ABest answers
 * its own increases (docs/rapid.md, "Counting the flows").  ABest is C
 * less everything but this flow: a flow alone sees it unmoved by its own
 * increases, while each of n flows rising together sees it fall by the
 * others' increases, n - 1 times its own.  Over windows of one srtt, the
 * fall of the estimate in a window (the path as it was a round trip
 * earlier) is set against the flow's own rise in the window before; a
 * window after a rise of at least 1/RAPID_NEST_MIN_RISE of r_avg gives the
 * sample 1 + fall / rise, averaged with gain 1/4 into n_est.  The queue
 * law's increases then use tau x n_est: the aggregate's gain stays that
 * of one flow however many share the path, and a lone flow keeps tau.
 */
#define RAPID_NEST_ONE		16U	/* n_est's unit: 1 flow */
#define RAPID_NEST_MAX		(64U * RAPID_NEST_ONE)
#define RAPID_NEST_MIN_RISE	32U	/* rises below r_avg / this: no sample */
/* The report's count: signed samples kept plus this (all > 0) */
#define RAPID_NEST_BIAS		RAPID_NEST_MAX
/* ... and its windows last at least tau >> this */
#define RAPID_NEST_WIN_TAU_SHIFT 4

static inline u32 rapid_median3(u32 a, u32 b, u32 c)
{
	if (a > b) {
		u32 t = a;

		a = b;
		b = t;
	}
	/* a <= b */
	return c <= a ? a : c >= b ? b : c;
}

/* The count's next window starts now: r_avg and ABest at its start. */
static inline void rapid_law_count_next(struct rapid_law *law, u64 abest,
					u64 r_avg, u32 now_us)
{
	law->n_r[0] = law->n_r[1];
	law->n_r[1] = r_avg;
	law->n_a = abest;
	law->n_t_us = now_us ? now_us : 1;
}

/*
 * Has the count's window of win_us closed?  The first call (or the first
 * after n_t_us was cleared) opens it with no rise behind it; a clock from
 * before its start closes nothing.
 */
static inline bool rapid_law_count_due(struct rapid_law *law, u64 abest,
				       u64 r_avg, u32 win_us, u32 now_us)
{
	if (!law->n_est)
		law->n_est = RAPID_NEST_ONE;
	if (!law->n_t_us) {
		law->n_r[1] = r_avg;
		rapid_law_count_next(law, abest, r_avg, now_us);
		return false;
	}
	return (s32)(now_us - law->n_t_us) >= 0 &&
	       now_us - law->n_t_us >= win_us;
}

static inline void rapid_law_count_flows(struct rapid_law *law, u64 abest,
					 u64 r_avg, u32 srtt_us, u32 now_us)
{
	u64 rise, fall, s;
	u16 prev;

	if (!rapid_law_count_due(law, abest, r_avg, srtt_us, now_us))
		return;
	if (law->n_r[1] > law->n_r[0] &&
	    law->n_r[1] - law->n_r[0] >= law->n_r[1] / RAPID_NEST_MIN_RISE) {
		rise = law->n_r[1] - law->n_r[0];
		fall = law->n_a > abest ? law->n_a - abest : 0;
		/* fall / rise <= 64: no overflow, the sample within the max */
		if (fall > rise * (RAPID_NEST_MAX / RAPID_NEST_ONE))
			fall = rise * (RAPID_NEST_MAX / RAPID_NEST_ONE);
		s = RAPID_NEST_ONE + div64_u64(fall * RAPID_NEST_ONE, rise);
		if (s > RAPID_NEST_MAX)
			s = RAPID_NEST_MAX;
		/*
		 * The median of the newest three samples: one step of cross
		 * traffic during a rise (a fall that is not the others'
		 * increases) moves nothing.
		 */
		law->n_s[2] = law->n_s[1];
		law->n_s[1] = law->n_s[0];
		law->n_s[0] = (u16)s;
		s = rapid_median3(law->n_s[0], law->n_s[1] ? law->n_s[1] : s,
				  law->n_s[2] ? law->n_s[2] : s);
		prev = law->n_est;
		law->n_est = (u16)((3U * prev + (u32)s + 2U) / 4U);
	}
	rapid_law_count_next(law, abest, r_avg, now_us);
}

/*
 * The report's count (cfg->count_report, docs/rapid-deviations.md#count-report
 * and #count-signed): the same windows, fall and rise, but
 *  - against the rise without the count's own slowing (the rise times the
 *    count in force), in the gate as in the sample: every flow samples
 *    1 + the others' rises / its unslowed step, whatever its own count, so
 *    the counts of flows sharing a path converge; and a high count no
 *    longer slows the rises below the gate and stops its own samples;
 *  - signed: a window whose estimate rose gives 1 - rise of the estimate /
 *    own rise, down to 2 - RAPID_NEST_MAX / RAPID_NEST_ONE flows.  The
 *    noise of a lone flow's estimates then averages to 1 flow instead of
 *    counting its falls alone (the lab, a CPU-bound 500 Mbit/s path:
 *    estimates of 260-450 Mbit/s with bursts of 80-120, a lone flow
 *    counted 2.4-10.9 flows);
 *  - the median's missing samples are 1 flow, so one sample alone moves
 *    nothing;
 *  - the EWMA (n_acc) moves at least 1/16 towards each median (the
 *    rounding of gain 1/4 left a dead band of -2..+1 sixteenths, where two
 *    flows could sit 10-20% apart for good); n_est is n_acc, at least 1.
 * The caller gives windows of at least tau >> RAPID_NEST_WIN_TAU_SHIFT:
 * at 20 ms a flow rising at its full Eq. 6 pace met the gate only with a
 * spare of twice its rate.
 */
static inline void rapid_law_count_report(struct rapid_law *law, u64 abest,
					  u64 r_avg, u32 win_us, u32 now_us,
					  u32 up_milli)
{
	const u32 one = RAPID_NEST_BIAS + RAPID_NEST_ONE;
	u64 rise, fall, up, lim;
	u32 s, prev;

	if (!rapid_law_count_due(law, abest, r_avg, win_us, now_us))
		return;
	rise = law->n_r[1] > law->n_r[0] ? law->n_r[1] - law->n_r[0] : 0;
	if (law->n_est > RAPID_NEST_ONE)
		rise = div_u64(rise * law->n_est, RAPID_NEST_ONE);
	if (rise && rise >= law->n_r[1] / RAPID_NEST_MIN_RISE) {
		/* |fall| / rise <= 62: the sample within 2 .. 2 BIAS */
		lim = rise * (RAPID_NEST_MAX / RAPID_NEST_ONE - 2);
		fall = law->n_a > abest ? law->n_a - abest : 0;
		up = abest > law->n_a ? abest - law->n_a : 0;
		if (fall > lim)
			fall = lim;
		if (up > lim)
			up = lim;
		/* up <= 62 rise < 2^40, up_milli <= 1000 < 2^10 */
		if (up_milli < RAPID_COUNT_UP_MILLI_MAX)
			up = div_u64(up * up_milli, RAPID_COUNT_UP_MILLI_MAX);
		s = one + (u32)div64_u64(fall * RAPID_NEST_ONE, rise) -
		    (u32)div64_u64(up * RAPID_NEST_ONE, rise);
		law->n_s[2] = law->n_s[1];
		law->n_s[1] = law->n_s[0];
		law->n_s[0] = (u16)s;
		s = rapid_median3(s, law->n_s[1] ? law->n_s[1] : one,
				  law->n_s[2] ? law->n_s[2] : one);
		prev = law->n_acc ? law->n_acc : one;
		law->n_acc = (u16)((3U * prev + s + 2U) / 4U);
		if (law->n_acc == prev && s != prev)
			law->n_acc = (u16)(s > prev ? prev + 1 : prev - 1);
		law->n_est = (u16)(law->n_acc > one ?
				   law->n_acc - RAPID_NEST_BIAS :
				   RAPID_NEST_ONE);
	}
	rapid_law_count_next(law, abest, r_avg, now_us);
}

/*
 * The queue law (cfg->law = RAPID_LAW_QUEUE; ours, docs/rapid.md "The
 * queue law").  r_avg is an integrator:
 *  - a growing queue (above the noise: target + 2 x noise) cuts it by
 *    1 / (1 + growth), at most once per round trip (streams launched after
 *    the last cut), which removes the excess rate exactly however many
 *    flows share the bottleneck, each in proportion to its rate;
 *  - with the queue at its target or below and not growing, a higher
 *    estimate raises it by Eq. 6, with tau multiplied by tau_x when
 *    cfg->adapt_tau (raised by every cut of an overshoot above
 *    RAPID_GROWTH_BIG to its level, rapid_law_raise_tau(): competing
 *    flows slow their increases alike, a lone flow
 *    keeps the report's tau);
 *  - without a queue and without a higher estimate (abest = 0: the stream
 *    clock, rapid_ctl_law_tick()) it probes up by cfg->probe_milli of
 *    r_avg per srtt: on a path whose delay noise the estimator reads as
 *    congestion it still finds the rate, as a delay-based window would;
 *  - otherwise it holds: a lower estimate without a queue is noise.
 * The standing queue above the target is drained by sending below r_avg
 * (rapid_law_drain_rate()), not by lowering it: once the queue is gone
 * the flow is back at r_avg, with no undershoot.  While competing
 * (struct rapid_law's compete) the queue level neither drains nor stops
 * increases; growth and loss still cut.
 */
static inline u64 rapid_law_step(struct rapid_ctl *ctl,
				 const struct rapid_cfg *cfg,
				 struct rapid_law *law, u32 id, u64 abest,
				 u32 mss, u32 srtt_us, u32 now_us)
{
	u64 r = ctl->r_avg, next;
	s64 g = law->growth_ppm;
	u32 target, mult;

	if (!law->tau_x)
		law->tau_x = 1;
	if (abest && cfg->count_flows)
		rapid_law_count_flows(law, abest, r, srtt_us, now_us);
	/* noise: a target above it, a growth that clears it */
	target = cfg->q_target_us + 2 * law->noise_us;
	if (g > RAPID_GROWTH_MIN && law->qd_us <= target)
		g = 0;
	/*
	 * While competing the queue's growth is mostly the competitor's: a
	 * cut for it hands the competitor the rate (vscubic in the scale
	 * engine: 0.82-0.87 of a fair share with these cuts, 0.95-1.06
	 * without); the loss responses stay.
	 */
	if (g > RAPID_GROWTH_MIN && !law->compete &&
	    (!law->dec_id || rapid_id_after(id, law->dec_id))) {
		law->dec_id = ctl->launched_id ? ctl->launched_id : id;
		if (cfg->adapt_tau && g > RAPID_GROWTH_BIG)
			rapid_law_raise_tau(law, g);
		law->tau_t_us = now_us;
		return div64_u64(r * RAPID_PPM, RAPID_PPM + g);
	}
	if (law->tau_x > 1 && srtt_us &&
	    now_us - law->tau_t_us >= RAPID_TAU_X_DECAY_RTTS * srtt_us) {
		law->tau_x--;
		law->tau_t_us = now_us;
	}
	if (g > RAPID_GROWTH_MIN ||
	    (law->qd_us > target && !law->compete))
		return r;
	/*
	 * No queue, no growth, and an estimate at or below r_avg: on a noisy
	 * path the estimate reads noise as congestion, so probe like a
	 * delay-based window would, probe_milli of r_avg per srtt, until the
	 * queue answers; while competing at least compete_pkts packets per
	 * srtt, as a loss-based window grows.
	 */
	if (abest <= r) {
		u64 l_ns, step;

		if (abest || !srtt_us ||
		    (!cfg->probe_milli && !(law->compete && cfg->compete_pkts)))
			return r;
		l_ns = rapid_stream_duration_ns(ctl->n, mss ? mss : 1, r);
		if (l_ns > (u64)srtt_us * 1000)
			l_ns = (u64)srtt_us * 1000;
		step = div64_u64(div_u64(r * cfg->probe_milli, RAPID_M_SCALE) *
				 l_ns, (u64)srtt_us * 1000);
		if (law->compete && cfg->compete_pkts) {
			/* compete_pkts * mss per srtt every srtt: B/s per srtt */
			u64 add = rapid_pkts_rate(cfg->compete_pkts, mss,
						  srtt_us);

			add = div64_u64(add * l_ns, (u64)srtt_us * 1000);
			if (add > step)
				step = add;
		}
		return r + (step ? step : 1);
	}
	/* tau x max(tau_x, n_est): n_est in 1/RAPID_NEST_ONE */
	mult = law->tau_x * RAPID_NEST_ONE;
	if (cfg->count_flows && law->n_est > mult)
		mult = law->n_est;
	next = rapid_filter_increase(r, abest, ctl->n, mss,
				     div_u64(cfg->tau_ns * mult,
					     RAPID_NEST_ONE));
	return next;
}

/* Set r_avg to next (clamped) and say which way it moved. */
static inline enum rapid_ev rapid_ctl_law_apply(struct rapid_ctl *ctl,
						const struct rapid_cfg *cfg,
						u64 next)
{
	enum rapid_ev ev;

	next = rapid_rate_clamp(next, cfg->min_rate, cfg->max_rate);
	if (next == ctl->r_avg)
		return RAPID_EV_NONE;
	ev = next > ctl->r_avg ? RAPID_EV_INCREASE : RAPID_EV_DECREASE;
	ctl->r_avg = next;
	return ev;
}

/*
 * The queue law's clock: stream `id` completed (its queue sample is in
 * law).  Cuts for a growing queue and probes without one, whether or not
 * the stream gave an estimate (on a noisy path most give none); under the
 * report's law only while competing.  Returns RAPID_EV_DECREASE /
 * _INCREASE / _NONE.
 */
static inline enum rapid_ev rapid_ctl_law_tick(struct rapid_ctl *ctl,
					       const struct rapid_cfg *cfg,
					       struct rapid_law *law, u32 id,
					       u32 mss, u32 srtt_us, u32 now_us)
{
	if (!ctl->n || ctl->phase != RAPID_PHASE_STEADY || ctl->refine ||
	    (cfg->law != RAPID_LAW_QUEUE && !(cfg->compete && law->compete)))
		return RAPID_EV_NONE;
	return rapid_ctl_law_apply(ctl, cfg, rapid_law_step(ctl, cfg, law, id,
							    0, mss, srtt_us,
							    now_us));
}

/*
 * rapid_law_track_max() - the highest estimate of about the last @span_us
 * (slow start's included): each update first takes away the share
 * (now - last) / span of it (over many updates an exponential decay with
 * time constant @span_us; after a silence of @span_us it is gone), then
 * keeps @abest if higher.
 */
static inline void rapid_law_track_max(struct rapid_law *law, u64 abest,
				       u32 span_us, u32 now_us)
{
	u32 dt = now_us - law->ab_max_t_us;

	if (!span_us)
		return;
	if ((s32)dt < 0)
		dt = 0;
	if (dt >= span_us)
		law->ab_max = 0;
	else	/* ab_max < 2^35, dt < 2^32: split to stay within 64 bits */
		law->ab_max -= div_u64((law->ab_max >> 8) * dt, span_us) << 8;
	if (abest > law->ab_max)
		law->ab_max = abest;
	law->ab_max_t_us = now_us;
}

/*
 * rapid_ctl_cut_share() - the cut a lower estimate asks for, scaled by the
 * flow's share (ours, docs/rapid-deviations.md#cut-share).  Each of n
 * flows on a link sees an overshoot E of the aggregate as its own r_avg -
 * E; all of them cutting E removes n E (twelve flows at 50 Mbit/s: the
 * link 93% used in the scale engine, against 98% when each flow cut E r_avg
 * / C with the link's capacity C, which removes E in all).  C is not
 * known; the highest estimate of the last seconds, @ab_max (ABest is C
 * less the others, so its peaks come when the others are low) stands in
 * for it: a lone flow's ab_max is about its own rate and it cuts the
 * whole E as before; a flow with a small share cuts a small part of E.
 * Opt-in: the stand-in tracks the flow's own noise, and at 1 Gbit/s with
 * 24-100 flows the noisier long-RTT flows cut less and took twice the
 * others' rate (the doc above).  Returns the scaled estimate (at most
 * r_avg - 1 when @abest < @r: it stays a decrease).
 */
static inline u64 rapid_ctl_cut_share(u64 r, u64 abest, u64 ab_max)
{
	u64 share;

	if (abest >= r || ab_max <= r)
		return abest;
	/* r < ab_max < 2^35: share in (0, 2^16), cut * share < 2^51 */
	share = div64_u64(r << 16, ab_max);
	return r - ((((r - abest) * share) >> 16) ?: 1);
}

/*
 * The bytes of a flow at r_avg (B/s, at most RAPID_RATE_MAX) that a FIFO
 * queue of qd_us (at most RAPID_SHARE_QD_MAX_US) holds: qd * r_avg.
 */
static inline u64 rapid_queue_held(u32 qd_us, u64 r_avg)
{
	if (r_avg > RAPID_RATE_MAX)
		r_avg = RAPID_RATE_MAX;
	if (qd_us > RAPID_SHARE_QD_MAX_US)
		qd_us = RAPID_SHARE_QD_MAX_US;
	/* bytes: r_avg < 2^34 B/s, qd_us < 2^26 us */
	return div64_u64(r_avg * qd_us, RAPID_USEC_PER_SEC);
}

/*
 * rapid_ctl_fair_cut() - the fair cut (ours,
 * docs/rapid-deviations.md#fair-cut).  The report's law cannot move two
 * flows' shares together: each flow's estimate comes out of its own
 * stream's range of rates, so the gap ABest - r_avg it closes grows with
 * r_avg (rttfair in the scale engine: 23 and 13 Mbit/s, median estimates
 * 1.2 and 1.1 times each one's r_avg), and its cuts are bounded by a share
 * of r_avg: increases and decreases both in proportion to the rate, which
 * leaves any split where it is (Chiu and Jain).  The one signal the flows
 * share is the queue, and a FIFO queue of one delay qd holds each flow's
 * packets in proportion to its rate, qd * r_avg (FAST TCP's equilibrium:
 * alpha packets per flow).  So a flow that holds more than @pkts packets
 * of it takes no increase but moves towards the rate that would hold
 * @pkts, r_avg * pkts * mss / held, by l / (tau >> RAPID_FAIR_TAU_SHIFT)
 * of the distance per stream of duration l; the flows at a smaller share,
 * which hold fewer, keep rising.  A queue below @prev_qd_us, the stream
 * before's sample, is draining: the flows together already send less than
 * the link, and a cut then only widens the gap that Eq. 6 must close (the
 * scale engine's dynamic: after the 1-s blip of cross traffic a lone flow
 * went on cutting from 30 to 21 Mbit/s while its own overshoot drained,
 * against an avail-bw of 38; docs/rapid-deviations.md#fair-cut-drain).
 * Opt-in (cfg->fair_pkts 0 by default).
 * @pkts is large enough (32: 0.77 ms at 500 Mbit/s, 19 ms for each of
 * two flows at 40 Mbit/s) that a lone flow's
 * own queue seldom reaches it: it acts on the queues a joining flow's slow
 * start or a common overshoot raise, and on fast links.  Returns the rate
 * (below @r), or 0 when the cut does not apply.
 */
static inline u64 rapid_ctl_fair_cut(u64 r, u32 qd_us, u32 prev_qd_us,
				     u32 pkts, u32 n, u32 mss, u64 tau_ns)
{
	u64 held, cut;

	if (!pkts || !qd_us || !r || !mss || qd_us < prev_qd_us)
		return 0;
	if (pkts > RAPID_FAIR_PKTS_MAX)
		pkts = RAPID_FAIR_PKTS_MAX;
	if (r > RAPID_RATE_MAX)
		r = RAPID_RATE_MAX;
	held = rapid_queue_held(qd_us, r);
	if (held <= (u64)pkts * mss)
		return 0;
	/* to the fair rate: r * pkts * mss < 2^34 * 2^10 * 2^16 */
	cut = r - div64_u64(r * pkts * mss, held);
	/* cut < 2^34, the fraction <= 2^24 */
	cut = (cut * rapid_stream_tau_frac(n, mss, r,
					   tau_ns >> RAPID_FAIR_TAU_SHIFT)) >>
	      RAPID_FRAC_SHIFT;
	return r - (cut ? cut : 1);
}

/*
 * rapid_ctl_ai_step() - the equal additive increase (ours,
 * docs/rapid-deviations.md#additive).  Eq. 6 raises r_avg by l / tau of
 * ABest - r_avg, and a flow's ABest comes out of its own stream's range
 * of rates: at a larger share the gap it reads is larger (rttfair in the
 * scale engine: 27 against 22 Mbit/s of r_avg, 15 against 13), and its
 * cuts are a share of r_avg.  Increases and decreases in proportion to
 * the rate leave any split where it is (Chiu and Jain); an increase the
 * same for every flow, with decreases in proportion, moves the shares
 * together.  So every estimate that does not cut raises r_avg by at least
 * @pkts packets per RAPID_AI_T_US, times l / tau (l the duration of a
 * stream at r_avg): at 4 packets of 1448 B about 0.8 Mbit/s per second
 * with tau 1.2 s, whatever the flow's rate.  It stops while the flow
 * holds @pkts of its own packets in the standing queue, qd * r_avg
 * (FAST TCP's alpha): n flows that all add it stand at most n * @pkts
 * packets of queue before their estimates say the link is full.  Returns
 * the increase in B/s, 0 when it does not apply.
 */
static inline u64 rapid_ctl_ai_step(u64 r, u32 qd_us, u32 pkts, u32 n,
				    u32 mss, u64 tau_ns)
{
	u64 held, want, ai;

	if (!pkts || !r || !mss)
		return 0;
	if (pkts > RAPID_AI_PKTS_MAX)
		pkts = RAPID_AI_PKTS_MAX;
	if (r > RAPID_RATE_MAX)
		r = RAPID_RATE_MAX;
	held = rapid_queue_held(qd_us, r);
	want = (u64)pkts * mss;		/* < 2^6 * 2^16 */
	if (held >= want)
		return 0;
	/* B/s: (want - held) * 10^6 < 2^22 * 2^20 */
	ai = div_u64((want - held) * RAPID_USEC_PER_SEC, RAPID_AI_T_US);
	/* ai < 2^23, the fraction <= 2^24 */
	return (ai * rapid_stream_tau_frac(n, mss, r, tau_ns)) >>
	       RAPID_FRAC_SHIFT;
}

/*
 * rapid_ctl_ai_pkts() - the packets of the equal additive increase for
 * this estimate: cfg->ai_pkts while the report's count runs and reads at
 * least RAPID_AI_GATE_NEST (another flow shares the path), 0 otherwise
 * (a lone flow, a path that reorders, the refinement).
 */
static inline u32 rapid_ctl_ai_pkts(const struct rapid_cfg *cfg,
				    const struct rapid_law *law, bool counting)
{
	if (!counting || !law || law->n_est < RAPID_AI_GATE_NEST)
		return 0;
	return cfg->ai_pkts;
}

/*
 * The largest cut of r_avg by one estimate, 1/1000: cut_max, or the
 * standing queue's share of the drain time T, qd / T, when that is larger
 * (at most RAPID_CUT_MAX_MAX; t_us 0: cut_max alone).  Small cuts keep a
 * flow's rate through its estimator's noise and many flows' aggregate
 * near the link after an overshoot (one estimate of each of n flows shows
 * it); a queue that has grown to a share of T says the flows together
 * send that much too fast, and they must be able to give it up within a
 * few estimates (docs/rapid-deviations.md#cut-deep).
 */
static inline u32 rapid_cut_bound(u32 cut_max, u32 qd_us, u32 t_us)
{
	u64 deep;

	if (!t_us || !qd_us)
		return cut_max;
	if (qd_us >= t_us)
		return RAPID_CUT_MAX_MAX;
	deep = div_u64((u64)qd_us * RAPID_CUT_MAX_MAX, t_us);
	return deep > cut_max ? (u32)deep : cut_max;
}

/*
 * A steady-state estimate `abest` below r_avg under the report's law: the
 * rate to adopt (ours, docs/rapid-deviations.md#many-flows).  The report
 * adopts it at once.  With n flows on a link each flow's ABest is the link
 * less the others' rates, so an overshoot E of the aggregate shows in
 * every flow's estimate as r_avg - E, and every flow cutting by E cuts the
 * aggregate by n E: twelve flows at 50 Mbit/s fell to 40-50% of the link
 * after each overshoot, and equal cuts leave the shares where they were.
 * So one estimate cuts at most cfg->cut_max / 1000 of r_avg (a
 * multiplicative bound: the larger flow gives up more, which drives the
 * shares together), or the standing queue's share of T when that is
 * larger (rapid_cut_bound()), and the next estimates cut again if the
 * queue says so.  And a lower estimate within cfg->hold_milli / 1000 of
 * r_avg while there is no standing queue (cfg->queue_free) is the
 * estimator's noise: were r_avg above the avail-bw, a queue would be
 * building (a lone flow at 95% of the avail-bw got a pair of estimates 15%
 * low every 1.5 s and sat at 90% of it).  While the path reorders
 * (cfg->reorders) and cfg->reorder_hold, any lower estimate is held
 * without a standing queue: the queue, measured from the streams'
 * median RTTs, is the signal there (RAPID_DEF_REORDER_HOLD).
 */
static inline u64 rapid_ctl_decrease_to(const struct rapid_ctl *ctl,
					const struct rapid_cfg *cfg, u64 abest)
{
	u64 r = ctl->r_avg, floor;
	u32 cut;

	if (abest >= r)
		return abest;
	if (cfg->queue_peers)
		return r;
	if (cfg->reorders && cfg->reorder_hold && cfg->queue_free)
		return r;
	cut = cfg->cut_max ? rapid_cut_bound(cfg->cut_max, cfg->qd_us,
					     cfg->cut_t_us) : 0;
	/* r <= RAPID_RATE_MAX < 2^34, the shares <= 1000 < 2^10 */
	if (cfg->queue_free && cfg->hold_milli &&
	    r - abest <= div_u64(r * cfg->hold_milli, 1000))
		return r;
	if (!cut || cut >= RAPID_CUT_MAX_MAX)	/* 0: no bound either */
		return abest;
	floor = r - div_u64(r * cut, 1000);
	return abest > floor ? abest : floor;
}

/*
 * The refinement's wide streams (refine_m, RAPID_DEF_REFINE_M) end at the
 * first estimate (the median) of a stream sent at the current r_avg more
 * than 1/2^RAPID_WIDE_FOUND_SHIFT below its top, which found a trend, or
 * with the refinement; the streams after probe with m.  Steady state only
 * (rapid_ctl_on_abest_law()).
 */
#define RAPID_WIDE_FOUND_SHIFT	3

static inline void rapid_ctl_refine_narrow(struct rapid_ctl *ctl,
					   const struct rapid_cfg *cfg,
					   u32 id, u64 abest)
{
	struct rapid_schedule s;
	u64 top;

	if (!ctl->wide)
		return;
	if (ctl->refine) {
		if (rapid_ctl_stale(ctl, id))
			return;
		rapid_ctl_schedule(ctl, &s);
		top = rapid_schedule_top(&s);
		if (abest >= top - (top >> RAPID_WIDE_FOUND_SHIFT))
			return;
	}
	ctl->wide = 0;
	rapid_ctl_set_params(ctl, cfg->n, cfg->m);
}

/*
 * ABest (B/s) for p-stream `id` arrived (Sections 3.1.3, 3.1.5, 3.2.2).
 * mss is the packet size P of Eq. 6.  Returns what it did; the new r_avg,
 * n and m are in ctl (rapid_ctl_schedule()).
 *
 * Slow start: while ABest is the stream's top rate (no trend), double N (up
 * to ss_n_max) and set r_1 = ABest (at most the probed top); the first
 * ABest below the top ends slow start with r_avg = ABest (at most
 * cfg->ss_exit_cap) and the steady-state N and m (cfg->refine_m until
 * rapid_ctl_refine_narrow()).  Only streams sent with
 * the current parameters count.  Steady state: higher ABest through the
 * tau filter (at once after slow start until the first estimate below
 * r_avg, for at most cfg->ss_refine streams), lower through
 * rapid_ctl_decrease_to() (the report adopts it at once), where ABest is
 * the median of the newest cfg->median estimates kept in hist (NULL: each
 * estimate alone, the report's rule).
 * With cfg->law = RAPID_LAW_QUEUE and law state, or while law->compete
 * (rapid_law_competing(), either law), steady state (after the refinement)
 * follows rapid_law_step() instead; srtt_us and now_us are its clock.
 * Always clamped to [min_rate, max_rate].
 */
static inline enum rapid_ev rapid_ctl_on_abest_law(struct rapid_ctl *ctl,
						   const struct rapid_cfg *cfg,
						   struct rapid_abest_hist *hist,
						   struct rapid_law *law,
						   u32 id, u64 abest, u32 mss,
						   u32 srtt_us, u32 now_us)
{
	enum rapid_ev ev;
	u64 top, r_1;
	bool refining, counting;
	u32 n, acc = 0;

	if (!ctl->n || ctl->phase == RAPID_PHASE_FIXED)
		return RAPID_EV_IGNORED;
	if (ctl->last_id && !rapid_id_after(id, ctl->last_id))
		return RAPID_EV_IGNORED;
	abest = rapid_rate_clamp(abest, 1, RAPID_RATE_MAX);
	if (law)
		rapid_law_track_max(law, abest, cfg->cut_share_us, now_us);

	if (ctl->phase == RAPID_PHASE_SS) {
		struct rapid_schedule s;

		if (rapid_ctl_stale(ctl, id))
			return RAPID_EV_IGNORED;	/* probed with old params */
		ctl->last_id = id;
		ctl->undo_r_avg = 0;
		rapid_ctl_schedule(ctl, &s);
		top = rapid_schedule_top(&s);
		if (!rapid_abest_is_top(abest, top) || top >= cfg->max_rate) {
			if (cfg->ss_exit_cap && abest > cfg->ss_exit_cap)
				abest = cfg->ss_exit_cap;
			if (abest < cfg->steady_floor)
				abest = cfg->steady_floor;
			rapid_ctl_enter_steady(ctl, cfg, abest);
			ctl->refine = cfg->ss_refine;
			if (ctl->refine && cfg->refine_m) {
				ctl->wide = 1;
				rapid_ctl_set_params(ctl, cfg->n, cfg->refine_m);
			}
			if (hist) {
				rapid_hist_reset(hist);
				rapid_hist_push_median(hist, abest, cfg->median);
			}
			return RAPID_EV_SS_EXIT;
		}
		r_1 = abest < top ? abest : top;
		if (cfg->ss_r1_cap && r_1 > cfg->ss_r1_cap)
			r_1 = cfg->ss_r1_cap;
		n = 2U * ctl->n;
		if (n > cfg->ss_n_max)
			n = cfg->ss_n_max;
		rapid_ctl_enter_ss(ctl, cfg, n, r_1);
		return RAPID_EV_SS_GROW;
	}

	ctl->last_id = id;
	ctl->undo_r_avg = 0;	/* fresh information: no undo past it */
	if (hist) {
		/*
		 * pace_drain: the level is made of the estimates that leave
		 * the window the jump judges (rapid_jump_window()), so that
		 * a step is judged against the path before it; fed the
		 * newest too, it had risen by a third of a 40% step when the
		 * third estimate of the step came, and the jump missed its
		 * margin (scale engine, dynamic).
		 */
		u32 w = rapid_jump_window(cfg);

		if (!cfg->pace_drain || !hist->jump_lvl)
			rapid_jump_level(hist, abest);
		else if (hist->count >= w && hist->next < RAPID_MEDIAN_MAX)
			rapid_jump_level(hist, rapid_hist_newest(hist, w - 1));
		abest = rapid_hist_push_median(hist, abest, cfg->median);
	}
	refining = ctl->refine != 0;
	rapid_ctl_refine_narrow(ctl, cfg, id, abest);
	/*
	 * After slow start the rate is found at the second estimate in a row
	 * below r_avg (an equal one is the median lagging a ramp by one
	 * stream).  One alone is no proof: early in the refinement the median
	 * still holds slow start's exit, capped to what the path delivered,
	 * and the stream after one the receive window held back and released
	 * as a burst reads that burst's queue (demo: 8.5-18 Mbit/s on an idle
	 * 50 Mbit/s path, then 48-51 again; ending there left r_avg at the
	 * exit's 75% of the link, docs/rapid-deviations.md#exit-refinement).
	 */
	if (refining && abest < ctl->r_avg && !ctl->refine_low) {
		ctl->refine_low = 1;
		return RAPID_EV_NONE;
	}
	/*
	 * Only streams sent at the newest r_avg spend the budget: at a high
	 * rate a round trip holds more than ss_refine streams, and those
	 * still in flight from before a raise report at most their own
	 * lower top (1 Gbit/s, 100 ms: 24 round trips to the link instead
	 * of 9, docs/rapid-deviations.md#exit-refinement).
	 */
	if (refining) {
		if (abest < ctl->r_avg)
			ctl->refine = 0;
		else if (!rapid_ctl_stale(ctl, id))
			ctl->refine--;
		ctl->refine_low = 0;
		rapid_ctl_refine_narrow(ctl, cfg, id, abest);
	}
	if (law && !refining &&
	    (cfg->law == RAPID_LAW_QUEUE || (cfg->compete && law->compete)))
		return rapid_ctl_law_apply(ctl, cfg,
					   rapid_law_step(ctl, cfg, law, id,
							  abest, mss, srtt_us,
							  now_us));
	if (!refining && hist)
		acc = rapid_accel_step(hist, ctl->r_avg, abest, cfg->accel_max,
				       cfg->queue_free, srtt_us, now_us);
	/*
	 * On a path that reorders the estimates' falls are the analysis'
	 * noise (packets taken as their neighbours' median, streams cut
	 * short), not the others' increases: a lone flow counted itself as
	 * 3-6 flows and rose that much slower (lab jitter, normal 2 ms and
	 * reorder 25%, docs/rapid-deviations.md#count-reorder).  No count
	 * there, and a fresh window once the path delivers in order again.
	 */
	counting = !refining && law && cfg->count_report && !cfg->reorders;
	if (law && cfg->reorders)
		law->n_t_us = 0;
	if (counting) {
		u64 win = div_u64(cfg->tau_ns >> RAPID_NEST_WIN_TAU_SHIFT,
				  RAPID_NSEC_PER_USEC);

		rapid_law_count_report(law, abest, ctl->r_avg,
				       win > srtt_us ? (u32)win : srtt_us,
				       now_us, cfg->count_up_milli);
	}
	if (abest > ctl->r_avg) {
		u64 next = refining ? abest : 0;

		if (!refining && hist)
			next = rapid_jump_step(hist, ctl->r_avg, abest,
					       cfg->jump_milli, srtt_us,
					       now_us, cfg->jump_mean);
		if (!next)	/* refining: next is the estimate */
			next = rapid_ctl_fair_cut(ctl->r_avg, cfg->qd_us,
						  law ? law->qd2_us : 0,
						  cfg->fair_pkts, ctl->n, mss,
						  cfg->tau_ns);
		if (!next) {
			u64 tau = cfg->tau_ns, ai;

			if (counting && law->n_est > RAPID_NEST_ONE)
				tau = div_u64(tau * law->n_est, RAPID_NEST_ONE);
			next = rapid_filter_increase(ctl->r_avg, abest, ctl->n,
						     mss, tau >> acc);
			ai = rapid_ctl_ai_step(ctl->r_avg, cfg->qd_us,
					       rapid_ctl_ai_pkts(cfg, law,
								 counting),
					       ctl->n, mss, cfg->tau_ns);
			if (ctl->r_avg + ai > next)
				next = ctl->r_avg + ai;
		}

		next = rapid_rate_clamp(next, cfg->min_rate, cfg->max_rate);
		if (refining && next > ctl->r_avg)
			ctl->dirty = 1;	/* a new epoch for the budget */
		ev = next == ctl->r_avg ? RAPID_EV_NONE : RAPID_EV_INCREASE;
		ctl->r_avg = next;
	} else {
		if (!refining && hist)
			rapid_jump_step(hist, ctl->r_avg, abest,
					cfg->jump_milli, srtt_us, now_us,
					cfg->jump_mean);
		if (!refining && law && cfg->cut_share_us)
			abest = rapid_ctl_cut_share(ctl->r_avg, abest,
						    law->ab_max);
		if (!refining)
			abest = rapid_ctl_decrease_to(ctl, cfg, abest);
		if (law)
			abest = rapid_law_keep(law, ctl->r_avg, abest);
		if (!refining && abest == ctl->r_avg)	/* held: noise */
			abest += rapid_ctl_ai_step(ctl->r_avg, cfg->qd_us,
						   rapid_ctl_ai_pkts(cfg, law,
								     counting),
						   ctl->n, mss, cfg->tau_ns);
		abest = rapid_rate_clamp(abest, cfg->min_rate, cfg->max_rate);
		ev = abest == ctl->r_avg ? RAPID_EV_NONE :
		     abest > ctl->r_avg ? RAPID_EV_INCREASE :
		     RAPID_EV_DECREASE;
		ctl->r_avg = abest;
	}
	if (hist)
		hist->acc_r = ctl->r_avg;
	return ev;
}

static inline enum rapid_ev rapid_ctl_on_abest_hist(struct rapid_ctl *ctl,
						    const struct rapid_cfg *cfg,
						    struct rapid_abest_hist *hist,
						    u32 id, u64 abest, u32 mss)
{
	return rapid_ctl_on_abest_law(ctl, cfg, hist, NULL, id, abest, mss, 0, 0);
}

/* The report's rule: every estimate acts alone. */
static inline enum rapid_ev rapid_ctl_on_abest(struct rapid_ctl *ctl,
					       const struct rapid_cfg *cfg,
					       u32 id, u64 abest, u32 mss)
{
	return rapid_ctl_on_abest_hist(ctl, cfg, NULL, id, abest, mss);
}

static inline void rapid_ctl_save_undo(struct rapid_ctl *ctl)
{
	ctl->undo_r_avg = ctl->r_avg;
	ctl->undo_phase = ctl->phase;
	ctl->undo_n = ctl->n;
}

/*
 * Stream `id` has been fully acknowledged; `lossy` says whether packets
 * were marked lost while it was the oldest unacknowledged stream.  An
 * isolated loss changes nothing (RAPID is delay-based, and the next ABest
 * reflects real congestion).  Loss in two consecutive completed streams,
 * the second of them sent after the previous reduction, multiplies r_avg by
 * loss_factor / 1000: at most one reduction per round trip, like NewReno's
 * once per window.  Steady state only (slow start reacts on recovery).
 */
static inline enum rapid_ev rapid_ctl_on_stream_done(struct rapid_ctl *ctl,
						     const struct rapid_cfg *cfg,
						     u32 id, bool lossy)
{
	u64 r;

	if (!lossy) {
		ctl->lossy = 0;
		return RAPID_EV_NONE;
	}
	if (ctl->phase != RAPID_PHASE_STEADY)
		return RAPID_EV_NONE;
	if (ctl->lossy < 255)
		ctl->lossy++;
	if (ctl->lossy < 2 || cfg->loss_factor >= RAPID_M_SCALE)
		return RAPID_EV_NONE;
	if (ctl->reduce_id && !rapid_id_after(id, ctl->reduce_id))
		return RAPID_EV_NONE;	/* sent before the last reduction */
	rapid_ctl_save_undo(ctl);
	r = div_u64(ctl->r_avg * cfg->loss_factor, RAPID_M_SCALE);
	ctl->r_avg = rapid_rate_clamp(r, cfg->min_rate, cfg->max_rate);
	ctl->reduce_id = ctl->launched_id;
	ctl->lossy = 0;
	return RAPID_EV_LOSS_REDUCE;
}

/*
 * Fast recovery started.  In slow start a loss means the last stream
 * overshot: leave slow start at its r_1, the rate the previous stream
 * confirmed.  In steady state nothing happens here (see on_stream_done).
 */
static inline enum rapid_ev rapid_ctl_on_recovery(struct rapid_ctl *ctl,
						  const struct rapid_cfg *cfg)
{
	struct rapid_schedule s;
	u64 r_1;

	if (!ctl->n || ctl->phase != RAPID_PHASE_SS)
		return RAPID_EV_NONE;
	rapid_ctl_save_undo(ctl);
	rapid_ctl_schedule(ctl, &s);
	r_1 = rapid_rate_from_fp(s.r1_fp);
	if (r_1 < cfg->steady_floor)
		r_1 = cfg->steady_floor;
	rapid_ctl_enter_steady(ctl, cfg, r_1);
	return RAPID_EV_SS_EXIT;
}

/*
 * Steady state's floor (ours, docs/rapid-deviations.md#compete-join): in
 * steady state raise cfg->min_rate to RAPID_STEADY_FLOOR_PKTS packets of
 * mss bytes per srtt_us (at most cfg->max_rate; nothing when either is
 * unknown), for the estimates and the law's steps.  A flow that joined a
 * link a loss-based flow fills reads an avail-bw of nearly nothing, and
 * the report's law took it to 0.03-0.3 Mbit/s: a 30-packet stream then
 * lasts 2-11 s, its queue is sampled once per stream, and the standing
 * queue that would start competing (rapid_law_competing()) went unseen
 * for tens of seconds.  No TCP goes below two packets per round
 * trip outside an RTO; the loss responses still may (their next estimate
 * brings r_avg back up to it).  cfg->steady_floor holds the floor in slow
 * start too (not in the lab's fixed mode): slow start ends there at least,
 * by an estimate or by a fast recovery (a low early estimate ended it at
 * 0.4 Mbit/s on a 20 ms path, docs/rapid.md "Switching to RAPID").
 */
static inline void rapid_cfg_steady_floor(struct rapid_cfg *cfg,
					  const struct rapid_ctl *ctl,
					  u32 mss, u32 srtt_us)
{
	u64 floor;

	if (ctl->phase == RAPID_PHASE_FIXED)
		return;
	floor = rapid_pkts_rate(RAPID_STEADY_FLOOR_PKTS, mss, srtt_us);
	if (floor > cfg->max_rate)
		floor = cfg->max_rate;
	cfg->steady_floor = floor;
	if (ctl->phase == RAPID_PHASE_STEADY && floor > cfg->min_rate)
		cfg->min_rate = floor;
}

/*
 * The least rate an RTO restarts from: RAPID_RTO_FLOOR_PKTS packets of mss
 * bytes per srtt_us (B/s; 0 when either is unknown).
 */
static inline u64 rapid_rto_floor(u32 mss, u32 srtt_us)
{
	return rapid_pkts_rate(RAPID_RTO_FLOOR_PKTS, mss, srtt_us);
}

/*
 * Retransmission timeout: the path may have collapsed.  Restart slow
 * start (N = 2, m = 2) from r_avg / 4, but not below floor (B/s,
 * rapid_rto_floor(): a few packets per round trip) unless r_avg already
 * is, and not below min_rate.  TCP signals an RTO again when one in the
 * loss state follows an ACK of new data; slow start's estimates come from
 * new data only, so without the floor each such RTO would divide the rate
 * by four again while the retransmissions, paced at it, drain the loss
 * (docs/rapid.md, "Loss responses").
 */
static inline enum rapid_ev rapid_ctl_on_rto(struct rapid_ctl *ctl,
					     const struct rapid_cfg *cfg,
					     u64 floor)
{
	u64 r_1;

	if (!ctl->n || ctl->phase == RAPID_PHASE_FIXED)
		return RAPID_EV_NONE;
	rapid_ctl_save_undo(ctl);
	r_1 = ctl->r_avg >> RAPID_RTO_SHIFT;
	if (r_1 < floor)
		r_1 = floor < ctl->r_avg ? floor : ctl->r_avg;
	rapid_ctl_enter_ss(ctl, cfg, RAPID_SS_N_INIT, r_1);
	return RAPID_EV_RTO;
}

/* TCP found the last loss response spurious: restore what it changed. */
static inline enum rapid_ev rapid_ctl_undo(struct rapid_ctl *ctl,
					   const struct rapid_cfg *cfg)
{
	if (!ctl->undo_r_avg || ctl->phase == RAPID_PHASE_FIXED)
		return RAPID_EV_NONE;
	if (ctl->undo_phase == RAPID_PHASE_SS) {
		ctl->phase = RAPID_PHASE_SS;
		rapid_ctl_set_params(ctl, ctl->undo_n, RAPID_SS_M);
		ctl->dirty = 1;
		ctl->r_avg = ctl->undo_r_avg;
	} else {
		rapid_ctl_enter_steady(ctl, cfg, ctl->undo_r_avg);
	}
	ctl->undo_r_avg = 0;
	return RAPID_EV_UNDO;
}

/*
 * cwnd that never limits a paced flow: twice the packets r_avg puts in
 * flight over srtt, plus two streams, plus RAPID_CWND_EXTRA.  srtt_us = 0
 * (no sample) counts as 1 s.  Saturates at U32_MAX.
 */
static inline u32 rapid_cwnd_target(u64 rate, u64 srtt_us, u32 mss, u32 n)
{
	u64 bdp, cwnd;

	if (!mss)
		mss = 1;
	if (!srtt_us)
		srtt_us = RAPID_USEC_PER_SEC;
	if (srtt_us > RAPID_SRTT_MAX_US)
		srtt_us = RAPID_SRTT_MAX_US;
	rate = rapid_rate_clamp(rate, 1, RAPID_RATE_MAX);
	/* rate < 2^34, srtt < 2^26 */
	bdp = div64_u64(rate * srtt_us + (u64)mss * RAPID_USEC_PER_SEC - 1,
			(u64)mss * RAPID_USEC_PER_SEC);
	cwnd = 2 * bdp + 2ULL * n + RAPID_CWND_EXTRA;
	return cwnd > U32_MAX ? U32_MAX : (u32)cwnd;
}

/*
 * The cwnd RAPID sets on every ACK (tcp_rapid.c, rapid_set_cwnd(); the
 * scale engine's driver calls it too), before the socket's clamp.  Slow
 * start outside loss recovery opens exactly one stream per round trip:
 * @in_flight plus what is left of the stream being sent, or the next
 * stream's N packets once the current one is fully acknowledged
 * (@cur_done) or before the first.  Elsewhere (and during loss recovery,
 * so that retransmissions flow) rapid_cwnd_target() of the higher of the
 * controller's and the current stream's r_avg: a cap pacing never reaches.
 */
static inline u32 rapid_cwnd_want(const struct rapid_ctl *ctl,
				  const struct rapid_cursor *cur, bool cur_done,
				  bool recovery, u32 in_flight, u64 srtt_us,
				  u32 mss)
{
	u32 allow = 0;
	u64 rate;

	if (ctl->phase == RAPID_PHASE_SS && !recovery) {
		if (rapid_cursor_open(cur))
			allow = rapid_cursor_left(cur);
		else if (!cur->k || cur_done)
			allow = ctl->n;
		return in_flight + allow;
	}
	rate = ctl->r_avg > cur->r_avg ? ctl->r_avg : cur->r_avg;
	return rapid_cwnd_target(rate, srtt_us, mss, ctl->n);
}

/*
 * Slow start's floor (ours; docs/rapid-deviations.md#slow-start-floor): a
 * slow-start stream of n packets is sent at least at the rate that spreads
 * it over one smoothed RTT, n * mss / srtt, the pace of TCP's own window.
 * Without it the first paced streams at 100 kbit/s (or at r_avg / 4 after
 * an RTO) last seconds each on a fast path.  Returns 0 without an RTT
 * sample.
 */
static inline u64 rapid_ss_floor(u32 n, u32 mss, u32 srtt_us)
{
	return rapid_pkts_rate(n, mss, srtt_us);	/* n <= 255 */
}

/*
 * A slow-start stream planned as a chirp of N >= RAPID_SS_CHIRP_MIN packets
 * that left as k < RAPID_SS_CHIRP_MIN probed no range of rates (ours,
 * docs/rapid-deviations.md#ss-blank).  TCP sends a connection's first
 * segments as the application writes them, each alone while the window is
 * open (tcp_push_one()), and does not pace them: the first stream of
 * ss_n_init = 8 left as eight streams of one packet.  Their estimate is a
 * stand-in "no trend" at r_avg (rapid_estimate_bound()), and the
 * delivery-rate cap, then one packet per round trip (TCP's first rate
 * sample), ended slow start on it at 0.46 Mbit/s on a 100 Mbit/s path.
 * Such an estimate is not taken; the next stream probes with the same
 * parameters.  The report's first stream, N = 2, is left as it is.
 */
#define RAPID_SS_CHIRP_MIN	3U

static inline bool rapid_ctl_ss_blank(const struct rapid_ctl *ctl, u32 k)
{
	return ctl->phase == RAPID_PHASE_SS && ctl->n >= RAPID_SS_CHIRP_MIN &&
	       k < RAPID_SS_CHIRP_MIN;
}

/* Raise slow start's r_avg to @floor (B/s) as a new slow-start epoch. */
static inline bool rapid_ctl_ss_raise(struct rapid_ctl *ctl,
				      const struct rapid_cfg *cfg, u64 floor)
{
	if (!ctl->n || ctl->phase != RAPID_PHASE_SS)
		return false;
	floor = rapid_rate_clamp(floor, cfg->min_rate, cfg->max_rate);
	if (ctl->r_avg >= floor)
		return false;
	ctl->r_avg = floor;
	ctl->dirty = 1;		/* streams sent below it no longer count */
	return true;
}

/*
 * Standing-queue drain (ours; docs/rapid-deviations.md#standing-queue-drain).
 * PathChirp puts ABest at the first probed rate above the avail-bw, so on
 * average half a rate step (m = 1.07: ~3.5%) too high; a sender at ABest
 * then builds a queue that only loss removes.  The sender measures the
 * standing queue qd (lowest RTT over the last stream minus the path's
 * minimum RTT) and gives the controller ABest less the rate that drains qd
 * in one base RTT (at least RAPID_DRAIN_T_MIN_US):  ABest * (1 - qd / T),
 * at most max_milli / 1000 off.  In equilibrium qd / T equals the
 * estimator's bias: ~1.4 ms at 40 ms, a few packets.
 */
#define RAPID_DRAIN_T_MIN_US	10000U	/* 10 ms */
#define RAPID_DRAIN_SCALE	1000U	/* max_milli, cut: 1/1000 */

/*
 * rate less cut / 1000 of it, the cut at most max_milli (itself at most
 * 1000); rate clamped to RAPID_RATE_MAX first, never 0.
 */
static inline u64 rapid_rate_cut(u64 rate, u64 cut, u32 max_milli)
{
	if (max_milli > RAPID_DRAIN_SCALE)
		max_milli = RAPID_DRAIN_SCALE;
	if (cut > max_milli)
		cut = max_milli;
	/* rate <= RAPID_RATE_MAX < 2^34, cut <= 1000 < 2^10 */
	if (rate > RAPID_RATE_MAX)
		rate = RAPID_RATE_MAX;
	rate -= div_u64(rate * cut, RAPID_DRAIN_SCALE);
	return rate ? rate : 1;
}

/* The drain's T, us: the base RTT, at least RAPID_DRAIN_T_MIN_US. */
static inline u32 rapid_drain_t_us(u32 base_us)
{
	return base_us > RAPID_DRAIN_T_MIN_US ? base_us : RAPID_DRAIN_T_MIN_US;
}

static inline u64 rapid_drain_abest(u64 abest, u32 qd_us, u32 base_us,
				    u32 max_milli)
{
	u32 t = rapid_drain_t_us(base_us);
	u64 cut;

	if (!qd_us || !max_milli || !abest)
		return abest;
	cut = qd_us >= t ? RAPID_DRAIN_SCALE :
	      div_u64((u64)qd_us * RAPID_DRAIN_SCALE, t);
	return rapid_rate_cut(abest, cut, max_milli);
}

/*
 * A steady-state estimate as the report's law takes it (the caller checks
 * the phase and the law): less the drain of the standing queue qd_us
 * unless pace_drain, then less bias_milli / 1000 (at most
 * RAPID_BIAS_MILLI_MAX); never 0 for a nonzero estimate.
 */
static inline u64 rapid_report_abest(u64 abest, u32 qd_us, u32 base_us,
				     u32 drain_max, bool pace_drain,
				     u32 bias_milli)
{
	if (!abest)
		return 0;
	if (!pace_drain)
		abest = rapid_drain_abest(abest, qd_us, base_us, drain_max);
	if (bias_milli)
		abest = rapid_rate_cut(abest, bias_milli, RAPID_BIAS_MILLI_MAX);
	return abest;
}

/*
 * The rate of the next steady-state stream under the report's law: r_avg,
 * less the drain of the standing queue qd_us when pace_drain (the same
 * share rapid_drain_abest() took of the estimates before).
 */
static inline u64 rapid_report_pace_rate(u64 r_avg, u32 qd_us, u32 base_us,
					 u32 drain_max, bool pace_drain)
{
	if (!pace_drain)
		return r_avg;
	return rapid_drain_abest(r_avg, qd_us, base_us, drain_max);
}

/*
 * No standing queue, for rapid_ctl_decrease_to()'s hold: qd below
 * 1 / 2^RAPID_HOLD_QD_SHIFT of the drain's T, max(base RTT,
 * RAPID_DRAIN_T_MIN_US): 0.5 ms at a 60 ms base RTT, two packets at
 * 50 Mbit/s.
 */
static inline bool rapid_queue_free(u32 qd_us, u32 base_us)
{
	return qd_us < (rapid_drain_t_us(base_us) >> RAPID_HOLD_QD_SHIFT);
}

/*
 * The hold's queue test with the flow's share (ours,
 * docs/rapid-deviations.md#share): no standing queue (rapid_queue_free()),
 * or one that holds less than `pkts` packets of this flow, qd * r_avg <
 * pkts * mss.  A queue of a given delay holds a flow's packets in
 * proportion to its rate, so a flow at a small share keeps the hold on a
 * queue its larger peers already cut for: at 1 Gbit/s the second of two
 * flows was cut down to 1-2 Mbit/s by the estimates its incumbent's
 * standing queue gave it, and held there for the whole run.  pkts 0: the
 * queue alone.
 */
static inline bool rapid_queue_free_share(u32 qd_us, u32 base_us, u64 r_avg,
					  u32 mss, u32 pkts)
{
	if (rapid_queue_free(qd_us, base_us))
		return true;
	if (!pkts || !r_avg)
		return false;
	if (pkts > RAPID_SHARE_PKTS_MAX)
		pkts = RAPID_SHARE_PKTS_MAX;
	if (qd_us > RAPID_SHARE_QD_MAX_US)
		return false;
	return rapid_queue_held(qd_us, r_avg) < (u64)pkts * mss;
}

/*
 * A standing queue that is the flow's peers' (ours,
 * docs/rapid-deviations.md#share-peers): there is one
 * (!rapid_queue_free()), but it holds fewer than `pkts` of the flow's own
 * packets.  A lower estimate does not cut r_avg then: the peers that hold
 * the queue cut for it, each in proportion to what it holds.
 */
static inline bool rapid_queue_peers(u32 qd_us, u32 base_us, u64 r_avg,
				     u32 mss, u32 pkts)
{
	return !rapid_queue_free(qd_us, base_us) &&
	       rapid_queue_free_share(qd_us, base_us, r_avg, mss, pkts);
}

/*
 * The rate a stream is sent at under the queue law: r_avg less what
 * drains the standing queue above the target within T,
 * r_avg * (1 - (qd - target) / T), at most max_milli / 1000 off.
 */
static inline u64 rapid_law_drain_rate(u64 r_avg, u32 qd_us, u32 target_us,
				       u32 t_us, u32 max_milli)
{
	u64 cut;

	if (qd_us <= target_us || !t_us || !max_milli)
		return r_avg;
	cut = div_u64((u64)(qd_us - target_us) * RAPID_DRAIN_SCALE, t_us);
	return rapid_rate_cut(r_avg, cut, max_milli);
}

/*
 * The rate the next stream is sent at: r_avg, or in steady state and not
 * competing, r_avg less the drain of a standing queue, the queue law's
 * (rapid_law_drain_rate(), after the refinement) or the report's with
 * pace_drain (rapid_report_pace_rate(), of the sender's standing queue
 * qd_us against base_us).  law NULL (no law state): r_avg.
 */
static inline u64 rapid_ctl_stream_rate(const struct rapid_ctl *ctl,
					const struct rapid_cfg *cfg,
					const struct rapid_law *law,
					u32 qd_us, u32 base_us, u32 drain_max)
{
	if (!law || law->compete || ctl->phase != RAPID_PHASE_STEADY)
		return ctl->r_avg;
	if (cfg->law != RAPID_LAW_QUEUE)
		return rapid_report_pace_rate(ctl->r_avg, qd_us, base_us,
					      drain_max, cfg->pace_drain);
	if (ctl->refine)
		return ctl->r_avg;
	return rapid_law_drain_rate(ctl->r_avg, law->qd_us,
				    cfg->q_target_us + 2 * law->noise_us,
				    cfg->law_t_us, drain_max);
}

/*
 * The schedule of a stream about to start at @rate (B/s; @s holds
 * rapid_ctl_schedule()'s): ctl's N and m at @rate (below r_avg while a
 * standing queue drains, rapid_ctl_stream_rate()), or in steady state the
 * N and m of rapid_stream_fit() when cfg->stream_srtt_pct asks for it.
 */
static inline void rapid_ctl_stream_schedule(const struct rapid_ctl *ctl,
					     const struct rapid_cfg *cfg,
					     struct rapid_schedule *s,
					     u64 rate, u32 srtt_us, u32 mss)
{
	u32 n = ctl->n, m = ctl->m;

	if (ctl->phase == RAPID_PHASE_STEADY)
		rapid_stream_fit(ctl->n, ctl->m, rate, srtt_us, mss,
				 cfg->stream_srtt_pct, &n, &m);
	if (n != ctl->n || m != ctl->m)
		rapid_schedule_init_rho(s, rate, n, m, rapid_rho(n, m));
	else if (rate != ctl->r_avg)
		rapid_schedule_init_rho(s, rate, n, m, ctl->rho);
}

/*
 * Is a loss congestive?  Only when the sender also sees a standing queue of
 * at least max(RAPID_LOSS_QD_MIN_US, base RTT / 2^RAPID_LOSS_QD_SHIFT)
 * (ours; docs/rapid.md "Loss responses").  RAPID runs with a queue of a
 * few packets (the drain above), so random loss on a lossy link comes with
 * none and leaves the rate alone, while overflow of a buffer that RAPID or
 * a loss-based competitor filled comes with one.  A shallow buffer that
 * overflows below the threshold shows in the estimates instead (an
 * excursion before the hole).
 */
#define RAPID_LOSS_QD_MIN_US	2000U
#define RAPID_LOSS_QD_SHIFT	3
/* RTT noise allowance: this many mean deviations of the RTT. */
#define RAPID_QD_NOISE_MDEVS	2U

/*
 * The standing queue (us) above the RTT's own noise: qd less
 * RAPID_QD_NOISE_MDEVS mean deviations (TCP's mdev).  Delay jitter on the
 * path (radio links, a netem "delay 10ms 4ms") lifts a stream's lowest RTT
 * above the path's minimum by a few deviations without any queue; taken
 * for one, the loss responses would throttle RAPID on every jittery path.
 */
static inline u32 rapid_qd_denoise(u32 qd_us, u32 mdev_us, u32 base_us)
{
	u64 noise = (u64)mdev_us * RAPID_QD_NOISE_MDEVS;

	/*
	 * A queue that builds fast raises mdev with it: the allowance is at
	 * most half the base RTT, so a buffer filling up still reads as one.
	 */
	if (noise > base_us / 2)
		noise = base_us / 2;
	return qd_us > noise ? qd_us - (u32)noise : 0;
}

/*
 * The base RTT and the standing queue on a path whose packets do not all
 * take the same time (ours; docs/rapid-deviations.md#robust-base).  TCP's
 * min RTT is the lowest single sample in five minutes.  A path that sends
 * a few packets ahead of the others (netem's "reorder", a link that hands
 * some packets to a faster lane, or the low tail of delay jitter) puts it
 * below the delay every other packet sees: with netem's "reorder 1%" on a
 * 60 ms path it read 30 ms, every stream's lowest RTT then lay 30 ms
 * "above" it, the drain took its full drain_max off every estimate and the
 * flow sat at 75% of the link (docs/results.md#jitter-round).  A stream's
 * median RTT is moved only when half its samples are fast.  So, per
 * stream, the median of its first RAPID_RTT_SAMPLES RTT samples, and
 * the lowest of those medians over TCP's min-RTT window (base_med):
 *
 *  - the path's base RTT is the larger of TCP's min RTT and base_med
 *    (rapid_base_rtt()): the same on a clean path but for the few
 *    packets of queue a stream's median holds;
 *  - a stream's standing-queue sample is the smaller of its lowest RTT
 *    less TCP's min RTT (exact on a clean path, too high when a fast
 *    packet set the min) and its median less base_med (immune to a
 *    minority of fast packets, a little noisier) (rapid_qd_sample()).
 */
#define RAPID_RTT_SAMPLES	16U

/* RTT samples since the last stream completed: the first of them, in us. */
struct rapid_rtt_win {
	u32 us[RAPID_RTT_SAMPLES];
	u8 n;			/* how many of us[] hold samples */
};

static inline void rapid_rtt_win_push(struct rapid_rtt_win *w, u32 rtt_us)
{
	if (w->n < RAPID_RTT_SAMPLES)
		w->us[w->n++] = rtt_us;
}

/* The median of the samples (of an even number the upper one); 0: none. */
static inline u32 rapid_rtt_win_median(const struct rapid_rtt_win *w)
{
	u64 v[RAPID_RTT_SAMPLES];
	u32 i, n = w->n;

	if (!n)
		return 0;
	if (n > RAPID_RTT_SAMPLES)
		n = RAPID_RTT_SAMPLES;
	for (i = 0; i < n; i++)
		rapid_sorted_insert(v, i, w->us[i]);
	return (u32)v[n / 2];
}

/*
 * The median base_med takes of a window of samples, given the window's
 * median @med_us (rapid_rtt_win_median(), which the caller has already)
 * (ours, docs/rapid-deviations.md#min-hold): none (0) of a window of
 * fewer than RAPID_RTT_BASE_SAMPLES.  A short window (a stream acknowledged by one to
 * four ACKs, as in loss recovery) has a median as fast as its fastest
 * packet: on 50-rapid-loss's reordering run (10% of the packets 10 ms
 * early on a 20 ms path) all four fast medians of 3560 windows came from
 * windows of 1-4 samples, and the one base_med took (11.1 ms) read every
 * later stream 9 ms "above" it, a standing queue, its losses congestion
 * (three x0.7 cuts).  Of 8 samples the median is fast only when 5 are.
 */
#define RAPID_RTT_BASE_SAMPLES	(RAPID_RTT_SAMPLES / 2)

static inline u32 rapid_rtt_win_base(const struct rapid_rtt_win *w,
				     u32 med_us)
{
	return w->n >= RAPID_RTT_BASE_SAMPLES ? med_us : 0;
}

/*
 * base_med's windowed minimum (lib/win_minmax.c's running min is not
 * exported to modules before 7.x): the lowest value of the current half
 * window and of the one before it, so a value counts for one to two halves.
 * Values 0 are "none"; t is the caller's clock (jiffies in the module).
 */
struct rapid_wmin {
	u32 cur;		/* lowest value since t (0: none) */
	u32 prev;		/* lowest value of the half before (0: none) */
	u32 t;			/* start of the current half */
};

static inline void rapid_wmin_update(struct rapid_wmin *m, u32 v, u32 now,
				     u32 half)
{
	if (!v)
		return;
	if (!m->cur || now - m->t >= half) {
		/* a half with no value in between leaves nothing to keep */
		m->prev = m->cur && now - m->t < 2 * (u64)half ? m->cur : 0;
		m->cur = v;
		m->t = now;
	} else if (v < m->cur) {
		m->cur = v;
	}
}

static inline u32 rapid_wmin_get(const struct rapid_wmin *m)
{
	if (!m->prev || (m->cur && m->cur < m->prev))
		return m->cur;
	return m->prev;
}

/*
 * TCP's min RTT as RAPID takes it (ours, docs/rapid-deviations.md#min-hold):
 * a value that rises (or a first one) at once, and one that falls by at
 * most the loss responses' queue threshold (1/2^RAPID_LOSS_QD_SHIFT of
 * it); one that falls further only once it has been TCP's for @hold_us
 * (the caller's: RAPID_MIN_HOLD_RTTS smoothed RTTs).  The first packet
 * that overtakes the others on a path that reorders sets TCP's min RTT at
 * once, but TCP counts the reordering (which engages base_med) only when
 * the packets it overtook or their spurious retransmissions are
 * acknowledged, two to three round trips later; in between every
 * stream's lowest RTT lay the overtaking margin "above" the min, a
 * standing queue, and the losses that came with the reordering passed
 * for congestion (50-rapid-loss: 10 ms early on a 20 ms path, a x0.7 cut
 * in one run of 16).  On a path that delivers in order a min RTT falls
 * that far when a queue the flow met from its start drains; the queue
 * then reads lower for the hold.  Times in us on the caller's clock;
 * U32_MAX (TCP's "none") and 0 are no value.
 */
#define RAPID_MIN_HOLD_RTTS	4U

struct rapid_min_hold {
	u32 us;			/* the min RTT RAPID uses, us (0: none yet) */
	u32 cand_us;		/* a lower one TCP reported, us (0: none) */
	u32 cand_t;		/* ... first reported then (caller's us) */
};

static inline u32 rapid_min_hold_update(struct rapid_min_hold *h,
					u32 min_us, u32 now_us, u32 hold_us)
{
	if (min_us == U32_MAX || !min_us)
		return h->us;
	if (!h->us || min_us >= h->us - (h->us >> RAPID_LOSS_QD_SHIFT)) {
		h->us = min_us;
		h->cand_us = 0;
		return h->us;
	}
	if (!h->cand_us)
		h->cand_t = now_us;
	h->cand_us = min_us;
	if (now_us - h->cand_t >= hold_us) {
		h->us = min_us;
		h->cand_us = 0;
	}
	return h->us;
}

/* The held min RTT, us; @min_us (TCP's) until it holds one. */
static inline u32 rapid_min_hold_get(const struct rapid_min_hold *h,
				     u32 min_us)
{
	return h->us ? h->us : min_us;
}

/* The path's base RTT, us: TCP's min RTT, at least base_med (0: none). */
static inline u32 rapid_base_rtt(u32 min_rtt_us, u32 base_med_us)
{
	if (min_rtt_us == U32_MAX)
		return base_med_us ? base_med_us : U32_MAX;
	return base_med_us > min_rtt_us ? base_med_us : min_rtt_us;
}

/*
 * A stream's standing-queue sample, us: its lowest RTT @low_us (U32_MAX:
 * none) less TCP's min RTT, at most its median @med_us (0: none) less
 * @base_med_us (0: none yet, or a path that delivers in order).  With
 * base_med and no median (while the path reorders the median takes
 * cumulative ACKs only, and loss recovery can go a stream without one:
 * docs/rapid-deviations.md#min-hold) nothing is known: 0.
 */
static inline u32 rapid_qd_sample(u32 low_us, u32 min_rtt_us, u32 med_us,
				  u32 base_med_us)
{
	u32 qd, qd_med;

	if (low_us == U32_MAX)
		return 0;
	qd = low_us > min_rtt_us ? low_us - min_rtt_us : 0;
	if (base_med_us) {	/* no median: nothing known, 0 */
		qd_med = med_us > base_med_us ? med_us - base_med_us : 0;
		if (qd_med < qd)
			qd = qd_med;
	}
	return qd;
}

/*
 * The standing queue the loss responses look at (tcp_rapid.c,
 * rapid_queue_delay_us(); the scale engine's driver too), us: the larger of
 * the last completed stream's sample @qd_us and the sample of the RTTs
 * since then (@cur_qd_us, rapid_qd_sample()), less the RTT's noise
 * (rapid_qd_denoise() against the base RTT @base_us, @mdev_us unscaled).
 */
static inline u32 rapid_standing_qd(u32 qd_us, u32 cur_qd_us, u32 base_us,
				    u32 mdev_us)
{
	if (cur_qd_us > qd_us)
		qd_us = cur_qd_us;
	return rapid_qd_denoise(qd_us, mdev_us, base_us);
}

static inline bool rapid_loss_congestive(u32 qd_us, u32 base_us)
{
	u32 thr = base_us >> RAPID_LOSS_QD_SHIFT;

	if (thr < RAPID_LOSS_QD_MIN_US)
		thr = RAPID_LOSS_QD_MIN_US;
	return qd_us >= thr;
}

/*
 * The estimator and the feedback option codec (PathChirp's excursion
 * analysis -> ABest), so that this is the one header the module includes.
 */
#include "rapid_pathchirp.h"

#endif /* RAPID_CHIRP_H */
