/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RAPID's tracepoints (events/tcp_rapid/):
 *   rapid_stream  a p-stream starts: id, packets, r_avg and top rate
 *   rapid_abest   an estimate of a stream reached the controller: where it
 *                 came from (receiver feedback, the sender's own ACK
 *                 analysis, the lab injection), the rule, the raw and the
 *                 bounded ABest and r_avg after the controller acted
 *   rapid_fb_check  receiver feedback met the sender's own estimate of
 *                 the same stream: both values and the verdict
 *                 (RAPID_FBV_*), i.e. why feedback was or was not applied
 *   rapid_law     the queue law's clock (law=1), once per completed stream:
 *                 the standing queue, its growth and noise, tau's multiple,
 *                 competition, and r_avg after the law acted
 * Rates in kbit/s.  Example: perf record -e 'tcp_rapid:*' -a -- sleep 10;
 * or echo 1 > /sys/kernel/tracing/events/tcp_rapid/enable.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tcp_rapid

#if !defined(_RAPID_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RAPID_TRACE_H

#include <linux/tracepoint.h>
#include "cc_trace.h"

/* Where an ABest came from (rapid_abest's src). */
#define RAPID_SRC_INJECT	0	/* inject_abest_kbps (lab mode) */
#define RAPID_SRC_RECEIVER	1	/* tcp_rapid_rx feedback option */
#define RAPID_SRC_SENDER	2	/* the sender's ACK analysis */

/* rapid_fb_check's verdict. */
#define RAPID_FBV_PASS		0	/* handed to the controller */
#define RAPID_FBV_DISAGREE	1	/* own estimate contradicts it */
#define RAPID_FBV_LOSSY		2	/* room above r_avg after congestive loss */
#define RAPID_FBV_DISTRUSTED	3	/* the receiver is not believed any more */

TRACE_EVENT(rapid_law,
	TP_PROTO(const struct sock *sk, u32 id, u32 qd_us, s32 growth_ppm,
		 u32 noise_us, u32 tau_x, u32 n_est, u32 compete,
		 u32 r_avg_kbps),
	TP_ARGS(sk, id, qd_us, growth_ppm, noise_us, tau_x, n_est, compete,
		r_avg_kbps),
	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(u32, id)
		__field(u32, qd_us)
		__field(s32, growth_ppm)
		__field(u32, noise_us)
		__field(u32, tau_x)
		__field(u32, n_est)
		__field(u32, compete)
		__field(u32, r_avg_kbps)
	),
	TP_fast_assign(
		CC_TRACE_SK_ASSIGN(sk);
		__entry->id = id;
		__entry->qd_us = qd_us;
		__entry->growth_ppm = growth_ppm;
		__entry->noise_us = noise_us;
		__entry->tau_x = tau_x;
		__entry->n_est = n_est;
		__entry->compete = compete;
		__entry->r_avg_kbps = r_avg_kbps;
	),
	TP_printk(CC_TRACE_SK_FMT "id=%u qd_us=%u growth_ppm=%d noise_us=%u tau_x=%u n_est16=%u compete=%u r_avg_kbps=%u",
		  __entry->sport, __entry->dport, __entry->skaddr, __entry->id,
		  __entry->qd_us, __entry->growth_ppm, __entry->noise_us,
		  __entry->tau_x, __entry->n_est, __entry->compete,
		  __entry->r_avg_kbps)
);

TRACE_EVENT(rapid_stream,
	TP_PROTO(const struct sock *sk, u32 id, u32 k, u32 r_avg_kbps,
		 u32 top_kbps, u32 phase),
	TP_ARGS(sk, id, k, r_avg_kbps, top_kbps, phase),
	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(u32, id)
		__field(u32, k)
		__field(u32, r_avg_kbps)
		__field(u32, top_kbps)
		__field(u32, phase)
	),
	TP_fast_assign(
		CC_TRACE_SK_ASSIGN(sk);
		__entry->id = id;
		__entry->k = k;
		__entry->r_avg_kbps = r_avg_kbps;
		__entry->top_kbps = top_kbps;
		__entry->phase = phase;
	),
	TP_printk(CC_TRACE_SK_FMT "id=%u k=%u r_avg_kbps=%u top_kbps=%u phase=%u",
		  __entry->sport, __entry->dport, __entry->skaddr, __entry->id,
		  __entry->k, __entry->r_avg_kbps, __entry->top_kbps, __entry->phase)
);

TRACE_EVENT(rapid_abest,
	TP_PROTO(const struct sock *sk, u32 id, u32 src, u32 rule, u32 lossy,
		 u32 raw_kbps, u32 abest_kbps, u32 r_avg_kbps, u32 phase,
		 u32 acc),
	TP_ARGS(sk, id, src, rule, lossy, raw_kbps, abest_kbps, r_avg_kbps, phase,
		acc),
	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(u32, id)
		__field(u32, src)
		__field(u32, rule)
		__field(u32, lossy)
		__field(u32, raw_kbps)
		__field(u32, abest_kbps)
		__field(u32, r_avg_kbps)
		__field(u32, phase)
		__field(u32, acc)
	),
	TP_fast_assign(
		CC_TRACE_SK_ASSIGN(sk);
		__entry->id = id;
		__entry->src = src;
		__entry->rule = rule;
		__entry->lossy = lossy;
		__entry->raw_kbps = raw_kbps;
		__entry->abest_kbps = abest_kbps;
		__entry->r_avg_kbps = r_avg_kbps;
		__entry->phase = phase;
		__entry->acc = acc;
	),
	TP_printk(CC_TRACE_SK_FMT "id=%u src=%u rule=%u lossy=%u raw_kbps=%u abest_kbps=%u r_avg_kbps=%u phase=%u acc=%u",
		  __entry->sport, __entry->dport, __entry->skaddr, __entry->id,
		  __entry->src, __entry->rule, __entry->lossy, __entry->raw_kbps,
		  __entry->abest_kbps, __entry->r_avg_kbps, __entry->phase,
		  __entry->acc)
);

TRACE_EVENT(rapid_fb_check,
	TP_PROTO(const struct sock *sk, u32 id, u32 rule, u32 fb_kbps,
		 u32 own_kbps, u32 disagree, u32 verdict),
	TP_ARGS(sk, id, rule, fb_kbps, own_kbps, disagree, verdict),
	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(u32, id)
		__field(u32, rule)
		__field(u32, fb_kbps)
		__field(u32, own_kbps)
		__field(u32, disagree)
		__field(u32, verdict)
	),
	TP_fast_assign(
		CC_TRACE_SK_ASSIGN(sk);
		__entry->id = id;
		__entry->rule = rule;
		__entry->fb_kbps = fb_kbps;
		__entry->own_kbps = own_kbps;
		__entry->disagree = disagree;
		__entry->verdict = verdict;
	),
	TP_printk(CC_TRACE_SK_FMT "id=%u rule=%u fb_kbps=%u own_kbps=%u disagree=%u verdict=%u",
		  __entry->sport, __entry->dport, __entry->skaddr, __entry->id,
		  __entry->rule, __entry->fb_kbps, __entry->own_kbps,
		  __entry->disagree, __entry->verdict)
);

#endif /* _RAPID_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rapid_trace
#include <trace/define_trace.h>
