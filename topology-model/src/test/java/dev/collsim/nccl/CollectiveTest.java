package dev.collsim.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CollectiveTest {

    /** Factors from nccl-tests doc/PERFORMANCE.md: AllReduce 2(n-1)/n, AllGather (n-1)/n, Broadcast 1. */
    @Test
    void busBandwidthFactorsMatchNcclTests() {
        assertEquals(1.75, Collective.ALL_REDUCE.busBwFactor(8), 1e-12);
        assertEquals(0.875, Collective.ALL_GATHER.busBwFactor(8), 1e-12);
        assertEquals(0.875, Collective.REDUCE_SCATTER.busBwFactor(8), 1e-12);
        assertEquals(1.0, Collective.BROADCAST.busBwFactor(8), 1e-12);
        assertEquals(0.0, Collective.ALL_REDUCE.busBwFactor(1), 1e-12);
    }

    @Test
    void parsesNcclAndNcclTestsSpellings() {
        assertEquals(Collective.ALL_REDUCE, Collective.parse("all_reduce_perf"));
        assertEquals(Collective.ALL_REDUCE, Collective.parse("AllReduce"));
        assertEquals(Collective.ALL_TO_ALL, Collective.parse("alltoall"));
        assertEquals(Algorithm.NVLS_TREE, Algorithm.parse("nvlstree"));
        assertEquals(Protocol.LL128, Protocol.parse("ll128"));
        assertEquals(DataType.BFLOAT16, DataType.parse("bfloat16"));
        assertThrows(IllegalArgumentException.class, () -> Collective.parse("allreduc"));
    }

    /** nccl-tests all_gather: 1 GiB total over 8 ranks of float = 2^30/4/8 elements per rank. */
    @Test
    void perRankCountDividesGatheredSizes() {
        assertEquals((1L << 30) / 4 / 8, Collective.ALL_GATHER.countFor(1L << 30, 4, 8));
        assertEquals((1L << 30) / 4, Collective.ALL_REDUCE.countFor(1L << 30, 4, 8));
    }
}
