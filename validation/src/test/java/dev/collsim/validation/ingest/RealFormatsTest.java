package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Real files that were refused or misread: sendrecv tables with nccl-tests 2.19.6's {@code sum -1} columns, the
 * {@code # collsim settings:} line before each table of the executor's settings sweeps, and rank lines whose middle
 * a vendor elided.
 */
class RealFormatsTest {

    private static final Path DEVICE = Path.of("../data/device");

    /**
     * nccl-tests 2.19.6's own sendrecv_perf on one H200 prints redop 'sum', root -1 and in-place #wrong N/A; the file
     * has 14 rows (8 B .. 1 GiB, x4), counted by hand.
     */
    @Test
    void ncclTestsSendrecvWithRedopColumns() throws Exception {
        for (String f : List.of("h200-nccl-tests-sendrecv.txt", "h200-collsim-sendrecv.txt")) {
            List<Dataset> ds = MeasurementReader.read(DEVICE.resolve(f));
            assertEquals(1, ds.size(), f);
            assertEquals(Collective.SEND_RECV, ds.get(0).collective(), f);
            assertEquals(1, ds.get(0).nRanks(), f);
            assertEquals(14, ds.get(0).points().size(), f);
        }
    }

    /** An all_reduce table (in-place #wrong checked) with the same columns stays all_reduce. */
    @Test
    void allReduceWithTheSameColumnsStaysAllReduce() throws Exception {
        Dataset d = MeasurementReader.read(DEVICE.resolve("h200-nccl-tests-all_reduce.txt")).get(0);
        assertEquals(Collective.ALL_REDUCE, d.collective());
    }

    /**
     * The executor's NCCL_MAX_NCHANNELS sweep on 2 H200s: four tables, each after a line
     * {@code # collsim settings: NCCL_MAX_NCHANNELS=n} with n = 2, 4, 8, 16 (lines 1, 35, 69, 103).
     */
    @Test
    void collsimSettingsLinesApplyToTheirTable() throws Exception {
        List<Dataset> ds = MeasurementReader.read(DEVICE.resolve("h200x2-2026-11-29/collsim-sweep-NCCL_MAX_NCHANNELS.txt"));
        List<String> got = new ArrayList<>();
        for (Dataset d : ds) {
            got.add(d.env().get("NCCL_MAX_NCHANNELS"));
        }
        assertEquals(List.of("2", "4", "8", "16"), got);
    }

    /**
     * GKE A4 all_gather, run 1: 16 rank lines on node01 (devices 0-7) and node02 (devices 0-7). With Rank 2 .. Rank 13
     * replaced by one '...' line (as vendors print long runs), the file still stands for 16 ranks (last index 15) on
     * 2 hosts (node02's device 7 is listed: 8 ranks a host; 16 / 8 = 2).
     */
    @Test
    void elidedRankLinesKeepRanksAndHosts() throws Exception {
        Path src = Path.of("src/test/resources/data/A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt");
        List<String> lines = Files.readAllLines(src);
        List<String> elided = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            int no = i + 1;
            if (no == 16) {
                elided.add("#  ...");
            }
            if (no < 16 || no > 27) {
                elided.add(lines.get(i));
            }
        }
        Dataset full = MeasurementReader.read("full.txt", String.join("\n", lines)).get(0);
        Dataset cut = MeasurementReader.read("elided.txt", String.join("\n", elided)).get(0);
        assertEquals(16, full.nRanks());
        assertEquals(2, full.nHosts());
        assertEquals(16, cut.nRanks());
        assertEquals(2, cut.nHosts());
        assertTrue(cut.notes().stream().anyMatch(n -> n.text().contains("rank lines elided: 4 listed")), cut.notes()::toString);
    }
}
