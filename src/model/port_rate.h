/* What a port's rate means in data.
 *
 * sysfs ports/N/rate is the lane speed times the width the IBTA names it
 * by.  From EDR on (and for FDR10) that is the data rate; SDR, DDR and QDR
 * lanes carry 8b/10b, so "40 Gb/sec (4X QDR)" moves 32 Gb/s of data, and
 * FDR signals 14.0625 GBd with 64b/66b, so "56 Gb/sec (4X FDR)" moves
 * about 54.5 (IBTA Vol. 2 line codes; the same figures as Mellanox's
 * "InfiniBand data rates" tables).  mlx5 prints an Ethernet port's speed
 * in these names too ("40 Gb/sec (4X QDR)" for 40GBASE-R4, which carries
 * 40 Gb/s of data): there the number is the data rate. */
#ifndef RD_MODEL_PORT_RATE_H
#define RD_MODEL_PORT_RATE_H

struct port;

/* The data rate of p when it signals at gbps (its own rate_gbps, or a
 * profile's figure for it); gbps itself when the line code is unknown. */
double port_data_gbps(const struct port *p, double gbps);

#endif
