package dev.collsim.topology.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Hosts of one type described once ({@link ClusterSpec#build()}) against the same cluster built in full
 * ({@link ClusterSpec#materialize()}): same GPUs in the same order, and, once asked for, the same graph.
 */
class DescribedClusterTest {

    private static ClusterSpec spec(int hosts, FabricKind kind) {
        return new ClusterSpec("t", "", Catalog.dgxH100(), hosts, FabricSpec.of(kind));
    }

    @Test
    void graphIsBuiltOnFirstUseAndEqualsTheMaterializedOne() {
        for (FabricKind kind : FabricKind.values()) {
            Topology d = spec(5, kind).build();
            Topology f = spec(5, kind).materialize();
            assertTrue(d.hostTemplate().isPresent());
            assertFalse(d.graphBuilt());
            assertEquals(f.gpus(), d.gpus());
            assertEquals(f.gpusOf(3), d.gpusOf(3));
            assertEquals(List.of(), d.gpusOf(5));
            assertFalse(d.graphBuilt(), "GPU lists come from the template");
            assertEquals(f.graph().vertexSet(), d.graph().vertexSet());
            assertTrue(d.graphBuilt());
            Function<Topology, Set<String>> edges = t -> t.graph().edgeSet().stream()
                    .map(l -> l + " " + t.source(l).id() + " " + t.target(l).id()).collect(Collectors.toSet());
            assertEquals(edges.apply(f), edges.apply(d));
            assertEquals(f.hostCount(), d.hostCount());
            assertEquals(f.devices(Device.class), d.devices(Device.class));
        }
    }

    @Test
    void largeClusterIsDescribedWithoutItsGraph() {
        Topology d = spec(100_000, FabricKind.RAIL_OPTIMIZED).build();
        // 100,000 hosts x 8 GPUs; the last GPU is local index 7 of host 99,999
        assertEquals(800_000, d.gpus().size());
        Gpu last = d.gpus().get(799_999);
        assertEquals("h99999/gpu7", last.id());
        assertEquals(99_999, last.host());
        assertEquals(7, last.index());
        assertEquals(100_000, d.hostCount());
        assertFalse(d.graphBuilt());
        Topology ethernet = d.withNetworkClass(NetworkClass.ROCE);
        assertSame(d.hostTemplate().get(), ethernet.hostTemplate().get());
        assertFalse(ethernet.graphBuilt());
    }

    @Test
    void oneHostAndSharedNvlinkDomainsAreBuiltInFull() {
        assertTrue(spec(1, FabricKind.RAIL_OPTIMIZED).build().hostTemplate().isEmpty());
        ClusterSpec racks = new ClusterSpec("r", "", Catalog.hostType("gb200-nvl72").orElseThrow(), 36, null);
        assertTrue(racks.build().hostTemplate().isEmpty());
        assertThrows(IllegalArgumentException.class,
                () -> new ClusterSpec("x", "", Catalog.dgxH100(), (1 << 20) + 1, null).build());
    }

    @Test
    void templateGpusSortLikeTheFullList() {
        Topology d = spec(3, FabricKind.FAT_TREE).build();
        assertEquals(d.gpus().stream().sorted(Comparator.comparingInt(Gpu::host).thenComparingInt(Gpu::index))
                .toList(), d.gpus());
    }
}
