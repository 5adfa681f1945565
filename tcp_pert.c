// SPDX-License-Identifier: GPL-2.0
/*
 * PERT: Probabilistic Early Response TCP, with the adaptive increase and
 * decrease that let it compete with loss-based TCP.
 *
 * PERT is a delay-based congestion control that emulates an AQM router from
 * the end host.  Its congestion signal is the queueing delay it estimates
 * from RTT samples; its response is the one RED/ECN would give, made
 * probabilistic so that the false positives of the delay signal cost little:
 *
 *   srtt  <- 0.99 srtt + 0.01 rtt                 (every RTT sample)
 *   curq   = srtt - min_rtt                       (queueing delay)
 *   maxq   = max(10 ms, max_srtt - min_rtt)       (largest queue seen)
 *
 *   p(curq): 0 below T1 = 5 ms, linear to pmax = 0.05 at T2 = 10 ms, then
 *            "gentle" linear to 1 at T3 = max(2 T2, 0.65 (max - min))
 *
 *        1 |                        ______
 *          |                      /
 *          |                   /
 *     pmax |             .  /
 *          |          .
 *        0 |______.____________________ curq
 *              T1    T2          T3
 *
 * In congestion avoidance, each ACK draws a response with probability p, at
 * most one per RTT (early or loss):  cwnd <- (1 - beta) cwnd, with
 *
 *   beta = curq / (curq + maxq),  clamped to [1/8, 1/2]
 *
 * the largest decrease that keeps the bottleneck busy when curq of buffer
 * is in use.  Packet losses take the same beta, so a loss that comes with
 * an empty queue (a random, non-congestion loss) costs only 1/8 of the
 * window.  The window grows by alpha packets per RTT (alpha / cwnd per
 * ACKed packet); slow start is Reno's.
 *
 * alpha adapts in three regions of curq, at most once per 5 srtt and after
 * a full window of ACKs in one region:
 *
 *   curq <= T1             high speed   alpha = min(alpha + 0.5, 32)
 *   T1 < curq < maxq / 2   safe         alpha = max(0.9 alpha, 1)
 *   curq >= maxq / 2       compete      alpha = min(alpha + 0.1, target, 32)
 *
 * where, by equating the throughputs of TCP (loss rate p) and PERT (loss
 * rate p plus early-response rate p'), target = 1 + p'/p (ramping up from 1
 * at maxq / 2 to 1 + p'/p at 0.65 maxq).  p and p' are TFRC-style (RFC
 * 5348) weighted averages of the last 8 intervals between loss events and
 * between early-response signals.  A window of ACKs that mixes regions
 * decays alpha like the safe region.
 *
 * The compete phase (ours; docs/pert.md): two compete updates in a row
 * mean the queue stays high although PERT responds, i.e. a loss-based flow
 * holds it.  Then PERT takes an early response only when alpha compensates
 * for it, p' <= (alpha - 1) p (the papers' equation read the other way),
 * counts every signal towards p' and holds min_rtt.  Without this PERT
 * starves behind cubic in a deep buffer (p = 1, p'/p far above alpha_max).
 * Three other updates in a row, or one high-speed update, end the phase;
 * the updates in the dip that a loss in the phase opens do not count
 * (Reno's sawtooth dips for seconds at 1 BDP).
 *
 * The papers:
 *   S. Bhandarkar, A. L. N. Reddy, Y. Zhang, D. Loguinov, "Emulating AQM
 *   from End Hosts", ACM SIGCOMM 2007.
 *   K. Kotla and A. L. N. Reddy, "Making a Delay-based Protocol Adaptive to
 *   Heterogeneous Environments", IWQoS 2008.
 *
 * All arithmetic is in pert_math.h (integers only, unit-tested in
 * userspace).  docs/pert.md gives the parameters, the ageing of min/max
 * RTT, the get_info mapping for `ss -ti` and every deviation from the
 * papers and from the ns-3 port.
 *
 * Needs from the stack: RTT samples on ACKs (any Linux TCP), no pacing, no
 * qdisc.  The two loss-interval rings do not fit in the congestion-control
 * private area and are allocated per socket; without them (allocation
 * failure) PERT runs as base PERT: fixed alpha = 1, adaptive beta.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inet_diag.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/tcp.h>

#include "cc_info.h"
#include "cc_param.h"
#include "pert_math.h"

#define CREATE_TRACE_POINTS
#include "pert_trace.h"

/* Per-socket memory outside the private area: p, p' and the budget */
struct pert_history {
	struct pert_li loss;	/* intervals between loss events, packets */
	struct pert_li early;	/* intervals between early-response signals,
				 * packets (taken or not)
				 */
	u32 since_pkts;		/* packets ACKed since the last early response
				 * taken (the compete-phase budget)
				 */
};

struct pert {
	struct pert_signal sig;	/* srtt, min/max RTT, curq, maxq, prob */
	struct pert_history *hist;	/* loss intervals; NULL: base PERT */
	struct pert_phase phase;	/* region, ACK count, alpha cadence */
	u32	alpha;		/* increase per RTT, 1/1024 packet */
	u32	ai_acc;		/* additive-increase remainder, 1/1024 pkt */
	u32	resp_seq;	/* snd_nxt at the last response */
	u32	resp_us;	/* time of the last response, us */
	u32	responses;	/* early responses so far */
	u32	loss_cwnd;	/* cwnd before the last loss response, packets */
	u8	responded:1,	/* resp_seq and resp_us are valid */
		degraded:1,	/* no loss-interval memory: base PERT */
		unused:6;
	u8	ss_above;	/* slow-start exit: samples in a row above */
};

/*
 * Range-checked module parameters (cc_param.h).  pert_param_check() checks
 * a new value together with the current others through pert_math.h's
 * pert_param_bounds() / pert_params_valid() (so T1 < T2 and beta_min <=
 * beta_max always hold) and the setter refuses it with a message
 * otherwise.  Setters run under the module's parameter lock, so the
 * cross-checks cannot race; readers see one consistent value of each
 * parameter.  At load time the parameters are set in command-line order:
 * raise t2_us before t1_us.
 */
static bool pert_param_check(const struct cc_param *p, unsigned int v,
			     unsigned int *lo, unsigned int *hi);

#define PERT_PARAM(_name, _def, _lo, _hi, _unit, _text, _id)		\
	CC_PARAM(_name, pert_##_name, 0644, _def, _lo, _hi, _unit, _text, \
		 .check = pert_param_check, .id = _id)

PERT_PARAM(t1_us, 5000, 100, 1999999, "us",
	   "RED min threshold T1 on queueing delay, below t2_us",
	   PERT_PARAM_T1_US);
PERT_PARAM(t2_us, 10000, 101, 2000000, "us",
	   "RED max threshold T2 on queueing delay, above t1_us",
	   PERT_PARAM_T2_US);
PERT_PARAM(t3_pct, 65, 10, 100, "%",
	   "T3 = max(2 T2, t3_pct% of max_srtt - min_rtt)", PERT_PARAM_T3_PCT);
PERT_PARAM(pmax_permille, 50, 1, 1000, "1/1000",
	   "response probability at T2", PERT_PARAM_PMAX_PERMILLE);
PERT_PARAM(min_maxq_us, 10000, 1000, 1000000, "us", "floor of maxq",
	   PERT_PARAM_MIN_MAXQ_US);
PERT_PARAM(compete_pct, 50, 10, 60, "% of maxq",
	   "compete region from this share of maxq", PERT_PARAM_COMPETE_PCT);
PERT_PARAM(alpha_max, 32, 1, 64, "packets/RTT", "upper bound of alpha",
	   PERT_PARAM_ALPHA_MAX);
PERT_PARAM(beta_min, 128, 16, 512, "1/1024",
	   "lower bound of beta, at most beta_max", PERT_PARAM_BETA_MIN);
PERT_PARAM(beta_max, 512, 16, 512, "1/1024",
	   "upper bound of beta, at least beta_min", PERT_PARAM_BETA_MAX);
PERT_PARAM(phase_srtts, 5, 1, 100, "srtt",
	   "alpha changes at most once per this many srtt",
	   PERT_PARAM_PHASE_SRTTS);
PERT_PARAM(min_rtt_win_ms, 20000, 1000, 600000, "ms",
	   "min_rtt ageing window", PERT_PARAM_MIN_RTT_WIN_MS);
PERT_PARAM(max_rtt_win_ms, 120000, 1000, 600000, "ms",
	   "max_srtt (maxq) ageing window", PERT_PARAM_MAX_RTT_WIN_MS);
PERT_PARAM(compete_phase, 1, 0, 1, "0 off, 1 on",
	   "compete phase: early responses budgeted by alpha, min_rtt held",
	   PERT_PARAM_COMPETE_PHASE);
PERT_PARAM(compete_enter, 2, 1, 100, "updates",
	   "compete-region alpha updates in a row that enter the compete phase",
	   PERT_PARAM_COMPETE_ENTER);
PERT_PARAM(compete_exit, 3, 1, 100, "updates",
	   "other alpha updates in a row that leave the compete phase",
	   PERT_PARAM_COMPETE_EXIT);
PERT_PARAM(ss_exit_us, 2000, 0, 100000, "us",
	   "leave slow start when 8 RTT samples in a row exceed min_rtt by this (0: Reno's slow start)",
	   PERT_PARAM_SS_EXIT_US);
PERT_PARAM(compete_beta, 358, 16, 512, "1/1024",
	   "decrease of every response in the compete phase",
	   PERT_PARAM_COMPETE_BETA);

/* pert_math.h's bounds and defaults (unit-tested there) are the above. */
static_assert(PERT_DEF_T1_US == 5000 && PERT_T1_US_MIN == 100 &&
	      PERT_DEF_T2_US == 10000 && PERT_T2_US_MAX == 2000000);
static_assert(PERT_DEF_T3_PCT == 65 && PERT_T3_PCT_MIN == 10 &&
	      PERT_T3_PCT_MAX == 100);
static_assert(PERT_DEF_PMAX_PERMILLE == 50 && PERT_PMAX_MIN == 1 &&
	      PERT_PMAX_MAX == 1000);
static_assert(PERT_DEF_MIN_MAXQ_US == 10000 && PERT_MIN_MAXQ_US_MIN == 1000 &&
	      PERT_MIN_MAXQ_US_MAX == 1000000);
static_assert(PERT_DEF_COMPETE_PCT == 50 && PERT_COMPETE_PCT_MIN == 10 &&
	      PERT_COMPETE_PCT_MAX == 60);
static_assert(PERT_DEF_ALPHA_MAX == 32 && PERT_ALPHA_MAX_MIN == 1 &&
	      PERT_ALPHA_MAX_MAX == 64);
static_assert(PERT_DEF_BETA_MIN == 128 && PERT_DEF_BETA_MAX == 512 &&
	      PERT_BETA_LIMIT_MIN == 16 && PERT_BETA_LIMIT_MAX == 512);
static_assert(PERT_DEF_PHASE_SRTTS == 5 && PERT_PHASE_SRTTS_MIN == 1 &&
	      PERT_PHASE_SRTTS_MAX == 100);
static_assert(PERT_DEF_MIN_RTT_WIN_MS == 20000 &&
	      PERT_DEF_MAX_RTT_WIN_MS == 120000 &&
	      PERT_RTT_WIN_MS_MIN == 1000 && PERT_RTT_WIN_MS_MAX == 600000);
static_assert(PERT_DEF_COMPETE_PHASE == 1 && PERT_COMPETE_PHASE_MAX == 1);
static_assert(PERT_DEF_COMPETE_ENTER == 2 && PERT_DEF_COMPETE_EXIT == 3 &&
	      PERT_COMPETE_UPDATES_MIN == 1 && PERT_COMPETE_UPDATES_MAX == 100);
static_assert(PERT_DEF_SS_EXIT_US == 2000 && PERT_SS_EXIT_US_MAX == 100000);
static_assert(PERT_DEF_COMPETE_BETA == 358 && PERT_COMPETE_BETA_MIN == 16 &&
	      PERT_COMPETE_BETA_MAX == 512);

static void pert_params_load(struct pert_params *p)
{
	p->t1_us = READ_ONCE(pert_t1_us.val);
	p->t2_us = READ_ONCE(pert_t2_us.val);
	p->t3_pct = READ_ONCE(pert_t3_pct.val);
	p->pmax_permille = READ_ONCE(pert_pmax_permille.val);
	p->min_maxq_us = READ_ONCE(pert_min_maxq_us.val);
	p->compete_pct = READ_ONCE(pert_compete_pct.val);
	p->alpha_max = READ_ONCE(pert_alpha_max.val);
	p->beta_min = READ_ONCE(pert_beta_min.val);
	p->beta_max = READ_ONCE(pert_beta_max.val);
	p->phase_srtts = READ_ONCE(pert_phase_srtts.val);
	p->min_rtt_win_ms = READ_ONCE(pert_min_rtt_win_ms.val);
	p->max_rtt_win_ms = READ_ONCE(pert_max_rtt_win_ms.val);
	p->compete_phase = READ_ONCE(pert_compete_phase.val);
	p->compete_enter = READ_ONCE(pert_compete_enter.val);
	p->compete_exit = READ_ONCE(pert_compete_exit.val);
	p->ss_exit_us = READ_ONCE(pert_ss_exit_us.val);
	p->compete_beta = READ_ONCE(pert_compete_beta.val);
}

static bool pert_param_check(const struct cc_param *p, unsigned int v,
			     unsigned int *lo, unsigned int *hi)
{
	return cc_param_cross_check(struct pert_params, pert_params_load,
				    pert_param_store, pert_param_bounds,
				    pert_params_valid, p, v, lo, hi);
}

/* The clock of every PERT timestamp: TCP's per-packet us clock, 32 bits. */
static u32 pert_now_us(const struct tcp_sock *tp)
{
	return (u32)tp->tcp_mstamp;
}

static void pert_init(struct sock *sk)
{
	struct pert *ca = inet_csk_ca(sk);
	u32 now = pert_now_us(tcp_sk(sk));

	pert_signal_reset(&ca->sig, now);
	pert_phase_reset(&ca->phase, now);
	ca->alpha = PERT_ALPHA_ONE;
	ca->ai_acc = 0;
	ca->resp_seq = 0;
	ca->resp_us = 0;
	ca->responses = 0;
	ca->loss_cwnd = 0;
	ca->responded = 0;
	ca->ss_above = 0;

	/* Like tcp_cdg: no sleeping, no warning; base PERT without it. */
	ca->hist = kzalloc(sizeof(*ca->hist), GFP_NOWAIT | __GFP_NOWARN);
	ca->degraded = !ca->hist;
	if (ca->hist) {
		pert_li_reset(&ca->hist->loss);
		pert_li_reset(&ca->hist->early);
		ca->hist->since_pkts = 0;
	}
}

static void pert_release(struct sock *sk)
{
	struct pert *ca = inet_csk_ca(sk);

	kfree(ca->hist);
	ca->hist = NULL;
}

/* A response (early or loss) opens a window of one RTT without another. */
static void pert_mark_response(const struct tcp_sock *tp, struct pert *ca)
{
	ca->resp_seq = tp->snd_nxt;
	ca->resp_us = pert_now_us(tp);
	ca->responded = 1;
}

/*
 * Entering the compete phase: the early responses that squeezed PERT were
 * answers to a competitor's queue; slow start (loss-based from here on)
 * regrows the window they took (pert_phase_entry_ssthresh()).
 */
static void pert_enter_compete(struct sock *sk, struct pert *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 cwnd = tcp_snd_cwnd(tp);

	tp->snd_ssthresh = pert_phase_entry_ssthresh(&ca->phase,
						     tp->snd_ssthresh);
	trace_pert_response(sk, PERT_TR_COMPETE, cwnd, tp->snd_ssthresh,
			    ca->sig.curq_us, ca->sig.maxq_us, ca->sig.prob);
}

/*
 * Slow start ends when the raw RTT samples show a queue of ss_exit_us
 * (pert_ss_exit_step()); ssthresh = cwnd, congestion avoidance and PERT's
 * early response take over.  Not in the compete phase: there the queue is
 * someone else's and slow start is loss-based.
 */
static void pert_check_ss_exit(struct sock *sk, struct pert *ca, s32 rtt_us,
			       const struct pert_params *p)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!tcp_in_slow_start(tp) || ca->phase.compete || rtt_us < 0) {
		ca->ss_above = 0;
		return;
	}
	if (!pert_ss_exit_step(&ca->ss_above, rtt_us, pert_win_min(&ca->sig.rtt),
			       p->ss_exit_us))
		return;
	ca->ss_above = 0;
	tp->snd_ssthresh = max(tcp_snd_cwnd(tp), PERT_MIN_CWND);
	trace_pert_response(sk, PERT_TR_SS_EXIT, tcp_snd_cwnd(tp),
			    tp->snd_ssthresh, (u32)rtt_us, ca->sig.maxq_us,
			    ca->sig.prob);
}

/* The phase machine: region of this ACK, and alpha when an update is due. */
static void pert_update_alpha(struct sock *sk, struct pert *ca, u32 acked,
			      u32 now, const struct pert_params *p)
{
	enum pert_region region;
	enum pert_alpha_rule rule;
	u32 target = PERT_TARGET_NONE;

	region = pert_classify(ca->sig.curq_us, p->t1_us, ca->sig.maxq_us,
			       p->compete_pct, pert_compete_floor_us(p->t2_us));
	if (!ca->hist) {
		ca->phase.region = region;	/* shown by get_info only */
		return;
	}

	rule = pert_phase_step(&ca->phase, region, acked,
			       tcp_snd_cwnd(tcp_sk(sk)), now,
			       pert_signal_srtt(&ca->sig), p->phase_srtts);
	if (rule == PERT_RULE_NONE)
		return;
	if (p->compete_phase) {
		if (pert_phase_track(&ca->phase, rule, p->compete_enter,
				     p->compete_exit) && ca->phase.compete)
			pert_enter_compete(sk, ca);
	} else {
		ca->phase.compete = 0;
	}
	if (rule == PERT_RULE_COMPETE)
		target = pert_compete_target(ca->sig.curq_us, ca->sig.maxq_us,
					     p->compete_pct,
					     pert_li_ratio(&ca->hist->early,
							   &ca->hist->loss),
					     p->alpha_max);
	ca->alpha = pert_alpha_apply(ca->alpha, rule, target, p->alpha_max);
	trace_pert_alpha(sk, rule, ca->alpha, ca->phase.compete, ca->sig.curq_us,
			 ca->sig.maxq_us);
}

static void pert_pkts_acked(struct sock *sk, const struct ack_sample *sample)
{
	struct pert *ca = inet_csk_ca(sk);
	u32 now = pert_now_us(tcp_sk(sk));
	struct pert_params p;

	pert_params_load(&p);
	if (ca->hist) {
		pert_li_add(&ca->hist->loss, sample->pkts_acked);
		pert_li_add(&ca->hist->early, sample->pkts_acked);
		ca->hist->since_pkts = pert_sat_add(ca->hist->since_pkts,
						    sample->pkts_acked);
	}
	/* rtt_us < 0: no valid sample on this ACK (Karn, no timestamps) */
	pert_signal_update(&ca->sig, sample->rtt_us, now, ca->phase.compete,
			   &p);
	pert_check_ss_exit(sk, ca, sample->rtt_us, &p);
	if (ca->sig.srtt_scaled)
		pert_update_alpha(sk, ca, sample->pkts_acked, now, &p);
}

/*
 * In congestion avoidance: a signal with probability p, at most once per
 * RTT.  Every signal counts towards p'.  Outside the compete phase each
 * signal is a response; in it, only as many as alpha compensates for
 * (pert_compete_budget_ok()), the others are counted and let pass.
 */
static void pert_check_early_response(struct sock *sk, struct pert *ca)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 cwnd = tcp_snd_cwnd(tp);
	struct pert_params p;
	u32 next;

	if (!ca->sig.prob || cwnd <= PERT_MIN_CWND)
		return;
	if (!pert_may_respond(ca->responded, tp->snd_una, ca->resp_seq,
			      pert_now_us(tp), ca->resp_us, pert_signal_srtt(&ca->sig)))
		return;
	if (!pert_decide(ca->sig.prob, get_random_u32()))
		return;

	pert_mark_response(tp, ca);
	pert_phase_note_response(&ca->phase, cwnd);
	if (ca->hist) {
		pert_li_event(&ca->hist->early);
		if (ca->phase.compete &&
		    !pert_compete_budget_ok(ca->hist->since_pkts, ca->alpha,
					    &ca->hist->loss)) {
			trace_pert_response(sk, PERT_TR_PASSED, cwnd, cwnd,
					    ca->sig.curq_us, ca->sig.maxq_us, ca->sig.prob);
			return;
		}
		ca->hist->since_pkts = 0;
	}

	pert_params_load(&p);
	next = pert_cwnd_after_decrease(cwnd, pert_decrease_beta(ca->sig.curq_us,
				ca->sig.maxq_us, pert_win_min(&ca->sig.rtt),
				ca->phase.compete, &p));
	tcp_snd_cwnd_set(tp, next);
	tp->snd_ssthresh = next;
	ca->ai_acc = 0;
	ca->responses++;
	trace_pert_response(sk, PERT_TR_EARLY, cwnd, next, ca->sig.curq_us,
			    ca->sig.maxq_us, ca->sig.prob);
}

static void pert_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct pert *ca = inet_csk_ca(sk);

	if (tcp_is_cwnd_limited(sk)) {
		if (tcp_in_slow_start(tp))
			acked = tcp_slow_start(tp, acked);
		if (acked) {
			u32 alpha = ca->hist ? ca->alpha : PERT_ALPHA_ONE;
			u32 amax = READ_ONCE(pert_alpha_max.val) << PERT_ALPHA_SHIFT;

			tcp_snd_cwnd_set(tp, pert_cwnd_ai(tcp_snd_cwnd(tp),
							  &ca->ai_acc, acked,
							  min(alpha, amax),
							  tp->snd_cwnd_clamp));
		}
	}
	if (!tcp_in_slow_start(tp))
		pert_check_early_response(sk, ca);
}

/* Loss (or ECN) response: the same delay-dependent beta as early ones. */
static u32 pert_ssthresh(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct pert *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tp);
	struct pert_params p;
	u32 next;

	pert_params_load(&p);
	ca->loss_cwnd = cwnd;
	if (ca->hist)
		pert_li_event(&ca->hist->loss);
	pert_mark_response(tp, ca);
	pert_phase_note_loss(&ca->phase);
	next = pert_cwnd_after_decrease(cwnd, pert_decrease_beta(ca->sig.curq_us,
				ca->sig.maxq_us, pert_win_min(&ca->sig.rtt),
				ca->phase.compete, &p));
	trace_pert_response(sk, PERT_TR_LOSS, cwnd, next, ca->sig.curq_us,
			    ca->sig.maxq_us, ca->sig.prob);
	return next;
}

static u32 pert_undo_cwnd(struct sock *sk)
{
	const struct pert *ca = inet_csk_ca(sk);

	return max(tcp_snd_cwnd(tcp_sk(sk)), ca->loss_cwnd);
}

/* An RTO breaks the region count and the increase in progress. */
static void pert_set_state(struct sock *sk, u8 new_state)
{
	struct pert *ca = inet_csk_ca(sk);

	if (new_state == TCP_CA_Loss) {
		pert_phase_restart(&ca->phase, pert_now_us(tcp_sk(sk)));
		ca->ai_acc = 0;
	}
}

/*
 * get_info (cc_info.h).  `ss -ti` gets struct tcp_bbr_info with what ss
 * labels each field:
 *   bbr_bw_lo/hi     cwnd * mss / srtt, bytes/s  -> bw: the window's rate
 *   bbr_min_rtt      PERT's windowed min RTT, us -> mrtt: in ms
 *   bbr_cwnd_gain    cwnd / (bw * min_rtt), 1/256 (= srtt / min_rtt)
 *   bbr_pacing_gain  0 (PERT does not pace; ss omits it)
 * getsockopt(TCP_CC_INFO) gets struct pert_cc_info: early responses,
 * queueing delay, response probability, alpha, beta, region and phase
 * (scripts/obs/cc_info.py, docs/pert.md).
 * Reads the private area only (never ca->hist): get_info may run without
 * the socket lock.
 */
static size_t pert_get_info(struct sock *sk, u32 ext, int *attr,
			    union tcp_cc_info *info)
{
	const struct pert *ca = inet_csk_ca(sk);
	struct pert_params p;

	if (cc_info_sockopt(ext)) {
		u32 curq = READ_ONCE(ca->sig.curq_us);
		struct pert_cc_info pi;

		pert_params_load(&p);
		pi = (struct pert_cc_info){
			.responses = READ_ONCE(ca->responses),
			.curq_us = curq,
			.prob_ppm = div_u64((u64)READ_ONCE(ca->sig.prob) * 1000000,
					    PERT_PROB_ONE),
			.alpha_milli = cc_info_milli16(READ_ONCE(ca->alpha),
						       PERT_ALPHA_SHIFT),
			.beta_milli = cc_info_milli16(pert_decrease_beta(curq,
						READ_ONCE(ca->sig.maxq_us),
						pert_win_min(&ca->sig.rtt),
						READ_ONCE(ca->phase.compete),
						&p), PERT_BETA_SHIFT),
			.region = READ_ONCE(ca->phase.region),
			.compete = READ_ONCE(ca->phase.compete),
			.degraded = ca->degraded,
		};

		BUILD_BUG_ON(sizeof(pi) > sizeof(*info));
		memcpy(info, &pi, sizeof(pi));
		*attr = INET_DIAG_NONE;
		return sizeof(pi);
	}
	if (ext & (1 << (INET_DIAG_BBRINFO - 1)) ||
	    ext & (1 << (INET_DIAG_VEGASINFO - 1))) {
		const struct tcp_sock *tp = tcp_sk(sk);
		struct tcp_bbr_info *bi = &info->bbr;
		u32 cwnd = tcp_snd_cwnd(tp), mss = READ_ONCE(tp->mss_cache);
		u32 min_rtt = pert_win_min(&ca->sig.rtt);
		u64 bw;

		if (min_rtt == PERT_WIN_MIN_EMPTY)
			min_rtt = 0;
		bw = cc_info_window_rate(cwnd, mss, pert_signal_srtt(&ca->sig));
		memset(bi, 0, sizeof(*bi));
		bi->bbr_bw_lo = (u32)bw;
		bi->bbr_bw_hi = (u32)(bw >> 32);
		bi->bbr_min_rtt = min_rtt;
		bi->bbr_cwnd_gain = cc_info_cwnd_gain(cwnd, mss, bw, min_rtt);
		*attr = INET_DIAG_BBRINFO;
		return sizeof(*bi);
	}
	return 0;
}

static struct tcp_congestion_ops tcp_pert __read_mostly = {
	.init		= pert_init,
	.release	= pert_release,
	.ssthresh	= pert_ssthresh,
	.cong_avoid	= pert_cong_avoid,
	.set_state	= pert_set_state,
	.undo_cwnd	= pert_undo_cwnd,
	.pkts_acked	= pert_pkts_acked,
	.get_info	= pert_get_info,
	.owner		= THIS_MODULE,
	.name		= "pert",
};

static int __init pert_register(void)
{
	BUILD_BUG_ON(sizeof(struct pert) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(PERT_PROB_ONE != 1U << PERT_PROB_SHIFT);
	BUILD_BUG_ON(PERT_ALPHA_ONE != 1U << PERT_ALPHA_SHIFT);
	BUILD_BUG_ON(PERT_BETA_ONE != 1U << PERT_BETA_SHIFT);
	/* the ageing windows in us must fit the u32 clock */
	BUILD_BUG_ON((u64)PERT_RTT_WIN_MS_MAX * PERT_USEC_PER_MSEC >= U32_MAX / 2);
	return tcp_register_congestion_control(&tcp_pert);
}

static void __exit pert_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_pert);
}

module_init(pert_register);
module_exit(pert_unregister);

MODULE_AUTHOR("tcp-cc-lab");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("PERT: Probabilistic Early Response TCP (RED-emulating delay-based congestion control)");
