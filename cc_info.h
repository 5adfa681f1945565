/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tcp_rapid, tcp_pert, tcp_icc and tcp_sabul report through
 * .get_info, and in which record.
 *
 * An out-of-tree congestion control cannot add an inet_diag attribute that
 * iproute2's ss would print, so each module answers `ss -ti` (inet_diag,
 * INET_DIAG_VEGASINFO or INET_DIAG_BBRINFO requested) with struct
 * tcp_bbr_info, which ss prints as
 *   bbr:(bw:%sbps,mrtt:%g[,pacing_gain:%g][,cwnd_gain:%g])
 * (bw x 8, min_rtt / 1000, the gains / 256, each gain left out when 0),
 * and puts into each field only what ss labels it:
 *   bbr_bw_lo/hi     a sending rate, bytes/s
 *   bbr_min_rtt      the minimum RTT, us
 *   bbr_pacing_gain  0 (none of the four has a pacing gain: ss omits it)
 *   bbr_cwnd_gain    cwnd over bw x min_rtt, 1/256 (0: not known)
 *
 * The module's own state has its own record, returned by
 * getsockopt(IPPROTO_TCP, TCP_CC_INFO) on the socket: the kernel calls
 * .get_info with ext = ~0U there, while inet_diag passes the request's
 * 8-bit idiag_ext, so a bit above the lowest eight tells the two apart
 * (cc_info_sockopt()).  The records below fit the 20 bytes of
 * union tcp_cc_info (BUILD_BUG_ON in each module); scripts/obs/cc_info.py
 * reads them (for any process's socket, through pidfd_getfd()).
 *
 * Pure (cc_pure.h): compiled into the modules and the unit tests.
 */
#ifndef CC_INFO_H
#define CC_INFO_H

#include "cc_pure.h"

#define CC_INFO_USEC_PER_SEC	1000000ULL
#define CC_INFO_GAIN_SHIFT	8	/* ss prints the gains divided by 256 */
/* a min_rtt above this (or ~0U: no sample yet) gives no cwnd_gain */
#define CC_INFO_MIN_RTT_MAX_US	60000000U

/* .get_info called by getsockopt(TCP_CC_INFO), not by inet_diag */
static inline bool cc_info_sockopt(u32 ext)
{
	return ext & ~0xffU;
}

/* the rate a window of @cwnd packets of @mss bytes sends per @srtt_us */
static inline u64 cc_info_window_rate(u32 cwnd, u32 mss, u32 srtt_us)
{
	if (!srtt_us)
		return 0;
	return div_u64((u64)cwnd * mss * CC_INFO_USEC_PER_SEC, srtt_us);
}

/*
 * cwnd (@cwnd packets of @mss bytes) over the BDP @bw (bytes/s) x
 * @min_rtt_us, in 1/256; 0 when either is unknown, saturating.
 */
static inline u32 cc_info_cwnd_gain(u32 cwnd, u32 mss, u64 bw, u32 min_rtt_us)
{
	u64 bdp, g;

	if (!bw || !min_rtt_us || min_rtt_us > CC_INFO_MIN_RTT_MAX_US ||
	    bw > U64_MAX / CC_INFO_MIN_RTT_MAX_US)
		return 0;
	bdp = div64_u64(bw * min_rtt_us, CC_INFO_USEC_PER_SEC);
	if (!bdp)
		return 0;
	g = div64_u64(((u64)cwnd * mss) << CC_INFO_GAIN_SHIFT, bdp);
	return g > U32_MAX ? U32_MAX : (u32)g;
}

/* @v in 1/2^@shift as thousandths, saturating at U16_MAX */
static inline u16 cc_info_milli16(u32 v, unsigned int shift)
{
	u64 m = ((u64)v * 1000) >> shift;

	return m > 0xffff ? 0xffff : (u16)m;
}

/* TCP_CC_INFO of a rapid socket (20 bytes; "=IIIHBBI") */
struct rapid_cc_info {
	u32 r_avg_lo;		/* r_avg of the next stream, bytes/s: low, */
	u32 r_avg_hi;		/* ... and high 32 bits */
	u32 abest_kbps;		/* last ABest given to the controller; 0 none */
	u16 m_milli;		/* the chirp's spread factor m, 1/1000 */
	u8 phase;		/* 0 slow start, 1 steady, 2 fixed */
	u8 n;			/* packets per stream, N */
	u32 flags;		/* RAPID_F_* (docs/rapid.md, "get_info") */
};

/* TCP_CC_INFO of a pert socket (20 bytes; "=IIIHHBBBB") */
struct pert_cc_info {
	u32 responses;		/* early responses taken */
	u32 curq_us;		/* queueing delay srtt - min_rtt, us */
	u32 prob_ppm;		/* early-response probability, 1/10^6 */
	u16 alpha_milli;	/* increase per RTT, 1/1000 packet */
	u16 beta_milli;		/* the decrease a response takes now, 1/1000 */
	u8 region;		/* enum pert_region */
	u8 compete;		/* 1 in the compete phase */
	u8 degraded;		/* 1 without loss-interval memory (base PERT) */
	u8 reserved;		/* 0 */
};

/* TCP_CC_INFO of an icc socket (12 bytes; "=III") */
struct icc_cc_info {
	u32 wmax_milli;		/* Wmax, 1/1000 packet (U32_MAX: saturated) */
	u32 inc_q8;		/* ICC_inc at the current cwnd, packets/RTT x 256 */
	u32 decrease_q8;	/* factor the next loss applies x 256 */
};

/* TCP_CC_INFO of a sabul socket (16 bytes; "=IIIB3x") */
struct sabul_cc_info {
	u32 period_ns;		/* sending period, ns per mss packet (saturated) */
	u32 p_ppm;		/* loss rate of the last interval, 1/10^6 */
	u32 syn_us;		/* the rate control interval T, us */
	u8 phase;		/* 0 start (TCP slow start), 1 rate control */
	u8 reserved[3];		/* 0 */
};

#endif /* CC_INFO_H */
