/* The message digests the engine uses (file hashes, certificate
 * fingerprints, JA3/JA4, HASSH, MIME body MD5), fetched once.
 *
 * With OpenSSL 3, EVP_md5() and friends are legacy handles: each
 * EVP_DigestInit_ex() on them looks the implementation up again in the
 * provider tables (~25k instructions, more than hashing a certificate).
 * A fetched EVP_MD skips that. The handles are fetched on first use
 * (pthread_once) and are immutable after; when a fetch fails, the legacy
 * handle is returned, which still works. */
#ifndef UTIL_DIGEST_H
#define UTIL_DIGEST_H

#include <openssl/evp.h>

const EVP_MD *digest_md5(void);
const EVP_MD *digest_sha1(void);
const EVP_MD *digest_sha256(void);

#endif
