#include "util/digest.h"

#include <pthread.h>

static pthread_once_t fetch_once = PTHREAD_ONCE_INIT;
static const EVP_MD *md5_md, *sha1_md, *sha256_md;

static void fetch_all(void)
{
	/* kept for the process's life: fetched handles are reference counted
	 * and nothing here outlives the library */
	md5_md = EVP_MD_fetch(NULL, "MD5", NULL);
	sha1_md = EVP_MD_fetch(NULL, "SHA1", NULL);
	sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
	if (!md5_md)
		md5_md = EVP_md5();
	if (!sha1_md)
		sha1_md = EVP_sha1();
	if (!sha256_md)
		sha256_md = EVP_sha256();
}

const EVP_MD *digest_md5(void)
{
	pthread_once(&fetch_once, fetch_all);
	return md5_md;
}

const EVP_MD *digest_sha1(void)
{
	pthread_once(&fetch_once, fetch_all);
	return sha1_md;
}

const EVP_MD *digest_sha256(void)
{
	pthread_once(&fetch_once, fetch_all);
	return sha256_md;
}
