/* The eve "fileinfo" object of a file (file-log.c), as Suricata 8 writes
 * it: filename, sid (the filestore rules), magic, gaps, state, md5/sha1
 * (CLOSED only), sha256, stored, storing (to be stored, not yet), file_id
 * (stored), size, tx_id. The app layer exposes the file (file_view());
 * the record is written here. */
#ifndef OUTPUT_FILE_LOG_H
#define OUTPUT_FILE_LOG_H

#include "app-layer/files.h"

#include <jansson.h>

struct JsonWriter;
/* The object's members, into w's open object. */
void file_json_write(struct JsonWriter *w, File *f);
/* The same as a tree, and the "files" array of the n containers (NULL when
 * they hold no file), for tests and fuzzers; the caller owns them. */
json_t *file_json(File *f);
json_t *files_json(FileContainer *const fcs[], int n);

#endif
