/* How a counter's rate reads for people: data counters as a bit rate in
 * Gb/s (what `perfquery -r` and `mlnx_perf` users compare with the link's
 * rate), everything else (packets, errors, pauses) per second on a k, M,
 * G scale.  JSON keeps the raw numbers; only text goes through here. */
#ifndef RD_OUT_RATE_UNITS_H
#define RD_OUT_RATE_UNITS_H

#include <stdbool.h>
#include <stddef.h>

/* A counter of bytes, in a set of model/window.h's enum window_set: the
 * PMA's port_xmit_data and port_rcv_data (the kernel counts 4-byte words;
 * the reader made them bytes), and any name with a "bytes" word in it
 * (statistics/tx_bytes, ethtool rx_bytes_phy, hw_counters ..._bytes). */
bool rate_counter_is_bytes(const char *name, int set);

/* "133 Gb/s", "8.00 Gb/s", "0.05 Gb/s", "<0.01 Gb/s", "0 Gb/s" from bytes
 * per second. */
void rate_gbps_str(char *buf, size_t len, double bytes_per_s);

/* "25G/s", "1.23k/s", "5/s", "0.017/s", "0/s". */
void rate_per_s_str(char *buf, size_t len, double per_s);

/* Either, as the counter's name says. */
void rate_str(char *buf, size_t len, const char *name, int set, double per_s);

#endif
