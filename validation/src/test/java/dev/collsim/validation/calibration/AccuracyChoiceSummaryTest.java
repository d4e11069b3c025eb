package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The closing line with the shipped profile choice ({@link AccuracySummary#withChoice}): datasets of a class that
 * ships a profile are counted with their leave-one-out errors, the others with the bare model's.
 */
class AccuracyChoiceSummaryTest {

    /**
     * Three healthy rows, bare medians 6, 4 and 12 % (below 1 MiB 20, 16 and none): bare median 6, within 3 %: 0,
     * within 10 %: 2, below 1 MiB within 15 %: 0 of 2. A profile predicts the first two at 2.5 and 11 % (below:
     * 14 and 16.5): the medians 2.5, 11 and 12 give median 11, within 3 %: 1, within 10 %: 1; below 1 MiB 14 and
     * 16.5: 1 of 2; 2 of 3 datasets and 2 of 2 below 1 MiB by a profile.
     */
    @Test
    void profiledRowsTakeTheirLeaveOneOutErrors() throws Exception {
        List<Dataset> ds = new ArrayList<>();
        for (String f : List.of("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt",
                "A-allreduce-1x4xV100-16GB-abci-vnode-nccl2.8.txt",
                "A-allreduce-1x8xRTXPRO6000-wrx90-cpayne-pcie-switches-torchdist-ring-nccl2.27.txt")) {
            ds.add(Corpus.read(f).get(0));
        }
        List<AccuracyRow> rows = List.of(row(ds.get(0), 6, 20), row(ds.get(1), 4, 16), row(ds.get(2), 12, Double.NaN));
        assertEquals(new AccuracySummary(3, 6.0, 0, 2, 2, 0), AccuracySummary.of(rows));
        AccuracySummary.WithChoice c = AccuracySummary.withChoice(rows, Map.of(ds.get(0).id(), new double[] {2.5, 14},
                ds.get(1).id(), new double[] {11, 16.5}));
        assertEquals(new AccuracySummary(3, 11.0, 1, 1, 2, 1), c.figures());
        assertEquals(2, c.profiled());
        assertEquals(2, c.profiledSmall());
        assertTrue(c.render().startsWith("Healthy datasets, with the shipped profile choice (each file predicted by"
                + " the profile fitted without it; 2 of 3 at >= 1 MiB and 2 of 2 below by a profile"), c.render());
    }

    /**
     * Three files: the two RTX PRO 6000 PCIe files (blackwell-1host-pcie, whose profile ships: see
     * configs/calibration/auto/INDEX.md) and the 4x V100 ABCI file (volta-1host-nvlink, one file here: no profile).
     * Healthy datasets at >= 1 MiB: the RTX PRO 6000 pr2080 file's patched run (its stock run's header says problem),
     * the wrx90 file's 4 (tables at lines 11 and 20, groups A and B), the V100 run: 6, of which the 5 RTX PRO 6000
     * ones by their class's profile refitted without their file. Below 1 MiB (the line-11 table starts at 1 MB): the
     * patched run (32K to 512K), the line-20 table's two groups (from 4 KB) and the V100 run (from 4 B): 4, 3 by
     * the profile.
     */
    @Test
    void shippedClassIsPredictedOutOfSampleTheOthersBare() throws Exception {
        List<Dataset> ds = new ArrayList<>();
        for (String f : List.of("A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt",
                "A-allreduce-1x8xRTXPRO6000-wrx90-cpayne-pcie-switches-torchdist-ring-nccl2.27.txt",
                "A-allreduce-1x4xV100-16GB-abci-vnode-nccl2.8.txt")) {
            ds.addAll(Corpus.read(f));
        }
        List<AccuracyRow> rows = new AccuracyRunner(Optional.empty()).bareOnly().run(ds);
        List<ProfileBuilder.ClassFit> fits = new ProfileBuilder(Optional.empty()).build(ds);
        AccuracySummary.WithChoice c = AccuracySummary.withChoice(rows, fits);
        assertEquals(6, c.figures().healthy());
        assertEquals(4, c.figures().healthySmall());
        assertEquals(5, c.profiled(), c.render());
        assertEquals(3, c.profiledSmall(), c.render());
    }

    private static AccuracyRow row(Dataset d, double large, double small) {
        return new AccuracyRow(d, "all_reduce / A100 SXM / 1 host", 5, large, Double.NaN,
                Optional.empty(), "", Double.isNaN(small) ? 0 : 4, small, small);
    }
}
