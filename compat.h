/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version difference the modules care about, and
 * nowhere else.  Built and tested against Debian's 6.12 (the lab kernel) and
 * compile-checked against Debian 12's 6.1.
 */
#ifndef TCP_CC_COMPAT_H
#define TCP_CC_COMPAT_H

#include <linux/version.h>

/*
 * cong_control gained (ack, flag) in 6.10 (commit 57bfc7605ca5 "tcp: Add
 * a parameter to cong_control for the ack number").  Define the callback
 * with COMPAT_CONG_CONTROL_ARGS and use only sk and rs inside it.
 */
#if KERNEL_VERSION(6, 10, 0) <= LINUX_VERSION_CODE
#define COMPAT_CONG_CONTROL_ARGS \
	struct sock *sk, u32 ack, int flag, const struct rate_sample *rs
#else
#define COMPAT_CONG_CONTROL_ARGS \
	struct sock *sk, const struct rate_sample *rs
#endif

#endif /* TCP_CC_COMPAT_H */
