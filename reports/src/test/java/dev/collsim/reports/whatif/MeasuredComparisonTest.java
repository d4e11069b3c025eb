package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import org.junit.jupiter.api.Test;

/**
 * A sweep compared with real measurements: {@code A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt} (from
 * validation/src/test/resources/data; DGX H100, NCCL 2.22) holds an 8-GPU table (1 MiB..8 GiB) and a 16-GPU one; on the 1-host
 * dgx-h100 catalog cluster (8 ranks) the 8-GPU table is the one compared: 14 sizes, 8 GiB measured at 31.52 ms
 * (476.85 GB/s busbw) in the file.
 */
class MeasuredComparisonTest {

    @Test
    void comparesWithTheEightGpuTable() throws InputException {
        ReportData d = DgxH100Sweep.run("    measured: A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt\n");
        assertEquals(14, d.measured().size());
        ReportData.MeasuredRow big = d.measured().stream().filter(m -> m.sizeBytes() == 8L << 30).findFirst()
                .orElseThrow();
        assertEquals(31_520, big.measuredUs(), 10, "the file prints 31.52 ms (2 decimals)");
        assertEquals(476.85, big.measuredBusBw(), 1e-9);
        assertEquals((big.predictedUs() - big.measuredUs()) / big.measuredUs() * 100, big.errorPct(), 1e-9);
        assertTrue(ReportCharts.build(d).stream().anyMatch(c -> c.stem().equals("predicted-vs-measured")));
    }

    /**
     * A sweep of 4 ranks (gpus: 4) against the same file, whose tables are of 8 GPUs (the "Intra-node" table, file
     * line 13) and 16 GPUs (line 32): no table times what is predicted, so the report refuses it naming both counts
     * and where the file's first table is; it compared the 8-GPU table with the 4-rank prediction.
     */
    @Test
    void aFileOfOtherRanksIsRefused() {
        InputException e = assertThrows(InputException.class, () -> DgxH100Sweep.run("    gpus: 4\n"
                + "    measured: A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt\n"));
        InputProblem p = e.problems().get(0);
        assertTrue(p.file().endsWith("A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt"), p.toString());
        assertEquals(13, p.line(), p.toString());
        assertTrue(p.message().startsWith("measured on 8 ranks (table at line 13), 16 ranks (table at line 32), but the"
                + " sweep predicts 4 ranks on the report's base cluster"), p.message());
    }

    /**
     * An AllGather sweep against the same all_reduce file: nothing of it times AllGather, so the report refuses it
     * naming what the file holds and where (8 and 16 ranks at lines 13 and 32, as above).
     */
    @Test
    void aFileOfAnotherCollectiveNamesWhatItHolds() {
        InputException e = assertThrows(InputException.class, () -> DgxH100Sweep.run("allgather",
                "    measured: A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt\n"));
        InputProblem p = e.problems().get(0);
        assertEquals(13, p.line(), p.toString());
        assertTrue(p.message().startsWith("no AllGather measurements with sizes in this file; it holds AllReduce (8"
                + " ranks, table at line 13), AllReduce (16 ranks, table at line 32); allowed: a file measuring"
                + " AllGather"), p.message());
    }
}
