// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c (build/rapid-trace) - run RAPID's p-stream analysis (rapid_pathchirp.h, the very
 * header the kernel module uses) over a text trace of packet timestamps.
 *
 * Build:  gcc -std=gnu11 -O2 -Wall -Wextra -Werror -I. \
 *             -o build/rapid-trace scripts/rapid/trace.c
 * Usage:  build/rapid-trace [options] [trace-file|-]   (see --help)
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rapid_pathchirp.h"

static const char usage_text[] =
"usage: rapid-trace [options] [TRACE|-]\n"
"\n"
"Reads a packet trace and prints RAPID's available-bandwidth estimate per\n"
"p-stream (PathChirp excursions + RAPID's rules, rapid_pathchirp.h).\n"
"\n"
"Trace format, one packet per line, fields separated by blanks:\n"
"    stream_id  send_ns  recv_ns  bytes\n"
"  stream_id  any unsigned integer (its low 16 bits go into the option);\n"
"             consecutive lines with the same id form one p-stream, a\n"
"             change of id starts the next (an id may come back later:\n"
"             that is a new p-stream)\n"
"  send_ns    send stamp, unsigned, in send-clock ticks (ns by default)\n"
"  recv_ns    receive stamp in receive-clock ticks, or -1: packet lost\n"
"  bytes      payload bytes, 1..65535\n"
"  '#' starts a comment (whole line or trailing); blank lines are ignored.\n"
"  A line is at most 1023 bytes and ends with a newline (the last one too:\n"
"  a file cut short is an error); a NUL byte is an error.\n"
"A line 'fb ID OPTION_HEX' (scripts/rapid/pcap2trace.py writes it before a\n"
"stream's packets) gives the receiver helper's feedback option for the next\n"
"p-stream with id ID: its ABest and rule are printed beside the analysis.\n"
"Packets of a p-stream must be listed in SEND order, one line each: the\n"
"line's position in its stream is the packet index.  A lost packet needs\n"
"its line with recv_ns -1; a missing line cannot be detected.  Receive\n"
"stamps going backwards in send order mean reordering.  Either ends the\n"
"analysed prefix of the stream (the result is flagged truncated).\n"
"\n"
"Options:\n"
"  -F, --factor F          excursion end factor F (default 1.5, 1..1000)\n"
"  -L, --min-excursion L   valid excursion length in gaps (default 5)\n"
"  -g, --recv-gap-min NS   receive gaps below NS ns are coalesced (default\n"
"                          1000, 0 = off, <= 1000000)\n"
"  -m, --min-pkts N        packets needed for an estimate (default 3, >= 2)\n"
"  -n, --q-noise NS        a delay rise counts only once its height exceeds\n"
"                          NS ns (plus the clocks' quantisation): the\n"
"                          stamping-jitter floor (default 0)\n"
"      --send-tick-ns T    ns per send-clock tick (default 1; 1000 for a\n"
"                          microsecond TSval)\n"
"      --send-bits B       send-clock width, wraps modulo 2^B (default 64)\n"
"      --recv-tick-ns T    ns per receive-clock tick (default 1)\n"
"      --recv-bits B       receive-clock width (default 64)\n"
"  -j, --noise-mult K      the floor also grows by K halves of the stream's\n"
"                          own delay jitter J (0..16, default 0; the helper's\n"
"                          noise_mult is 3)\n"
"  -x, --option            also print the 8-byte TCP option (hex)\n"
"  -v, --verbose           per-gap detail: send gap, q_k, R_k, marks\n"
"  -h, --help              this text\n"
"\n"
"Output, one line per p-stream:\n"
"  id  pkts  top_Mbps  abest_Mbps  rule  flags\n"
"  pkts: packets analysed (the usable prefix); top: highest gap rate;\n"
"  rule: excursion | no-trend | early-trend | invalid (no estimate);\n"
"  flags: '-' or truncation reasons (loss, reorder, clock, bytes, full),\n"
"  and coalesced=N when N receive stamps were repaired;\n"
"  fb=ABEST_Mbps/rule: the helper's feedback for the stream, if given.\n"
"Exit status: 0 ok, 1 malformed trace, 2 bad usage.\n";

struct trace_opts {
	struct rapid_pc_params params;
	struct rapid_pc_clock snd_clk, rcv_clk;
	int verbose, option;
};

struct stream_state {
	struct rapid_pc_obs obs;
	uint64_t id;
	uint32_t idx;		/* lines seen in this stream */
	int open;
	struct rapid_opt fb;	/* the helper's feedback for this stream */
	int fb_valid;
	struct rapid_opt fb_next;	/* feedback given for the next stream ... */
	uint64_t fb_next_id;		/* ... with this id */
	int fb_next_valid;
};

static double to_mbps(uint64_t bytes_per_sec)
{
	return (double)bytes_per_sec * 8 / 1e6;
}

static void print_flags(const struct rapid_pc_result *r)
{
	static const char * const names[] = {
		"loss", "reorder", "clock", "bytes", "full"
	};
	int i, any = 0;

	for (i = 0; i < 5; i++) {
		if (r->stop & (1 << i)) {
			printf("%s%s", any ? "," : "", names[i]);
			any = 1;
		}
	}
	if (r->coalesced) {
		printf("%scoalesced=%u", any ? "," : "", r->coalesced);
		any = 1;
	}
	if (!any)
		printf("-");
}

static void print_detail(const struct rapid_pc_obs *o,
			 const struct rapid_pc_result *r)
{
	uint32_t k;

	printf("#   k  send_gap_ns       q_ns   rate_Mbps  E\n");
	for (k = 0; k < r->pkts; k++) {
		int64_t q = ((int64_t)o->rcv_off[k] - (int64_t)o->snd_off[k]) *
			    ((int64_t)1 << o->shift);
		const char *e = "";

		if (k + 1 < r->pkts) {
			uint64_t gap = (uint64_t)(o->snd_off[k + 1] - o->snd_off[k])
				       << o->shift;

			if (r->open_start != RAPID_PC_NONE && k >= r->open_start)
				e = k == r->open_start ? "open" : "=R_l";
			else if (r->marked[k / 64] & (1ULL << (k % 64)))
				e = "R_k";
			printf("# %3u %12" PRIu64 " %10" PRId64 " %11.3f  %s\n", k,
			       gap, q, to_mbps(rapid_pc_rate(o, k)), e);
		} else {
			printf("# %3u %12s %10" PRId64 "\n", k, "-", q);
		}
	}
}

static void finish_stream(struct stream_state *st, const struct trace_opts *t)
{
	struct rapid_pc_result r;
	int rule;

	if (!st->open)
		return;
	st->open = 0;
	rule = rapid_pc_estimate(&st->obs, &t->params, &r);
	printf("%-8" PRIu64 " %4u %10.3f %10.3f  %-11s ", st->id, r.pkts,
	       to_mbps(r.top_rate), to_mbps(r.abest), rapid_pc_rule_name(rule));
	print_flags(&r);
	if (st->fb_valid)
		printf("  fb=%.3f/%s", to_mbps(st->fb.abest),
		       rapid_pc_rule_name(st->fb.rule));
	if (t->option) {
		struct rapid_opt opt = {
			.abest = r.abest,
			.stream_id = (uint16_t)st->id,
			.rule = (uint8_t)rule,
			.truncated = r.stop ? 1 : 0,
		};
		uint8_t buf[RAPID_OPT_LEN];
		int i, len = rapid_opt_encode(buf, sizeof(buf), &opt);

		printf("  opt=");
		for (i = 0; i < len; i++)
			printf("%02x", buf[i]);
	}
	printf("\n");
	if (t->verbose)
		print_detail(&st->obs, &r);
}

/* "fb ID HEX": the feedback option for the next stream ID; 0 or -1. */
static int parse_fb(struct stream_state *st, char **fld, int nf)
{
	uint8_t buf[RAPID_OPT_LEN];
	size_t i, len = nf == 3 ? strlen(fld[2]) : 0;
	uint64_t id;
	char *end;

	if (nf != 3 || len != 2 * RAPID_OPT_LEN || !isdigit((unsigned char)fld[1][0]))
		return -1;
	id = strtoull(fld[1], &end, 10);
	if (*end)
		return -1;
	for (i = 0; i < RAPID_OPT_LEN; i++) {
		char hex[3] = { fld[2][2 * i], fld[2][2 * i + 1], 0 };

		if (!isxdigit((unsigned char)hex[0]) ||
		    !isxdigit((unsigned char)hex[1]))
			return -1;
		buf[i] = (uint8_t)strtoul(hex, NULL, 16);
	}
	if (rapid_opt_decode(buf, sizeof(buf), &st->fb_next) < 0 ||
	    st->fb_next.stream_id != (uint16_t)id)
		return -1;
	st->fb_next_id = id;
	st->fb_next_valid = 1;
	return 0;
}

/* Parse an unsigned decimal field; returns 0 on success. */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || end == s || *end ? -1 : 0;
}

static const char *const field_names[4] = {
	"stream_id", "send_ns", "recv_ns", "bytes"
};

/* the longest line, newline included, that a trace may have */
#define TRACE_LINE_MAX 1024

static int process(FILE *f, const char *name, const struct trace_opts *t)
{
	struct stream_state st = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long lineno = 0;
	int ret = 1;

	printf("# %-6s %4s %10s %10s  %-11s %s\n", "id", "pkts", "top_Mbps",
	       "abest_Mbps", "rule", "flags");
	while ((len = getline(&line, &cap, f)) > 0) {
		char *hash, *fld[5], *save = NULL, *nul;
		uint64_t id, snd, rcv = 0, bytes, *val[4];
		int nf = 0, lost = 0, k;

		lineno++;
		nul = memchr(line, '\0', (size_t)len);
		if (nul) {
			fprintf(stderr, "%s:%lu:%ld: a NUL byte (a binary file, not a trace?)\n",
				name, lineno, (long)(nul - line) + 1);
			goto out;
		}
		if (len > TRACE_LINE_MAX - (line[len - 1] == '\n' ? 0 : 1)) {
			fprintf(stderr, "%s:%lu: line too long (%ld bytes, at most %d)\n",
				name, lineno, (long)len - (line[len - 1] == '\n'),
				TRACE_LINE_MAX - 1);
			goto out;
		}
		if (line[len - 1] != '\n') {
			fprintf(stderr, "%s:%lu:%ld: the last line has no newline: the file is cut short (here: '%s')\n",
				name, lineno, (long)len, line);
			goto out;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		for (char *tok = strtok_r(line, " \t\r\n", &save); tok && nf < 5;
		     tok = strtok_r(NULL, " \t\r\n", &save))
			fld[nf++] = tok;
		if (nf == 0)
			continue;
		if (!strcmp(fld[0], "fb")) {
			if (parse_fb(&st, fld, nf)) {
				fprintf(stderr, "%s:%lu: expected fb ID OPTION_HEX (a valid 8-byte feedback option for ID)\n",
					name, lineno);
				goto out;
			}
			continue;
		}
		if (nf != 4) {
			fprintf(stderr, "%s:%lu: expected 4 fields: stream_id send_ns recv_ns bytes\n",
				name, lineno);
			goto out;
		}
		if (!strcmp(fld[2], "-1"))
			lost = 1;
		val[0] = &id;
		val[1] = &snd;
		val[2] = &rcv;
		val[3] = &bytes;
		for (k = 0; k < 4; k++) {
			if (k == 2 && lost)
				continue;
			if (parse_u64(fld[k], val[k]) || (k == 3 && bytes > UINT32_MAX)) {
				fprintf(stderr, "%s:%lu:%ld: field %d (%s) is not %s: '%s'\n",
					name, lineno, (long)(fld[k] - line) + 1, k + 1,
					field_names[k], k == 3 ? "an unsigned decimal below 2^32" :
					k == 2 ? "an unsigned decimal or -1" :
					"an unsigned decimal below 2^64", fld[k]);
				goto out;
			}
		}
		if (!st.open || id != st.id) {
			finish_stream(&st, t);
			if (rapid_pc_obs_init(&st.obs, (uint16_t)id, &t->snd_clk,
					      &t->rcv_clk)) {
				fprintf(stderr, "invalid clock settings\n");
				ret = 2;
				goto out;
			}
			st.id = id;
			st.idx = 0;
			st.open = 1;
			st.fb_valid = st.fb_next_valid && st.fb_next_id == id;
			st.fb = st.fb_next;
			st.fb_next_valid = 0;
		}
		if (lost) {
			/* the analysed prefix ends before the hole */
			rapid_pc_obs_stop(&st.obs, RAPID_PC_STOP_LOSS);
		} else {
			rapid_pc_obs_add(&st.obs, st.idx, snd, rcv, (uint32_t)bytes);
		}
		st.idx++;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: read error\n", name);
		goto out;
	}
	finish_stream(&st, t);
	ret = 0;
out:
	free(line);
	return ret;
}

static int parse_num(const char *arg, const char *what, uint64_t lo,
		     uint64_t hi, uint64_t *v)
{
	if (parse_u64(arg, v) || *v < lo || *v > hi) {
		fprintf(stderr, "rapid-trace: %s must be %" PRIu64 "..%" PRIu64 "\n",
			what, lo, hi);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	enum { O_STICK = 256, O_SBITS, O_RTICK, O_RBITS };
	static const struct option lopts[] = {
		{ "factor", required_argument, NULL, 'F' },
		{ "min-excursion", required_argument, NULL, 'L' },
		{ "recv-gap-min", required_argument, NULL, 'g' },
		{ "min-pkts", required_argument, NULL, 'm' },
		{ "q-noise", required_argument, NULL, 'n' },
		{ "noise-mult", required_argument, NULL, 'j' },
		{ "send-tick-ns", required_argument, NULL, O_STICK },
		{ "send-bits", required_argument, NULL, O_SBITS },
		{ "recv-tick-ns", required_argument, NULL, O_RTICK },
		{ "recv-bits", required_argument, NULL, O_RBITS },
		{ "option", no_argument, NULL, 'x' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct trace_opts t = {
		.snd_clk = { .tick_ns = 1, .bits = 64 },
		.rcv_clk = { .tick_ns = 1, .bits = 64 },
	};
	const char *name = "-";
	FILE *f = stdin;
	uint64_t v;
	double fval;
	char *end;
	int c, ret;

	rapid_pc_params_init(&t.params);
	while ((c = getopt_long(argc, argv, "F:L:g:m:n:j:xvh", lopts, NULL)) != -1) {
		switch (c) {
		case 'F':
			fval = strtod(optarg, &end);
			if (*end || !(fval >= 1.0 && fval <= 1000.0)) {
				fprintf(stderr, "rapid-trace: F must be 1..1000\n");
				return 2;
			}
			t.params.f_milli = (uint32_t)(fval * RAPID_PC_F_SCALE + 0.5);
			break;
		case 'L':
			if (parse_num(optarg, "L", 1, RAPID_PSTREAM_MAX, &v))
				return 2;
			t.params.min_excursion = (uint32_t)v;
			break;
		case 'g':
			if (parse_num(optarg, "recv-gap-min", 0,
				      RAPID_PC_RECV_GAP_MIN_NS_MAX, &v))
				return 2;
			t.params.recv_gap_min_ns = (uint32_t)v;
			break;
		case 'm':
			if (parse_num(optarg, "min-pkts", 2, RAPID_PSTREAM_MAX, &v))
				return 2;
			t.params.min_pkts = (uint32_t)v;
			break;
		case 'n':
			if (parse_num(optarg, "q-noise", 0, RAPID_PC_Q_NOISE_NS_MAX,
				      &v))
				return 2;
			t.params.q_noise_ns = (uint32_t)v;
			break;
		case 'j':
			if (parse_num(optarg, "noise-mult", 0,
				      RAPID_PC_NOISE_MULT_MAX, &v))
				return 2;
			t.params.noise_mult = (uint32_t)v;
			break;
		case O_STICK:
		case O_RTICK:
			if (parse_num(optarg, "tick-ns", 1, RAPID_PC_TICK_NS_MAX, &v))
				return 2;
			if (c == O_STICK)
				t.snd_clk.tick_ns = (uint32_t)v;
			else
				t.rcv_clk.tick_ns = (uint32_t)v;
			break;
		case O_SBITS:
		case O_RBITS:
			if (parse_num(optarg, "bits", RAPID_PC_CLOCK_BITS_MIN,
				      RAPID_PC_CLOCK_BITS_MAX, &v))
				return 2;
			if (c == O_SBITS)
				t.snd_clk.bits = (uint8_t)v;
			else
				t.rcv_clk.bits = (uint8_t)v;
			break;
		case 'x':
			t.option = 1;
			break;
		case 'v':
			t.verbose = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fputs(usage_text, stderr);
			return 2;
		}
	}
	if (optind + 1 < argc) {
		fputs(usage_text, stderr);
		return 2;
	}
	if (optind < argc && strcmp(argv[optind], "-")) {
		name = argv[optind];
		f = fopen(name, "r");
		if (!f) {
			fprintf(stderr, "rapid-trace: %s: %s\n", name, strerror(errno));
			return 1;
		}
	}
	ret = process(f, name, &t);
	if (f != stdin)
		fclose(f);
	return ret;
}
