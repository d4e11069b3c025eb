package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.ShmLinkShare;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One rank per host staging its network traffic through host memory ({@code perf.StagedNetDuplex}): two hosts of one
 * A100 PCIe (Gen4 x16) each, its 200 Gb/s NIC on a CPU root port of its own (GPU-NIC path PHB), as the 2x1 A100 PCIe
 * file's log prints it. Expected figures by hand: with GDR off (NCCL_NET_GDR_LEVEL=LOC, and PHB is beyond NCCL's
 * default level anyway) the kernel stores and loads host memory over its Gen4 x16 link, whose NCCL figure is 24 GB/s
 * (NCCL 2.30.7 {@code src/graph/topo.h}: 16 lanes x 16 GT/s code 120 / 80), at the duplex share 0.666 measured on
 * the SHM runs ({@code ShmLinkShare.DUPLEX_SHARE}: 2x L40S 15.67 / 23.52): 0.666 x 24 = 15.98 GB/s each way; with
 * GDR forced (NCCL_NET_GDR_LEVEL=SYS) nothing is staged and the NIC's 200 Gb/s = 25 GB/s stands.
 */
class StagedNetDuplexTest {

    private final NcclPredictor predictor = new NcclPredictor();

    private static Topology twoHosts() {
        GpuModels.Sku sku = GpuModels.sku("A100-PCIE-40GB").orElseThrow();
        return Catalog.standalone(new SynthesizedHost(sku, 1, Bandwidth.ofGbits(200), 1, null, true), 2);
    }

    private double nodeNetBw(Map<String, String> env) {
        Topology t = twoHosts();
        return predictor.prepare(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, 1L << 30, DataType.FLOAT,
                RedOp.SUM, NcclSettings.parse(env))).plan().nodeNetBw();
    }

    @Test
    void gdrOffOneRankPerHostMovesTheDuplexShareOfItsLink() {
        assertEquals(0.666 * 24, nodeNetBw(Map.of("NCCL_NET_GDR_LEVEL", "LOC")), 1e-9);
        assertEquals(ShmLinkShare.DUPLEX_SHARE, 0.666, 0.0, "the share this test's figure is worked from");
    }

    /**
     * The staged share is a measured efficiency, not a link speed: the physical bound keeps what the links carry at
     * their physical speeds, the NIC's 200 Gb/s = 25 GB/s each way (the GPU's Gen4 x16 link moves 16 GT/s x 16 lanes
     * x 128/130 / 8 = 31.5 GB/s each way, PCI Express Base Specification 4.0), where the time reads 15.98 (the links
     * backend's property, LinksBackendPropertiesTest, found a links busbw above a bound lowered to the share).
     */
    @Test
    void theBoundKeepsTheLinksFigure() {
        Topology t = twoHosts();
        PreparedCommunicator c = predictor.prepare(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, 1L << 30,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_NET_GDR_LEVEL", "LOC"))));
        assertEquals(25.0, c.boundPlan().nodeNetBw(), 1e-9);
        assertEquals(0.666 * 24, c.plan().nodeNetBw(), 1e-9);
    }

    @Test
    void gdrOnKeepsTheNic() {
        assertEquals(25.0, nodeNetBw(Map.of("NCCL_NET_GDR_LEVEL", "SYS")), 1e-9);
    }
}
