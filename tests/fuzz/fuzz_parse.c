/* libFuzzer target: every parser of kernel-written text gets the same
 * bytes.  Built with clang -fsanitize=fuzzer (RD_FUZZ=ON); replay_main.c
 * runs the saved corpus under gcc as an ordinary test. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs/parse.h"
#include "sysfs/pci_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	struct ib_rate rate;
	const char *name, *state;
	uint8_t gid[16];
	char ip[16];
	uint64_t u;
	int64_t i;
	double d;
	bool unl;
	int code, len, pos;
	uint16_t acs;
	struct pcie_settings exp;
	int rc;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	if (parse_ib_rate(s, &rate) == 0 && (rate.gbps <= 0 || rate.lanes <= 0))
		abort();
	if (parse_code_name(s, &code, &name) == 0 && (code < 0 || !name))
		abort();
	if (parse_pcie_speed(s, &d) == 0 && !(d > 0))
		abort();
	if (parse_gid(s, gid) == 0) {
		(void)gid_is_unused(gid);
		(void)gid_ipv4(gid, ip);
	}
	(void)parse_guid(s, &u);
	if (parse_errno_marker(s, &code) == 0 && (code <= 0 || code >= 4096))
		abort();
	(void)parse_u64(s, &u);
	(void)parse_s64(s, &i);
	(void)parse_hex(s, &u);
	(void)is_bdf(s);
	(void)parse_limits_memlock(s, &u, &unl);
	if (modules_find(s, "mlx5_ib", &state, &len) && (len < 0 || state < s ||
							   state + len > s + size))
		abort();
	(void)parse_nvidia_version_open(s);
	free(s);

	/* the same bytes as PCI config space (binary: data, not s) */
	pos = pci_config_ext_cap(data, size, PCI_EXT_CAP_ID_ACS);
	if (pos >= 0 && ((size_t)pos + 4 > size || pos < 0x100 || pos > 0xffc || pos % 4))
		abort();
	if (pci_config_acs_ctrl(data, size, &acs) == 0 && pos < 0)
		abort();
	/* PCIe settings: known only from bytes that were there, sizes as
	 * 128 << a 3-bit field, flags 0/1, -1 unknown */
	rc = pci_config_exp_dev(data, size, &exp);
	pos = pci_config_exp_cap(data, size);
	if ((rc == 0) != (exp.mps > 0) || (rc == 0 && (pos < 0 || (size_t)pos + 20 > size)))
		abort();
	if (rc == 0 && (exp.mps > 16384 || exp.mrrs > 16384 || exp.mps_cap > 16384 ||
			(exp.mps & (exp.mps - 1)) || (exp.mrrs & (exp.mrrs - 1)) ||
			exp.relaxed_ordering < 0 || exp.relaxed_ordering > 1 ||
			exp.ext_tag < 0 || exp.ext_tag > 1 || exp.ats < -1 || exp.ats > 1 ||
			(exp.ats != 1 && exp.ats_stu != -1) || exp.ats_stu > 31))
		abort();
	if (rc != 0 && (exp.mps != -1 || exp.mrrs != -1 || exp.relaxed_ordering != -1))
		abort();
	return 0;
}
