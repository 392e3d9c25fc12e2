/* The unix socket's dataset-* commands (unix-socket-dataset.c), for
 * unix-socket.c's command table. Each answers {"message": ...} and returns
 * 0 (OK) or -1 (NOK). */
#ifndef RUNMODE_UNIX_SOCKET_DATASET_H
#define RUNMODE_UNIX_SOCKET_DATASET_H

#include "runmode/unix-socket.h"

int cmd_dataset_add(UnixSocket *u, json_t *args, json_t *answer);
int cmd_dataset_add_json(UnixSocket *u, json_t *args, json_t *answer);
int cmd_dataset_remove(UnixSocket *u, json_t *args, json_t *answer);
int cmd_dataset_lookup(UnixSocket *u, json_t *args, json_t *answer);
int cmd_dataset_clear(UnixSocket *u, json_t *args, json_t *answer);
int cmd_dataset_dump(UnixSocket *u, json_t *args, json_t *answer);

#endif
