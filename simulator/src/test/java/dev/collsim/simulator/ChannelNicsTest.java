package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.network.ChannelNets;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.HostCrossings;
import dev.collsim.simulator.schedule.Step;
import dev.collsim.simulator.schedule.TreeSchedule;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.simulator.schedule.Transfer;
import dev.collsim.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NCCL's ring channels spread over a host's NICs ({@link ChannelNics}): NCCL 2.30 {@code src/graph/search.cc
 * ncclTopoSearchRecNet} starts channel c at NIC {@code nets[c mod netCount]} and enters the host at a GPU local to
 * it; every rank of the channel uses the graph's NIC ({@code ncclTopoGetNetDev}, {@code graph->inter[]}).
 *
 * <p>Fixture ({@link TestClusters}): 8 GPUs on 4 PCIe switches (GPUs 2k, 2k+1 on switch k; switches 0, 1 under CPU 0,
 * 2, 3 under CPU 1), NIC i on switch {@code i x 4 / NICs}: with 2 NICs, NIC 0 shares a switch with GPUs 0, 1 (PIX)
 * and NIC 1 with GPUs 4, 5; GPUs 2, 3 reach NIC 0 and GPUs 6, 7 NIC 1 only through their CPU (PHB), so they are not
 * local to a NIC (NCCL's {@code ncclTopoGetLocal} keeps the best path type).
 */
class ChannelNicsTest {

    private static Topology pcie(int nics, int hosts) {
        TestClusters.Shape s = TestClusters.PCIE_L40S;
        return TestClusters.cluster(new TestClusters.Shape(s.model(), s.sm(), 0, 0, s.pcieGen(), nics, s.nicGbits(),
                false), hosts);
    }

    /** The fixture's NVSwitch host (DGX H100 shape: every GPU pair over NVLink) with fewer NICs, same PCIe layout. */
    private static Topology nvswitch(int nics, int hosts) {
        TestClusters.Shape s = TestClusters.DGX_H100;
        return TestClusters.cluster(new TestClusters.Shape(s.model(), s.sm(), s.nvlinksPerGpu(), s.nvSwitchChips(),
                s.pcieGen(), nics, s.nicGbits(), true), hosts);
    }

    /**
     * By hand from the fixture: 2 NICs, local GPUs {0, 1} and {4, 5}: channels enter at 0, 4, 1, 5. 4 NICs one per
     * GPU pair: {0, 1}, {2, 3}, {4, 5}, {6, 7}: 0, 2, 4, 6, 1, 3, 5, 7. DGX H100 (GPU i and NIC i on one PCIe switch,
     * DGX H100 User Guide): every GPU its own NIC, the plain rotation (empty); with rails 0..3 only, GPUs 4..7 reach
     * NICs 0..3 over NVLink (PXN, not local): 0, 1, 2, 3.
     */
    @Test
    void channelsEnterAtTheLocalGpusOfEachNicInTurn() {
        Topology two = pcie(2, 2);
        assertEquals(List.of(0, 4, 1, 5), ChannelNics.entries(two, two.gpus()));
        Topology four = pcie(4, 2);
        assertEquals(List.of(0, 2, 4, 6, 1, 3, 5, 7), ChannelNics.entries(four, four.gpus()));
        Topology dgx = TestClusters.dgxH100(2, null);
        assertEquals(List.of(), ChannelNics.entries(dgx, dgx.gpus()));
        Topology dgx4 = TestClusters.dgxH100(2, 4);
        assertEquals(List.of(0, 1, 2, 3), ChannelNics.entries(dgx4, dgx4.gpus()));
    }

    /**
     * NCCL's NVLS heads, by hand from NCCL 2.30.7 {@code src/graph/search.cc ncclTopoSearchRecNet} (one NVLS channel
     * per NIC, headed by the NIC's {@code localGpu}, skipping a GPU that already heads one) and {@code
     * src/graph/topo.cc ncclTopoGetLocalGpu} (of the GPUs local to the NIC, the first whose channel-0 NIC it is):
     * 2 NICs, local GPUs {0, 1} and {4, 5}, one NIC each: heads 0 and 4; 4 NICs one per GPU pair: 0, 2, 4, 6. DGX
     * H100 (a NIC per GPU): every GPU heads, so empty (every local rank); rails 0..3 only: GPUs 0..3. One host: NCCL
     * makes every GPU a head there ({@code system->inter == 0}), so empty.
     */
    @Test
    void nvlsHeadsAreTheLocalGpuOfEachNic() {
        Topology two = pcie(2, 2);
        assertEquals(List.of(0, 4), ChannelNics.heads(two, two.gpus(), NcclSettings.DEFAULTS));
        Topology four = pcie(4, 2);
        assertEquals(List.of(0, 2, 4, 6), ChannelNics.heads(four, four.gpus(), NcclSettings.DEFAULTS));
        Topology dgx = TestClusters.dgxH100(2, null);
        assertEquals(List.of(), ChannelNics.heads(dgx, dgx.gpus(), NcclSettings.DEFAULTS));
        Topology dgx4 = TestClusters.dgxH100(2, 4);
        assertEquals(List.of(0, 1, 2, 3), ChannelNics.heads(dgx4, dgx4.gpus(), NcclSettings.DEFAULTS));
        Topology one = pcie(2, 1);
        assertEquals(List.of(), ChannelNics.heads(one, one.gpus(), NcclSettings.DEFAULTS));
        // NCCL's graph (crossNic 2 pairs, NCCL 2.30.7 ncclTopoSearchCheckNet): channel 0 enters by NIC 0 at its
        // local GPU 0 and walks 0..7, leaving by GPU 7's NIC 1; channel 1 must enter by NIC 1 (at GPU 4) and leave
        // by NIC 0 (from GPU 3); later channels copy these two (ncclTopoGetNetDev: channelId % nChannels)
        assertEquals(new ChannelNics.Layout(0, List.of(0, 4), List.of(), List.of(0, 4),
                new ChannelNets(List.of(0, 1), List.of(1, 0), 8, true)),
                ChannelNics.of(two, two.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT, 0));
        assertEquals(ChannelNics.Layout.ofNicRanks(2), ChannelNics.of(two, two.gpus(), NcclSettings.DEFAULTS,
                NcclVersion.DEFAULT, 2));
    }

    /**
     * NCCL's ring search closes a channel through its entry NIC from a GPU local to it (NCCL 2.30.7 {@code
     * src/graph/search.cc}, first pass with {@code crossNic} 0); collsim's copy of that search, {@code
     * channel.ChannelFill}, gives the 2-NIC NVSwitch fixture's rings as 0, 7, 6, ..., 1 and 4, 3, ..., 5. By hand:
     * entering at 0 (NIC 0's local GPUs 0, 1) the forward chain would leave from 7, not local to NIC 0, the backward
     * one from 1: backwards; entering at 1 the forward chain leaves from 0: forwards. 4 NICs on GPU pairs: entries
     * 0, 2, 4, 6 backwards (leaving from 1, 3, 5, 7), 1, 3, 5, 7 forwards. DGX H100 (a NIC per GPU): no chain can
     * leave by its entry NIC's own GPU, all forwards (empty). The PCIe fixture (no NVLink): NCCL orders chains by
     * PCIe distance and collsim's search keeps 0, 1, ..., 7 leaving by the other NIC, so all forwards (empty).
     */
    @Test
    void chainsLeaveFromAGpuOfTheirEntryNic() {
        Topology two = nvswitch(2, 2);
        assertEquals(List.of(true, true, false, false), ChannelNics.reversed(two, two.gpus()));
        Topology four = nvswitch(4, 2);
        assertEquals(List.of(true, true, true, true, false, false, false, false),
                ChannelNics.reversed(four, four.gpus()));
        Topology pcie = pcie(2, 2);
        assertEquals(List.of(), ChannelNics.reversed(pcie, pcie.gpus()));
        Topology dgx = TestClusters.dgxH100(2, null);
        assertEquals(List.of(), ChannelNics.reversed(dgx, dgx.gpus()));
        Schedule s = new RingSchedule().schedule(new ScheduleRequest(Collective.ALL_GATHER, 1L << 20, 16, 4, 8, 0,
                List.of(), List.of(0, 4, 1, 5), List.of(true, true, false, false), List.of()));
        int[][] expected = {{1, 8}, {5, 12}, {0, 9}, {4, 13}};
        List<Transfer> t = s.steps().get(0).transfers();
        HostCrossings.assertCrossings(t, expected);
    }

    /**
     * NCCL's tree channels enter and leave a node by one GPU and NIC ({@code src/graph/search.cc
     * ncclTopoSearchRecNet}: channel c starts at the next NIC, at its local GPU; "Trees are symmetric"), the two trees
     * of a channel pair through the same one. Tree AllReduce on 2 hosts of 8 with entries 0, 4, 1, 5 and 8 channels
     * (pairs 0-3): pair i's traffic crosses between the hosts only from and to local rank entries[i], so the ranks of
     * host 0 that send to host 1 are exactly 0, 4, 1, 5, each in both trees of its pair (channels 2i and 2i + 1).
     */
    @Test
    void treePairsCrossHostsFromTheirEntryRank() {
        Schedule s = new TreeSchedule(NcclVersion.DEFAULT, Protocol.SIMPLE).schedule(new ScheduleRequest(
                Collective.ALL_REDUCE, 8L << 20, 16, 8, 8, 0, List.of(), List.of(0, 4, 1, 5)));
        int[] entry = {0, 4, 1, 5};
        boolean[] seen = new boolean[8];
        for (Step st : s.steps()) {
            for (Transfer t : st.transfers()) {
                boolean cross = t.src() < 8 != t.dst() < 8;
                if (cross) {
                    int local = t.src() < 8 ? t.src() : t.dst();
                    assertEquals(entry[t.channel() / 2], local, "channel " + t.channel());
                    seen[t.channel()] = true;
                }
            }
        }
        for (int c = 0; c < 8; c++) {
            assertTrue(seen[c], "channel " + c + " crosses hosts");
        }
    }

    /**
     * The ring schedule with entries 0, 4, 1, 5 over 2 hosts of 8: channel c's host-to-host hop of host 0 goes from
     * local rank {@code entry - 1 mod 8} to rank {@code 8 + entry}: 7 to 8, 3 to 12, 0 to 9, 4 to 13.
     */
    @Test
    void ringChannelsCrossHostsIntoTheirEntryRank() {
        Schedule s = new RingSchedule().schedule(new ScheduleRequest(Collective.ALL_GATHER, 1L << 20, 16, 4, 8, 0,
                List.of(), List.of(0, 4, 1, 5)));
        List<Transfer> t = s.steps().get(0).transfers();
        int[][] expected = {{7, 8}, {3, 12}, {0, 9}, {4, 13}};
        HostCrossings.assertCrossings(t, expected);
    }

    /**
     * Ring AllReduce of S = 1 GiB over 2 hosts of the 2-NIC fixture (n = 16 ranks, 4 channels, 100 Gb/s = 12.5 GB/s
     * per NIC). Each channel's hop between the hosts carries S/(16 x 4) per step for 2(n-1) = 30 steps; channels 0, 2
     * use NIC 0 and 1, 3 NIC 1, so each NIC sends 2 x 30 x S/64 = 0.9375 x 2^30 B: 80,530.6 us at 12.5e9 B/s, busbw
     * 25 GB/s (both NICs). The flow backend must land within 1 % above; with every channel on NIC 0 (the rotation
     * over local ranks 0..3, all local to NIC 0) it took twice that.
     */
    @Test
    void ringOnTwoNicsSendsHalfOfTheBytesThroughEach() {
        Topology t = pcie(2, 2);
        Prediction p = StubChoice.flow(Algorithm.RING, 4, 25).predict(StubChoice.allReduce1GiB(t, t.gpus()));
        double floorUs = 2.0 * 30 * (1L << 30) / 64 / 12.5e3;
        assertTrue(p.timeUs() >= floorUs * (1 - 1e-9) && p.timeUs() <= 1.01 * floorUs,
                p.timeUs() + " us, NIC floor " + floorUs + " us; " + p.bottleneck());
    }
}
