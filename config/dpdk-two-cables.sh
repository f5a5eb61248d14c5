#!/bin/sh
# Two cables in one process, the DPDK way: four vhost ports, paired
# explicitly (router r1 port 0 <-> host h1, router r1 port 1 <-> host h2).
# Without hugepages; two lcores: the main one keeps house, the other forwards.
exec xcable -l 0-1 --no-pci --no-huge -m 512 --no-shconf --file-prefix xcable-lab \
	--vdev net_vhost0,iface=/run/xcable/r1-eth0.sock \
	--vdev net_vhost1,iface=/run/xcable/r1-eth1.sock \
	--vdev net_vhost2,iface=/run/xcable/h1.sock \
	--vdev net_vhost3,iface=/run/xcable/h2.sock \
	-- --cable 0:2 --cable 1:3 --stats-interval 60
