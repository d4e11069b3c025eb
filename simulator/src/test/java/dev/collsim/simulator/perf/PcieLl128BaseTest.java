package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.SimulatorFixtures;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.PcieEightGpu;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * LL128's base on one host's PCIe paths ({@link PcieLl128Base}). Expected values are worked by hand from NCCL
 * 2.30.7 {@code src/graph/tuning.cc} (baseLat[Tree][LL128] 14.0, hwLat[PCI][Tree][LL128] 1.9,
 * hwLat[NVLINK][Ring][LL128] 1.9 us, Tree latency baseLat + 2 (nRanks - 1) x hwLat on one node), collsim's launch
 * overhead (1.5 us, {@link PerformanceParameters}) and the measured FarmShare L40S points named per test.
 */
class PcieLl128BaseTest {

    private static Prediction predict(Topology t, List<Integer> gpus, long bytes, String... env) {
        return SimulatorFixtures.predict(t, gpus, Collective.ALL_REDUCE, bytes, SimulatorFixtures.env(env));
    }

    /**
     * 2 L40S on two CPU nodes (GPUs 0 and 4 of the catalog host: SHM), NCCL_PROTO=LL128, 8 B: NCCL picks Tree
     * (14.0 + 2 x 1.9 = 17.8 us against the Ring's 14.0 + 2 x 2.5 = 19.0) and keeps its own estimate, 17.8 us;
     * collsim's time is launch 1.5 + base 9.5 + 2 x 1.9 = 14.8 us. Measured (nccl-tests -g 2, so plus the first
     * call's launch skew 2 x 4.4 / 20 = 0.44 us): 15.16-15.73 us from 8 B to 1 KiB, median 15.46
     * (A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt lines 198-205), against 15.24 here.
     */
    @Test
    void treeLl128OnTheL40sShmPair() {
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        Prediction p = predict(t, List.of(0, 4), 8, "NCCL_PROTO", "LL128");
        assertEquals(Algorithm.TREE, p.algorithm());
        assertEquals(Protocol.LL128, p.protocol());
        assertEquals(17.8, p.ncclEstimateUs(), 0.01);
        assertEquals(1.5 + 9.5 + 2 * 1.9, p.timeUs(), 0.01);
        assertEquals(15.46, p.timeUs() + 0.44, 0.03 * 15.46);
    }

    /**
     * 4 L40S, two on each CPU node (GPUs 0, 1, 4, 5), NCCL_PROTO=LL128, 8 B: Tree, 1.5 + 9.5 + 6 x 1.9 = 22.4 us
     * (NCCL's estimate 14.0 + 6 x 1.9 = 25.4). Measured (-g 4: skew 4 x 4.4 / 20 = 0.88 us): 22.96-24.03 us from 8 B
     * to 1 KiB, median 23.10 (A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt lines 309-316).
     */
    @Test
    void treeLl128OnFourL40s() {
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        Prediction p = predict(t, List.of(0, 1, 4, 5), 8, "NCCL_PROTO", "LL128");
        assertEquals(Algorithm.TREE, p.algorithm());
        assertEquals(25.4, p.ncclEstimateUs(), 0.01);
        assertEquals(1.5 + 9.5 + 6 * 1.9, p.timeUs(), 0.01);
        assertEquals(23.10, p.timeUs() + 0.88, 0.03 * 23.10);
    }

    /**
     * On NVLink (8x H100 behind NVSwitch, typeIntra NVL, where NCCL enables LL128 by default) NCCL's base stays:
     * NCCL_ALGO=Ring NCCL_PROTO=LL128 at 8 B costs NCCL's 14.0 + 14 steps x hwLat[NVLINK][Ring][LL128] 1.9 = 40.6 us;
     * collsim's time keeps the base 14.0 with the launch (1.5 us) and Hopper's measured 1.0 us NVLink LL128 step
     * ({@link NvlinkLl128Hop}): 1.5 + 14.0 + 14 x 1.0 = 29.5 us (not PCIe's 9.5 base: 1.5 + 9.5 + 14 = 25.0).
     */
    @Test
    void nvlinkKeepsNcclsBase() {
        Topology t = Catalog.standalone(Catalog.hostType("p5.48xlarge").orElseThrow(), 1);
        Prediction p = predict(t, List.of(0, 1, 2, 3, 4, 5, 6, 7), 8, "NCCL_PROTO", "LL128", "NCCL_ALGO", "Ring");
        assertEquals(40.6, p.ncclEstimateUs(), 0.05);
        assertEquals(29.5, p.timeUs(), 0.01, p.toString());
    }
}
