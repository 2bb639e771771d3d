/* GPU memory for the test: the wording of a failed registration names
 * each path and its cause, and on a host without the nvidia driver the
 * allocation says so (the real dlopen, no stand-in). */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bw/engine.h"
#include "bw/gpu_mem.h"

static void has(const char *s, const char *want)
{
	if (!strstr(s, want))
		fail_msg("'%s' lacks '%s'", s, want);
}

static void lacks(const char *s, const char *no)
{
	if (strstr(s, no))
		fail_msg("'%s' has '%s'", s, no);
}

static void wording(void **state)
{
	char m[768];
	struct gpu_reg_failure f = {
		.dmabuf = GPU_DMABUF_NO_ATTR, .peer_errno = EINVAL, .peermem_loaded = 0,
		.memlock = UINT64_MAX, .len = 1 << 20,
	};
	(void)state;

	/* the classic: no dma-buf, no nvidia_peermem */
	gpu_mem_explain(&f, m, sizeof(m));
	has(m, "cannot register gpu memory: dma-buf path: the nvidia driver reports no dma-buf support");
	has(m, "peer-memory path: ibv_reg_mr failed: Invalid argument: nvidia_peermem is not loaded (modprobe nvidia_peermem)");
	lacks(m, "memlock");

	/* dma-buf exported but the rdma side refused; peermem there but failing;
	 * memlock too small for the buffer */
	f = (struct gpu_reg_failure){ .dmabuf = GPU_DMABUF_REG, .dmabuf_errno = EOPNOTSUPP,
				      .peer_errno = EFAULT, .peermem_loaded = 1, .memlock = 8 << 20,
				      .len = 64 << 20 };
	gpu_mem_explain(&f, m, sizeof(m));
	has(m, "dma-buf path: ibv_reg_dmabuf_mr failed: Operation not supported (the rdma driver or kernel does not support dma-buf");
	has(m, "peer-memory path: ibv_reg_mr failed: Bad address although nvidia_peermem is loaded");
	has(m, "the memlock limit (8388608 bytes) is below the 67108864-byte buffer: raise it (ulimit -l unlimited)");

	/* the driver could not export; too old a driver for the entry point */
	f = (struct gpu_reg_failure){ .dmabuf = GPU_DMABUF_EXPORT, .cu_code = 801, .cu_text = "operation not supported",
				      .peer_errno = EINVAL, .peermem_loaded = -1, .memlock = UINT64_MAX };
	gpu_mem_explain(&f, m, sizeof(m));
	has(m, "cuMemGetHandleForAddressRange failed: operation not supported (801): the driver or kernel cannot export dma-buf");
	lacks(m, "nvidia_peermem");
	f.dmabuf = GPU_DMABUF_NO_ENTRY;
	gpu_mem_explain(&f, m, sizeof(m));
	has(m, "libcuda has no cuMemGetHandleForAddressRange (driver older than cuda 11.7)");
	/* a short buffer is cut, never overrun */
	gpu_mem_explain(&f, m, 16);
	assert_int_equal(strlen(m), 15);
}

static void no_driver(void **state)
{
	struct gpu_mem *g = (struct gpu_mem *)1;
	char err[256] = "";
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	(void)state;

	if (h) {
		/* a GPU host: the no-driver path cannot be seen here */
		dlclose(h);
		skip();
	}
	assert_int_equal(gpu_mem_alloc(0, 1 << 20, &g, err, sizeof(err)), -1);
	assert_null(g);
	has(err, "cannot load libcuda.so.1 (");
	has(err, "no nvidia driver on this host; run without --gpu");
}

/* The engine refuses what it cannot do before touching any device. */
static void engine_refuses(void **state)
{
	struct bw_params p = { .mode = BW_MODE_LAT, .op = BW_OP_WRITE, .size = 2, .qps = 1, .iters = 10 };
	struct bw_local l = { .ib_port = 1, .gid_index = -1, .gpu = 0, .numa_node = -1 };
	static uint8_t ep[BW_ENDPOINT_MAX];
	struct bw_err e = { "" };
	size_t n = 0;
	void *st = NULL;
	(void)state;

	assert_int_equal(bw_verbs_engine.prepare(&st, &p, &l, false, ep, &n, &e), -1);
	has(e.msg, "write latency polls the buffer with the cpu, which cannot read gpu memory: use --op send with --gpu");
	bw_verbs_engine.destroy(st);
	p.op = BW_OP_READ;
	l.gpu = -1;
	assert_int_equal(bw_verbs_engine.prepare(&st, &p, &l, false, ep, &n, &e), -1);
	has(e.msg, "latency runs with write or send, not read");
	bw_verbs_engine.destroy(st);
	p = (struct bw_params){ .mode = BW_MODE_BW, .op = BW_OP_WRITE, .size = 0, .qps = 1, .iters = 10 };
	assert_int_equal(bw_verbs_engine.prepare(&st, &p, &l, false, ep, &n, &e), -1);
	has(e.msg, "message size 0 is outside 1..");
	bw_verbs_engine.destroy(st);
	p.size = 64;
	p.iters = 0;
	assert_int_equal(bw_verbs_engine.prepare(&st, &p, &l, false, ep, &n, &e), -1);
	has(e.msg, "neither a duration nor an iteration count");
	bw_verbs_engine.destroy(st);
	p.iters = 10;
	l.device = "no-such-rdma-device";
	assert_int_equal(bw_verbs_engine.prepare(&st, &p, &l, false, ep, &n, &e), -1);
	/* a host with devices names the missing one; one without says so */
	if (!strstr(e.msg, "no rdma device found"))
		has(e.msg, "no rdma device named 'no-such-rdma-device'");
	bw_verbs_engine.destroy(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wording),
		cmocka_unit_test(no_driver),
		cmocka_unit_test(engine_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
