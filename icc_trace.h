/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ICC's tracepoints (events/tcp_icc/):
 *   icc_wmax   a loss: cwnd before, Wmax before and after, the new ssthresh
 *   icc_grow   the window grew by at least one packet: cwnd, Wmax and the
 *              increment per RTT in 1/1000 packet
 * Example: perf record -e 'tcp_icc:*' -a -- sleep 10
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tcp_icc

#if !defined(_ICC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ICC_TRACE_H

#include <linux/tracepoint.h>
#include "cc_trace.h"

TRACE_EVENT(icc_wmax,
	TP_PROTO(const struct sock *sk, u32 cwnd, u32 wmax_old, u32 wmax_new,
		 u32 ssthresh),
	TP_ARGS(sk, cwnd, wmax_old, wmax_new, ssthresh),
	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(u32, cwnd)
		__field(u32, wmax_old)
		__field(u32, wmax_new)
		__field(u32, ssthresh)
	),
	TP_fast_assign(
		CC_TRACE_SK_ASSIGN(sk);
		__entry->cwnd = cwnd;
		__entry->wmax_old = wmax_old;
		__entry->wmax_new = wmax_new;
		__entry->ssthresh = ssthresh;
	),
	TP_printk(CC_TRACE_SK_FMT "cwnd=%u wmax_old=%u wmax=%u ssthresh=%u",
		  __entry->sport, __entry->dport, __entry->skaddr, __entry->cwnd, __entry->wmax_old,
		  __entry->wmax_new, __entry->ssthresh)
);

TRACE_EVENT(icc_grow,
	TP_PROTO(const struct sock *sk, u32 cwnd, u32 wmax, u32 inc_milli),
	TP_ARGS(sk, cwnd, wmax, inc_milli),
	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(u32, cwnd)
		__field(u32, wmax)
		__field(u32, inc_milli)
	),
	TP_fast_assign(
		CC_TRACE_SK_ASSIGN(sk);
		__entry->cwnd = cwnd;
		__entry->wmax = wmax;
		__entry->inc_milli = inc_milli;
	),
	TP_printk(CC_TRACE_SK_FMT "cwnd=%u wmax=%u inc_milli=%u",
		  __entry->sport, __entry->dport, __entry->skaddr, __entry->cwnd, __entry->wmax,
		  __entry->inc_milli)
);

#endif /* _ICC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE icc_trace
#include <trace/define_trace.h>
