package dev.collsim.simulator.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import org.junit.jupiter.api.Test;

/**
 * Hosts with fewer NICs than ranks ({@link ScheduleRequest#nicRanks} N &gt; 0, local ranks 0 .. N-1 with a NIC of
 * their own, e.g. a DGX H100 with 4 of its 8 rails cabled): only those ranks cross hosts, as NCCL's graph search
 * makes rings and trees enter and leave a node through a GPU next to the channel's NIC, and NVLS has one head per
 * NIC (NCCL 2.30.7 {@code src/graph/search.cc}, {@code src/transport/nvls.cc}). Expected values by hand.
 */
class FewerNicsThanRanksTest {

    private static final double MIB = 1 << 20;

    /**
     * NVLSTree, 4 hosts of 4 ranks, 2 heads (nicRanks 2), 2 channels, S = 4 MiB, loops of 2 heads x 64 KiB per
     * channel: per head and channel S / (2 channels x 2 heads) = 1 MiB, moved once up and once down every edge of
     * NCCL's double binary tree over 4 nodes (tree 0: 0 &lt;- 2 &lt;- {1, 3}; tree 1: 3 &lt;- 1 &lt;- {0, 2}, the
     * shapes {@code NvlsTreeBetweenHostsTest} derives from {@code ncclGetBtree}). Bytes one head of each host sends
     * between hosts, channel 0 on tree 0 plus channel 1 on tree 1: host 0: 1 (down to 2) + 1 (up to 1) = 2 MiB;
     * host 1: 1 (up to 2) + 3 (up to 3, down to 0 and 2) = 4; host 2: 3 + 1 = 4; host 3: 1 + 1 = 2. Local ranks 2
     * and 3 send nothing between hosts. Before, every local rank was a head with S / 4 each, and on a DGX H100 with
     * 4 NICs the flow router sent the 4 NIC-less heads through NIC 0, 2.5 x slower than the NICs allow.
     */
    @Test
    void nvlsTreeCrossesHostsOnlyThroughTheHeadsWithNics() {
        Schedule sch = new HierarchicalSchedule(2 * 65_536L, true, 0).schedule(new ScheduleRequest(
                Collective.ALL_REDUCE, 4L << 20, 16, 2, 4, 2));
        double[][] sent = sentBetweenHosts(sch, 4, 4);
        double[] expected = {2, 4, 4, 2};
        for (int g = 0; g < 4; g++) {
            for (int j = 0; j < 4; j++) {
                assertEquals(j < 2 ? expected[g] * MIB : 0, sent[g][j], 1e-6, "host " + g + " local rank " + j);
            }
        }
    }

    /**
     * Rings between hosts (CollNet's movement, {@code --schedule hierarchical}), 4 hosts of 8 ranks, 4 with a NIC,
     * S = 1 GiB, 8 channels: each head carries S / 4 and sends 2(H-1)/H of it, 2 x 3/4 x 256 MiB = 384 MiB; the
     * host sends 4 x 384 MiB = 1.5 GiB = 2 (H-1)/H x S, the least any AllReduce moves out of a node.
     */
    @Test
    void ringsBetweenHostsRunOnTheRanksWithNics() {
        Schedule sch = new HierarchicalSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, 1L << 30, 32,
                8, 8, 4));
        double[][] sent = sentBetweenHosts(sch, 4, 8);
        for (int g = 0; g < 4; g++) {
            for (int j = 0; j < 8; j++) {
                assertEquals(j < 4 ? 384 * MIB : 0, sent[g][j], 1e-3, "host " + g + " local rank " + j);
            }
        }
    }

    /**
     * Tree AllReduce on 2 hosts of 8 ranks, 4 with a NIC, 16 channels (8 pairs of trees): pair i enters and leaves
     * each host through local rank i mod 4, so every transfer between hosts starts and ends at a rank below 4, and
     * each of those ranks carries 2 of the 8 pairs.
     */
    @Test
    void treeChannelsEnterHostsThroughTheRanksWithNics() {
        Schedule sch = new TreeSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, 64L << 20, 16, 16, 8,
                4));
        double[][] sent = sentBetweenHosts(sch, 2, 8);
        for (Step st : sch.steps()) {
            for (Transfer t : st.transfers()) {
                if (t.src() / 8 != t.dst() / 8) {
                    assertTrue(t.src() % 8 < 4 && t.dst() % 8 < 4, "channel " + t.channel() + ": " + t);
                }
            }
        }
        for (int g = 0; g < 2; g++) {
            for (int j = 1; j < 4; j++) {
                assertEquals(sent[g][0], sent[g][j], 1e-6 * sent[g][0], "host " + g + " rank " + j);
            }
        }
    }

    /** @return bytes each local rank of each host sends to other hosts over the whole schedule */
    private static double[][] sentBetweenHosts(Schedule sch, int hosts, int l) {
        double[][] sent = new double[hosts][l];
        for (Step st : sch.steps()) {
            for (Transfer t : st.transfers()) {
                if (t.src() / l != t.dst() / l) {
                    sent[t.src() / l][t.src() % l] += st.repeat() * t.bytes();
                }
            }
        }
        return sent;
    }
}
