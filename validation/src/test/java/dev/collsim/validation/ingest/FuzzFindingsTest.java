package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Inputs that crashed the readers when fuzzed (mutants of the public files, kept in src/test/resources/fuzz): each is
 * now one located problem of the file, never a NumberFormatException. Expected line and column were counted in the
 * files by hand (the first character of the offending value, 1-based).
 */
class FuzzFindingsTest {

    private static final Path DIR = Path.of("src/test/resources/fuzz");

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "c01-rank-pid-overflow.txt|13|25|Pid|'99999999999999999999' (too large)",
        "c02-rank-device-overflow.txt|14|50|device|9999999999",
        "c03-ngpus-overflow.txt|10|19|nGpus|99999999999",
        "c04-avg-two-points.txt|58|26|Avg bus bandwidth|'67.92.17'",
        "c05-info-ring-overflow.txt|37|53|ring order|99999999999",
        "c07-info-nranks-overflow.txt|34|64|nRanks|99999999999",
        "c17-header-nodes-x-gpus-overflow.txt|4|20|nodes_x_gpus|2147483648",
        "c18-avg-dash.txt|58|26|Avg bus bandwidth|'-'",
    })
    void numberTheFieldCannotTakeIsOneLocatedProblem(String file, int line, int column, String field, String found) {
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read(DIR.resolve(file)));
        assertEquals(1, e.problems().size(), e.problems().toString());
        var p = e.problems().get(0);
        assertEquals(DIR.resolve(file).toString(), p.file(), "the file as given");
        assertEquals(line, p.line());
        assertEquals(column, p.column());
        assertEquals(field, p.field());
        assertTrue(p.message().startsWith("found " + found + ";") && p.message().contains("allowed: "), p.message());
    }

    /** Double.parseDouble takes "Infinity"; a measured time never is, so the row is refused like "nan". */
    @Test
    void infiniteTimeIsRefusedAtItsCell() {
        InputException e = assertThrows(InputException.class,
                () -> MeasurementReader.read(DIR.resolve("s02-ncclt-time-Infinity.txt")));
        assertEquals(DIR.resolve("s02-ncclt-time-Infinity.txt") + ":45:57: time: found 'Infinity'; allowed: a finite number",
                e.problems().get(0).toString());
    }

    /**
     * An NCCL INFO line holding a 200,000-character word (the fuzz finding c16 used 40,000, which took 10-16 s with
     * a regular expression that rescanned the word from every start): read in linear time.
     */
    @Test
    void longTokenInAnInfoLineIsReadInLinearTime() throws Exception {
        String base = Files.readString(Path.of("src/test/resources/data/D-info-1x8-2x8xH100-aws-p5-eks-channels-excerpt.txt"));
        String big = "node02:23:69 [2] NCCL INFO " + "A".repeat(200_000) + "\n" + base;
        assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> MeasurementReader.read("long-token.txt", big));
    }

    /**
     * The fuzz finding c20 given to compare/diagnose as a measurement: a calibration YAML whose third line is 4,000,000
     * digits. The check for an NCCL line start inside a table row searched the whole line from each start (over 120 s
     * before it was anchored at its place): now refused at once as no nccl-tests output.
     */
    @Test
    void aFourMegabyteLineIsRefusedWithoutScanningIt() {
        String c20 = "schema: collsim-calibration/v1\ngeneration: HOPPER\n" + "9".repeat(4_000_000) + "\n";
        InputException e = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThrows(InputException.class,
                () -> MeasurementReader.read("c20.yaml", c20)));
        assertTrue(e.problems().get(0).toString().contains("no nccl-tests table"), e.problems().get(0).toString());
    }
}
