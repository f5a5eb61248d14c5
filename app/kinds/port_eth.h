/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port_eth.h - what the ports that are not a guest's share with the eth
 *		kind (port_eth.c): a pool of their own, sized for their
 *		frames, and what they take
 */
#ifndef XC_PORT_ETH_H
#define XC_PORT_ETH_H

#include "port.h"

int xc_port_take_pool(struct xc_port *p, struct rte_mempool *mp, char *err,
		      size_t errlen);
int xc_port_eth_pool(struct xc_port *p, unsigned int framesz, char *err,
		     size_t errlen);
uint64_t xc_port_eth_caps(struct xc_port *p);

#endif /* XC_PORT_ETH_H */
