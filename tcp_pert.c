// SPDX-License-Identifier: GPL-2.0
/*
 * PLACEHOLDER, NOT PERT YET.
 *
 * This registers "pert" with Reno's behaviour (tcp_reno_cong_avoid,
 * tcp_reno_ssthresh, tcp_reno_undo_cwnd) so that the build, the lab VM and
 * the tests can be exercised end to end.  The real algorithm replaces this
 * file in its own issue.
 */
#include <linux/module.h>
#include <net/tcp.h>

static struct tcp_congestion_ops tcp_pert_placeholder __read_mostly = {
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= tcp_reno_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
	.owner		= THIS_MODULE,
	.name		= "pert",
};

static int __init tcp_pert_register(void)
{
	return tcp_register_congestion_control(&tcp_pert_placeholder);
}

static void __exit tcp_pert_unregister(void)
{
	tcp_unregister_congestion_control(&tcp_pert_placeholder);
}

module_init(tcp_pert_register);
module_exit(tcp_pert_unregister);

MODULE_AUTHOR("tcp-cc-lab");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("PLACEHOLDER: Reno behaviour registered as pert; not the PERT algorithm yet");
