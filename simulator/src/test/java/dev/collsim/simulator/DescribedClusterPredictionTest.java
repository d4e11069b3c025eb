package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A cluster of identical hosts described once ({@link ClusterSpec#build()}: one template host, a count, the fabric)
 * predicts bit-identically to the same cluster built device by device ({@link ClusterSpec#materialize()}), for
 * N = 2, 4 and 32 hosts, on the rail-optimized fabric of {@code -c NAMExN} and on a 2:1 fat tree of 16-port leaves
 * (with 32 hosts: 256 NICs on 16 leaves under 8 spines), for every collective at three sizes, three rank sets
 * (every GPU; GPUs 0 and 1 of each host; all of host 0 and two of the others, so nodes of two shapes) and two NCCL
 * settings; and the prediction never builds the described cluster's graph. The reference is the materialized
 * cluster's own prediction through the same pipeline, so any difference of the template path (channel search on
 * the template's host 0, NIC counts, bounds) shows as a record that differs.
 */
class DescribedClusterPredictionTest {

    private static final List<Collective> COLLECTIVES = List.of(Collective.values());
    private static final long[] SIZES = {8, 1 << 20, 1L << 30};

    static Stream<Arguments> clusters() {
        FabricSpec rail = FabricSpec.of(FabricKind.RAIL_OPTIMIZED);
        FabricSpec fatTree = new FabricSpec(FabricKind.FAT_TREE, null, 2.0, 16, 1, Latency.ofMicros(0.6));
        HostType h100 = Catalog.dgxH100();
        HostType l40s = Catalog.hostType("pcie-8x-l40s").orElseThrow();
        List<Arguments> out = new ArrayList<>();
        for (int n : new int[] {2, 4, 32}) {
            out.add(Arguments.of(h100, n, rail));
            out.add(Arguments.of(h100, n, fatTree));
        }
        out.add(Arguments.of(l40s, 4, rail));
        return out.stream();
    }

    @ParameterizedTest(name = "{0} x{1} {2}")
    @MethodSource("clusters")
    void describedPredictsAsMaterialized(HostType type, int hosts, FabricSpec fabric) {
        ClusterSpec spec = new ClusterSpec(type.name() + "x" + hosts, "", type, hosts, fabric);
        Topology described = spec.build();
        Topology full = spec.materialize();
        assertTrue(described.hostTemplate().isPresent(), "several hosts of one type are described once");
        assertTrue(full.hostTemplate().isEmpty());
        assertEquals(full.gpus(), described.gpus());
        assertEquals(full.hostCount(), described.hostCount());
        for (NcclSettings env : List.of(NcclSettings.DEFAULTS, NcclSettings.parse(Map.of("NCCL_NVLS_ENABLE", "0")))) {
            for (int set = 0; set < 3; set++) {
                List<Gpu> dRanks = ranks(described, set);
                List<Gpu> fRanks = ranks(full, set);
                assertEquals(fRanks, dRanks);
                NcclPredictor dp = new NcclPredictor();
                NcclPredictor fp = new NcclPredictor();
                for (Collective c : COLLECTIVES) {
                    for (long size : SIZES) {
                        PredictionRequest d = new PredictionRequest(described, dRanks, c, size, DataType.FLOAT,
                                RedOp.SUM, env);
                        PredictionRequest f = new PredictionRequest(full, fRanks, c, size, DataType.FLOAT, RedOp.SUM,
                                env);
                        String what = c + " " + size + " B, rank set " + set + ", " + env;
                        assertEquals(fp.predict(f), dp.predict(d), what);
                        assertEquals(fp.candidates(f), dp.candidates(d), what);
                    }
                }
                assertEquals(fp.prepare(full, fRanks, env).plan(),
                        dp.prepare(described, dRanks, env).plan());
            }
        }
        assertFalse(described.graphBuilt(), "the analytical prediction must not build every host");
    }

    /** 0: every GPU; 1: GPUs 0 and 1 of each host; 2: every GPU of host 0, GPUs 0 and 1 of the others. */
    private static List<Gpu> ranks(Topology t, int set) {
        if (set == 0) {
            return t.gpus();
        }
        List<Gpu> out = new ArrayList<>();
        for (int h = 0; h < t.hostCount(); h++) {
            List<Gpu> mine = t.gpusOf(h);
            out.addAll(set == 2 && h == 0 ? mine : mine.subList(0, 2));
        }
        return List.copyOf(out);
    }
}
