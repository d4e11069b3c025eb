package dev.collsim.simulator.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bytes each algorithm moves, checked against the closed forms: a ring AllReduce sends 2(n-1)/n x S per rank and
 * an AllGather/ReduceScatter (n-1)/n x S (nccl-tests {@code doc/PERFORMANCE.md}: these are the bus bandwidth
 * factors); a tree AllReduce sends S/2 up and S/2 down per tree edge (2(n-1) S in all: each of the two trees
 * has n-1 edges, each crossed once up and once down by half the buffer); hierarchical sends
 * 2(L-1)/L S + 2(H-1)/(L H) S per rank.
 */
class ScheduleBytesTest {

    private static ScheduleRequest req(Collective c, long s, int n, int nCh, int l) {
        return new ScheduleRequest(c, s, n, nCh, l);
    }

    @ParameterizedTest
    @CsvSource({"2,1,1", "16,4,8", "7,3,1", "64,16,8"})
    void ringSendsTheBusBandwidthFactorPerRank(int n, int nCh, int l) {
        long s = 1_000_003L;
        Schedule ar = new RingSchedule().schedule(req(Collective.ALL_REDUCE, s, n, nCh, l));
        Schedule ag = new RingSchedule().schedule(req(Collective.ALL_GATHER, s, n, nCh, l));
        for (int r = 0; r < n; r++) {
            assertEquals(2.0 * (n - 1) / n * s, ar.bytesSentBy(r), 1e-6);
            assertEquals((n - 1.0) / n * s, ag.bytesSentBy(r), 1e-6);
        }
        assertEquals(2L * (n - 1), ar.stepCount());
        assertEquals(1, ar.steps().size(), "one step pattern, repeated");
    }

    @Test
    void ringChannelsAreRotatedInsideHosts() {
        Schedule s = new RingSchedule().schedule(req(Collective.ALL_GATHER, 1600, 16, 2, 8));
        Set<String> hops = new HashSet<>();
        for (Transfer t : s.steps().get(0).transfers()) {
            if (t.src() / 8 != t.dst() / 8) {
                hops.add(t.channel() + ":" + t.src() + ">" + t.dst());
            }
        }
        assertEquals(Set.of("0:7>8", "0:15>0", "1:0>9", "1:8>1"), hops);
    }

    @ParameterizedTest
    @CsvSource({"2,1", "8,1", "16,8", "48,8", "9,1"})
    void treeMovesTwiceNMinusOneBuffers(int n, int l) {
        long s = 10L << 20;
        Schedule t = new TreeSchedule().schedule(req(Collective.ALL_REDUCE, s, n, 2, l));
        assertEquals(2.0 * (n - 1) * s, t.totalBytes(), 1e-3 * s);
    }

    @Test
    void doubleBinaryTreesSpanAllNodesAndMostNodesAreALeafOnce() {
        for (int n : new int[] {2, 3, 8, 13, 64, 2048}) {
            for (int tree = 0; tree < 2; tree++) {
                int[] p = DoubleBinaryTree.parents(n, tree);
                int[] d = DoubleBinaryTree.depths(p);
                int roots = 0;
                for (int r = 0; r < n; r++) {
                    roots += p[r] < 0 ? 1 : 0;
                    assertTrue(d[r] <= 2 + 32 - Integer.numberOfLeadingZeros(n), "depth " + d[r] + " n " + n);
                }
                assertEquals(1, roots);
            }
        }
        int[] p0 = DoubleBinaryTree.parents(8, 0);
        assertEquals(-1, p0[0]);
        assertEquals(0, p0[4]);
        assertEquals(4, p0[2]);
        assertEquals(6, p0[7]);
        int[] p1 = DoubleBinaryTree.parents(8, 1);
        assertEquals(-1, p1[7], "tree 1 is tree 0 mirrored: root 7");
        assertEquals(7, p1[3]);
    }

    /**
     * Tree on 2 hosts x 4 ranks, 4 channels (0, 2 on tree 0; 1, 3 on tree 1): tree 0 enters each host at chain
     * position 0, which channel c rotates to local rank c; so channel 0's host-to-host edge joins ranks 4 -> 0
     * (host 1's head up to host 0's), channel 2's joins 6 -> 2. Tree 1 (mirrored: root host 1) enters at position
     * 3: channel 1 joins local rank 0 (3 + 1 mod 4) of host 0 to host 1: 0 -> 4; channel 3 joins 2 -> 6.
     */
    @Test
    void treeChannelsCrossHostsThroughDifferentRanks() {
        Schedule t = new TreeSchedule().schedule(req(Collective.ALL_REDUCE, 1 << 20, 8, 4, 4));
        Set<String> crossing = new HashSet<>();
        for (Step st : t.steps()) {
            for (Transfer x : st.transfers()) {
                if (x.src() / 4 != x.dst() / 4) {
                    crossing.add(x.channel() + ":" + x.src() + ">" + x.dst());
                }
            }
        }
        // the reduce goes up these edges and the broadcast down them (reversed), in overlapping steps
        assertEquals(Set.of("0:4>0", "2:6>2", "1:0>4", "3:2>6", "0:0>4", "2:2>6", "1:4>0", "3:6>2"), crossing);
    }

    /**
     * 2 hosts x 8 ranks, 16 channels = 8 tree pairs, as NCCL runs 8 search channels twice (once per tree): pair i
     * (channels 2i, 2i + 1) crosses hosts through local rank i (8 pairs over 8 ranks), both trees of the pair through
     * the same rank, so every GPU and its NIC carries exactly one pair: tree 0 up from host 1 to host 0 (rank 8 + i
     * -> i), tree 1 (root host 1) up from host 0 to host 1 (i -> 8 + i).
     */
    @Test
    void treePairsShareOneNicAndTheyCoverEveryNic() {
        Schedule t = new TreeSchedule().schedule(req(Collective.ALL_REDUCE, 1 << 24, 16, 16, 8));
        Set<String> crossing = new HashSet<>();
        for (Step st : t.steps()) {
            for (Transfer x : st.transfers()) {
                if (x.src() / 8 != x.dst() / 8) {
                    crossing.add(x.channel() + ":" + x.src() + ">" + x.dst());
                }
            }
        }
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            // up (reduce) and down (broadcast, reversed) on the same host pair and channel
            expected.add(2 * i + ":" + (8 + i) + ">" + i);
            expected.add(2 * i + ":" + i + ">" + (8 + i));
            expected.add((2 * i + 1) + ":" + i + ">" + (8 + i));
            expected.add((2 * i + 1) + ":" + (8 + i) + ">" + i);
        }
        assertEquals(expected, crossing);
    }

    /**
     * Ring on 2 hosts x 8 ranks, 4 channels, only local ranks 0 and 1 with a NIC ({@code nicRanks} 2): channel c
     * starts each host at local rank c mod 2, so it enters host 1 at rank 8 + (c mod 2), from host 0's last rank in
     * that order, local rank (c mod 2) - 1 mod 8: 7 -> 8 (c = 0, 2) and 0 -> 9 (c = 1, 3).
     */
    @Test
    void ringEntersHostsOnlyThroughRanksWithANic() {
        Schedule t = new RingSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, 1 << 20, 16, 4, 8, 2));
        Set<String> toHost1 = new HashSet<>();
        for (Transfer x : t.steps().get(0).transfers()) {
            if (x.src() / 8 == 0 && x.dst() / 8 == 1) {
                toHost1.add(x.channel() + ":" + x.src() + ">" + x.dst());
            }
        }
        assertEquals(Set.of("0:7>8", "1:0>9", "2:7>8", "3:0>9"), toHost1);
        assertThrows(IllegalArgumentException.class,
                () -> new ScheduleRequest(Collective.ALL_REDUCE, 1, 16, 4, 8, 9));
    }

    /**
     * Ring over unequal host groups 2, 3 (ranks 0-1 on one host, 2-4 on another), 3 channels: channel c starts each
     * group at its local rank c mod size: c = 0: 0 1 | 2 3 4; c = 1: 1 0 | 3 4 2; c = 2: 0 1 | 4 2 3. Each channel
     * is one ring over all 5 ranks, and every rank sends exactly one chunk per channel per step.
     */
    @Test
    void ringRotatesInsideUnequalHostGroups() {
        Schedule t = new RingSchedule().schedule(new ScheduleRequest(Collective.ALL_GATHER, 5 << 20, 5, 3, 1, 0,
                List.of(2, 3)));
        Set<String> edges = new HashSet<>();
        for (Transfer x : t.steps().get(0).transfers()) {
            edges.add(x.channel() + ":" + x.src() + ">" + x.dst());
        }
        assertEquals(Set.of("0:0>1", "0:1>2", "0:2>3", "0:3>4", "0:4>0",
                "1:1>0", "1:0>3", "1:3>4", "1:4>2", "1:2>1",
                "2:0>1", "2:1>4", "2:4>2", "2:2>3", "2:3>0"), edges);
        assertThrows(IllegalArgumentException.class, () -> new ScheduleRequest(Collective.ALL_GATHER, 1, 5, 3, 1, 0,
                List.of(2, 2)));
    }

    @ParameterizedTest
    @CsvSource({"2,8", "4,8", "128,8", "3,2"})
    void hierarchicalBytesPerRank(int h, int l) {
        long s = 1L << 24;
        Schedule sch = new HierarchicalSchedule().schedule(req(Collective.ALL_REDUCE, s, h * l, 2, l));
        double expected = 2.0 * (l - 1) / l * s + 2.0 * (h - 1) / ((double) l * h) * s;
        for (int r = 0; r < h * l; r++) {
            assertEquals(expected, sch.bytesSentBy(r), 1e-6);
        }
    }

    @ParameterizedTest
    @CsvSource({"2", "5", "8", "13"})
    void patSendsLikeARingInLogSteps(int n) {
        long s = 1L << 20;
        Schedule ag = new PatSchedule().schedule(req(Collective.ALL_GATHER, s, n, 1, 1));
        Schedule ar = new PatSchedule().schedule(req(Collective.ALL_REDUCE, s, n, 1, 1));
        int logSteps = 32 - Integer.numberOfLeadingZeros(n - 1);
        assertEquals(logSteps, ag.stepCount());
        for (int r = 0; r < n; r++) {
            assertEquals((n - 1.0) / n * s, ag.bytesSentBy(r), 1e-6);
            assertEquals(2.0 * (n - 1) / n * s, ar.bytesSentBy(r), 1e-6);
        }
    }

    @Test
    void directAllToAllSendsEachPeerItsShareOnce() {
        int n = 11;
        long s = 11_000L;
        Schedule a = new DirectAllToAllSchedule(4).schedule(req(Collective.ALL_TO_ALL, s, n, 2, 1));
        assertEquals(3, a.steps().size(), "10 rounds, 4 in flight: 3 steps");
        Set<String> pairs = new HashSet<>();
        for (Step st : a.steps()) {
            for (Transfer t : st.transfers()) {
                assertEquals(1000, t.bytes(), 0);
                assertTrue(pairs.add(t.src() + ">" + t.dst()), "pair sent twice");
            }
        }
        assertEquals(n * (n - 1), pairs.size());
    }

    @Test
    void unsupportedCollectiveAndBadShapesAreRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> new TreeSchedule().schedule(req(Collective.ALL_GATHER, 8, 4, 1, 1)));
        assertThrows(IllegalArgumentException.class, () -> req(Collective.ALL_REDUCE, 8, 10, 1, 4));
        assertThrows(IllegalArgumentException.class, () -> ScheduleAlgorithms.byName("nvls"));
        assertEquals("PAT-like", ScheduleAlgorithms.byName("pat").name());
    }

    @Test
    void oneRankOrZeroBytesHasNoSteps() {
        assertEquals(0, new RingSchedule().schedule(req(Collective.ALL_REDUCE, 1 << 20, 1, 1, 1)).stepCount());
        assertEquals(0, new TreeSchedule().schedule(req(Collective.ALL_REDUCE, 0, 8, 1, 1)).stepCount());
    }
}
