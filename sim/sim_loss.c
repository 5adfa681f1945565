// SPDX-License-Identifier: GPL-2.0
/*
 * Loss-based baselines of the scale engine beyond sim/sim.c's reno, cubic
 * and scalable: HighSpeed TCP as Linux's tcp_highspeed.c (RFC 3649's AIMD
 * table, MD in 1/256), the comparison of the ICC paper (seed 004) and of
 * the lab's icc-rttfair scenario.
 */
#include <stdlib.h>

#include "sim.h"

/* hstcp_aimd_vals[] of tcp_highspeed.c (RFC 3649 appendix B): cwnd, MD << 8 */
static const struct { uint32_t cwnd, md; } hstcp_aimd_vals[] = {
	{    38, 128 }, {   118, 112 }, {   221, 104 }, {   347,  98 },
	{   495,  93 }, {   663,  89 }, {   851,  86 }, {  1058,  83 },
	{  1284,  81 }, {  1529,  78 }, {  1793,  76 }, {  2076,  74 },
	{  2378,  72 }, {  2699,  71 }, {  3039,  69 }, {  3399,  68 },
	{  3778,  66 }, {  4177,  65 }, {  4596,  64 }, {  5036,  62 },
	{  5497,  61 }, {  5979,  60 }, {  6483,  59 }, {  7009,  58 },
	{  7558,  57 }, {  8130,  56 }, {  8726,  55 }, {  9346,  54 },
	{  9991,  53 }, { 10661,  52 }, { 11358,  52 }, { 12082,  51 },
	{ 12834,  50 }, { 13614,  49 }, { 14424,  48 }, { 15265,  48 },
	{ 16137,  47 }, { 17042,  46 }, { 17981,  45 }, { 18955,  45 },
	{ 19965,  44 }, { 21013,  43 }, { 22101,  43 }, { 23230,  42 },
	{ 24402,  41 }, { 25618,  41 }, { 26881,  40 }, { 28193,  39 },
	{ 29557,  39 }, { 30975,  38 }, { 32450,  38 }, { 33986,  37 },
	{ 35586,  36 }, { 37253,  36 }, { 38992,  35 }, { 40808,  35 },
	{ 42707,  34 }, { 44694,  33 }, { 46776,  33 }, { 48961,  32 },
	{ 51258,  32 }, { 53677,  31 }, { 56230,  30 }, { 58932,  30 },
	{ 61799,  29 }, { 64851,  28 }, { 68113,  28 }, { 71617,  27 },
	{ 75401,  26 }, { 79517,  26 }, { 84035,  25 }, { 89053,  24 },
};

#define HSTCP_AIMD_MAX	(sizeof(hstcp_aimd_vals) / sizeof(hstcp_aimd_vals[0]))

struct hstcp {
	uint32_t ai;
};

static void *hstcp_alloc(void)
{
	return calloc(1, sizeof(struct hstcp));
}

static void hstcp_init(struct flow *f)
{
	((struct hstcp *)f->ca)->ai = 0;
	f->cwnd = 10;
	f->ssthresh = UINT32_MAX;
}

/* hstcp_cong_avoid(): a(w) / cwnd per ACK (per ACK, not per packet ACKed,
 * as in Linux); tcp_is_cwnd_limited() is true in the engine */
static void hstcp_on_ack(struct flow *f, uint32_t acked, const struct rate_sample *rs)
{
	struct hstcp *ca = f->ca;

	(void)rs;
	if (!acked)		/* tcp_may_raise_cwnd(): no forward progress */
		return;
	if (f->cwnd < f->ssthresh) {
		slow_start(f, acked);
		return;
	}
	if (f->cwnd > hstcp_aimd_vals[ca->ai].cwnd) {
		while (f->cwnd > hstcp_aimd_vals[ca->ai].cwnd &&
		       ca->ai < HSTCP_AIMD_MAX - 1)
			ca->ai++;
	} else if (ca->ai && f->cwnd <= hstcp_aimd_vals[ca->ai - 1].cwnd) {
		while (ca->ai && f->cwnd <= hstcp_aimd_vals[ca->ai - 1].cwnd)
			ca->ai--;
	}
	if (f->cwnd < 0xffffffffU / 128) {	/* hstcp_init()'s clamp */
		f->cwnd_cnt += ca->ai + 1;
		if (f->cwnd_cnt >= f->cwnd) {
			f->cwnd_cnt -= f->cwnd;
			f->cwnd++;
		}
	}
}

static uint32_t hstcp_ssthresh(struct flow *f)
{
	struct hstcp *ca = f->ca;
	uint32_t s = f->cwnd - ((f->cwnd * hstcp_aimd_vals[ca->ai].md) >> 8);

	return s > 2 ? s : 2;
}

static void hstcp_state(struct flow *f, int s)
{
	(void)f;
	(void)s;
}

static void hstcp_rto(struct flow *f)
{
	(void)f;
}

const struct cc_ops cc_highspeed = {
	.name = "highspeed", .alloc = hstcp_alloc, .init = hstcp_init,
	.on_ack = hstcp_on_ack, .ssthresh = hstcp_ssthresh,
	.set_state = hstcp_state, .on_rto = hstcp_rto,
};
