/* SMB: placeholder while the parser lands */
#include "config.h"
#include "test.h"
#include "app-layer/smb-parse.h"

TEST(smb_probe_needs_magic)
{
	const uint8_t a[8] = { 0, 0, 0, 0x40, 0xfe, 'S', 'M', 'B' };

	CHECK_EQ(smb_probe(a, 8, 0, NULL), 1);
}
