/* bw_token_* (token.h). */
#include "token.h"
#include "proto.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int bw_token_take(const char *text, size_t n, char *out, size_t outsz, struct bw_err *e)
{
	if (n && text[n - 1] == '\n')
		n--;
	if (n && text[n - 1] == '\r')
		n--;
	if (n < BW_TOKEN_MIN || n > BW_TOKEN_MAX || n >= outsz) {
		bw_errf(e, "a token is %u to %u characters (a shorter one is guessed: "
			"`openssl rand -hex 16` makes one)", BW_TOKEN_MIN, BW_TOKEN_MAX);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (text[i] < 0x21 || text[i] > 0x7e) {
			/* it travels as a printable text (proto.h) and is typed
			 * on command lines: no spaces or control characters */
			bw_errf(e, "a token is printable ASCII without spaces (character %zu "
				"is not)", i + 1);
			return -1;
		}
	memcpy(out, text, n);
	out[n] = 0;
	return 0;
}

int bw_token_read_file(const char *path, char *out, size_t outsz, struct bw_err *e,
		       struct bw_err *warn)
{
	/* room for the longest token, its line end, and one byte more to tell
	 * a file that is too long */
	char buf[BW_TOKEN_MAX + 3];
	size_t n = 0;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0) {
		bw_errf(e, "cannot open token file %s: %s", path, strerror(errno));
		return -1;
	}
	warn->msg[0] = '\0';
	/* a secret others can read is theirs too: used, and said, as ssh says
	 * of a private key (ssh refuses; a shared test rig may want it so) */
	if (fstat(fd, &st) == 0 && (st.st_mode & (S_IRGRP | S_IROTH)))
		bw_errf(warn, "token file %s is readable by %s (mode %04o): `chmod 600 %s`", path,
			st.st_mode & S_IROTH ? "every user" : "its group",
			(unsigned)(st.st_mode & 07777), path);
	while (n < sizeof(buf)) {
		ssize_t r = read(fd, buf + n, sizeof(buf) - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			bw_errf(e, "cannot read token file %s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (bw_token_take(buf, n, out, outsz, e) < 0) {
		char why[sizeof(e->msg)];

		snprintf(why, sizeof(why), "%s", e->msg);
		bw_errf(e, "token file %s: %s", path, why);
		return -1;
	}
	return 0;
}

bool bw_token_equal(const char *want, const char *got)
{
	/* every byte of both fixed-size copies is compared, whatever differs
	 * first, and the lengths too: the time says nothing of the secret */
	uint8_t a[BW_TOKEN_MAX + 1] = { 0 }, b[BW_TOKEN_MAX + 1] = { 0 };
	size_t la = strnlen(want, BW_TOKEN_MAX + 1), lb = strnlen(got, BW_TOKEN_MAX + 1);
	volatile uint8_t diff = 0;

	memcpy(a, want, la > BW_TOKEN_MAX ? BW_TOKEN_MAX : la);
	memcpy(b, got, lb > BW_TOKEN_MAX ? BW_TOKEN_MAX : lb);
	for (size_t i = 0; i < sizeof(a); i++)
		diff |= a[i] ^ b[i];
	diff |= (uint8_t)(la != lb);
	diff |= (uint8_t)(la > BW_TOKEN_MAX);
	return diff == 0;
}

int bw_token_judge(const char *want, const uint8_t *pl, size_t len, bool *wrong,
		   struct bw_err *e)
{
	char got[BW_TOKEN_MAX + 1];

	*wrong = false;
	if (bw_text_decode(pl, len, BW_TOKEN_MAX, got, sizeof(got), e) < 0)
		return -1;
	if (!want || bw_token_equal(want, got))
		return 0;
	/* only a token that was presented is a guess: a client without one
	 * did not know it was needed */
	*wrong = got[0] != 0;
	return bw_errc(e, BW_E_REFUSED, "%s",
		       *wrong ? "bad token (--token, --token-file or RDMADOCTOR_TOKEN)"
			      : "no token: this server needs one (--token, --token-file or "
				"RDMADOCTOR_TOKEN)");
}
