// SPDX-License-Identifier: GPL-2.0
/*
 * Stand-alone driver for the fuzz targets when libFuzzer is not available
 * (gcc): runs every file given (the corpus) once, then random inputs for
 * the seconds given in FUZZ_SECONDS (default 0).  The targets abort() on a
 * broken invariant; ASan/UBSan catch the rest.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run_file(const char *path)
{
	uint8_t buf[4096];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
}

int main(int argc, char **argv)
{
	const char *secs = getenv("FUZZ_SECONDS");
	time_t end = time(NULL) + (secs ? atoi(secs) : 0);
	uint64_t x = 88172645463325252ULL, runs = 0;
	uint8_t buf[512];
	int i;

	for (i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		struct dirent *de;
		char path[4096];

		if (!d) {
			run_file(argv[i]);
			continue;
		}
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			run_file(path);
			runs++;
		}
		closedir(d);
	}
	while (time(NULL) < end) {
		size_t n = x % sizeof(buf), k;

		for (k = 0; k < n; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[k] = (uint8_t)x;
		}
		LLVMFuzzerTestOneInput(buf, n);
		runs++;
	}
	printf("%llu inputs\n", (unsigned long long)runs);
	return 0;
}
