package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rank lines an author cut short with a {@code ...} line are a lower bound: the CoreWeave README (data file
 * A-allreduce-16x8xA100-80GB-coreweave-ib-mpi-operator-nccl2.12.txt) lists ranks 0-4 of its 128-rank MPIJob, then
 * {@code ...}. The count is the job's: 16 workers of 8 GPUs ({@code #@ nodes_x_gpus: 16x8}, read from the manifest),
 * which nccl-tests' own factor confirms: busbw / algbw at 2 GB is 44.74 / 22.55 = 1.984, and 2 x 127 / 128 = 1.984
 * (5 ranks would print 2 x 4 / 5 = 1.6).
 */
class CutRankLinesTest {

    @Test
    void theCoreWeaveFileIs128RanksOn16Hosts() throws Exception {
        List<Dataset> ds = Corpus.read("A-allreduce-16x8xA100-80GB-coreweave-ib-mpi-operator-nccl2.12.txt");
        assertEquals(1, ds.size());
        assertEquals(128, ds.get(0).nRanks());
        assertEquals(16, ds.get(0).nHosts());
        assertTrue(ds.get(0).notes().stream().anyMatch(n -> n.text().contains("rank lines cut by the author")),
                ds.get(0).notes().toString());
    }

    /** Without the '...' line the same five rank lines are the whole run: 5 ranks on one host, as before. */
    @Test
    void rankLinesWithoutACutStandForThemselves() throws Exception {
        String text = String.join("\n",
                "#   Rank  0 Pid     33 on w-0 device  0 [0x27] NVIDIA A100-SXM4-80GB",
                "#   Rank  1 Pid     34 on w-0 device  1 [0x2a] NVIDIA A100-SXM4-80GB",
                "#                                                       out-of-place                       in-place",
                "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw"
                        + "  error",
                "     1048576        262144     float     sum    10.00  104.86  104.86  5e-07    10.00  104.86  104.86"
                        + "  7e-07",
                "");
        List<Dataset> ds = NcclTestsTextReader.read("two-ranks.txt", text);
        assertEquals(2, ds.get(0).nRanks());
        assertEquals(1, ds.get(0).nHosts());
    }
}
