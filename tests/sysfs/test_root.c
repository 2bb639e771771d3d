/* The root handle: symlinks resolved inside the root, hostile trees
 * (escaping links, loops, FIFOs, huge files), the read cache and the tape
 * that snapshot writes out. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "sysfs/root.h"
#include "sysfs/tape.h"

static char tmpl[64];

static void put(const char *path, const char *text)
{
	char full[512];
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", tmpl, path);
	for (char *s = full + strlen(tmpl) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(full, 0755);
		*s = '/';
	}
	f = fopen(full, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void link_(const char *target, const char *path)
{
	char full[512];

	snprintf(full, sizeof(full), "%s/%s", tmpl, path);
	assert_int_equal(symlink(target, full), 0);
}

static int setup(void **state)
{
	(void)state;
	strcpy(tmpl, "/tmp/rdroot-XXXXXX");
	if (!mkdtemp(tmpl))
		return -1;
	put("sys/devices/pci0000:17/0000:17:01.0/0000:1b:00.0/vendor", "0x15b3\n");
	put("sys/devices/pci0000:17/0000:17:01.0/0000:1b:00.0/nonewline", "4: ACTIVE");
	put("sys/class/placeholder", "");
	put("sys/bus/pci/devices/.keep", "");
	link_("../../../devices/pci0000:17/0000:17:01.0/0000:1b:00.0",
	      "sys/bus/pci/devices/0000:1b:00.0");
	link_("/sys/devices/pci0000:17", "sys/class/abs");
	link_("../../../../../../../../etc", "sys/class/evil");
	link_("loop2", "sys/class/loop1");
	link_("loop1", "sys/class/loop2");
	put("proc/1234/limits", "Max locked memory         unlimited\n");
	link_("1234", "proc/self");
	/* links a snapshot must not copy as they are: to the host's files,
	 * climbing out, or climbing from wherever a link led */
	link_("/etc/hosts", "sys/class/hosts");
	link_("/proc/self/limits", "sys/class/limits");
	link_("../../../../proc/self", "sys/class/outself");
	link_("..", "sys/class/up");
	link_("up/../../..", "sys/class/upup");
	put("list/10", "");
	put("list/2", "");
	put("list/1", "");
	put("errdir/.keep", "");
	{
		char fifo[512];

		snprintf(fifo, sizeof(fifo), "%s/sys/class/fifo", tmpl);
		assert_int_equal(mkfifo(fifo, 0644), 0);
	}
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	return system(cmd) == 0 ? 0 : -1;
}

static void reads_through_symlinks(void **state)
{
	struct root r;
	char *v, *canon;
	(void)state;

	assert_int_equal(root_open(&r, tmpl), 0);
	assert_false(r.live);
	assert_int_equal(root_read(&r, "sys/bus/pci/devices/0000:1b:00.0/vendor", &v), 0);
	assert_string_equal(v, "0x15b3");	/* one trailing newline removed */
	free(v);
	assert_int_equal(root_read(&r, "sys/bus/pci/devices/0000:1b:00.0/nonewline", &v), 0);
	assert_string_equal(v, "4: ACTIVE");
	free(v);
	assert_int_equal(root_resolve(&r, "sys/bus/pci/devices/0000:1b:00.0", &canon), 0);
	assert_string_equal(canon, "sys/devices/pci0000:17/0000:17:01.0/0000:1b:00.0");
	free(canon);
	/* an absolute target means the examined machine's root */
	assert_int_equal(root_resolve(&r, "sys/class/abs/0000:17:01.0", &canon), 0);
	assert_string_equal(canon, "sys/devices/pci0000:17/0000:17:01.0");
	free(canon);
	assert_int_equal(root_read(&r, "proc/self/limits", &v), 0);
	free(v);
	root_close(&r);
}

static void hostile_trees(void **state)
{
	struct root r;
	char *v = NULL, *canon;
	(void)state;

	assert_int_equal(root_open(&r, tmpl), 0);
	/* ../ beyond the root stops at the root: no /etc/passwd of the host */
	assert_int_equal(root_resolve(&r, "sys/class/evil", &canon), 0);
	assert_string_equal(canon, "etc");
	free(canon);
	assert_int_equal(root_read(&r, "sys/class/evil/passwd", &v), -ENOENT);
	assert_int_equal(root_read(&r, "sys/class/loop1/x", &v), -ELOOP);
	/* a FIFO would block a plain read(); it must not: it reads empty */
	assert_int_equal(root_read(&r, "sys/class/fifo", &v), 0);
	assert_string_equal(v, "");
	free(v);
	v = NULL;
	/* an empty directory is how fixtures say "the kernel returned an error" */
	assert_int_equal(root_read(&r, "errdir", &v), -EISDIR);
	assert_int_equal(root_read(&r, "nothing/here", &v), -ENOENT);
	assert_null(v);
	root_close(&r);
}

/* 39 links in a chain, then thousands of slashes: neither the stack nor
 * the path cache may grow with the length of what a tree can spell. */
static void crafted_chain(void **state)
{
	char name[64], target[64], *path, *canon = NULL;
	struct root r;
	size_t len;
	int rc;
	(void)state;

	for (int i = 0; i < 39; i++) {
		snprintf(name, sizeof(name), "chain/l%d", i);
		snprintf(target, sizeof(target), "l%d", i + 1);
		if (i == 0)
			put("chain/.keep", "");
		link_(target, name);
	}
	put("chain/l39", "end\n");
	len = strlen("chain/l0") + 8000 + 2;
	path = malloc(len);
	assert_non_null(path);
	strcpy(path, "chain/l0");
	memset(path + 8, '/', 8000);
	strcpy(path + 8008, "x");
	assert_int_equal(root_open(&r, tmpl), 0);
	rc = root_resolve(&r, path, &canon);
	assert_true(rc == -ENAMETOOLONG || rc == -ENOTDIR || rc == 0);
	free(canon);
	assert_int_equal(root_resolve(&r, "chain/l0", &canon), 0);
	assert_string_equal(canon, "chain/l39");
	free(canon);
	root_close(&r);
	free(path);
}

static void huge_file(void **state)
{
	char path[512];
	struct root r;
	char *v;
	FILE *f;
	(void)state;

	snprintf(path, sizeof(path), "%s/huge", tmpl);
	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < (2 << 20) / 64; i++)
		fputs("0123456789012345678901234567890123456789012345678901234567890123", f);
	fclose(f);
	assert_int_equal(root_open(&r, tmpl), 0);
	assert_int_equal(root_read(&r, "huge", &v), -EFBIG);
	root_close(&r);
	unlink(path);
}

static void listing_is_version_sorted(void **state)
{
	struct root r;
	char **names;
	size_t n;
	(void)state;

	assert_int_equal(root_open(&r, tmpl), 0);
	assert_int_equal(root_list(&r, "list", &names, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "1");
	assert_string_equal(names[1], "2");
	assert_string_equal(names[2], "10");
	root_free_list(names, n);
	assert_int_equal(root_list(&r, "nope", &names, &n), -ENOENT);
	root_close(&r);
}

static void each_file_read_once(void **state)
{
	struct root r;
	char *v;
	(void)state;

	assert_int_equal(root_open(&r, tmpl), 0);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(root_read(&r, "sys/bus/pci/devices/0000:1b:00.0/vendor", &v), 0);
		free(v);
	}
	assert_int_equal(r.opens, 1);
	put("sys/devices/pci0000:17/0000:17:01.0/0000:1b:00.0/vendor", "0x10de\n");
	assert_int_equal(root_read(&r, "sys/bus/pci/devices/0000:1b:00.0/vendor", &v), 0);
	assert_string_equal(v, "0x15b3");
	free(v);
	assert_int_equal(root_forget_files(&r), 0);
	assert_int_equal(root_read(&r, "sys/bus/pci/devices/0000:1b:00.0/vendor", &v), 0);
	assert_string_equal(v, "0x10de");
	free(v);
	root_close(&r);
	put("sys/devices/pci0000:17/0000:17:01.0/0000:1b:00.0/vendor", "0x15b3\n");
}

static void tape_round_trip(void **state)
{
	char out[64] = "/tmp/rdtape-XXXXXX", cmd[160];
	struct root r, replay;
	char *v;
	int fd;
	(void)state;

	assert_non_null(mkdtemp(out));
	assert_int_equal(root_open(&r, tmpl), 0);
	assert_int_equal(root_record(&r), 0);
	assert_int_equal(root_read(&r, "sys/bus/pci/devices/0000:1b:00.0/vendor", &v), 0);
	free(v);
	assert_int_equal(root_read(&r, "errdir", &v), -EISDIR);
	assert_int_equal(root_read(&r, "proc/self/limits", &v), 0);
	free(v);
	fd = open(out, O_PATH | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(tape_write(r.tape, fd, NULL, NULL), 0);
	close(fd);
	root_close(&r);

	assert_int_equal(root_open(&replay, out), 0);
	assert_int_equal(root_read(&replay, "sys/bus/pci/devices/0000:1b:00.0/vendor", &v), 0);
	assert_string_equal(v, "0x15b3");
	free(v);
	assert_int_equal(root_read(&replay, "errdir", &v), -EISDIR);
	assert_int_equal(root_read(&replay, "proc/self/limits", &v), 0);
	free(v);
	/* only what was read travels: the sibling file was never touched */
	assert_int_equal(root_read(&replay, "sys/bus/pci/devices/0000:1b:00.0/nonewline", &v),
			 -ENOENT);
	root_close(&replay);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", out);
	assert_int_equal(system(cmd), 0);
}

static void count_dropped(void *arg, const char *path, const char *target)
{
	(void)path;
	(void)target;
	++*(int *)arg;
}

static void link_is(const char *dir, const char *path, const char *want)
{
	char full[512], got[512];
	ssize_t n;

	snprintf(full, sizeof(full), "%s/%s", dir, path);
	n = readlink(full, got, sizeof(got) - 1);
	if (!want) {
		assert_int_equal(n, -1);
		return;
	}
	assert_true(n > 0);
	got[n] = '\0';
	assert_string_equal(got, want);
}

/* A snapshot of a hostile tree holds only links that lead inside it: an
 * absolute one into what was read is rebased, one to the host's /etc or
 * one climbing out is left out and told. */
static void tape_links_stay_inside(void **state)
{
	char out[64] = "/tmp/rdtapelinks-XXXXXX", cmd[160];
	struct root r;
	char *v = NULL;
	int fd, dropped = 0;
	(void)state;

	assert_non_null(mkdtemp(out));
	assert_int_equal(root_open(&r, tmpl), 0);
	assert_int_equal(root_record(&r), 0);
	assert_int_equal(root_read(&r, "sys/class/hosts", &v), -ENOENT);
	assert_int_equal(root_read(&r, "sys/class/limits", &v), 0);
	free(v);
	assert_int_equal(root_read(&r, "sys/class/outself/limits", &v), 0);
	free(v);
	assert_int_equal(root_read(&r, "sys/class/abs/0000:17:01.0/0000:1b:00.0/vendor", &v), 0);
	free(v);
	v = NULL;
	assert_int_equal(root_read(&r, "sys/class/upup/x", &v), -ENOENT);
	fd = open(out, O_PATH | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(tape_write(r.tape, fd, count_dropped, &dropped), 0);
	close(fd);
	root_close(&r);

	link_is(out, "sys/class/hosts", NULL);		/* the host's /etc/hosts */
	link_is(out, "sys/class/limits", "../../proc/self/limits");
	link_is(out, "sys/class/abs", "../../sys/devices/pci0000:17");
	link_is(out, "sys/class/outself", NULL);	/* four .. from two deep */
	link_is(out, "sys/class/up", "..");
	link_is(out, "sys/class/upup", NULL);		/* .. after a link: outside */
	link_is(out, "proc/self", "1234");
	assert_int_equal(dropped, 3);
	/* and the rebased ones read the same bytes as the tree did */
	assert_int_equal(root_open(&r, out), 0);
	assert_int_equal(root_read(&r, "sys/class/limits", &v), 0);
	assert_string_equal(v, "Max locked memory         unlimited");
	free(v);
	root_close(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", out);
	assert_int_equal(system(cmd), 0);
}

static void notes_kept_once(void **state)
{
	struct root r;
	(void)state;

	assert_int_equal(root_open(&r, tmpl), 0);
	/* a bridge above both a GPU and a NIC is read twice: one note */
	root_note(&r, "sys/devices/pci0000:17/0000:17:01.0", "only %d bytes", 64);
	root_note(&r, "sys/devices/pci0000:17/0000:17:01.0", "only %d bytes", 64);
	assert_int_equal(r.n_notes, 1);
	root_note(&r, "sys/devices/pci0000:17/0000:17:01.0", "only %d bytes", 32);
	root_note(&r, "sys/devices/pci0000:18/0000:18:01.0", "only %d bytes", 64);
	assert_int_equal(r.n_notes, 3);
	assert_string_equal(r.notes[2].what, "only 64 bytes");
	root_close(&r);
}

/* A zeroed handle has fd 0: closing it must not close stdin; closing
 * twice, or after a failed open, is safe too. */
static void zeroed_handle_safe_to_close(void **state)
{
	struct root r;
	int saved = dup(0);

	(void)state;
	assert_true(saved >= 0);
	memset(&r, 0, sizeof(r));
	root_close(&r);
	assert_true(fcntl(0, F_GETFD) != -1);
	assert_int_equal(root_open(&r, "/no/such/root/dir"), -ENOENT);
	root_close(&r);
	root_close(&r);
	assert_true(fcntl(0, F_GETFD) != -1);
	dup2(saved, 0);
	close(saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_through_symlinks),
		cmocka_unit_test(hostile_trees),
		cmocka_unit_test(crafted_chain),
		cmocka_unit_test(huge_file),
		cmocka_unit_test(listing_is_version_sorted),
		cmocka_unit_test(each_file_read_once),
		cmocka_unit_test(tape_round_trip),
		cmocka_unit_test(tape_links_stay_inside),
		cmocka_unit_test(notes_kept_once),
		cmocka_unit_test(zeroed_handle_safe_to_close),
	};

	return cmocka_run_group_tests_name("root", tests, setup, teardown);
}
