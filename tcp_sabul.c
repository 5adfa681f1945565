// SPDX-License-Identifier: GPL-2.0
/*
 * SABUL: rate-based congestion control tuned at a constant interval.
 *
 * Y. Gu, X. Hong, M. Mazzucco, R. Grossman, "Rate Based Congestion Control
 * over High Bandwidth/Delay Links" (Laboratory for Advanced Computing,
 * University of Illinois at Chicago; seed 003 of this project): the rate
 * control of SABUL, the UDP data transfer protocol that UDT later grew from
 * (Y. Gu, R. Grossman, "UDT: UDP-based data transfer for high-speed wide
 * area networks", Computer Networks 51(7), 2007).  The seed's formulas were
 * lost in extraction; docs/sabul.md reconstructs them from its text, its
 * analysis (Eqs. 13-16) and Table 2, and lists every choice.
 *
 * The model: SABUL sends one packet per sending period and never a burst.
 * The period is tuned once per constant interval T (SYN), whatever the
 * RTT, from the loss rate p = LOSS / SENT measured over that interval, so
 * that flows of different RTTs are treated alike:
 *
 *	p <  alpha:  period = period * (1 - k2 (alpha - p)) - d   (increase)
 *	p >= alpha:  period = period * (1 + k1 (p - alpha)) + c   (decrease)
 *	Lambda losses within the interval: period += b at once     (fast reaction)
 *
 * alpha is the tolerated loss rate (0.001).  In rate terms the decrease is
 * rate' = rate / (1 + k1 (p - alpha) + c * rate): non-linear, a faster
 * connection (shorter period) loses a larger share, which is what makes
 * SABUL flows converge to a fair share; at p = alpha exactly only c
 * applies, which breaks the equilibrium of two flows seeing the same loss
 * rate.  Constants (Table 2): alpha 0.001, k1 0.125, k2 10, c 2 us,
 * b 0.5 us, d 0.1 us, Lambda 10; T = 10 ms (UDT's SYN; SABUL used 20 ms).
 *
 *	rate
 *	 ^           loss: /(1 + k1(p-a) + c rate)
 *	 |      ___    |    ___        ___
 *	 |   _.'   '._ v _.'   '._ _.-'   '.     each step: one interval T
 *	 |  /         '-'         '         '-
 *	 | /  increase: rate / (1 - k2 (a - p) - d rate)
 *	 |/ start (TCP slow start until the first loss, then rate = delivery rate)
 *	 +---------------------------------------------------------> time
 *
 * As a TCP congestion control: SENT is tp->data_segs_out and LOSS tp->lost
 * over the interval (both wrap at 2^32), the period becomes sk_pacing_rate
 * (mss bytes per period): fq (or TCP's internal pacing, requested in .init
 * as tcp_bbr.c does) spaces every segment by it through EDT.  SABUL has no
 * slow start; a TCP connection starts in TCP's slow start (paced at twice
 * cwnd per srtt) and, on its first loss, takes the delivery rate of the
 * path as its first rate, as UDT does with the receiver's arrival rate;
 * the rate control's first interval begins once TCP has recovered from
 * the start's losses.
 * The window only bounds the rate: UDT's rate * (srtt + T) + 16 packets.
 * An RTO is a decrease at p = 1.  One congestion event gives one decrease:
 * losses TCP marks before a packet sent after the last decrease has been
 * delivered (tp->rack.mstamp) are that decrease's event's and do not count
 * in LOSS (UDT's rule); while TCP recovers after a decrease, pacing and
 * the window bound use at least half the delivery rate measured before it.
 *
 * Observability: ss -ti and TCP_CC_INFO (get_info, below: the rate in bw,
 * the min RTT in mrtt; the period, loss rate and phase in its own record)
 * and the tracepoint tcp_sabul:sabul_rate (sabul_trace.h).  The
 * arithmetic lives in sabul_math.h and is unit-tested in userspace
 * (tests/unit/test_sabul.c).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/inet_diag.h>
#include <net/tcp.h>

#include "cc_info.h"
#include "cc_pacing.h"
#include "cc_param.h"
#include "compat.h"
#include "sabul_math.h"

#define CREATE_TRACE_POINTS
#include "sabul_trace.h"

/* Per-socket state: 88 of the ICSK_CA_PRIV_SIZE (104) bytes. */
struct sabul {
	u64	period_ps;	/* sending period, ps per mss-sized packet */
	u64	start_us;	/* tp->tcp_mstamp when this interval began, us */
	u64	bw_max;		/* start phase: largest delivery rate, B/s */
	u64	dec_us;		/* tp->tcp_mstamp at the last decrease (0: none) */
	u64	bw_cur;		/* largest delivery rate in this interval, B/s */
	u64	bw_prev;	/* ... and in the previous one */
	u64	floor;		/* recovery floor from the last decrease, B/s */
	u32	sent_mark;	/* tp->data_segs_out at the interval's start */
	u32	lost_mark;	/* tp->lost at the interval's start */
	u32	lost_seen;	/* tp->lost at the previous ACK */
	u32	old_lost;	/* of those since lost_mark: the answered event's */
	u32	events;		/* L: lost packets since the last rate change */
	u32	p_ppm;		/* loss rate of the last interval, 1e-6 */
	u32	ready:1,	/* .init ran (the area is zeroed before) */
		in_start:1,	/* TCP slow start, before the first loss */
		start_recovery:1, /* recovering from the start's overshoot */
		pacing_on:1,	/* .init set SK_PACING_NEEDED */
		unused:28;
};

/*
 * Range-checked module parameters (cc_param.h), as in tcp_icc.c:
 * sabul_param_check() checks a new value together with the current others
 * through sabul_math.h's sabul_param_bounds() and sabul_params_valid()
 * (k2 * alpha <= 0.5, min_rate <= max_rate) and the setter refuses (-EINVAL,
 * pr_warn naming the range) instead of clamping.  Setters run under the
 * module's parameter lock, so the cross-check cannot race with another
 * setter.
 */
static bool sabul_param_check(const struct cc_param *p, unsigned int v,
			      unsigned int *lo, unsigned int *hi);

#define SABUL_PARAM(_name, _def, _lo, _hi, _unit, _text, _id)		\
	CC_PARAM(_name, sabul_##_name, 0644, _def, _lo, _hi, _unit, _text, \
		 .check = sabul_param_check, .id = _id)

SABUL_PARAM(syn_us, 10000, 1000, 1000000, "us",
	    "T (SYN), the constant rate control interval", SABUL_PARAM_SYN_US);
SABUL_PARAM(alpha_ppm, 1000, 1, 500000, "1e-6",
	    "alpha, tolerated loss rate: increase below, decrease at or above; k2*alpha <= 0.5",
	    SABUL_PARAM_ALPHA_PPM);
SABUL_PARAM(k1_milli, 125, 1, 10000, "1/1000",
	    "k1, decrease: period*(1+k1*(p-alpha))+c", SABUL_PARAM_K1_MILLI);
SABUL_PARAM(k2_milli, 10000, 0, 1000000, "1/1000",
	    "k2, increase: period*(1-k2*(alpha-p))-d; k2*alpha <= 0.5",
	    SABUL_PARAM_K2_MILLI);
SABUL_PARAM(c_ns, 2000, 0, 1000000, "ns", "c, period added by a decrease",
	    SABUL_PARAM_C_NS);
SABUL_PARAM(b_ns, 500, 0, 1000000, "ns",
	    "b, period added by a fast reaction to Lambda losses",
	    SABUL_PARAM_B_NS);
SABUL_PARAM(d_ns, 100, 0, 1000000, "ns", "d, period taken off by an increase",
	    SABUL_PARAM_D_NS);
SABUL_PARAM(lambda, 10, 1, 100000, "lost packets",
	    "Lambda, lost packets within an interval per fast reaction",
	    SABUL_PARAM_LAMBDA);
SABUL_PARAM(min_rate_kbps, 100, 10, 100000000, "kbit/s",
	    "floor of the sending rate, at most max_rate_kbps",
	    SABUL_PARAM_MIN_RATE_KBPS);
SABUL_PARAM(max_rate_kbps, 100000000, 10, 100000000, "kbit/s",
	    "ceiling of the sending rate, at least min_rate_kbps",
	    SABUL_PARAM_MAX_RATE_KBPS);

/* sabul_math.h's bounds and defaults (unit-tested there) are the above. */
static_assert(SABUL_DEF_SYN_US == 10000 && SABUL_SYN_US_MIN == 1000 &&
	      SABUL_SYN_US_MAX == 1000000);
static_assert(SABUL_DEF_ALPHA_PPM == 1000 && SABUL_ALPHA_PPM_MIN == 1 &&
	      SABUL_ALPHA_PPM_MAX == 500000);
static_assert(SABUL_DEF_K1_MILLI == 125 && SABUL_K1_MILLI_MIN == 1 &&
	      SABUL_K1_MILLI_MAX == 10000);
static_assert(SABUL_DEF_K2_MILLI == 10000 && SABUL_K2_MILLI_MIN == 0 &&
	      SABUL_K2_MILLI_MAX == 1000000);
static_assert(SABUL_DEF_C_NS == 2000 && SABUL_DEF_B_NS == 500 &&
	      SABUL_DEF_D_NS == 100 && SABUL_NS_MAX == 1000000);
static_assert(SABUL_DEF_LAMBDA == 10 && SABUL_LAMBDA_MIN == 1 &&
	      SABUL_LAMBDA_MAX == 100000);
static_assert(SABUL_DEF_MIN_RATE_KBPS == 100 &&
	      SABUL_DEF_MAX_RATE_KBPS == 100000000 &&
	      SABUL_RATE_KBPS_MIN == 10 && SABUL_RATE_KBPS_MAX == 100000000);

/* One consistent-enough copy of the tunables for one decision. */
static void sabul_params_load(struct sabul_params *p)
{
	p->syn_us = READ_ONCE(sabul_syn_us.val);
	p->alpha_ppm = READ_ONCE(sabul_alpha_ppm.val);
	p->k1_milli = READ_ONCE(sabul_k1_milli.val);
	p->k2_milli = READ_ONCE(sabul_k2_milli.val);
	p->c_ns = READ_ONCE(sabul_c_ns.val);
	p->b_ns = READ_ONCE(sabul_b_ns.val);
	p->d_ns = READ_ONCE(sabul_d_ns.val);
	p->lambda = READ_ONCE(sabul_lambda.val);
	p->min_rate_kbps = READ_ONCE(sabul_min_rate_kbps.val);
	p->max_rate_kbps = READ_ONCE(sabul_max_rate_kbps.val);
}

static bool sabul_param_check(const struct cc_param *p, unsigned int v,
			      unsigned int *lo, unsigned int *hi)
{
	return cc_param_cross_check(struct sabul_params, sabul_params_load,
				    sabul_param_store, sabul_param_bounds,
				    sabul_params_valid, p, v, lo, hi);
}

static u32 sabul_mss(const struct tcp_sock *tp)
{
	return tp->mss_cache ? tp->mss_cache : 1;
}

static u64 sabul_period_ns(u64 period_ps)
{
	return div64_u64(period_ps, SABUL_PS_PER_NS);
}

static u64 sabul_rate_kbps(u64 period_ps, u32 mss)
{
	return div64_u64(sabul_period_to_rate(period_ps, mss) * 8, 1000);
}

/* A new interval starts now; L is cleared with it. */
static void sabul_interval_restart(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct sabul *ca = inet_csk_ca(sk);

	ca->start_us = tp->tcp_mstamp;
	ca->sent_mark = tp->data_segs_out;
	ca->lost_mark = tp->lost;
	ca->old_lost = 0;
	ca->events = 0;
}

/*
 * A decrease answers the congestion event: losses of packets sent before
 * now no longer decrease (sabul_losses_old()), and TCP's recovery from
 * them is paced at least at the floor from the delivery rate measured
 * before it (the last two intervals').
 */
static void sabul_mark_decrease(struct sock *sk, const struct sabul_params *p)
{
	struct sabul *ca = inet_csk_ca(sk);

	ca->dec_us = tcp_sk(sk)->tcp_mstamp;
	ca->floor = sabul_recovery_floor(max(ca->bw_cur, ca->bw_prev), p);
}

/* The pacing rate and the window bound of the period (and the floor). */
static void sabul_apply(struct sock *sk, const struct sabul_params *p)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sabul *ca = inet_csk_ca(sk);
	bool recovering = inet_csk(sk)->icsk_ca_state >= TCP_CA_Recovery;
	u32 mss = sabul_mss(tp), cwnd;
	u64 period;

	if (!recovering)
		ca->floor = 0;	/* the floor lasts one recovery */
	period = sabul_send_period(ca->period_ps, mss, ca->floor, recovering);
	cwnd = sabul_cwnd_bound(period, tp->srtt_us >> 3, p->syn_us);
	tcp_snd_cwnd_set(tp, min(cwnd, tp->snd_cwnd_clamp));
	cc_set_pacing_rate(sk, sabul_period_to_rate(period, mss));
}

static void sabul_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sabul *ca = inet_csk_ca(sk);

	memset(ca, 0, sizeof(*ca));
	ca->ready = 1;
	ca->in_start = 1;
	ca->lost_seen = tp->lost;
	ca->period_ps = sabul_kbps_to_period(READ_ONCE(sabul_min_rate_kbps.val),
					     sabul_mss(tp));
	sabul_interval_restart(sk);
	cc_set_pacing_rate(sk, sabul_start_rate(tcp_snd_cwnd(tp),
						sabul_mss(tp),
						tp->srtt_us >> 3));
	ca->pacing_on = cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE,
				SK_PACING_NEEDED) == SK_PACING_NONE;
}

/* Leaving SABUL: give back internal pacing if .init asked for it. */
static void sabul_release(struct sock *sk)
{
	struct sabul *ca = inet_csk_ca(sk);

	if (ca->pacing_on)
		cmpxchg(&sk->sk_pacing_status, SK_PACING_NEEDED, SK_PACING_NONE);
	ca->pacing_on = 0;
}

/*
 * The first loss (or RTO) ends the start phase: the first period is that
 * of the largest delivery rate seen, the path's rate, or of cwnd per srtt
 * without a sample.
 */
static void sabul_exit_start(struct sock *sk, const struct sabul_params *p)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sabul *ca = inet_csk_ca(sk);
	u32 mss = sabul_mss(tp);
	u64 old = ca->period_ps, rate = ca->bw_max;

	if (!rate)
		rate = sabul_start_rate(tcp_snd_cwnd(tp), mss,
					tp->srtt_us >> 3) / 2;
	ca->period_ps = sabul_period_clamp(sabul_rate_to_period(rate, mss),
					   mss, p);
	ca->in_start = 0;
	ca->start_recovery = 1;
	ca->dec_us = tp->tcp_mstamp;	/* the exit answers the overshoot */
	sabul_interval_restart(sk);
	trace_sabul_rate(sk, SABUL_ACT_START_EXIT, 0, 0, 0,
			 sabul_period_ns(old), sabul_period_ns(ca->period_ps),
			 sabul_rate_kbps(ca->period_ps, mss));
}

/* Start phase: TCP slow start on the window, paced at 2 cwnd / srtt. */
static void sabul_start(struct sock *sk, const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sabul *ca = inet_csk_ca(sk);
	u64 bw = sabul_delivery_rate(rs->delivered, sabul_mss(tp),
				     rs->interval_us);

	if (bw > ca->bw_max)
		ca->bw_max = bw;
	if (tcp_is_cwnd_limited(sk) && rs->acked_sacked)
		tcp_slow_start(tp, rs->acked_sacked);
	cc_set_pacing_rate(sk, sabul_start_rate(tcp_snd_cwnd(tp),
						sabul_mss(tp),
						tp->srtt_us >> 3));
}

/* The rate control proper: fast reaction per ACK, the rules per interval. */
static void sabul_control(struct sock *sk, u32 new_lost,
			  const struct rate_sample *rs,
			  const struct sabul_params *p)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sabul *ca = inet_csk_ca(sk);
	u32 mss = sabul_mss(tp), sent, lost, n;
	enum sabul_action act;
	u64 old = ca->period_ps;
	u64 bw = sabul_delivery_rate(rs->delivered, mss, rs->interval_us);

	if (bw > ca->bw_cur)
		ca->bw_cur = bw;

	/*
	 * The losses of the start's overshoot were answered by the start's
	 * exit: the rate control begins once TCP has recovered from them.
	 */
	if (ca->start_recovery) {
		if (inet_csk(sk)->icsk_ca_state >= TCP_CA_Recovery) {
			sabul_interval_restart(sk);
			return;
		}
		ca->start_recovery = 0;
		sabul_interval_restart(sk);
	}

	/* Losses of packets sent before the last decrease: its event's. */
	if (new_lost && sabul_losses_old(ca->dec_us, tp->rack.mstamp))
		sabul_old_add(&ca->old_lost, new_lost);

	n = sabul_fast_reaction(&ca->period_ps, &ca->events, new_lost, mss, p);
	if (n)
		trace_sabul_rate(sk, SABUL_ACT_FAST, 0, n * p->lambda, 0,
				 sabul_period_ns(old),
				 sabul_period_ns(ca->period_ps),
				 sabul_rate_kbps(ca->period_ps, mss));

	if (!sabul_interval_due(tp->tcp_mstamp, ca->start_us, p->syn_us))
		return;
	sent = sabul_counter_delta(tp->data_segs_out, ca->sent_mark);
	lost = sabul_counter_delta(tp->lost, ca->lost_mark);
	old = ca->period_ps;
	ca->period_ps = sabul_interval_tick(old, sent, lost, ca->old_lost,
					    tp->app_limited != 0, mss, p,
					    &ca->p_ppm, &act);
	if (act == SABUL_ACT_DECREASE)
		sabul_mark_decrease(sk, p);
	ca->bw_prev = ca->bw_cur;
	ca->bw_cur = 0;
	sabul_interval_restart(sk);
	trace_sabul_rate(sk, act, sent, lost, ca->p_ppm, sabul_period_ns(old),
			 sabul_period_ns(ca->period_ps),
			 sabul_rate_kbps(ca->period_ps, mss));
}

static void sabul_cong_control(COMPAT_CONG_CONTROL_ARGS)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sabul *ca = inet_csk_ca(sk);
	u32 new_lost = sabul_counter_delta(tp->lost, ca->lost_seen);
	struct sabul_params p;

	/*
	 * An active open's SYN-ACK reaches cong_control before .init
	 * (tcp_ack() runs before tcp_finish_connect()), with the private
	 * area zeroed: leave that ACK to TCP's defaults.
	 */
	if (!ca->ready)
		return;
	ca->lost_seen = tp->lost;
	sabul_params_load(&p);
	if (ca->in_start) {
		if (!new_lost &&
		    inet_csk(sk)->icsk_ca_state < TCP_CA_Recovery) {
			sabul_start(sk, rs);
			return;
		}
		sabul_exit_start(sk, &p);
		new_lost = 0;	/* the start's losses are not the control's */
	}
	sabul_control(sk, new_lost, rs, &p);
	sabul_apply(sk, &p);
}

/* The window belongs to the rate control: a loss leaves ssthresh alone. */
static u32 sabul_ssthresh(struct sock *sk)
{
	return tcp_sk(sk)->snd_ssthresh;
}

static u32 sabul_undo_cwnd(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

/*
 * An RTO: a decrease at p = 1 (or the end of the start phase).  It answers
 * every packet outstanding, which TCP has just marked lost: those losses
 * are its event's (no fast reaction, no new decrease).
 */
static void sabul_set_state(struct sock *sk, u8 new_state)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sabul *ca = inet_csk_ca(sk);
	struct sabul_params p;
	u64 old, send;
	u32 mss;

	if (new_state != TCP_CA_Loss || !ca->ready)
		return;
	sabul_params_load(&p);
	if (ca->in_start) {
		sabul_exit_start(sk, &p);
		return;
	}
	mss = sabul_mss(tp);
	old = ca->period_ps;
	ca->period_ps = sabul_period_clamp(sabul_decrease(old, SABUL_PPM, &p),
					   mss, &p);
	sabul_mark_decrease(sk, &p);
	sabul_old_add(&ca->old_lost, sabul_counter_delta(tp->lost, ca->lost_seen));
	ca->lost_seen = tp->lost;
	/* the window stays TCP's (in flight + 1) until the next ACK */
	send = sabul_send_period(ca->period_ps, mss, ca->floor, true);
	cc_set_pacing_rate(sk, sabul_period_to_rate(send, mss));
	trace_sabul_rate(sk, SABUL_ACT_RTO, 0, 0, SABUL_PPM,
			 sabul_period_ns(old), sabul_period_ns(ca->period_ps),
			 sabul_rate_kbps(ca->period_ps, mss));
}

/*
 * get_info (cc_info.h).  `ss -ti` gets struct tcp_bbr_info with what ss
 * labels each field:
 *   bbr_bw_lo/hi     the sending rate mss / period, bytes/s (the start
 *                    phase: the pacing rate)  -> bw
 *   bbr_min_rtt      TCP's min RTT, us        -> mrtt: in ms
 *   bbr_cwnd_gain    cwnd / (bw * min_rtt), 1/256
 *   bbr_pacing_gain  0 (ss omits it)
 * getsockopt(TCP_CC_INFO) gets struct sabul_cc_info: the period, the last
 * interval's loss rate, T and the phase (scripts/obs/cc_info.py,
 * docs/sabul.md).
 */
static size_t sabul_get_info(struct sock *sk, u32 ext, int *attr,
			     union tcp_cc_info *info)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct sabul *ca = inet_csk_ca(sk);
	u64 period = READ_ONCE(ca->period_ps);
	bool start = ca->in_start || !ca->ready;

	if (cc_info_sockopt(ext)) {
		struct sabul_cc_info si;
		u64 ns = sabul_period_ns(period);

		memset(&si, 0, sizeof(si));
		si.period_ns = start ? 0 : (u32)min_t(u64, ns, U32_MAX);
		si.p_ppm = READ_ONCE(ca->p_ppm);
		si.syn_us = READ_ONCE(sabul_syn_us.val);
		si.phase = start ? 0 : 1;
		BUILD_BUG_ON(sizeof(si) > sizeof(*info));
		memcpy(info, &si, sizeof(si));
		*attr = INET_DIAG_NONE;
		return sizeof(si);
	}
	if (ext & (1 << (INET_DIAG_BBRINFO - 1)) ||
	    ext & (1 << (INET_DIAG_VEGASINFO - 1))) {
		u32 mss = sabul_mss(tp), min_rtt = tcp_min_rtt(tp);
		u64 rate;

		if (min_rtt == ~0U)
			min_rtt = 0;
		if (!ca->ready)
			rate = 0;
		else if (start)
			rate = READ_ONCE(sk->sk_pacing_rate);
		else
			rate = sabul_period_to_rate(period, mss);
		memset(&info->bbr, 0, sizeof(info->bbr));
		info->bbr.bbr_bw_lo = (u32)rate;
		info->bbr.bbr_bw_hi = (u32)(rate >> 32);
		info->bbr.bbr_min_rtt = min_rtt;
		info->bbr.bbr_cwnd_gain =
			cc_info_cwnd_gain(tcp_snd_cwnd(tp), mss, rate, min_rtt);
		*attr = INET_DIAG_BBRINFO;
		return sizeof(info->bbr);
	}
	return 0;
}

static struct tcp_congestion_ops tcp_sabul __read_mostly = {
	.init		= sabul_init,
	.release	= sabul_release,
	.ssthresh	= sabul_ssthresh,
	.cong_control	= sabul_cong_control,
	.set_state	= sabul_set_state,
	.undo_cwnd	= sabul_undo_cwnd,
	.get_info	= sabul_get_info,
	.owner		= THIS_MODULE,
	.name		= "sabul",
};

static int __init sabul_register(void)
{
	BUILD_BUG_ON(sizeof(struct sabul) > ICSK_CA_PRIV_SIZE);
	return tcp_register_congestion_control(&tcp_sabul);
}

static void __exit sabul_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_sabul);
}

module_init(sabul_register);
module_exit(sabul_unregister);

MODULE_AUTHOR("tcp-cc-lab");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SABUL: rate-based control tuned at a constant interval from the loss rate (Gu, Hong, Mazzucco, Grossman)");
