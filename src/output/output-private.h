/* Shared by the files of src/output only. */
#ifndef OUTPUT_OUTPUT_PRIVATE_H
#define OUTPUT_OUTPUT_PRIVATE_H

#include "output/output.h"

#include <pthread.h>
#include <stdio.h>

typedef struct OutputFile {
	FILE *fp;                   /* NULL: disabled */
	pthread_mutex_t lock;
} OutputFile;

struct Outputs {
	OutputConfig cfg;
	OutputFile eve, fast, stats;
	int eve_flow, eve_stats;    /* types looked up once */
	uint64_t *prev;             /* last stats snapshot, for eve deltas */
	size_t nprev;
};

/* Writes len bytes and a newline under the file's lock. */
void output_file_write_line(OutputFile *of, const char *line, size_t len);

#endif
