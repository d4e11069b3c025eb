package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.perf.PerfResult;
import dev.collsim.perf.PerfRow;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests' own busbw/algbw ratio outranks a rank count written in a title. The figures are rows of the public
 * OCI GB200 file (validation/src/test/resources/data/A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27
 * .txt), the factors by hand from nccl-tests 2.19.6 {@code src/all_reduce.cu} (2(n-1)/n) and {@code src/alltoall.cu}
 * ((n-1)/n).
 */
class FactorRanksTest {

    private static final Path GB200 = Path.of(
            "src/test/resources/data/A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt");

    private static PerfPoint row(long size, double algOop, double busOop, double algIp, double busIp, int line) {
        return new PerfPoint(new PerfRow("all_reduce", "float", "sum", -1, 0, size, size / 4,
                new PerfResult(size / algOop / 1e3, algOop, busOop, 0L),
                new PerfResult(size / algIp / 1e3, algIp, busIp, 0L), null), line);
    }

    /**
     * Lines 32-33, titled "2 hosts, single rack (8 GPUs)": 856.87 / 435.24 = 1.96873, 895.54 / 454.88 = 1.96874
     * (and the out-of-place pair alike) against 2 x 63 / 64 = 1.96875; 8 ranks would print 2 x 7 / 8 = 1.75.
     */
    @Test
    void theTwoHostRowsOfTheGb200FileWereRunOn64Ranks() {
        List<PerfPoint> rows = List.of(row(4294967296L, 434.77, 855.95, 435.24, 856.87, 32),
                row(8589934592L, 452.90, 891.64, 454.88, 895.54, 33));
        assertEquals(OptionalInt.of(64), FactorRanks.contradicted(Collective.ALL_REDUCE, 8, rows));
        assertEquals(OptionalInt.empty(), FactorRanks.contradicted(Collective.ALL_REDUCE, 64, rows),
                "a claim the ratios agree with stands");
    }

    /** Lines 24-25, 4 GPUs: 657.31 / 438.20 = 1.50002 = 2 x 3 / 4 within the rounding: the title's 4 stands. */
    @Test
    void aTitleTheRatiosConfirmStands() {
        List<PerfPoint> rows = List.of(row(4294967296L, 438.20, 657.31, 437.82, 656.73, 24),
                row(8589934592L, 442.22, 663.34, 441.30, 661.95, 25));
        assertEquals(OptionalInt.empty(), FactorRanks.contradicted(Collective.ALL_REDUCE, 4, rows));
    }

    /** Results that disagree on the count (one says 64, one 8) prove nothing: the claim stands. */
    @Test
    void resultsThatDisagreeLeaveTheClaim() {
        List<PerfPoint> rows = List.of(row(4294967296L, 434.77, 855.95, 435.24, 856.87, 32),
                row(8589934592L, 452.90, 792.58, 454.88, 796.04, 33));
        assertEquals(OptionalInt.empty(), FactorRanks.contradicted(Collective.ALL_REDUCE, 8, rows));
    }

    /** Claimed 8 ranks on 2 hosts (4 each) read as 64: 16 hosts; a claim with unequal hosts leaves them unknown. */
    @Test
    void hostsScaleWithTheRanksPerHost() {
        assertEquals(16, FactorRanks.hosts(8, 2, 64));
        assertEquals(0, FactorRanks.hosts(8, 3, 64));
        assertEquals(2, FactorRanks.hosts(8, 2, 8));
    }

    /** The reader applies it: the dataset at line 29 is 64 ranks on 16 hosts, with a warning naming line 29. */
    @Test
    void theReaderReadsTheTableCountAndWarns() throws Exception {
        Dataset d = MeasurementReader.read(GB200).stream().filter(x -> x.line() == 29).findFirst().orElseThrow();
        assertEquals(64, d.nRanks());
        assertEquals(16, d.nHosts());
        assertEquals(1, d.warnings().size(), d.warnings().toString());
        assertTrue(d.warnings().get(0).text().contains("says 8 ranks") && d.warnings().get(0).text().contains(
                "read as 64 ranks on 16 hosts"), d.warnings().get(0).text());
        List<Dataset> others = MeasurementReader.read(GB200).stream().filter(x -> x.line() != 29).toList();
        assertEquals(List.of(4, 128, 192, 4, 8, 64, 128, 192), others.stream().map(Dataset::nRanks).toList(),
                "every other run's ratios confirm its title");
    }
}
