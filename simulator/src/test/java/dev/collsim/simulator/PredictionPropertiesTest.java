package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** Invariants of the simulator over catalog clusters (modest tries to keep the suite fast). */
class PredictionPropertiesTest {

    private static final Map<String, Topology> TOPOLOGIES = new ConcurrentHashMap<>();
    private static final NcclPredictor PREDICTOR = new NcclPredictor();
    private static final List<String> CLUSTERS = List.of("dgx-a100:1", "dgx-h100:1", "dgx-h100:2", "hgx-b200:2",
            "pcie-8x-l40s:1", "dgx1-v100:1", "gb200-nvl72:2");
    private static final List<Collective> TUNED = List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER,
            Collective.REDUCE_SCATTER, Collective.BROADCAST, Collective.REDUCE);

    private static Topology topo(String spec) {
        return TOPOLOGIES.computeIfAbsent(spec, k -> {
            String[] p = k.split(":");
            return Catalog.standalone(Catalog.hostType(p[0]).orElseThrow(), Integer.parseInt(p[1]));
        });
    }

    private static PredictionRequest req(Topology t, Collective c, long size, Map<String, String> env) {
        return new PredictionRequest(t, t.gpus(), c, size, DataType.FLOAT, RedOp.SUM, env);
    }

    @Provide
    Arbitrary<String> clusters() {
        return Arbitraries.of(CLUSTERS);
    }

    @Provide
    Arbitrary<Collective> tuned() {
        return Arbitraries.of(TUNED);
    }

    @Provide
    Arbitrary<Collective> any() {
        return Arbitraries.of(Collective.values());
    }

    /** For every eligible (algorithm, protocol), collsim's predicted time at k x size is not below that at size. */
    @Property(tries = 40)
    void predictedTimeNeverDecreasesWithSize(@ForAll("clusters") String cluster, @ForAll("tuned") Collective c,
            @ForAll @LongRange(min = 1, max = 1L << 33) long size, @ForAll @IntRange(min = 2, max = 16) int k) {
        Topology t = topo(cluster);
        List<Candidate> small = PREDICTOR.candidates(req(t, c, size, Map.of()));
        List<Candidate> large = PREDICTOR.candidates(req(t, c, size * k, Map.of()));
        for (Candidate s : small) {
            for (Candidate l : large) {
                if (s.algorithm() == l.algorithm() && s.protocol() == l.protocol()) {
                    assertTrue(l.predicted().timeUs() >= s.predicted().timeUs() * (1 - 1e-12),
                            cluster + " " + c + " " + s.algorithm() + "/" + s.protocol() + " " + size + " -> "
                                    + size * k + ": " + s.predicted().timeUs() + " > " + l.predicted().timeUs());
                }
            }
        }
    }

    /**
     * NCCL's own time is monotone in size for every algorithm except Tree and NVLSTree AllReduce, whose step tree
     * correction can lower the time at a power-of-two boundary (see {@code NcclTuningModelTest}).
     */
    @Property(tries = 40)
    void ncclTimeNeverDecreasesWithSizeOutsideTheTreeCorrection(@ForAll("clusters") String cluster,
            @ForAll("tuned") Collective c, @ForAll @LongRange(min = 1, max = 1L << 33) long size,
            @ForAll @IntRange(min = 2, max = 16) int k) {
        Topology t = topo(cluster);
        for (Candidate s : PREDICTOR.candidates(req(t, c, size, Map.of()))) {
            if (c == Collective.ALL_REDUCE && (s.algorithm() == Algorithm.TREE || s.algorithm() == Algorithm.NVLS_TREE)) {
                continue;
            }
            for (Candidate l : PREDICTOR.candidates(req(t, c, size * k, Map.of()))) {
                if (s.algorithm() == l.algorithm() && s.protocol() == l.protocol()) {
                    assertTrue(l.ncclTimeUs() >= s.ncclTimeUs(), cluster + " " + c + " " + s + " vs " + l);
                }
            }
        }
    }

    /** Predicted busbw never exceeds the physical bound, for every collective (p2p included). */
    @Property(tries = 60)
    void busBwNeverExceedsThePhysicalBound(@ForAll("clusters") String cluster, @ForAll("any") Collective c,
            @ForAll @LongRange(min = 1024, max = 1L << 34) long size) {
        Prediction p = PREDICTOR.predict(req(topo(cluster), c, size, Map.of()));
        assertTrue(p.busBw() <= p.physicalBoundBusBw() * (1 + 1e-9), cluster + " " + p);
    }

    /**
     * Removing NVLinks or NICs never speeds anything up: a DGX-style pair of hosts with fewer NVLinks per GPU and
     * fewer NICs per host is never predicted faster than the same hosts with more.
     */
    @Property(tries = 15)
    void removingLinksNeverSpeedsAnythingUp(@ForAll @IntRange(min = 4, max = 18) int nvlinks,
            @ForAll @IntRange(min = 0, max = 6) int removed, @ForAll @IntRange(min = 0, max = 3) int nicsLog2,
            @ForAll("any") Collective c, @ForAll @LongRange(min = 1024, max = 1L << 32) long size) {
        int fewer = Math.max(1, nvlinks - removed);
        int nics = 1 << nicsLog2;
        int fewerNics = Math.max(1, nics / 2);
        TestClusters.Shape more = new TestClusters.Shape("H100-SXM5-80GB", 90, nvlinks, 4, 5, nics, 400, true);
        TestClusters.Shape less = new TestClusters.Shape("H100-SXM5-80GB", 90, fewer, 4, 5, fewerNics, 400, true);
        Topology a = TestClusters.cluster(more, 2);
        Topology b = TestClusters.cluster(less, 2);
        double tMore = PREDICTOR.predict(req(a, c, size, Map.of())).timeUs();
        double tLess = PREDICTOR.predict(req(b, c, size, Map.of())).timeUs();
        assertTrue(tLess >= tMore * (1 - 1e-9), c + " " + size + " B: " + nvlinks + " NVLinks/" + nics + " NICs "
                + tMore + " us, " + fewer + "/" + fewerNics + " -> " + tLess + " us");
    }

    /** In NCCL's own model, forcing an algorithm (NCCL_ALGO) never gives a smaller time than the automatic choice. */
    @Property(tries = 40)
    void forcingAnAlgorithmNeverBeatsTheAutomaticChoice(@ForAll("clusters") String cluster,
            @ForAll("tuned") Collective c, @ForAll @LongRange(min = 1, max = 1L << 33) long size,
            @ForAll Algorithm forced) {
        Topology t = topo(cluster);
        double auto = PREDICTOR.predict(req(t, c, size, Map.of())).ncclEstimateUs();
        Optional<Prediction> f;
        try {
            f = Optional.of(PREDICTOR.predict(req(t, c, size, Map.of("NCCL_ALGO", forced.ncclName()))));
        } catch (IllegalArgumentException notEligible) {
            f = Optional.empty();
        }
        f.ifPresent(p -> assertTrue(p.ncclEstimateUs() >= auto, forced + ": " + p.ncclEstimateUs() + " < " + auto));
    }
}
