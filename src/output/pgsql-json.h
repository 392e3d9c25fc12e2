/* The eve "pgsql" object of a PostgreSQL transaction, as Suricata 8 writes
 * it (schema: eve-schema.json "pgsql"): tx_id, request {the frontend
 * message's members}, response {the backend messages' members, the
 * parameter_status list, data_rows/data_size, copy_data_out}. */
#ifndef OUTPUT_PGSQL_JSON_H
#define OUTPUT_PGSQL_JSON_H

#include "app-layer/pgsql.h"

#include <jansson.h>

struct JsonWriter;
/* passwords: the password message in clear (eve-log pgsql.passwords) */
void pgsql_json_write(struct JsonWriter *w, const PgsqlTx *tx, int passwords);
/* The same as a tree, for tests; the caller owns it. */
json_t *pgsql_json_object(const PgsqlTx *tx, int passwords);

#endif
