/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bounds.h - xcable's fixed limits and constants, at the bottom of every
 *	      include chain
 *
 * Folder app/util/, the lowest layer: what any program could use (limits,
 * logs, buffers, parsers, socket paths, files). It knows nothing of
 * cables; nothing here includes a header of another folder. A kind of end
 * or port never goes here: see app/kinds/.
 */
#ifndef XC_BOUNDS_H
#define XC_BOUNDS_H

#define XC_MAX_CABLES		64	/* cables per process */
#define XC_MAX_LAB_CABLES	1024	/* cables in one config: a supervisor's
					 * workers share them (supervise.c) */
#define XC_MAX_QUEUES		8	/* queue pairs per cable end */
#define XC_ERR_LEN		256	/* one-line error messages */
#define XC_SOCK_PATH_MAX	108	/* sizeof(sun_path) */
#define XC_NAME_MAX		32	/* cable and port names */
#define XC_MAX_LCORE_ID		127	/* highest lcore a cable may name */

/* outer tag types of a trunk */
#define XC_TPID_8021AD		0x88a8
#define XC_TPID_8021Q		0x8100

#endif /* XC_BOUNDS_H */
