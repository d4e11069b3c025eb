package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The report's flow variants on hosts with fewer NICs than GPUs (a what-if's {@code nics-per-host: 4} on DGX H100):
 * the ranks that cross hosts are read from the cluster ({@link ChannelNics.ownNicRanks}), as {@code --rails} gives
 * them to {@code predict --backend flow}.
 *
 * <p>DGX H100 (NVIDIA DGX H100 User Guide; collsim's catalog, {@code topo paths -c dgx-h100}): GPU i and NIC i share
 * a PCIe switch (PXB, 48 GB/s in NCCL's view); every other NIC is reached over NVLink through its GPU (PXN, 48 GB/s).
 * With rails 0..3 kept, GPUs 0..3 each have their own NIC and GPUs 4..7 reach NICs 0..3 alike, so NCCL's local-NIC
 * rule ties and collsim's router sends them all through NIC 0.
 */
class FewerNicsFlowTest {

    /**
     * 4 NICs: GPUs 0..3 reach 4 different NICs and GPUs 4..7 none of their own, so 4; 8 NICs: every GPU its own, 0
     * (all); the test fixture whose 4 NICs sit one per PCIe switch of a GPU pair (GPUs 2k, 2k+1 on NIC k): GPU 1
     * shares GPU 0's NIC while GPU 2 has a new one, not a prefix, so 0 (rotating over every rank already spreads
     * channels evenly there).
     */
    @Test
    void ranksWithANicOfTheirOwnAreReadFromTheCluster() {
        Topology four = TestClusters.dgxH100(2, 4);
        assertEquals(4, ChannelNics.ownNicRanks(four, four.gpus()));
        Topology eight = TestClusters.dgxH100(2, null);
        assertEquals(0, ChannelNics.ownNicRanks(eight, eight.gpus()));
        TestClusters.Shape s = TestClusters.DGX_H100;
        Topology pairs = TestClusters.cluster(new TestClusters.Shape(s.model(), s.sm(), s.nvlinksPerGpu(),
                s.nvSwitchChips(), s.pcieGen(), 4, s.nicGbits(), true), 2);
        assertEquals(0, ChannelNics.ownNicRanks(pairs, pairs.gpus()));
    }

    /**
     * Ring AllReduce of S = 1 GiB over 4 DGX H100 with 4 NICs of 400 Gb/s (n = 32 ranks, 8 channels, two per NIC).
     * Every rank sends 2(n-1)/n x S over the ring and each host's part leaves by its 4 NICs of 50 GB/s: at least
     * 2 x 31/32 x 2^30 B / 200e9 B/s = 10,401.9 us, busbw at most 200 GB/s (the NICs' sum). The flow backend, with
     * links' latencies and nothing else sharing the NICs, must land within 1 % above that; before the ranks were read
     * from the cluster the NIC-less ranks all went through NIC 0 and the report printed 80 GB/s.
     */
    @Test
    void ringOnFourNicsRunsAtTheNicsSum() {
        Topology t = TestClusters.dgxH100(4, 4);
        Prediction p = StubChoice.flow(Algorithm.RING, 8, 200).predict(StubChoice.allReduce1GiB(t, t.gpus()));
        double floorUs = 2.0 * 31 / 32 * (1L << 30) / 200e3;
        assertTrue(p.timeUs() >= floorUs * (1 - 1e-9) && p.timeUs() <= 1.01 * floorUs,
                p.timeUs() + " us, NIC floor " + floorUs + " us; " + p.bottleneck());
    }

    /**
     * Data-parallel groups of one GPU per host (GPU j of every host, j = 0..7, all 8 groups at once) on 4 DGX H100
     * with 4 NICs, Ring AllReduce of S = 1 GiB each. A group's ring over n = 4 ranks makes each rank send
     * 2(n-1)/n x S = 1.5 GiB through its NIC. GPUs 4..7 have no NIC of their own and spread over NICs 0..3 as NCCL
     * spreads their channels (one each, {@code HostPaths#nearestNic}), so every NIC carries 2 groups at 25 GB/s
     * each: 1.5 x 2^30 B / 25e9 B/s = 64,424.5 us, busbw 25 GB/s, within 1 % above with the links' latencies. All
     * on NIC 0 (the first of their tied NICs, as before) made it carry 5 groups: 161 ms.
     */
    @Test
    void dataParallelGroupsShareTheFourNicsEvenly() {
        Topology t = TestClusters.dgxH100(4, 4);
        List<List<Gpu>> groups = new ArrayList<>();
        for (int j = 0; j < 8; j++) {
            List<Gpu> g = new ArrayList<>();
            for (int h = 0; h < 4; h++) {
                g.add(t.gpus().get(h * 8 + j));
                assertEquals(j, g.get(h).index());
            }
            groups.add(g);
        }
        Prediction p = StubChoice.flow(Algorithm.RING, 2, 50).predictConcurrent(
                StubChoice.allReduce1GiB(t, groups.get(0)), groups);
        double floorUs = 1.5 * (1L << 30) / 25e3;
        assertTrue(p.timeUs() >= floorUs * (1 - 1e-9) && p.timeUs() <= 1.01 * floorUs,
                p.timeUs() + " us, floor " + floorUs + " us; " + p.bottleneck());
    }
}
