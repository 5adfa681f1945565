/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PERT's tracepoints (events/tcp_pert/):
 *   pert_response  a response decision: an early response taken, a signal
 *                  let pass by the compete-phase budget, or a loss
 *                  response; cwnd before and after, the queueing delay
 *                  curq, maxq and the response probability
 *   pert_alpha     an alpha update of the phase machine: the rule applied,
 *                  alpha and the compete flag after it
 * Example: perf record -e 'tcp_pert:*' -a -- sleep 10
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tcp_pert

#if !defined(_PERT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _PERT_TRACE_H

#include <linux/tracepoint.h>
#include "cc_trace.h"

/* pert_response's kind */
#define PERT_TR_EARLY		0	/* early response taken */
#define PERT_TR_PASSED		1	/* signal let pass (compete budget) */
#define PERT_TR_LOSS		2	/* loss response (ssthresh) */
#define PERT_TR_SS_EXIT		3	/* slow-start exit: curq_us is the RTT
					 * sample, next the new ssthresh
					 */
#define PERT_TR_COMPETE		4	/* compete phase entered: next is the
					 * ssthresh that regrows the window
					 */

TRACE_EVENT(pert_response,
	TP_PROTO(const struct sock *sk, u32 kind, u32 cwnd, u32 next,
		 u32 curq_us, u32 maxq_us, u32 prob),
	TP_ARGS(sk, kind, cwnd, next, curq_us, maxq_us, prob),
	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(u32, kind)
		__field(u32, cwnd)
		__field(u32, next)
		__field(u32, curq_us)
		__field(u32, maxq_us)
		__field(u32, prob)
	),
	TP_fast_assign(
		CC_TRACE_SK_ASSIGN(sk);
		__entry->kind = kind;
		__entry->cwnd = cwnd;
		__entry->next = next;
		__entry->curq_us = curq_us;
		__entry->maxq_us = maxq_us;
		__entry->prob = prob;
	),
	TP_printk(CC_TRACE_SK_FMT "kind=%u cwnd=%u next=%u curq_us=%u maxq_us=%u prob=%u",
		  __entry->sport, __entry->dport, __entry->skaddr, __entry->kind,
		  __entry->cwnd, __entry->next, __entry->curq_us,
		  __entry->maxq_us, __entry->prob)
);

TRACE_EVENT(pert_alpha,
	TP_PROTO(const struct sock *sk, u32 rule, u32 alpha, u32 compete,
		 u32 curq_us, u32 maxq_us),
	TP_ARGS(sk, rule, alpha, compete, curq_us, maxq_us),
	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(u32, rule)
		__field(u32, alpha)
		__field(u32, compete)
		__field(u32, curq_us)
		__field(u32, maxq_us)
	),
	TP_fast_assign(
		CC_TRACE_SK_ASSIGN(sk);
		__entry->rule = rule;
		__entry->alpha = alpha;
		__entry->compete = compete;
		__entry->curq_us = curq_us;
		__entry->maxq_us = maxq_us;
	),
	TP_printk(CC_TRACE_SK_FMT "rule=%u alpha=%u compete=%u curq_us=%u maxq_us=%u",
		  __entry->sport, __entry->dport, __entry->skaddr, __entry->rule,
		  __entry->alpha, __entry->compete, __entry->curq_us,
		  __entry->maxq_us)
);

#endif /* _PERT_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE pert_trace
#include <trace/define_trace.h>
