// SPDX-License-Identifier: GPL-2.0
/*
 * PLACEHOLDER, NOT ICC YET.
 *
 * This registers "icc" with Reno's behaviour (tcp_reno_cong_avoid,
 * tcp_reno_ssthresh, tcp_reno_undo_cwnd) so that the build, the lab VM and
 * the tests can be exercised end to end.  The real algorithm replaces this
 * file in its own issue.
 */
#include <linux/module.h>
#include <net/tcp.h>

static struct tcp_congestion_ops tcp_icc_placeholder __read_mostly = {
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= tcp_reno_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
	.owner		= THIS_MODULE,
	.name		= "icc",
};

static int __init tcp_icc_register(void)
{
	return tcp_register_congestion_control(&tcp_icc_placeholder);
}

static void __exit tcp_icc_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_icc_placeholder);
}

module_init(tcp_icc_register);
module_exit(tcp_icc_unregister);

MODULE_AUTHOR("tcp-cc-lab");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("PLACEHOLDER: Reno behaviour registered as icc; not the ICC algorithm yet");
