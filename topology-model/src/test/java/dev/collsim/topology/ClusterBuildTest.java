package dev.collsim.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.collsim.io.InputException;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Clusters built through the pre-sized graph ({@link Topology#builder(String, int, int)}, used by
 * {@code ClusterSpec.build}) keep their structure. Expected values by hand:
 *
 * <p>A DGX H100 host ({@code HgxEightGpu}, DGX H100 User Guide) has 49 devices: 2 CPUs, 1 NVSwitch node, 8 GPUs,
 * 3 PCIe switches per GPU (24), 8 compute NICs, 2 storage cards and 4 storage ports; and 55 physical links = 110
 * directed: 1 UPI, 8 NVLink bundles, 5 PCIe links per GPU (40), 3 per storage card (6). The {@code NAMExN} fabric is
 * rail-optimized, non-blocking, leaf radix 32 ({@code FabricSpec.of}): hosts in units of 32, one leaf per rail and
 * unit, d = min(32, hosts per unit) downlinks per leaf and as many spines, one cable per leaf-spine pair.
 * Bandwidths: NVLink4 18 x 25 = 450 GB/s, NCCL 18 x 20.6 = 370.8 GB/s (nccl-model.md 5.2, NCCL 2.30
 * {@code src/graph/topo.h} SM90_NVLINK_BW); PCIe Gen5 x16 NCCL 16 x 240 / 80 = 48 GB/s (NCCL 2.30
 * {@code src/graph/topo.cc} speed code); UPI of a Xeon 8480C NCCL 22 GB/s (SRP_QPI_BW); a 400 Gb/s NIC cable 50 GB/s.
 */
class ClusterBuildTest {

    private static final double EPS = 1e-9;

    /** 2 hosts: 98 host devices + 8 leaves + 2 spines; 220 + 16 NICs x 2 + 8 leaves x 2 spines x 2 = 284 links. */
    @Test
    void twoDgxH100Hosts() throws InputException {
        Topology t = ClusterLoader.load("dgx-h100x2");
        assertEquals(2 * 49 + 8 + 2, t.graph().vertexSet().size());
        assertEquals(2 * 110 + 16 * 2 + 8 * 2 * 2, t.graph().edgeSet().size());
        Link nvl = only(t, "h1/gpu3", "h1/nvs0");
        assertEquals(LinkType.NVLINK, nvl.type());
        assertEquals(18, nvl.count());
        assertEquals(450.0, nvl.bandwidth().gbps(), EPS);
        assertEquals(18 * 20.6, nvl.ncclBandwidth().gbps(), EPS);
        assertEquals(18 * 20.6, only(t, "h1/nvs0", "h1/gpu3").ncclBandwidth().gbps(), EPS);
        Link pcie = only(t, "h0/pcisw1", "h0/gpu0");
        assertEquals("PCIe Gen5 x16", pcie.detail());
        assertEquals(48.0, pcie.ncclBandwidth().gbps(), EPS);
        assertEquals(48.0, only(t, "h0/gpu0", "h0/pcisw1").ncclBandwidth().gbps(), EPS);
        Link upi = only(t, "h1/cpu1", "h1/cpu0");
        assertEquals(128.0, upi.bandwidth().gbps(), EPS);
        assertEquals(22.0, upi.ncclBandwidth().gbps(), EPS);
        Link cable = only(t, "h1/nic5", "leaf5");
        assertEquals(LinkType.NET, cable.type());
        assertEquals(50.0, cable.ncclBandwidth().gbps(), EPS);
        assertEquals("h1/nic5>leaf5#0", cable.id());
    }

    /**
     * 64 hosts = 2 units of 32: 16 leaves and 32 spines; links 64 x 110 + 512 NICs x 2 + 16 x 32 x 2 = 9,088.
     */
    @Test
    void sixtyFourHostsRailOptimized() throws InputException {
        Topology t = ClusterLoader.load("dgx-h100x64");
        assertEquals(64 * 49 + 16 + 32, t.graph().vertexSet().size());
        assertEquals(64 * 110 + 64 * 8 * 2 + 16 * 32 * 2, t.graph().edgeSet().size());
        assertEquals(512, t.gpus().size());
        assertEquals(64, t.hostCount());
        assertEquals("h63/gpu7", t.gpus().get(511).id());
    }

    /**
     * NVLink takes the NCCL per-link rate from the GPU end it leaves (a first), so a link between an sm90 and an sm80
     * GPU differs per direction: 2 x 20.6 = 41.2 and 2 x 20.0 = 40.0 GB/s (NCCL 2.30 {@code src/graph/topo.h}).
     * A builder that outgrows its size hint still takes everything; parallel links get serials 0 and 1.
     */
    @Test
    void sizeHintIsOnlyAHintAndDirectionsStayDistinct() {
        TopologyBuilder b = Topology.builder("t", 1, 1);
        Gpu h = b.add(new Gpu("g0", 0, 0, "H100", 90, 0, ""));
        Gpu a = b.add(new Gpu("g1", 0, 1, "A100", 80, 0, ""));
        Bandwidth phys = Bandwidth.ofGBps(50);
        b.connect(h, a, LinkType.NVLINK, 2, phys, Latency.ZERO, "NVLink");
        b.connect(h, a, LinkType.NVLINK, 2, phys, Latency.ZERO, "NVLink");
        Topology t = b.build();
        assertEquals(4, t.graph().edgeSet().size());
        List<Link> forward = List.copyOf(t.graph().getAllEdges(h, a));
        assertEquals(List.of("g0>g1#0", "g0>g1#1"), forward.stream().map(Link::id).sorted().toList());
        assertEquals(41.2, forward.get(0).ncclBandwidth().gbps(), EPS);
        assertEquals(40.0, t.graph().getAllEdges(a, h).iterator().next().ncclBandwidth().gbps(), EPS);
    }

    /** Negative size hints are refused. */
    @Test
    void negativeHintRefused() {
        assertThrows(IllegalArgumentException.class, () -> Topology.builder("t", -1, 0));
        assertThrows(IllegalArgumentException.class, () -> Topology.builder("t", 0, -1));
    }

    private static Link only(Topology t, String from, String to) {
        var edges = t.graph().getAllEdges(t.device(from).orElseThrow(), t.device(to).orElseThrow());
        assertEquals(1, edges.size(), from + " -> " + to);
        return edges.iterator().next();
    }
}
