package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.simulator.schedule.HierarchicalSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.simulator.schedule.Step;
import dev.collsim.simulator.schedule.Transfer;
import dev.collsim.topology.Topology;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hierarchical schedule (NCCL's NVLS, NVLSTree, CollNet) crosses hosts only from NCCL's NVLS heads, one GPU per
 * NIC ({@link ChannelNics#heads}; NCCL 2.30.7 {@code src/graph/search.cc ncclTopoSearchRecNet}, {@code
 * src/transport/nvls.cc} {@code nHeads}), not from every GPU, on hosts with fewer NICs than GPUs.
 *
 * <p>Fixture ({@link TestClusters}): DGX-style hosts, 8 H100 on NVSwitch chips, 4 PCIe Gen5 switches of 63 GB/s
 * links (GPUs 2k, 2k+1 on switch k), 2 NICs: NIC 0 on switch 0 (local GPUs 0, 1), NIC 1 on switch 2 (GPUs 4, 5).
 */
class NvlsHeadsFlowTest {

    private static Topology twoNics(double nicGbits, int hosts) {
        TestClusters.Shape s = TestClusters.DGX_H100;
        return TestClusters.cluster(new TestClusters.Shape(s.model(), s.sm(), s.nvlinksPerGpu(), s.nvSwitchChips(),
                s.pcieGen(), 2, nicGbits, true), hosts);
    }

    /**
     * 2 hosts x 8 ranks, heads 0 and 4, 1 channel, S = 16 MiB: NCCL_NVLS_CHUNKSIZE's 128 KiB per head gives loops of
     * 2 x 128 KiB, so k = 64 chunks; each head's ring between 2 hosts carries 2(H-1)/H = 1 chunk part of S/(2k) =
     * 128 KiB per chunk. Summed over the schedule, the bytes leaving host 0 are 64 x 128 KiB = 8 MiB from each of
     * local ranks 0 and 4 and nothing from the others (every local rank crossing would send 1 MiB each).
     */
    @Test
    void onlyTheHeadsCrossHosts() {
        Schedule s = new HierarchicalSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, 16L << 20, 16, 1,
                8, 0, List.of(), List.of(), List.of(), List.of(0, 4)));
        Map<Integer, Double> out = new HashMap<>();
        for (Step st : s.steps()) {
            for (Transfer t : st.transfers()) {
                if (t.src() < 8 && t.dst() >= 8) {
                    out.merge(t.src(), t.bytes() * st.repeat(), Double::sum);
                }
            }
        }
        assertEquals(Map.of(0, 8.0 * (1 << 20), 4, 8.0 * (1 << 20)), out);
    }

    /**
     * NVLS AllReduce of S = 1 GiB on 2 hosts with 2 NICs of 800 Gb/s (100 GB/s) each, 16 channels,
     * NCCL_NVLS_CHUNKSIZE's 128 KiB per head: loops of 16 x 2 x 128 KiB = 4 MiB, k = 256 chunks, k + 2 pipeline
     * steps. Head 0 sends its half of each chunk, 2(H-1)/H x 2 MiB = 2 MiB, to host 1 and receives as much; the NIC
     * reads it from the head's memory over the head's own PCIe Gen5 link, 63 GB/s (the NIC's own link is as fast;
     * its port is faster), so each of the k network steps takes 2^21 B / 63e9 B/s = 33.288 us, and the intra-host
     * stages (7/8 x 4 MiB per GPU over 450 GB/s of NVLink, 8.156 us alone, 16.31 us for a ReduceScatter and an
     * AllGather together) hide under it but in the first and last steps: 256 x 33.288 + 2 x 8.156 = 8,538.18 us,
     * within 0.1 %. Every GPU crossing hosts (the schedule before the heads were read) moved the same bytes per NIC,
     * 4 GPUs' flows sharing each NIC's link unevenly within a step: 8,587.0 us, 0.6 % above, outside the tolerance.
     */
    @Test
    void theHeadsPcieLinkCarriesItsNicsWholeShare() {
        Topology t = twoNics(800, 2);
        Prediction p = StubChoice.flow(Algorithm.NVLS, 16, 100).predict(StubChoice.allReduce1GiB(t, t.gpus()));
        double byHandUs = 256 * (1 << 21) / 63e3 + 2 * (7.0 / 8 * (4 << 20)) / 450e3;
        assertEquals(byHandUs, p.timeUs(), 1e-3 * byHandUs, p.bottleneck());
    }
}
