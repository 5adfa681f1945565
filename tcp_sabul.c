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
 * An RTO is a decrease at p = 1.
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
#include "compat.h"
#include "sabul_math.h"

#define CREATE_TRACE_POINTS
#include "sabul_trace.h"

static unsigned int sabul_syn_us __read_mostly = SABUL_DEF_SYN_US;
static unsigned int sabul_alpha_ppm __read_mostly = SABUL_DEF_ALPHA_PPM;
static unsigned int sabul_k1_milli __read_mostly = SABUL_DEF_K1_MILLI;
static unsigned int sabul_k2_milli __read_mostly = SABUL_DEF_K2_MILLI;
static unsigned int sabul_c_ns __read_mostly = SABUL_DEF_C_NS;
static unsigned int sabul_b_ns __read_mostly = SABUL_DEF_B_NS;
static unsigned int sabul_d_ns __read_mostly = SABUL_DEF_D_NS;
static unsigned int sabul_lambda __read_mostly = SABUL_DEF_LAMBDA;
static unsigned int sabul_min_rate_kbps __read_mostly = SABUL_DEF_MIN_RATE_KBPS;
static unsigned int sabul_max_rate_kbps __read_mostly = SABUL_DEF_MAX_RATE_KBPS;

/* Per-socket state: 48 of the ICSK_CA_PRIV_SIZE bytes. */
struct sabul {
	u64	period_ps;	/* sending period, ps per mss-sized packet */
	u64	start_us;	/* tp->tcp_mstamp when this interval began, us */
	u64	bw_max;		/* start phase: largest delivery rate, B/s */
	u32	sent_mark;	/* tp->data_segs_out at the interval's start */
	u32	lost_mark;	/* tp->lost at the interval's start */
	u32	lost_seen;	/* tp->lost at the previous ACK */
	u32	events;		/* L: lost packets since the last rate change */
	u32	p_ppm;		/* loss rate of the last interval, 1e-6 */
	u32	ready:1,	/* .init ran (the area is zeroed before) */
		in_start:1,	/* TCP slow start, before the first loss */
		start_recovery:1, /* recovering from the start's overshoot */
		pacing_on:1,	/* .init set SK_PACING_NEEDED */
		unused:28;
};

/* One consistent-enough copy of the tunables for one decision. */
static void sabul_params_load(struct sabul_params *p)
{
	p->syn_us = READ_ONCE(sabul_syn_us);
	p->alpha_ppm = READ_ONCE(sabul_alpha_ppm);
	p->k1_milli = READ_ONCE(sabul_k1_milli);
	p->k2_milli = READ_ONCE(sabul_k2_milli);
	p->c_ns = READ_ONCE(sabul_c_ns);
	p->b_ns = READ_ONCE(sabul_b_ns);
	p->d_ns = READ_ONCE(sabul_d_ns);
	p->lambda = READ_ONCE(sabul_lambda);
	p->min_rate_kbps = READ_ONCE(sabul_min_rate_kbps);
	p->max_rate_kbps = READ_ONCE(sabul_max_rate_kbps);
}

/*
 * Range-checked module parameters, as in tcp_icc.c: the setter checks the
 * new value together with the current others through sabul_params_valid()
 * (k2 * alpha <= 0.5, min_rate <= max_rate) and refuses (-EINVAL, pr_warn
 * naming the range) instead of clamping.  Setters run under the module's
 * parameter lock, so the cross-check cannot race with another setter.
 */
struct sabul_param_desc {
	unsigned int	*val;	/* the variable behind the parameter */
	enum sabul_param which;	/* its index for sabul_param_bounds() */
	const char	*unit;	/* for the refusal message */
};

static const struct sabul_param_desc sabul_param_descs[] = {
	{ &sabul_syn_us, SABUL_PARAM_SYN_US, "us" },
	{ &sabul_alpha_ppm, SABUL_PARAM_ALPHA_PPM, "1e-6 (and k2 * alpha <= 0.5)" },
	{ &sabul_k1_milli, SABUL_PARAM_K1_MILLI, "1/1000" },
	{ &sabul_k2_milli, SABUL_PARAM_K2_MILLI, "1/1000 (and k2 * alpha <= 0.5)" },
	{ &sabul_c_ns, SABUL_PARAM_C_NS, "ns" },
	{ &sabul_b_ns, SABUL_PARAM_B_NS, "ns" },
	{ &sabul_d_ns, SABUL_PARAM_D_NS, "ns" },
	{ &sabul_lambda, SABUL_PARAM_LAMBDA, "lost packets" },
	{ &sabul_min_rate_kbps, SABUL_PARAM_MIN_RATE_KBPS, "kbit/s (<= max_rate_kbps)" },
	{ &sabul_max_rate_kbps, SABUL_PARAM_MAX_RATE_KBPS, "kbit/s (>= min_rate_kbps)" },
};

static int sabul_param_set(const char *val, const struct kernel_param *kp)
{
	const struct sabul_param_desc *d = NULL;
	struct sabul_params p;
	unsigned int v;
	u32 lo, hi;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(sabul_param_descs); i++)
		if (sabul_param_descs[i].val == kp->arg)
			d = &sabul_param_descs[i];
	if (!d)
		return -EINVAL;

	ret = kstrtouint(val, 0, &v);
	if (ret) {
		pr_warn("%s: not an unsigned integer\n", kp->name);
		return ret;
	}

	sabul_params_load(&p);
	sabul_param_store(&p, d->which, v);
	sabul_param_bounds(d->which, &p, &lo, &hi);
	if (v < lo || v > hi || !sabul_params_valid(&p)) {
		pr_warn("%s=%u refused: must be in [%u, %u] %s\n",
			kp->name, v, lo, hi, d->unit);
		return -EINVAL;
	}
	WRITE_ONCE(*d->val, v);
	return 0;
}

static const struct kernel_param_ops sabul_param_ops = {
	.set = sabul_param_set,
	.get = param_get_uint,
};

module_param_cb(syn_us, &sabul_param_ops, &sabul_syn_us, 0644);
MODULE_PARM_DESC(syn_us,
		 "T (SYN), the constant rate control interval (us); 1000..1000000, default 10000");
module_param_cb(alpha_ppm, &sabul_param_ops, &sabul_alpha_ppm, 0644);
MODULE_PARM_DESC(alpha_ppm,
		 "alpha, tolerated loss rate (1e-6): increase below, decrease at or above; 1..500000 with k2*alpha <= 0.5, default 1000 (0.001)");
module_param_cb(k1_milli, &sabul_param_ops, &sabul_k1_milli, 0644);
MODULE_PARM_DESC(k1_milli,
		 "k1, decrease: period*(1+k1*(p-alpha))+c (1/1000); 1..10000, default 125");
module_param_cb(k2_milli, &sabul_param_ops, &sabul_k2_milli, 0644);
MODULE_PARM_DESC(k2_milli,
		 "k2, increase: period*(1-k2*(alpha-p))-d (1/1000); 0..1000000 with k2*alpha <= 0.5, default 10000 (10)");
module_param_cb(c_ns, &sabul_param_ops, &sabul_c_ns, 0644);
MODULE_PARM_DESC(c_ns,
		 "c, period added by a decrease (ns); 0..1000000, default 2000");
module_param_cb(b_ns, &sabul_param_ops, &sabul_b_ns, 0644);
MODULE_PARM_DESC(b_ns,
		 "b, period added by a fast reaction to Lambda losses (ns); 0..1000000, default 500");
module_param_cb(d_ns, &sabul_param_ops, &sabul_d_ns, 0644);
MODULE_PARM_DESC(d_ns,
		 "d, period taken off by an increase (ns); 0..1000000, default 100");
module_param_cb(lambda, &sabul_param_ops, &sabul_lambda, 0644);
MODULE_PARM_DESC(lambda,
		 "Lambda, lost packets within an interval per fast reaction; 1..100000, default 10");
module_param_cb(min_rate_kbps, &sabul_param_ops, &sabul_min_rate_kbps, 0644);
MODULE_PARM_DESC(min_rate_kbps,
		 "floor of the sending rate (kbit/s); 10..max_rate_kbps, default 100");
module_param_cb(max_rate_kbps, &sabul_param_ops, &sabul_max_rate_kbps, 0644);
MODULE_PARM_DESC(max_rate_kbps,
		 "ceiling of the sending rate (kbit/s); min_rate_kbps..100000000, default 100000000");

/* A pacing rate in B/s that TCP honours: never 0 or ~0UL ("not paced"). */
static void sabul_set_pacing_rate(struct sock *sk, u64 rate)
{
	u64 max_rate = READ_ONCE(sk->sk_max_pacing_rate);

	if (rate > max_rate)
		rate = max_rate;
	if (rate >= ULONG_MAX)
		rate = ULONG_MAX - 1;
	if (!rate)
		rate = 1;
	WRITE_ONCE(sk->sk_pacing_rate, (unsigned long)rate);
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
	ca->events = 0;
}

static void sabul_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sabul *ca = inet_csk_ca(sk);

	memset(ca, 0, sizeof(*ca));
	ca->ready = 1;
	ca->in_start = 1;
	ca->lost_seen = tp->lost;
	ca->period_ps = sabul_kbps_to_period(READ_ONCE(sabul_min_rate_kbps),
					     sabul_mss(tp));
	sabul_interval_restart(sk);
	sabul_set_pacing_rate(sk, sabul_start_rate(tcp_snd_cwnd(tp),
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
	sabul_set_pacing_rate(sk, sabul_start_rate(tcp_snd_cwnd(tp),
						   sabul_mss(tp),
						   tp->srtt_us >> 3));
}

/* The rate control proper: fast reaction per ACK, the rules per interval. */
static void sabul_control(struct sock *sk, u32 new_lost,
			  const struct sabul_params *p)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct sabul *ca = inet_csk_ca(sk);
	u32 mss = sabul_mss(tp), sent, lost, n;
	enum sabul_action act;
	u64 old = ca->period_ps;

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
	ca->period_ps = sabul_interval_tick(old, sent, lost,
					    tp->app_limited != 0, mss, p,
					    &ca->p_ppm, &act);
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
	u32 cwnd;

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
	sabul_control(sk, new_lost, &p);

	cwnd = sabul_cwnd_bound(ca->period_ps, tp->srtt_us >> 3, p.syn_us);
	tcp_snd_cwnd_set(tp, min(cwnd, tp->snd_cwnd_clamp));
	sabul_set_pacing_rate(sk, sabul_period_to_rate(ca->period_ps,
						       sabul_mss(tp)));
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

/* An RTO: a decrease at p = 1 (or the end of the start phase). */
static void sabul_set_state(struct sock *sk, u8 new_state)
{
	struct sabul *ca = inet_csk_ca(sk);
	struct sabul_params p;
	u32 mss;
	u64 old;

	if (new_state != TCP_CA_Loss || !ca->ready)
		return;
	sabul_params_load(&p);
	if (ca->in_start) {
		sabul_exit_start(sk, &p);
		return;
	}
	mss = sabul_mss(tcp_sk(sk));
	old = ca->period_ps;
	ca->period_ps = sabul_period_clamp(sabul_decrease(old, SABUL_PPM, &p),
					   mss, &p);
	sabul_set_pacing_rate(sk, sabul_period_to_rate(ca->period_ps, mss));
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
 * interval's loss rate, T and the phase (scripts/cc_info.py,
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
		si.syn_us = READ_ONCE(sabul_syn_us);
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
