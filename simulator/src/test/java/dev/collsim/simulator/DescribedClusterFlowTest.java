package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.network.Multipath;
import dev.collsim.simulator.network.Placement;
import dev.collsim.simulator.network.RankPlacement;
import dev.collsim.simulator.network.RoutingOptions;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The flow backend on a cluster of identical hosts described once ({@link ClusterSpec#build()}) builds only the hosts
 * the ranks are on ({@link Topology#withHostsOnly}) and gives the same predictions, links column and notes (busiest
 * links) as on the same cluster built device by device ({@link ClusterSpec#materialize()}), for N = 2, 4 and 32 DGX
 * H100 hosts on the rail-optimized fabric of {@code -c NAMExN}, a rail-optimized fabric of 2-host scalable units (so
 * rails have spines) and a 2:1 fat tree of 16-port leaves; for AllReduce at 1 MiB and 1 GiB and AllToAll at 1 MiB;
 * with every GPU, 16 ranks placed at random (seed 7) and 12 ranks placed contiguously. The reference is the whole
 * cluster's own simulation through the same code, so a route or a link that the part lacks or has in excess shows
 * as a different time or busiest link.
 */
class DescribedClusterFlowTest {

    static Stream<Arguments> clusters() {
        Latency hop = Latency.ofMicros(0.6);
        List<FabricSpec> fabrics = List.of(FabricSpec.of(FabricKind.RAIL_OPTIMIZED),
                new FabricSpec(FabricKind.RAIL_OPTIMIZED, null, 1.0, 2, 1, hop),
                new FabricSpec(FabricKind.FAT_TREE, null, 2.0, 16, 1, hop));
        List<Arguments> out = new ArrayList<>();
        for (int n : new int[] {2, 4, 32}) {
            for (FabricSpec f : fabrics) {
                out.add(Arguments.of(n, f));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "x{0} {1}")
    @MethodSource("clusters")
    void describedFlowAsMaterialized(int hosts, FabricSpec fabric) throws Exception {
        ClusterSpec spec = new ClusterSpec("dgx-h100x" + hosts, "", Catalog.dgxH100(), hosts, fabric);
        Topology described = spec.build();
        Topology full = spec.materialize();
        record Case(Collective c, long size, int ranks, Placement.Policy policy) {
        }
        List<Case> cases = List.of(new Case(Collective.ALL_REDUCE, 1L << 20, hosts * 8, Placement.Policy.CONTIGUOUS),
                new Case(Collective.ALL_REDUCE, 1L << 30, hosts * 8, Placement.Policy.CONTIGUOUS),
                new Case(Collective.ALL_TO_ALL, 1L << 20, hosts * 8, Placement.Policy.CONTIGUOUS),
                new Case(Collective.ALL_REDUCE, 1L << 30, 16, Placement.Policy.RANDOM),
                new Case(Collective.ALL_TO_ALL, 1L << 20, 16, Placement.Policy.RANDOM),
                new Case(Collective.ALL_REDUCE, 1L << 30, 12, Placement.Policy.CONTIGUOUS));
        for (Case k : cases) {
            FlowSweep.Result d = run(described, k.c(), k.size(), k.ranks(), k.policy());
            FlowSweep.Result f = run(full, k.c(), k.size(), k.ranks(), k.policy());
            String what = k.toString();
            assertEquals(f.predictions(), d.predictions(), what);
            assertEquals(f.linksBusBw(), d.linksBusBw(), what);
            assertEquals(f.notes(), d.notes(), what);
            assertEquals(f.choices(), d.choices(), what);
            // the part holds the ranks' hosts only: 16 random ranks on 32 hosts cover at most 16 of them
            long built = d.fabric().gpus().stream().mapToInt(Gpu::host).distinct().count();
            long used = d.choices().get(0).order().stream().mapToInt(Gpu::host).distinct().count();
            assertEquals(used, built, what);
            assertTrue(full == f.fabric(), "a built cluster is simulated as given");
        }
        assertFalse(described.graphBuilt(), "the described cluster's graph is never built");
    }

    private static FlowSweep.Result run(Topology t, Collective c, long size, int ranks, Placement.Policy policy)
            throws Exception {
        FlowRequest r = new FlowRequest(t, t.gpus().subList(0, ranks), c, DataType.FLOAT, RedOp.SUM, List.of(size),
                NcclSettings.DEFAULTS, new RankPlacement(policy, null, null), FlowChoice.Override.NONE, false, 0,
                new RoutingOptions(Multipath.ECMP, true, 7), Set.of(), List.of(), true,
                false, 0, 0, 0, 1);
        return new FlowSweep(new NcclPredictor()).run(r);
    }
}
