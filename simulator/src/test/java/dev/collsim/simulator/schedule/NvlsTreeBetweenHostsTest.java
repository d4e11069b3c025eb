package dev.collsim.simulator.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NCCL's NVLSTree between hosts in the hierarchical schedule: every head (local rank) of a host exchanges with the
 * same head of its parent and children in NCCL's double binary tree, channel c on tree c % 2 (NCCL 2.28.9
 * {@code src/graph/connect.cc connectNvls}, {@code src/graph/trees.cc ncclGetDtree}), reduce up then broadcast down
 * ({@code src/device/all_reduce.h}). Expected values by hand from the trees' shape.
 *
 * <p>4 hosts: {@code ncclGetBtree} gives node 1 (lowest bit 1) the parent (1 ^ 1) | 2 = 2, node 3 the parent
 * (3 ^ 1) | 2 = 2, node 2 (lowest bit 2) (2 ^ 2) | 4 = 4, out of range, so 2 ^ 2 = 0: tree 0 is 0 &lt;- 2 &lt;- {1, 3}.
 * The second tree mirrors it (r -&gt; 3 - r, 4 is even): 3 &lt;- 1 &lt;- {0, 2}. Depth 2 in both.
 */
class NvlsTreeBetweenHostsTest {

    /** 4 MiB: with 2 channels and loops of 2 heads x 64 KiB per channel, 16 chunks of 64 KiB per head. */
    private static final long S = 4L << 20;
    private static final int L = 2;
    private static final int CH = 2;

    private static Schedule fourHostsOfTwo() {
        return new HierarchicalSchedule(L * 65_536L, true, 3.2).schedule(new ScheduleRequest(Collective.ALL_REDUCE,
                S, 4 * L, CH, L));
    }

    /**
     * Per head and channel the call moves S / (2 channels x 2 heads) = 1 MiB, and every tree edge carries it once up
     * and once down. Bytes a head sends between hosts, channel 0 on tree 0 plus channel 1 on tree 1:
     * host 0: 1 (down to 2, root of tree 0) + 1 (up to 1, leaf of tree 1) = 2 MiB; host 1: 1 (up to 2) + 3 (up to
     * 3, down to 0 and 2) = 4 MiB; host 2: 3 (up to 0, down to 1 and 3) + 1 (up to 1) = 4 MiB; host 3: 1 + 1
     * (down to 1, root of tree 1) = 2 MiB. The busiest NIC carries 2 S / L = 4 MiB, 4/3 of the 2 x 3/4 x S / L =
     * 3 MiB a ring per rail over 4 hosts would send. Received, the same by symmetry of up and down: host 2 gets
     * 2 (from 1 and 3) + 1 (from 0) on tree 0 and 1 (from 1) on tree 1.
     */
    @Test
    void busiestNicCarriesWhatNcclsTreePutsOnIt() {
        Schedule sch = fourHostsOfTwo();
        double mib = 1 << 20;
        double[] sent = new double[4];
        double[] received = new double[4];
        for (Step st : sch.steps()) {
            for (Transfer t : st.transfers()) {
                if (t.src() / L != t.dst() / L) {
                    assertEquals(t.src() % L, t.dst() % L, "heads talk to the same head of another host (rail)");
                    if (t.src() % L == 0) {
                        sent[t.src() / L] += st.repeat() * t.bytes();
                        received[t.dst() / L] += st.repeat() * t.bytes();
                    }
                }
            }
        }
        assertEquals(2 * mib, sent[0], 1e-6);
        assertEquals(4 * mib, sent[1], 1e-6);
        assertEquals(4 * mib, sent[2], 1e-6);
        assertEquals(2 * mib, sent[3], 1e-6);
        assertEquals(2 * mib, received[0], 1e-6);
        assertEquals(4 * mib, received[1], 1e-6);
        assertEquals(4 * mib, received[2], 1e-6);
        assertEquals(2 * mib, received[3], 1e-6);
    }

    /**
     * 16 chunks through 1 + 2 x 2 + 1 = 6 stages (ReduceScatter, 2 hops up, 2 down, AllGather): 16 + 5 = 21
     * steps, every one paying the loop's 3.2 us; the stage sets change at steps 1-5 (stages entering) and 16-20
     * (leaving), so 11 distinct steps, the middle one (steps 5-15, every stage busy) repeated 11 times. In it each
     * head of host 2 sends 64 KiB up to host 0 and 2 x 64 KiB down on channel 0 and 64 KiB up on channel 1.
     */
    @Test
    void chunksPassTheTreeInStages() {
        Schedule sch = fourHostsOfTwo();
        assertEquals(21, sch.stepCount());
        assertEquals(11, sch.steps().size());
        assertTrue(sch.steps().stream().allMatch(s -> s.latencyUs() == 3.2));
        Step full = sch.steps().get(5);
        assertEquals(11, full.repeat());
        assertEquals("pipeline intra-host ReduceScatter + inter-host tree reduce + inter-host tree broadcast"
                + " + intra-host AllGather", full.label());
        double fromHost2 = full.transfers().stream().filter(t -> t.src() == 2 * L && t.dst() / L != 2)
                .mapToDouble(Transfer::bytes).sum();
        assertEquals(4 * 65_536.0, fromHost2, 1e-6);
        assertEquals("pipeline intra-host ReduceScatter", sch.steps().get(0).label());
        assertEquals("pipeline intra-host AllGather", sch.steps().get(10).label());
    }

    /**
     * 2 hosts: tree 0 is 0 &lt;- 1, tree 1 its mirror 1 &lt;- 0, so each head sends S / (2 L) up on one channel and
     * the same down on the other: S / L in all, what the ring over 2 hosts sends (2 x 1/2 x S / L). 16 chunks
     * through 1 + 2 x 1 + 1 = 4 stages: 19 steps.
     */
    @Test
    void twoHostsSendWhatTheRingSends() {
        Schedule sch = new HierarchicalSchedule(L * 65_536L, true, 0).schedule(new ScheduleRequest(
                Collective.ALL_REDUCE, S, 2 * L, CH, L));
        double inter = 0;
        for (Step st : sch.steps()) {
            for (Transfer t : st.transfers()) {
                if (t.src() == 0 && t.dst() / L == 1) {
                    inter += st.repeat() * t.bytes();
                }
            }
        }
        assertEquals((double) S / L, inter, 1e-6);
        assertEquals(16 + 3, sch.stepCount());
    }

    /** The rings of {@code --schedule hierarchical} are unchanged: a loop of L x 128 KiB per channel, no step cost. */
    @Test
    void defaultKeepsRingsAndNcclsDefaultChunk() {
        HierarchicalSchedule d = new HierarchicalSchedule();
        assertEquals(d, new HierarchicalSchedule(0, false, 0));
        Schedule sch = d.schedule(new ScheduleRequest(Collective.ALL_REDUCE, S, 4 * L, CH, L));
        // 4 MiB / (2 channels x 2 x 128 KiB) = 8 chunks, 3 stages: 10 steps
        assertEquals(10, sch.stepCount());
        assertEquals(List.of(0.0), sch.steps().stream().map(Step::latencyUs).distinct().toList());
    }
}
