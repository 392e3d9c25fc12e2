/* The "ssh" object of eve records, as Suricata 8 writes it (schema:
 * eve-schema.json "ssh"): client and server, each with proto_version,
 * software_version and, when hassh is on, hassh {hash, string}. */
#ifndef OUTPUT_SSH_JSON_H
#define OUTPUT_SSH_JSON_H

#include <jansson.h>

#include "app-layer/ssh-parse.h"

struct JsonWriter;
/* The object's members, into w's open object (nothing when no banner was
 * read). */
void ssh_json_write(struct JsonWriter *w, const SshState *s, int hassh);
/* The same as a tree, for tests and fuzzers; the caller owns it. */
json_t *ssh_json_object(const SshState *s, int hassh);

#endif
