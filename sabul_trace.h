/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SABUL's tracepoint (events/tcp_sabul/):
 *   sabul_rate  a change of the sending period, or an interval that
 *               changed nothing: kind (enum sabul_action: 0 none,
 *               1 increase, 2 decrease, 3 fast reaction, 4 end of the
 *               start phase, 5 RTO, 6 hold: below alpha without, at
 *               or above it with the losses of the event the last
 *               decrease answered), packets sent and lost over
 *               the interval (all losses), the loss rate p in ppm (of
 *               the losses that count), the period before and
 *               after in ns and the new rate in kbit/s
 * Example: perf record -e 'tcp_sabul:*' -a -- sleep 10
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tcp_sabul

#if !defined(_SABUL_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SABUL_TRACE_H

#include <linux/tracepoint.h>
#include "cc_trace.h"

TRACE_EVENT(sabul_rate,
	TP_PROTO(const struct sock *sk, u32 kind, u32 sent, u32 lost,
		 u32 p_ppm, u64 period_old_ns, u64 period_ns, u64 rate_kbps),
	TP_ARGS(sk, kind, sent, lost, p_ppm, period_old_ns, period_ns,
		rate_kbps),
	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(u32, kind)
		__field(u32, sent)
		__field(u32, lost)
		__field(u32, p_ppm)
		__field(u64, period_old_ns)
		__field(u64, period_ns)
		__field(u64, rate_kbps)
	),
	TP_fast_assign(
		CC_TRACE_SK_ASSIGN(sk);
		__entry->kind = kind;
		__entry->sent = sent;
		__entry->lost = lost;
		__entry->p_ppm = p_ppm;
		__entry->period_old_ns = period_old_ns;
		__entry->period_ns = period_ns;
		__entry->rate_kbps = rate_kbps;
	),
	TP_printk(CC_TRACE_SK_FMT "kind=%u sent=%u lost=%u p_ppm=%u period_old_ns=%llu period_ns=%llu rate_kbps=%llu",
		  __entry->sport, __entry->dport, __entry->skaddr,
		  __entry->kind, __entry->sent, __entry->lost, __entry->p_ppm,
		  __entry->period_old_ns, __entry->period_ns, __entry->rate_kbps)
);

#endif /* _SABUL_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE sabul_trace
#include <trace/define_trace.h>
