/* The "ssh" object of eve records, as Suricata 8 writes it (schema:
 * eve-schema.json "ssh"): client and server, each with proto_version,
 * software_version and, when hassh is on, hassh {hash, string}. */
#ifndef OUTPUT_SSH_JSON_H
#define OUTPUT_SSH_JSON_H

#include <jansson.h>

#include "app-layer/ssh-parse.h"

/* Never NULL (an empty object when no banner was read); the caller owns
 * the reference. */
json_t *ssh_json_object(const SshState *s, int hassh);

#endif
