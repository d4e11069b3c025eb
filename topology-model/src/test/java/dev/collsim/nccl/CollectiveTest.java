package dev.collsim.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CollectiveTest {

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

    /** A pasted nccl-tests command names the binary with its path: ./build/all_reduce_perf is all_reduce. */
    @Test
    void binaryPathsCountByTheirFileName() {
        assertEquals(Collective.ALL_REDUCE, Collective.parse("./build/all_reduce_perf"));
        assertEquals(Collective.ALL_GATHER, Collective.parse("/opt/nccl-tests/build/all_gather_perf"));
        assertThrows(IllegalArgumentException.class, () -> Collective.parse("./build/"));
    }
}
