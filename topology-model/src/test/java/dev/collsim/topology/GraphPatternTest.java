package dev.collsim.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** NCCL's pattern numbers, from NCCL 2.30 {@code src/include/graph.h} ({@code NCCL_TOPO_PATTERN_*}). */
class GraphPatternTest {

    @Test
    void numbersAreNcclsDefines() {
        assertEquals(1, GraphPattern.BALANCED_TREE.ncclNumber());
        assertEquals(2, GraphPattern.SPLIT_TREE.ncclNumber());
        assertEquals(3, GraphPattern.TREE.ncclNumber());
        assertEquals(4, GraphPattern.RING.ncclNumber());
        assertEquals(5, GraphPattern.NVLS.ncclNumber());
        assertEquals(6, GraphPattern.COLLNET_DIRECT.ncclNumber());
    }

    @Test
    void aDumpsNumberReadsBackAndAnUnknownOneIsNull() {
        assertEquals(GraphPattern.RING, GraphPattern.ofNcclNumber(4));
        assertEquals(GraphPattern.COLLNET_DIRECT, GraphPattern.ofNcclNumber(6));
        assertNull(GraphPattern.ofNcclNumber(0));
        assertNull(GraphPattern.ofNcclNumber(7));
    }
}
