/* POP3 as the app layer runs it (pop3-proto.c): a transaction is a
 * Pop3Tx of the parser (pop3-parse.h), read by the eve logger. */
#ifndef APP_LAYER_POP3_H
#define APP_LAYER_POP3_H

#include "app-layer/pop3-parse.h"

#endif
