package dev.collsim.simulator.bound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.TestClusters;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.perf.P2pModel;
import dev.collsim.simulator.perf.PerfEstimate;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** The physical bound on the shipped default cluster, worked by hand. */
class PhysicalBoundTest {

    /**
     * configs/default.yaml: 4 DGX H100 hosts, 8 compute NICs of 400 Gb/s (50 GB/s) cabled to the rail fabric and 4
     * storage NICs that are not cabled. Only cabled NICs carry collective traffic: N = 8 x 50 = 400 GB/s per host.
     * AllReduce over n = 32 ranks on m = 4 hosts: each host sends 2(m-1)/m S, so busBw <= N (m/(m-1)) ((n-1)/n)
     * = 400 x 4/3 x 31/32 = 516.67 GB/s. The NVLS intra limit is 450 x 2 x 31/32 = 871.9, larger, so the NIC limit
     * is the bound. (Counting the 4 uncabled storage NICs too would give 600 x 4/3 x 31/32 = 775.)
     */
    @Test
    void uncabledStorageNicsDoNotRaiseTheBound() throws Exception {
        Topology t = ClusterLoader.load("default");
        Prediction p = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE,
                1L << 30, DataType.FLOAT, RedOp.SUM, NcclSettings.DEFAULTS));
        assertEquals(400.0 * 4 / 3 * 31 / 32, p.physicalBoundBusBw(), 0.01);
    }

    /**
     * 2 DGX H100 (catalog) with only GPUs 0 and 1 of each host as ranks, as in the public dataset
     * A-allreduce-2x2xH100-dgx-ib.txt (measured 147.98 GB/s busbw at 8 GiB, "~ 2 x 400Gb NICs per node"). Each GPU
     * drives its own 400 Gb/s NIC (NCCL 2.30.7 {@code ncclTopoGetLocal}: the NIC on the GPU's PCIe switch), so
     * N = 2 x 50 = 100 GB/s, not the host's 8 x 50: busBw <= N (m/(m-1)) ((n-1)/n) = 100 x 2 x 3/4 = 150 GB/s.
     * The intra limit (B (q/(q-1)) ((n-1)/n) = 450 x 2 x 3/4 = 675, or NVLS) is larger.
     */
    @Test
    void nicBoundCountsOnlyTheNicsLocalToTheRanks() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x2");
        List<Gpu> ranks = List.of(t.gpusOf(0).get(0), t.gpusOf(0).get(1), t.gpusOf(1).get(0), t.gpusOf(1).get(1));
        Prediction p = new NcclPredictor().predict(new PredictionRequest(t, ranks, Collective.ALL_REDUCE,
                8L << 30, DataType.FLOAT, RedOp.SUM, NcclSettings.DEFAULTS));
        assertEquals(150.0, p.physicalBoundBusBw(), 1e-9);
        assertTrue(p.busBw() <= 150.0, "busbw " + p.busBw());
        ChannelPlan all = ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        assertEquals(400.0, all.nodeNicBw(), 1e-9, "all 8 GPUs drive all 8 compute NICs");
    }

    /**
     * SendRecv between GPU 0 of host 0 and GPU 0 of host 1 of the default cluster: the rank's traffic leaves
     * through one 400 Gb/s NIC (50 GB/s), so 64 MiB takes at least 67108864 B / 50e9 B/s = 1342 us and busbw
     * (factor 1) can't exceed 50 GB/s; it must be a finite, positive time (it was NaN with no intra-host peer).
     */
    @Test
    void sendRecvAcrossHostsWithOneRankPerHostIsLimitedByOneNic() throws Exception {
        Topology t = ClusterLoader.load("default");
        List<Gpu> ranks = List.of(t.gpusOf(0).get(0), t.gpusOf(1).get(0));
        Prediction p = new NcclPredictor().predict(new PredictionRequest(t, ranks, Collective.SEND_RECV,
                64L << 20, DataType.FLOAT, RedOp.SUM, NcclSettings.DEFAULTS));
        Assertions.assertTrue(p.timeUs() >= 67108864 / 50e3, "time " + p.timeUs());
        Assertions.assertTrue(p.busBw() > 0 && p.busBw() <= 50.0, "busbw " + p.busBw());
    }

    private static ChannelPlan plan(Topology t, Collective c) {
        return ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
    }

    /**
     * 2 hosts x 8 H100 with 3 NVLinks of 25 GB/s per GPU (B = 75 GB/s) and 8 NICs of 50 GB/s (N = 400 GB/s); n = 16,
     * q = 8. A Scatter root sends S/16 to each of its 7 node peers, 7/16 S over B, so algBw &le; 75 x 16/7 and
     * busBw (factor 15/16) &le; 75 x 15/7 = 160.71 GB/s; the 8/16 S for the other host crosses the NICs:
     * busBw &le; 400 x 15/8 = 750. AllToAll: the same 160.71 inside, 400 x 15/(8 x 8) = 93.75 across, so 93.75.
     * On one host (q = n = 8) all 7/8 S goes over B: busBw &le; B = 75. (The bound used to be B for every node
     * count, below the busbw a multi-host Scatter reaches when its NIC traffic does not touch B.)
     */
    @Test
    void scatterAndAllToAllCountOnlyNodePeerBytesAgainstTheGpuLinks() {
        TestClusters.Shape thin = new TestClusters.Shape("H100-SXM5-80GB", 90, 3, 4, 5, 8, 400, true);
        Topology two = TestClusters.cluster(thin, 2);
        assertEquals(75.0 * 15 / 7, PhysicalBound.busBw(plan(two, Collective.SCATTER), Collective.SCATTER), 1e-9);
        assertEquals(75.0 * 15 / 7, PhysicalBound.busBw(plan(two, Collective.GATHER), Collective.GATHER), 1e-9);
        assertEquals(93.75, PhysicalBound.busBw(plan(two, Collective.ALL_TO_ALL), Collective.ALL_TO_ALL), 1e-9);
        Topology one = TestClusters.cluster(thin, 1);
        assertEquals(75.0, PhysicalBound.busBw(plan(one, Collective.SCATTER), Collective.SCATTER), 1e-9);
        assertEquals(75.0, PhysicalBound.busBw(plan(one, Collective.ALL_TO_ALL), Collective.ALL_TO_ALL), 1e-9);
    }

    /**
     * SendRecv as nccl-tests 2.19.6 runs it ({@code src/sendrecv.cu}: rank r sends S to r + 1) on 2 hosts x 8 H100
     * with one NVLink per GPU: ranks 0-6 and 8-14 send to a peer on their own host over NCCL's 20.6 GB/s NVLink
     * (sm90, fact sheet §5.2), ranks 7 and 15 send across hosts at 400/8 = 50 GB/s, and each rank's 2 p2p channels
     * carry at most 2 x 20.7 = 41.4 GB/s (Simple cap on Hopper). The intra-host sends are the slowest:
     * algBw = 20.6 x 0.98 (Simple efficiency) = 20.188 GB/s, below the physical bound B = 25 GB/s (it was 41.4 when
     * every byte was assumed to cross the hosts).
     */
    @Test
    void multiHostSendRecvIsLimitedByTheIntraHostSends() {
        Topology t = TestClusters.cluster(new TestClusters.Shape("H100-SXM5-80GB", 90, 1, 4, 5, 8, 400, true), 2);
        ChannelPlan plan = plan(t, Collective.SEND_RECV);
        assertEquals(20.6, plan.gpuPathBw(), 1e-9);
        assertEquals(2, plan.p2pChannels());
        PerfEstimate e = P2pModel.estimate(plan, PerformanceParameters.DEFAULTS, Collective.SEND_RECV, 1L << 26,
                plan.graphs().ring().typeIntra());
        assertEquals(20.6 * 0.98, e.algBw(), 1e-9);
        assertTrue(e.algBw() <= PhysicalBound.busBw(plan, Collective.SEND_RECV), e.toString());
        assertEquals(25.0, PhysicalBound.busBw(plan, Collective.SEND_RECV), 1e-9);
    }

    /**
     * Nodes of different rank counts, figures by hand. AllToAll, n = 5 ranks as 3 + 2 on m = 2 nodes of N = 50 GB/s:
     * a node of g ranks sends g (n-g)/n S = 6/5 S either way, busBw <= N (n-1) / (g (n-g)) = 50 x 4/6 = 33.33 GB/s
     * (the mean g = 2.5 would give 50 x 4/6.25 = 32). n = 6 as 5 + 1: the node of 5 sends 5/6 S and the node of 1
     * 5/6 S too: 50 x 5/5 = 50. Gather at a root on the node of 3: (n-3)/n S = 2/5 S crosses its NICs, so busBw <= 50
     * x 4/2 = 100. Equal nodes (16 = 8 + 8, N = 400): 400 x 15/64 = 93.75, the even formula.
     */
    @Test
    void unevenNodesUseTheirRankCounts() {
        assertEquals(100.0 / 3, PhysicalBound.interBusBw(Collective.ALL_TO_ALL, 5, 2, 50, 2, 3), 1e-9);
        assertEquals(50.0, PhysicalBound.interBusBw(Collective.ALL_TO_ALL, 6, 2, 50, 1, 5), 1e-9);
        assertEquals(100.0, PhysicalBound.interBusBw(Collective.GATHER, 5, 2, 50, 2, 3), 1e-9);
        assertEquals(93.75, PhysicalBound.interBusBw(Collective.ALL_TO_ALL, 16, 2, 400, 8, 8), 1e-9);
        assertEquals(93.75, PhysicalBound.interBusBw(Collective.ALL_TO_ALL, 16, 2, 400), 1e-9);
    }

    /**
     * SendRecv across hosts of uneven rank counts, by hand. Two 8-GPU hosts, 2 GPUs and two 400 Gb/s NICs (50 GB/s,
     * NCCL's speed / 8) per PCIe switch; ranks 0-2 on host 0 (GPUs 0-2) and 3-4 on host 1 (GPUs 0-1). nccl-tests
     * 2.19.6 {@code src/sendrecv.cu}: rank r sends S to r+1, so rank 2 (host 0 to host 1) and rank 4 (host 1 back to
     * host 0) are the only sends between the hosts, each through its GPU's ceil(2 NICs / 2 GPUs) = 1 NIC (NCCL 2.30.7
     * {@code ncclTopoGetLocalNetType}): busBw (factor 1) <= 50 GB/s. The weakest host is host 1 (its 2 ranks' NICs,
     * N = 100); the mean 2.5 ranks per host made the bound 100 / 2.5 = 40 GB/s, below what one NIC carries.
     * 5 + 1 ranks: host 1's one rank has the 2 NICs of its switch local (N = 100, 1 rank): 100 >= NCCL's 50, where
     * 100 / 3 = 33.3 came before. By figures: 4 ranks behind one 50 GB/s NIC: 50 (a lone sender has the whole NIC);
     * 3 NICs of 50 GB/s for 2 ranks: ceil(3/2) = 2 NICs, 100.
     */
    @Test
    void sendRecvAcrossUnevenHostsIsOneRanksNics() {
        Topology t = TestClusters.cluster(new TestClusters.Shape("H100-SXM5-80GB", 90, 18, 4, 5, 8, 400, true), 2);
        List<Gpu> ranks = List.of(t.gpusOf(0).get(0), t.gpusOf(0).get(1), t.gpusOf(0).get(2), t.gpusOf(1).get(0),
                t.gpusOf(1).get(1));
        ChannelPlan plan = ChannelSearch.search(t, ranks, NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        assertEquals(List.of(2, 3, 2, 100.0), List.of(plan.minLocalRanks(), plan.maxLocalRanks(), plan.nicsPerNode(),
                plan.nodeNicBw()));
        assertEquals(50.0, PhysicalBound.interBusBw(plan, Collective.SEND_RECV), 1e-9);
        List<Gpu> fivePlusOne = List.of(t.gpusOf(0).get(0), t.gpusOf(0).get(1), t.gpusOf(0).get(2),
                t.gpusOf(0).get(3), t.gpusOf(0).get(4), t.gpusOf(1).get(0));
        ChannelPlan p51 = ChannelSearch.search(t, fivePlusOne, NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        assertEquals(100.0, PhysicalBound.interBusBw(p51, Collective.SEND_RECV), 1e-9);
        assertEquals(50.0, PhysicalBound.sendRecvInterBusBw(50, 4, 1), 1e-9);
        assertEquals(100.0, PhysicalBound.sendRecvInterBusBw(150, 2, 3), 1e-9);
        assertEquals(50.0, PhysicalBound.interBusBw(Collective.SEND_RECV, 5, 2, 100, 2, 3), 1e-9);
    }
}
