package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Leave-one-out bookkeeping of the accuracy table on a few corpus files. */
class AccuracyRunnerTest {

    @Test
    void leaveOneOutWithinClassAndNeverOnProblemRuns() throws Exception {
        List<Dataset> in = new ArrayList<>();
        in.addAll(Corpus.read("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt"));
        in.addAll(Corpus.read("D-info-1x2xA100-sxm4-80gb-nccl2.20.txt"));
        in.addAll(Corpus.read("A-allreduce-1x8xV100-sxm2-oci-bmgpu38-and-1x8xA100-single-size.txt"));
        in.addAll(Corpus.read("A-allreduce-1x4xV100-sxm2-modified-nccltests-nccl2.26-problem.txt"));
        in.addAll(Corpus.read("A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt"));
        List<AccuracyRow> rows = new AccuracyRunner(NcclVersion.DEFAULT).run(in);
        assertEquals(9, rows.size());
        AccuracyRow azure = rows.get(0);
        assertEquals("all_reduce / A100 SXM / 1 host", azure.hardwareClass());
        // other A100 one-host all_reduce runs: D-info (1x2), run 2 of the V100/A100 file, OCI (a1) and (b1)
        assertTrue(azure.note().startsWith("calibrated on 4 other dataset(s)"), azure.note());
        assertEquals(14, azure.points1MiB(), "1 MiB .. 8 GiB");
        assertFalse(Double.isNaN(azure.calibrated()));
        AccuracyRow v100x8 = rows.get(2);
        assertEquals("all_reduce / V100 SXM2 / 1 host", v100x8.hardwareClass());
        // the only other V100 dataset is the problem run (NVLink not used): it must not be used for fitting
        assertEquals("no other dataset of this class to calibrate on", v100x8.note());
        assertEquals(7, rows.stream().filter(AccuracyRow::targetSet).count(), "all but the two 2-node OCI runs");
        String md = AccuracyText.render(rows);
        assertTrue(md.contains("Single-host NVLink datasets: 7"), md);
    }

    /**
     * A summary-only file (max/avg busbw per collective and host count, 8 table rows) and a run cut to its footer by
     * its author have no row; they are named under the table with why, none left out silently.
     */
    @Test
    void datasetsWithoutRowsAreNamed() throws Exception {
        List<Dataset> in = new ArrayList<>(Corpus.read(
                "A-summary-allgather-allreduce-alltoall-reducescatter-2x1-4x1xGB10-dgxspark-roce-multiswitch.txt"));
        in.addAll(Corpus.read("A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt"));
        AccuracyRunner runner = new AccuracyRunner(NcclVersion.DEFAULT);
        List<AccuracyRow> rows = runner.run(in);
        List<String> without = runner.withoutRows(in, rows);
        // the summary's 8 rows (AllGather .. ReduceScatter x 2 and 4 hosts) and the B200 file's runs 2 and 3
        assertEquals(10, without.size(), without.toString());
        assertEquals(in.size(), rows.size() + without.size());
        assertTrue(without.get(0).endsWith(":14 (AllGather 2 hosts): no per-size times (SUMMARY)"), without.get(0));
        assertTrue(without.stream().anyMatch(w -> w.contains("(FOOTER_ONLY)")), without.toString());
        String md = AccuracyText.render(rows, without);
        assertTrue(md.contains("Not in the table (nothing per size to compare), 10 dataset(s): "), md);
    }
}
