// SPDX-License-Identifier: GPL-2.0
/*
 * ICC: Incremental Control Congestion for high-speed networks.
 *
 * F. Nakoul, "A New Incremental Control Congestion Algorithm for High-Speed
 * Networks" (seed 004 of this project).  The paper gives ICC as pseudo-code,
 * a modification of BIC (L. Xu, K. Harfoush, I. Rhee, "Binary Increase
 * Congestion Control for Fast Long-Distance Networks", INFOCOM 2004); that
 * pseudo-code is the specification implemented here.
 *
 * Background: BIC treats the window at the last loss, Wmax, as the target
 * of a binary search.  After a multiplicative decrease the window jumps
 * towards the midpoint between itself and Wmax each RTT, quickly at first
 * and ever more gently as it nears Wmax, where the link was full last time.
 * Past Wmax the target is unknown, so it probes for a new maximum, slowly at
 * first and then faster.  Increments are bounded by Smax (a big jump would
 * overshoot and cause heavy loss) and Smin (never stall).
 *
 * ICC keeps that shape with one increment rule per side of Wmax, per RTT:
 *
 *	ICC_inc = (Wmax - cwnd) / a	cwnd <  Wmax	(binary search)
 *	ICC_inc =  cwnd - Wmax		cwnd >= Wmax	(max probing)
 *	ICC_inc = min(max(ICC_inc, Smin), Smax)
 *	cwnd   += ICC_inc / cwnd	per ACKed packet
 *
 * Max probing starts at Smin at Wmax and doubles its distance from Wmax
 * every RTT (slow-start-like) until Smax caps it into linear growth.  On
 * a loss:
 *
 *	Wmax = cwnd (a - b) / a		if cwnd < Wmax (fast convergence)
 *	Wmax = cwnd			otherwise
 *	cwnd = cwnd (1 - b)
 *
 * Below low_window ICC is Reno: +1 packet per RTT, halve on loss, Wmax
 * untouched.  The paper's parameters: Smax = 32 packets/RTT, Smin = 0.01
 * packet/RTT, b = 0.125; a = 2 and low_window = 14 are BIC's.
 *
 *	cwnd
 *	 ^                                                    / Smax
 *	 |                                                  .'  (linear)
 *	 |                              max probing       .'
 *	 |                              (cwnd - Wmax)   .'
 *	 |  Wmax  - - - - - - - - ______________.....--'
 *	 |                  _.--'   Smin around Wmax
 *	 |    binary     .-'
 *	 |    search   /   (Wmax - cwnd) / a
 *	 |           /     Smax while far below
 *	 |  cwnd (1 - b)
 *	 +-----------------------------------------------------> time
 *	    ^ loss
 *
 * Slow start is Reno's (tcp_slow_start).  The arithmetic, in fixed point
 * with Smin = 0.01 represented exactly, lives in icc_math.h and is
 * unit-tested in userspace (tests/unit/test_icc.c).  docs/icc.md lists the
 * parameters, the ss -ti fields and every deviation from the paper.
 *
 * Observability: ss -ti (get_info, below) and the tracepoints of
 * icc_trace.h: tcp_icc:icc_wmax on every loss, tcp_icc:icc_grow whenever
 * the window grows by a packet.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/inet_diag.h>
#include <net/tcp.h>

#include "cc_info.h"
#include "cc_param.h"
#include "icc_math.h"

#define CREATE_TRACE_POINTS
#include "icc_trace.h"

/* Per-socket state: 24 of the ICSK_CA_PRIV_SIZE bytes. */
struct icc {
	u64	wmax;		/* Wmax: window at the last loss, micro-packets
				 * (ICC_PKT_SCALE per packet); 0 = none yet
				 */
	u64	prior_wmax;	/* Wmax before the last ssthresh call, restored
				 * by undo_cwnd, micro-packets
				 */
	u64	acc;		/* growth credit, micro-packets: sum of ICC_inc
				 * per ACKed packet; one packet is due at
				 * cwnd * ICC_PKT_SCALE (icc_ack_step())
				 */
};

/*
 * Range-checked module parameters (cc_param.h).  icc_param_check() checks
 * a new value together with the current others through icc_math.h's
 * icc_param_bounds() and icc_params_valid(), so Smin <= Smax always holds,
 * and the setter refuses (-EINVAL, pr_warn naming the range) instead of
 * clamping.  Setters run under the module's parameter lock, so the
 * cross-check cannot race with another setter.
 */
static bool icc_param_check(const struct cc_param *p, unsigned int v,
			    unsigned int *lo, unsigned int *hi);

#define ICC_PARAM(_name, _def, _lo, _hi, _unit, _text, _id)		\
	CC_PARAM(_name, icc_##_name, 0644, _def, _lo, _hi, _unit, _text,	\
		 .check = icc_param_check, .id = _id)

ICC_PARAM(low_window, 14, 2, 1000000, "packets", "Reno below this window",
	  ICC_PARAM_LOW_WINDOW);
ICC_PARAM(smax, 32, 1, 1000000, "packets/RTT",
	  "Smax, largest increment, at least ceil(smin_milli/1000)",
	  ICC_PARAM_SMAX);
ICC_PARAM(smin_milli, 10, 1, 1000000000, "1/1000 packet/RTT",
	  "Smin, smallest increment, at most smax*1000", ICC_PARAM_SMIN_MILLI);
ICC_PARAM(b_milli, 125, 1, 500, "1/1000",
	  "b, multiplicative decrease: cwnd*(1-b) on loss", ICC_PARAM_B_MILLI);
ICC_PARAM(a, 2, 2, 16, "divisor",
	  "a, binary-search and fast-convergence factor", ICC_PARAM_A);
CC_PARAM_BOOL(fast_convergence, icc_fast_convergence, 0644, 1,
	      "on a loss below Wmax set Wmax = cwnd*(a-b)/a");

/* icc_math.h's bounds and defaults (unit-tested there) are the above. */
static_assert(ICC_DEF_LOW_WINDOW == 14 && ICC_LOW_WINDOW_MIN == 2 &&
	      ICC_LOW_WINDOW_MAX == 1000000);
static_assert(ICC_DEF_SMAX == 32 && ICC_SMAX_MIN == 1 &&
	      ICC_SMAX_MAX == 1000000);
static_assert(ICC_DEF_SMIN_MILLI == 10 && ICC_SMIN_MILLI_MIN == 1 &&
	      ICC_SMAX_MAX * ICC_MILLI == 1000000000);
static_assert(ICC_DEF_B_MILLI == 125 && ICC_B_MILLI_MIN == 1 &&
	      ICC_B_MILLI_MAX == 500);
static_assert(ICC_DEF_A == 2 && ICC_A_MIN == 2 && ICC_A_MAX == 16);

/* One consistent-enough copy of the tunables for one decision. */
static void icc_params_load(struct icc_params *p)
{
	p->low_window = READ_ONCE(icc_low_window.val);
	p->smax = READ_ONCE(icc_smax.val);
	p->smin_milli = READ_ONCE(icc_smin_milli.val);
	p->b_milli = READ_ONCE(icc_b_milli.val);
	p->a = READ_ONCE(icc_a.val);
	p->fast_convergence = READ_ONCE(icc_fast_convergence);
}

static bool icc_param_check(const struct cc_param *p, unsigned int v,
			    unsigned int *lo, unsigned int *hi)
{
	return cc_param_cross_check(struct icc_params, icc_params_load,
				    icc_param_store, icc_param_bounds,
				    icc_params_valid, p, v, lo, hi);
}

static void icc_reset(struct icc *ca)
{
	ca->wmax = 0;
	ca->acc = 0;
}

static void icc_init(struct sock *sk)
{
	struct icc *ca = inet_csk_ca(sk);

	icc_reset(ca);
	ca->prior_wmax = 0;
}

static void icc_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct icc *ca = inet_csk_ca(sk);
	struct icc_params p;
	u32 cwnd, grow;
	u64 inc;

	if (!tcp_is_cwnd_limited(sk))
		return;

	if (tcp_in_slow_start(tp)) {
		acked = tcp_slow_start(tp, acked);
		if (!acked)
			return;
	}

	icc_params_load(&p);
	cwnd = tcp_snd_cwnd(tp);
	inc = icc_increment(cwnd, ca->wmax, &p);
	grow = icc_ack_step(&ca->acc, cwnd, inc, acked);
	if (grow) {
		tcp_snd_cwnd_set(tp, min_t(u64, (u64)cwnd + grow,
					   tp->snd_cwnd_clamp));
		trace_icc_grow(sk, tcp_snd_cwnd(tp),
			       (u32)div_u64(ca->wmax, ICC_PKT_SCALE),
			       (u32)min_t(u64, div_u64(inc, ICC_PKT_SCALE / 1000),
					  U32_MAX));
	}
}

static u32 icc_ssthresh(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct icc *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tp);
	struct icc_params p;
	u32 ssthresh;

	icc_params_load(&p);
	ca->prior_wmax = ca->wmax;
	ca->wmax = icc_loss_wmax(cwnd, ca->wmax, &p);
	ca->acc = 0;
	ssthresh = icc_loss_cwnd(cwnd, &p);
	trace_icc_wmax(sk, cwnd, (u32)div_u64(ca->prior_wmax, ICC_PKT_SCALE),
		       (u32)div_u64(ca->wmax, ICC_PKT_SCALE), ssthresh);
	return ssthresh;
}

/* An RTO forgets Wmax, as BIC does; prior_wmax survives for undo. */
static void icc_set_state(struct sock *sk, u8 new_state)
{
	if (new_state == TCP_CA_Loss)
		icc_reset(inet_csk_ca(sk));
}

/* A spurious loss: undo the Wmax update along with the window. */
static u32 icc_undo_cwnd(struct sock *sk)
{
	struct icc *ca = inet_csk_ca(sk);

	ca->wmax = ca->prior_wmax;
	return tcp_reno_undo_cwnd(sk);
}

/*
 * get_info (cc_info.h).  `ss -ti` gets struct tcp_bbr_info with what ss
 * labels each field:
 *   bbr_bw_lo/hi     cwnd * mss / srtt, bytes/s  -> bw: the window's rate
 *   bbr_min_rtt      TCP's min RTT, us           -> mrtt: in ms
 *   bbr_cwnd_gain    cwnd / (bw * min_rtt), 1/256 (= srtt / min_rtt)
 *   bbr_pacing_gain  0 (ICC does not pace; ss omits it)
 * getsockopt(TCP_CC_INFO) gets struct icc_cc_info: Wmax, ICC_inc at the
 * current cwnd and the factor the next loss applies (scripts/obs/cc_info.py,
 * docs/icc.md).
 */
static size_t icc_get_info(struct sock *sk, u32 ext, int *attr,
			   union tcp_cc_info *info)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 cwnd = tcp_snd_cwnd(tp);

	if (cc_info_sockopt(ext)) {
		const struct icc *ca = inet_csk_ca(sk);
		u64 wmax = READ_ONCE(ca->wmax);
		struct icc_cc_info ii;
		struct icc_params p;

		icc_params_load(&p);
		ii.wmax_milli = icc_info_wmax_milli(wmax);
		ii.inc_q8 = icc_info_inc_gain(icc_increment(cwnd, wmax, &p));
		ii.decrease_q8 = icc_info_decrease_gain(cwnd, &p);
		BUILD_BUG_ON(sizeof(ii) > sizeof(*info));
		memcpy(info, &ii, sizeof(ii));
		*attr = INET_DIAG_NONE;
		return sizeof(ii);
	}
	if (ext & (1 << (INET_DIAG_BBRINFO - 1)) ||
	    ext & (1 << (INET_DIAG_VEGASINFO - 1))) {
		u32 mss = READ_ONCE(tp->mss_cache), min_rtt = tcp_min_rtt(tp);
		u64 bw = cc_info_window_rate(cwnd, mss, tp->srtt_us >> 3);

		if (min_rtt == ~0U)
			min_rtt = 0;
		memset(&info->bbr, 0, sizeof(info->bbr));
		info->bbr.bbr_bw_lo = (u32)bw;
		info->bbr.bbr_bw_hi = (u32)(bw >> 32);
		info->bbr.bbr_min_rtt = min_rtt;
		info->bbr.bbr_cwnd_gain = cc_info_cwnd_gain(cwnd, mss, bw, min_rtt);
		*attr = INET_DIAG_BBRINFO;
		return sizeof(info->bbr);
	}
	return 0;
}

static struct tcp_congestion_ops tcp_icc __read_mostly = {
	.init		= icc_init,
	.ssthresh	= icc_ssthresh,
	.cong_avoid	= icc_cong_avoid,
	.set_state	= icc_set_state,
	.undo_cwnd	= icc_undo_cwnd,
	.get_info	= icc_get_info,
	.owner		= THIS_MODULE,
	.name		= "icc",
};

static int __init icc_register(void)
{
	BUILD_BUG_ON(sizeof(struct icc) > ICSK_CA_PRIV_SIZE);
	return tcp_register_congestion_control(&tcp_icc);
}

static void __exit icc_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_icc);
}

module_init(icc_register);
module_exit(icc_unregister);

MODULE_AUTHOR("tcp-cc-lab");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ICC: Incremental Control Congestion (Nakoul), a BIC modification");
