package dev.collsim.topology.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** NVL72 trays in one rack's NVLink domain, or each in a domain of its own; the GB300 tray's ConnectX-8 path. */
class OwnNvlinkDomainTest {

    private static final HostType A4X_MAX = Catalog.hostType("a4x-maxgpu-4g-metal").orElseThrow();

    @Test
    void traysOfOneRackShareItsSwitch() throws Exception {
        // -c NAMEx1 of a tray type is one 72-GPU rack: 18 trays on one NVLink switch node of host -1
        Topology rack = ClusterLoader.hosts(A4X_MAX, 2).topology();
        List<NvSwitch> sw = rack.devices(NvSwitch.class);
        assertEquals(1, sw.size());
        assertEquals(-1, sw.get(0).host());
    }

    @Test
    void traysOfDifferentRacksHaveTheirOwnSwitch() throws Exception {
        OwnNvlinkDomain apart = new OwnNvlinkDomain(A4X_MAX);
        assertEquals(1, apart.hostsPerNvlinkDomain());
        assertEquals("a4x-maxgpu-4g-metal", apart.name());
        Topology two = ClusterLoader.hosts(apart, 2).topology();
        assertEquals(2, two.hostCount());
        Topology host = two.hostTemplate().orElse(two);
        List<NvSwitch> sw = host.devices(NvSwitch.class);
        assertEquals(1, sw.size(), "one NVLink switch node per tray");
        assertTrue(sw.get(0).host() >= 0, "the tray's own switch, not a rack's");
        // its 4 GPUs each reach it with 18 NVLink5 links (GB300 NVL72 datasheet: 18 links, 1.8 TB/s per GPU)
        for (Gpu g : host.gpus()) {
            assertEquals(18, host.outgoing(g).stream().filter(l -> host.target(l) == sw.get(0))
                    .mapToInt(l -> l.count()).sum());
        }
        assertEquals(4, host.devices(Nic.class).stream().filter(n -> n.rail() >= 0 && n.host() == 0).count());
    }

    /**
     * GB300: a GPU meets its ConnectX-8 in the NIC's own PCIe switch (PIX), at NCCL's Gen6 x16 figure 16 x 480 / 80 =
     * 96 GB/s (NCCL topo.cc, {@code width x speed code / 80}); a GB200 tray's NIC hangs off the Grace (P2C) at Gen5
     * x16, 16 x 240 / 80 = 48 GB/s.
     */
    @Test
    void gb300NicsSitBesideTheirGpus() {
        HostPaths gb300 = PathFinder.of(Catalog.standalone(A4X_MAX, 1)).host(0);
        Gpu g0 = gb300.gpus().get(0);
        Nic nearest = gb300.nics().stream().filter(n -> gb300.path(g0, n).type() == PathType.PIX).findFirst()
                .orElseThrow();
        assertEquals(96.0, gb300.path(g0, nearest).nccl().gbps(), 1e-9);
        HostPaths gb200 = PathFinder.of(Catalog.standalone(Catalog.hostType("gb200-nvl72").orElseThrow(), 1)).host(0);
        Gpu h0 = gb200.gpus().get(0);
        assertTrue(gb200.nics().stream().anyMatch(n -> gb200.path(h0, n).type() == PathType.P2C
                && Math.abs(gb200.path(h0, n).nccl().gbps() - 48.0) < 1e-9));
    }
}
