package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every group of a kind, as Megatron-Core lays them out (class javadoc of {@link GroupPlacement}): with rank
 * {@code r = t + tp (p + pp d)} (tp-pp-dp), the groups of one kind partition the job's ranks, and the first is the
 * one {@link GroupPlacement#group} returns. Expected groups listed by hand from the rank formula.
 */
class GroupPlacementTest {

    private static final Topology FOUR_HOSTS = TestClusters.cluster(4, 8, 8, 400, 450, "H100");

    private static TrainingJob job(int dp, int tp, int pp, int ep, int experts) {
        JobBuilder b = new JobBuilder();
        b.params = experts > 0 ? "46.7B" : "7B";
        b.hidden = experts > 0 ? 4096 : 0;
        b.layers = experts > 0 ? 32 : 0;
        b.dp = dp;
        b.tp = tp;
        b.pp = pp;
        b.ep = ep;
        b.experts = experts;
        return b.build();
    }

    private static List<List<Integer>> indices(List<List<Gpu>> groups) {
        List<List<Integer>> out = new ArrayList<>();
        for (List<Gpu> g : groups) {
            out.add(g.stream().map(x -> FOUR_HOSTS.gpus().indexOf(x)).toList());
        }
        return out;
    }

    /** tp 8, pp 2, dp 2 on 32 GPUs: DP groups {r, r + 16} for r = t + 8 p, t < 8, p < 2, in (p, t) order. */
    @Test
    void dataParallelGroupsOfTp8Pp2Dp2() {
        GroupPlacement g = new GroupPlacement(FOUR_HOSTS, job(2, 8, 2, 1, 0), RankOrder.TP_PP_DP);
        List<List<Integer>> dp = indices(g.groups(GroupKind.DP));
        assertEquals(16, dp.size());
        for (int r = 0; r < 16; r++) {
            assertEquals(List.of(r, r + 16), dp.get(r));
        }
        assertEquals(g.group(GroupKind.DP), g.groups(GroupKind.DP).get(0));
        List<List<Integer>> tp = indices(g.groups(GroupKind.TP));
        assertEquals(List.of(16, 17, 18, 19, 20, 21, 22, 23), tp.get(1), "p = 0, d = 1");
        assertEquals(List.of(8, 9, 10, 11, 12, 13, 14, 15), tp.get(2), "p = 1, d = 0");
        assertEquals(List.of(List.of(0, 8), List.of(16, 24), List.of(1, 9)),
                indices(g.groups(GroupKind.PP)).subList(0, 3), "(t, d) = (0, 0), (0, 1), (1, 0)");
    }

    /**
     * tp 2, dp 16, ep 4 on 32 GPUs: DP members of t = 0 are ranks 2d; EP groups are 4 consecutive members
     * ({0, 2, 4, 6}, {8, 10, 12, 14}, ...), EDP groups members 4 apart ({0, 8, 16, 24}, {2, 10, 18, 26}, ...).
     */
    @Test
    void expertGroupsPartitionTheDataParallelGroup() {
        GroupPlacement g = new GroupPlacement(FOUR_HOSTS, job(16, 2, 1, 4, 8), RankOrder.TP_PP_DP);
        List<List<Integer>> ep = indices(g.groups(GroupKind.EP));
        List<List<Integer>> edp = indices(g.groups(GroupKind.EDP));
        assertEquals(8, ep.size());
        assertEquals(List.of(0, 2, 4, 6), ep.get(0));
        assertEquals(List.of(8, 10, 12, 14), ep.get(1));
        assertEquals(List.of(1, 3, 5, 7), ep.get(4), "t = 1");
        assertEquals(8, edp.size());
        assertEquals(List.of(0, 8, 16, 24), edp.get(0));
        assertEquals(List.of(2, 10, 18, 26), edp.get(1));
        for (GroupKind k : List.of(GroupKind.TP, GroupKind.DP, GroupKind.EP, GroupKind.EDP)) {
            HashSet<Integer> seen = new HashSet<>();
            indices(g.groups(k)).forEach(seen::addAll);
            assertEquals(32, seen.size(), k + ": every rank in exactly one group");
            assertEquals(32, indices(g.groups(k)).stream().mapToInt(List::size).sum(), k.toString());
            assertEquals(g.group(k), g.groups(k).get(0), k.toString());
        }
    }
    /**
     * tp 8, pp 3 on 4 hosts of 8 GPUs: the default dp is floor(32 / 24) = 1, so ranks 0-23 take GPUs 0-23 (hosts 0-2)
     * and GPUs 24-31, all of host 3, run nothing; 32 / 24 = 1.333 printed to two places.
     */
    @Test
    void aPipelineThatDoesNotDivideTheClusterNamesItsIdleGpus() {
        assertEquals(Optional.of("8 of 32 GPUs idle (GPUs 24-31, host 3): tp x pp x dp = 8 x 3 x 1 = 24 of 32; dp is"
                + " bounded by 32 GPUs / (tp x pp = 24) = 1.33, rounded down to 1 (a tp x pp that divides 32 fills the"
                + " cluster)"), GroupPlacement.idleGpus(FOUR_HOSTS, job(1, 8, 3, 1, 0)));
    }

    /**
     * tp 4, pp 2, dp 2 given on 32 GPUs: 16 ranks on GPUs 0-15 (hosts 0-1), GPUs 16-31 (hosts 2-3) idle; one replica
     * is 8 GPUs, so 32 / 8 = 4 replicas would fit. tp 8, pp 2, dp 2 uses all 32: nothing to say.
     */
    @Test
    void aGivenDpBelowWhatFitsIsNamedAndAFullClusterIsSilent() {
        assertEquals(Optional.of("16 of 32 GPUs idle (GPUs 16-31, hosts 2-3): tp x pp x dp = 4 x 2 x 2 = 16 of 32;"
                + " dp=2 as given, below the 4 that fit"), GroupPlacement.idleGpus(FOUR_HOSTS, job(2, 4, 2, 1, 0)));
        assertEquals(Optional.empty(), GroupPlacement.idleGpus(FOUR_HOSTS, job(2, 8, 2, 1, 0)));
    }
}
