/* DCERPC: placeholder replaced below */
#include "config.h"
#include "test.h"
