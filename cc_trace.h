/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every tracepoint of the three modules records about its socket, so
 * that one filter works for all of them ("sport == 40000 || dport == 5201")
 * and events can be joined with tcp:tcp_probe (same sport/dport/skaddr):
 * each event has the fields skaddr, sport, dport (host order), filled by
 * CC_TRACE_SK_ASSIGN() and printed first with CC_TRACE_SK_FMT.
 */
#ifndef CC_TRACE_H
#define CC_TRACE_H

#include <net/inet_sock.h>

#define CC_TRACE_SK_ASSIGN(sk_) do {				\
	const struct sock *cc_trace_sk_ = (sk_);		\
								\
	__entry->skaddr = cc_trace_sk_;				\
	__entry->sport = ntohs(inet_sk(cc_trace_sk_)->inet_sport);	\
	__entry->dport = ntohs(inet_sk(cc_trace_sk_)->inet_dport);	\
} while (0)

#define CC_TRACE_SK_FMT "sport=%hu dport=%hu skaddr=%p "

#endif /* CC_TRACE_H */
