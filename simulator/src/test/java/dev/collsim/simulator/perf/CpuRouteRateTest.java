package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.SimulatorFixtures;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.PcieEightGpu;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.topology.io.ClusterLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A ring through the CPU is timed at its links' rate (channel.CpuPathRates), NCCL's choice and NCCL's own estimate at
 * NCCL's figures. The pair: GPU0 and GPU4 of the 8x L40S host, on two CPU nodes (SYS; NCCL's ring graph 1 x 20 GB/s,
 * below its 22 GB/s Sapphire Rapids inter-CPU figure; the links' rate 24, each GPU's Gen4 x16 link once per
 * direction). bwEfficiencySimple 0.98, bwEfficiencyPcie 1.0 (PerformanceParameters defaults).
 */
class CpuRouteRateTest {

    /** 8 GiB: latency and pipeline fill below 0.1 % of the time. */
    private static final long BIG = 8L << 30;

    private static Prediction ringSimple(Collective c, String... env) throws Exception {
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        return SimulatorFixtures.predict(t, List.of(0, 4), c, BIG,
                SimulatorFixtures.env(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"), env));
    }

    /**
     * SHM (SYS beyond NCCL's default P2P level PXB): 24 x 0.98 x 0.666 (ShmLinkShare's Gen4 duplex share) = 15.66 GB/s
     * busbw; measured on such a pair 15.67 at 128 MiB (validation/src/test/resources/data/
     * A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt line 47), where NCCL's graph gave 20 x 0.98 x
     * 0.666 = 13.05. NCCL's own estimate keeps its 20 GB/s: a 2-rank AllReduce's algBw is its busBw, 8 GiB / 20 GB/s =
     * 429,496.7 us plus its latency (tens of us).
     */
    @Test
    void shmRingRunsAtTheGpuLinksWhileNcclsEstimateKeepsItsFigure() throws Exception {
        Prediction p = ringSimple(Collective.ALL_REDUCE);
        assertEquals(Algorithm.RING, p.algorithm());
        assertEquals(Protocol.SIMPLE, p.protocol());
        assertEquals(15.66, p.busBw(), 15.66 * 0.002, p.toString());
        assertEquals(429_496.7, p.ncclEstimateUs(), 429_496.7 * 0.001, p.toString());
    }

    /**
     * NCCL_P2P_LEVEL=SYS: the same links carry P2P, no SHM share, but Gen4 P2P's measured share of NCCL's figure
     * (PcieP2pShare): 24 x 0.98 x 1.076 = 25.31 GB/s busbw (NCCL's graph: 19.6), the measured plateau of the 4x RTX
     * 4090 P2P ring (validation/src/test/resources/data/A-allreduce-1x4xRTX4090-p2p-driver-8gpu-box.txt line 53).
     * A 2-rank Broadcast over SHM is one hop of the pair's path (OneWayPair): 24 x 0.98 = 23.52, with each of its 2
     * channels' 8191 further 512 KiB steps waiting 4.728 us (ShmStepWaits): 8 GiB / (8 GiB / 23520 + 38727.0) = 21.265.
     */
    @Test
    void p2pOverTheSamePathsGetsTheSameLinkRate() throws Exception {
        assertEquals(25.31, ringSimple(Collective.ALL_REDUCE, "NCCL_P2P_LEVEL", "SYS").busBw(), 25.31 * 0.002);
        assertEquals(21.265, ringSimple(Collective.BROADCAST).busBw(), 21.265 * 0.002);
    }

    /**
     * Two nodes of the NVIDIA/nccl#2441 host (simulator test resource
     * {@code channel/issue2441-epyc9534-2xh100nvl-layout.xml}: AMD EPYC Genoa, GPU 0 on CPU node 1, the NIC on node 0,
     * GPU 1 on node 7, no NVLink): NCCL 2.30.7's ring graph is 1 x 15 GB/s (AmdSameChannelsInterTest, by hand), set by
     * NCCL's AMD inter-CPU figure 16. The links the GPU-GPU hop crosses: each GPU's PCIe Gen5 x16 link, NCCL's
     * 32 GT/s x 16 lanes / 80 x 7.5 = 48 GB/s ({@code src/graph/topo.h}), once per direction (0 -> 1 and the closing
     * 1 -> 0, the NIC hops' stand-in on the same GPU links), and the CPU-CPU links at their physical rate, which an
     * NCCL topology XML does not state, so NCCL's 16 stands for it: ring min(48, 16) = 16, scale 16 / 15 (1 before:
     * NCCL's graph figure on several nodes). The SHM share stays a one-host rule: 1 here (P2P anyway: NCCL lets 2
     * GPUs on an AMD host use P2P at SYS).
     */
    @Test
    void multiNodeRingThroughTheCpuTakesTheLinksRate() throws Exception {
        Path xml = Path.of("src/test/resources/dev/collsim/simulator/channel/issue2441-epyc9534-2xh100nvl-layout.xml");
        Topology t = ClusterLoader.load(xml + ":2");
        ChannelPlan plan = ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_30_7);
        assertEquals(2, plan.nNodes());
        assertEquals(16.0 / 15.0, CpuRouteRate.ringScale(plan, Algorithm.RING, false), 1e-9);
        assertEquals(1.0, CpuRouteRate.ringScale(plan, Algorithm.TREE, false), 1e-9);
        assertEquals(1.0, ShmLinkShare.factor(plan, NcclSettings.DEFAULTS, Collective.ALL_REDUCE, Algorithm.RING,
                Protocol.SIMPLE, false), 1e-9);
    }
}
