package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.NetworkClass;
import dev.collsim.validation.calibration.FileMedians;
import dev.collsim.validation.ingest.Corpus;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The RoCE class's line-rate share ({@code NetClassDefaults.ROCE_LINE_RATE_SHARE}, read here through
 * {@link PerformanceParameters#DEFAULTS}) against the measured rows it stands on: each row's busbw (the nccl-tests
 * column, read from the file at the named line) over the busbw the call's NICs carry at their line rate, worked out
 * by hand from the header's NICs and nccl-tests' bus factor (not from collsim's bound). The figure is their median
 * rounded to two decimals, and leaving any one run out moves the median by less than 0.005. The two GCP A3 Ultra
 * H200 AllGathers (325.72 and 325.52 GB/s busbw, 0.814 of 400) are not among the runs: their 16 ring channels bind
 * them (16 x 20.7 = 331.2 GB/s, {@code RingChannelRate}), so they bound the fabric's share from below.
 */
class RoceLineRateShareTest {

    /**
     * A measured row and the NIC busbw bound of its call.
     *
     * @param file  corpus file
     * @param line  1-based line of the row
     * @param size  the row's size column, bytes
     * @param bound busbw the NICs carry at line rate, GB/s
     */
    private record Run(String file, int line, String size, double bound) {
    }

    /** 2 x 8 B200, 8 x 400 Gb/s per node: NVLSTree AllReduce moves S per node, busbw = 2 (16 - 1) / 16 x 400. */
    private static final double B200_NVLSTREE = 2.0 * 15 / 16 * 400;
    /** 2 x 8 B200, 8 x 400 Gb/s: a Ring AllGather node receives (n - q) / n of S: busbw = 400. */
    private static final double B200_ALLGATHER = 400;
    /** 2 x 4 GB300, 4 x 800 Gb/s (400 GB/s per node): as B200. */
    private static final double GB300_ALLGATHER = 400;
    /** AllToAll, 64 GPUs per rack, one 400 Gb/s NIC each: busbw = 50 x n / (n - 64) x (n - 1) / n. */
    private static double gb200AllToAll(int n) {
        return 50.0 * n / (n - 64) * (n - 1) / n;
    }

    private static final String OCI = "A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt";
    private static final String B200_GIB = "A-allgather-2x8xB200-gcp-a4-gib-vm-nccl2.25.txt";
    private static final String GB300 = "A-allgather-2x4xGB300-gcp-a4xmax-gke-gib-cross-nvl-domain-nccl2.28.txt";

    private static final List<Run> RUNS = List.of(
            new Run("A-allreduce-2x8xB200-gcp-a4-roce-dstack-8M-8G.txt", 25, "8589934592", B200_NVLSTREE),
            new Run(B200_GIB, 39, "17179869184", B200_ALLGATHER),
            new Run(GB300, 51, "17179869184", GB300_ALLGATHER),
            new Run(GB300, 89, "8589934592", GB300_ALLGATHER),
            new Run(OCI, 83, "8589934592", gb200AllToAll(128)),
            new Run(OCI, 92, "8589934592", gb200AllToAll(192)));

    @Test
    void theFigureIsTheMedianOfTheMeasuredShares() {
        double[] shares = RUNS.stream().mapToDouble(RoceLineRateShareTest::share).toArray();
        double figure = PerformanceParameters.DEFAULTS.netProfile(NetworkClass.ROCE).bwFraction();
        // hand-read: 683.52/750, 377.38/400, 357.13/400, 360.42/400, 89.70/99.22, 62.49/74.61
        assertEquals(0.911, shares[0], 0.001);
        assertEquals(0.943, shares[1], 0.001);
        assertEquals(0.838, shares[5], 0.001);
        // (0.901 + 0.904) / 2, the middle two of six
        assertEquals(0.9025, FileMedians.median(shares), 0.001);
        assertEquals(Math.round(FileMedians.median(shares) * 100) / 100.0, figure, 1e-12);
    }

    @Test
    void leaveOneOutKeepsTheFigure() {
        double figure = PerformanceParameters.DEFAULTS.netProfile(NetworkClass.ROCE).bwFraction();
        double[] range = FileMedians.leaveOneOutRange(RUNS.stream().mapToDouble(RoceLineRateShareTest::share)
                .toArray());
        assertTrue(range[0] > figure - 0.005 && range[1] < figure + 0.005, "leave-one-out medians "
                + Arrays.toString(range));
    }

    @Test
    void gb200AllToAllBoundsByHand() {
        // 2 racks: a GPU sends 64/128 of S over its 50 GB/s NIC; busbw = algbw x 127/128
        assertEquals(99.22, gb200AllToAll(128), 0.005);
        // 3 racks: 128/192 of S
        assertEquals(74.61, gb200AllToAll(192), 0.005);
    }

    /** @return the row's busbw over its bound; the row may carry a launcher's prefix before its size */
    private static double share(Run r) {
        String row = Corpus.text(r.file()).split("\n", -1)[r.line() - 1];
        List<String> cells = Arrays.asList(row.trim().split("\\s+"));
        int at = -1;
        for (int i = 0; i < cells.size(); i++) {
            if (cells.get(i).endsWith(r.size())) {
                at = i;
                break;
            }
        }
        assertTrue(at >= 0, r.file() + ":" + r.line() + " holds no row of " + r.size() + " B: " + row);
        // size count type redop root time algbw busbw
        return Double.parseDouble(cells.get(at + 7)) / r.bound();
    }
}
