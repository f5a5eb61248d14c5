/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ports.h - setting up ethdev ports as cable ends and following their state
 */
#ifndef XC_PORTS_H
#define XC_PORTS_H

#include <stddef.h>

#include "cable.h"

int xc_port_init(struct xc_port *p, uint16_t id, char *err, size_t errlen);
int xc_port_configure(struct xc_port *p, struct rte_mempool *pool,
		      char *err, size_t errlen);
int xc_port_pool_create(struct xc_port *p, int socket, char *err,
			size_t errlen);
int xc_port_start(struct xc_port *p, char *err, size_t errlen);
void xc_port_poll_link(struct xc_port *p);
void xc_port_close(struct xc_port *p);
void xc_port_set_down(struct xc_port *p);
uint64_t xc_port_features(struct xc_port *p);

#endif /* XC_PORTS_H */
