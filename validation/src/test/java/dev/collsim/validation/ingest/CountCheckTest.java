package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The count column against the size column, exactly (nccl-tests 2.19.6 {@code src/common.cu}: the size printed is
 * max(send, recv) count x element size). Counts worked out by hand: 1 GiB of float AllReduce is 1073741824 / 4 =
 * 268435456 elements; of float AllGather on 2 ranks 1073741824 / (4 x 2) = 134217728 per rank.
 */
class CountCheckTest {

    private static String table(String coll, String row1, String row2) {
        return "# nThread 1 nGpus 2 minBytes 8 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1"
                + " validation: 1 graph: 0\n"
                + "#  Rank  0 Group  0 Pid 1 on h device  0 [0x01] NVIDIA A100-SXM4-80GB\n"
                + "#  Rank  1 Group  0 Pid 1 on h device  1 [0x02] NVIDIA A100-SXM4-80GB\n"
                + "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw"
                + "   busbw #wrong\n"
                + row1 + row2;
    }

    private static List<Note> countNotes(String coll, String text) throws Exception {
        List<Dataset> ds = NcclTestsTextReader.read(coll + ".txt", "# Collective test starting: " + coll + "_perf\n"
                + text);
        return ds.get(0).notes().stream().filter(n -> n.text().contains("does not match size")).toList();
    }

    /**
     * A count 56 elements short of 268435456 (less than expected / 1000 = 268435, which the check used to forgive)
     * is another call than the size says: noted, with the expected count.
     */
    @Test
    void aCountOffByLessThanAThousandthIsNoted() throws Exception {
        List<Note> n = countNotes("all_reduce", table("all_reduce",
                "   536870912     134217728     float     sum      -1   5000.0  107.37  107.37      0   5000.0  107.37"
                        + "  107.37      0\n",
                "  1073741824     268435400     float     sum      -1  10000.0  107.37  107.37      0  10000.0  107.37"
                        + "  107.37      0\n"));
        assertEquals(1, n.size(), n.toString());
        assertTrue(n.get(0).text().contains("count 268435400 does not match size 1073741824")
                && n.get(0).text().contains("(expected 268435456)"), n.get(0).text());
    }

    /** AllGather's per-rank count: 134217728 for 1 GiB on 2 ranks matches; 134217727 does not. */
    @Test
    void perRankCountsAreExactToo() throws Exception {
        List<Note> n = countNotes("all_gather", table("all_gather",
                "   536870912      67108864     float    none      -1   5000.0  107.37   53.69      0   5000.0  107.37"
                        + "   53.69      0\n",
                "  1073741824     134217727     float    none      -1  10000.0  107.37   53.69      0  10000.0  107.37"
                        + "   53.69      0\n"));
        assertEquals(1, n.size(), n.toString());
        assertTrue(n.get(0).text().contains("count 134217727"), n.get(0).text());
    }
}
