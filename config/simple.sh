#!/bin/sh
# One cable between two VMs, simple mode: no DPDK options needed.
exec xcable --left /run/xcable/vm-a.sock --right /run/xcable/vm-b.sock --stats-interval 60
