/* One place that selects the 8-bit PCRE2 API for the detect files. */
#ifndef DETECT_PCRE2_CONFIG_H
#define DETECT_PCRE2_CONFIG_H
#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>
#endif
