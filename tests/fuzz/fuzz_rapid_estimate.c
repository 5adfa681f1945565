// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: RAPID's estimators on arbitrary timing, the input a
 * receiver (or the ACK clock) controls.  The first bytes pick the
 * analysis parameters and a schedule; the rest is a packet sequence for
 * rapid_pc_obs_add() (the receiver's analysis) and an ACK sequence for
 * rapid_sest_*() (the sender-side estimate).  Invariants: no crash, no UB
 * (UBSan: overflow, shifts, division), a valid estimate is positive, the
 * bounded ABest never exceeds the stream's top rate + 10%, the drain never
 * raises an estimate.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rapid_sest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct rd {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct rd *r, int bytes)
{
	uint64_t v = 0;

	while (bytes--) {
		v = (v << 8) | (r->n ? *r->p : 0);
		if (r->n) {
			r->p++;
			r->n--;
		}
	}
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct rapid_pc_clock clocks[] = {
		{ 1, 64 }, { 1000, 32 }, { 1, 32 }, { 1000000, 16 },
	};
	struct rd r = { data, size };
	struct rapid_pc_params p;
	struct rapid_pc_result res;
	struct rapid_pc_obs obs;
	struct rapid_schedule s;
	struct rapid_sest e;
	uint64_t snd = 0, rcv = 0, ab, top, b;
	uint32_t n, m, i, pkts;
	int rule;

	rapid_pc_params_init(&p);
	p.f_milli = RAPID_PC_F_MIN + take(&r, 2) % 4000;
	p.min_excursion = 1 + take(&r, 1) % 16;
	p.recv_gap_min_ns = take(&r, 2) * 16 % (RAPID_PC_RECV_GAP_MIN_NS_MAX + 1);
	p.min_pkts = 2 + take(&r, 1) % 8;
	p.q_noise_ns = take(&r, 2) * 16 % (RAPID_PC_Q_NOISE_NS_MAX + 1);

	/* the receiver's analysis on arbitrary stamps */
	rapid_pc_obs_init(&obs, (u16)take(&r, 2), &clocks[take(&r, 1) % 4],
			  &clocks[take(&r, 1) % 4]);
	pkts = take(&r, 1) % (RAPID_PSTREAM_MAX + 8);
	for (i = 0; i < pkts; i++) {
		snd += take(&r, 3);
		rcv += take(&r, 3);
		rapid_pc_obs_add(&obs, i + (take(&r, 1) == 0xff), snd, rcv,
				 take(&r, 2));
	}
	rule = rapid_pc_estimate(&obs, &p, &res);
	if (rule != RAPID_PC_RULE_INVALID && !res.abest)
		abort();

	/* tolerant recording: any order, departures back and forth */
	p.noise_mult = take(&r, 1) % (RAPID_PC_NOISE_MULT_MAX + 1);
	rapid_pc_obs_init(&obs, (u16)take(&r, 2), &clocks[take(&r, 1) % 4],
			  &clocks[take(&r, 1) % 4]);
	rapid_pc_obs_tolerate(&obs);
	pkts = take(&r, 1) % (RAPID_PSTREAM_MAX + 8);
	snd = take(&r, 8);
	rcv = take(&r, 8);
	for (i = 0; i < pkts; i++) {
		uint32_t idx = take(&r, 1) % (RAPID_PSTREAM_MAX + 4);

		snd += (int64_t)(int16_t)take(&r, 2) * (int64_t)take(&r, 1);
		rcv += take(&r, 3);
		rapid_pc_obs_add(&obs, idx, snd, rcv, take(&r, 2));
		if (take(&r, 1) == 0xfe)
			rapid_pc_obs_mark_overtook(&obs, idx);
	}
	rule = rapid_pc_estimate(&obs, &p, &res);
	if (rule != RAPID_PC_RULE_INVALID &&
	    (!res.abest || (res.abest > res.top_rate && res.top_rate)))
		abort();
	p.noise_mult = 0;

	/* the sender's estimate on an arbitrary ACK clock */
	n = 2 + take(&r, 1) % (RAPID_N_MAX - 1);
	m = RAPID_M_MIN + take(&r, 2) % (RAPID_M_MAX - RAPID_M_MIN + 1);
	rapid_schedule_init(&s, 1 + take(&r, 5) % RAPID_RATE_MAX, n, m);
	rapid_sest_params(&p, take(&r, 2) * 16, take(&r, 1));
	rapid_sest_begin(&e, 1, &s, take(&r, 2));
	rcv = take(&r, 8);
	for (i = 0; i < n + 2 && r.n; i++) {
		rcv += take(&r, 3);
		rapid_sest_ack(&e, take(&r, 1) % (n + 2), rcv);
	}
	(void)rapid_sest_as_planned(&e, n, take(&r, 4));
	rule = rapid_sest_finish(&e, &p, &res);
	top = rapid_schedule_top(&s);
	ab = rapid_sest_abest(&res, top);
	if (rule != RAPID_PC_RULE_INVALID && !ab)
		abort();

	/* bounds of what reaches the controller */
	b = rapid_estimate_bound(take(&r, 1) % 5, take(&r, 8), top, take(&r, 1) & 0x3f,
				 take(&r, 8), take(&r, 8));
	if (b > top + top / 10 + 1 && top < (1ULL << 60))
		abort();
	if (rapid_drain_abest(b, take(&r, 4), take(&r, 4), take(&r, 2)) > b && b <= RAPID_RATE_MAX)
		abort();
	return 0;
}
