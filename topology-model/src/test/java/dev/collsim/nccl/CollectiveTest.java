package dev.collsim.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** A misspelt name suggests the nearest: "allredcue" is "allreduce" with 'c' and 'u' swapped (one edit). */
    @Test
    void aMisspeltNameSuggestsTheNearest() {
        String m = assertThrows(IllegalArgumentException.class, () -> Collective.parse("allredcue")).getMessage();
        assertTrue(m.endsWith("; did you mean 'allreduce'?"), m);
        // "reduce_scater" -> "reducescater" vs "reducescatter": one insertion
        String s = assertThrows(IllegalArgumentException.class, () -> Collective.parse("reduce_scater")).getMessage();
        assertTrue(s.endsWith("; did you mean 'reducescatter'?"), s);
        // nothing near: "foo" is 5+ edits from every name
        String f = assertThrows(IllegalArgumentException.class, () -> Collective.parse("foo")).getMessage();
        assertTrue(!f.contains("did you mean"), f);
    }
}
