/* Names of NVML's numbers (nvlink.h), as NVIDIA's nvml.h defines them. */
#include "nvlink.h"

#include <stddef.h>

const char *nvml_return_name(unsigned rc)
{
	static const char *const names[] = {
		"NVML_SUCCESS", "NVML_ERROR_UNINITIALIZED", "NVML_ERROR_INVALID_ARGUMENT",
		"NVML_ERROR_NOT_SUPPORTED", "NVML_ERROR_NO_PERMISSION",
		"NVML_ERROR_ALREADY_INITIALIZED", "NVML_ERROR_NOT_FOUND",
		"NVML_ERROR_INSUFFICIENT_SIZE", "NVML_ERROR_INSUFFICIENT_POWER",
		"NVML_ERROR_DRIVER_NOT_LOADED", "NVML_ERROR_TIMEOUT", "NVML_ERROR_IRQ_ISSUE",
		"NVML_ERROR_LIBRARY_NOT_FOUND", "NVML_ERROR_FUNCTION_NOT_FOUND",
		"NVML_ERROR_CORRUPTED_INFOROM", "NVML_ERROR_GPU_IS_LOST",
		"NVML_ERROR_RESET_REQUIRED", "NVML_ERROR_OPERATING_SYSTEM",
		"NVML_ERROR_LIB_RM_VERSION_MISMATCH", "NVML_ERROR_IN_USE", "NVML_ERROR_MEMORY",
		"NVML_ERROR_NO_DATA", "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED",
		"NVML_ERROR_INSUFFICIENT_RESOURCES", "NVML_ERROR_FREQ_NOT_SUPPORTED",
		"NVML_ERROR_ARGUMENT_VERSION_MISMATCH", "NVML_ERROR_DEPRECATED",
		"NVML_ERROR_NOT_READY", "NVML_ERROR_GPU_NOT_FOUND", "NVML_ERROR_INVALID_STATE",
	};

	if (rc < sizeof(names) / sizeof(names[0]))
		return names[rc];
	return rc == 999 ? "NVML_ERROR_UNKNOWN" : NULL;
}

const char *nvlink_fabric_state_name(unsigned state)
{
	static const char *const names[] = { "NOT_SUPPORTED", "NOT_STARTED", "IN_PROGRESS",
					     "COMPLETED" };

	return state < 4 ? names[state] : "unknown";
}

bool nvlink_uuid_zero(const uint8_t *u)
{
	for (size_t i = 0; i < NVLINK_UUID_LEN; i++)
		if (u[i])
			return false;
	return true;
}
