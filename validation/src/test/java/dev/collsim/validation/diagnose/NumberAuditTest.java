package dev.collsim.validation.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.HeaderNics;
import dev.collsim.validation.ingest.MeasurementReader;
import dev.collsim.validation.tune.TunerConfigFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Call sites found by the audit of Integer.parseInt / Double.parseDouble on user text: a digit run too long for an
 * int in an NCCL tuning line, a header's NIC count or an lspci link line was a NumberFormatException (exit 1). The
 * file is the s05 reproducer (a public nccl-tests table) with one line added at the top.
 */
class NumberAuditTest {

    private static final Path S05 = Path.of("src/test/resources/fuzz/s05-ncclt-negative-time.txt");

    private static String withFirstLine(String line) throws Exception {
        return line + "\n" + Files.readString(S05);
    }

    /** NCCL prints the algorithm as an index; an index beyond an int is a located refusal of the line. */
    @Test
    void algorithmIndexBeyondAnIntIsRefused() {
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read("t.txt", withFirstLine(
                "node01:1:1 [0] NCCL INFO AllReduce: 1024 Bytes -> Algo 99999999999 proto 2 time 10.5")));
        assertEquals(1, e.problems().size(), e.problems().toString());
        assertEquals(1, e.problems().get(0).line());
        assertEquals("Algo", e.problems().get(0).field());
        assertEquals("found 99999999999; allowed: a whole number from 0 to 2147483647", e.problems().get(0).message());
    }

    /** An lspci line with a width beyond 3 digits is not a PCIe link (no finding, no crash); x8 under x16 is one. */
    @Test
    void lspciWidthBeyondThreeDigitsIsNotEvidence() throws Exception {
        String cap = "#   LnkCap: Port #0, Speed 16GT/s, Width x16";
        String bad = withFirstLine(cap + "\n#   LnkSta: Speed 16GT/s, Width x99999999999");
        assertTrue(diagnose(bad).stream().noneMatch(f -> f.kind() == Finding.Kind.PCIE_DOWNGRADED));
        String x8 = withFirstLine(cap + "\n#   LnkSta: Speed 16GT/s, Width x8");
        assertTrue(diagnose(x8).stream().anyMatch(f -> f.kind() == Finding.Kind.PCIE_DOWNGRADED));
    }

    /** A header NIC count beyond 4 digits is not read as a count (it was parsed as an int and crashed). */
    @Test
    void headerNicCountBeyondFourDigitsIsNotACount() {
        assertTrue(HeaderNics.parse("99999999999x 400G", 3).map(n -> n.count() != 9999).orElse(true));
        assertEquals(8, HeaderNics.parse("8x 400G NDR", 3).orElseThrow().count());
    }

    /**
     * A tuner-config line whose min_bytes has 19 digits beyond a long (NCCL reads them as unsigned 64-bit): the check
     * compares min and max without overflow instead of throwing. 9999999999999999999 <= 9999999999999999999.
     */
    @Test
    void tunerConfigSizesBeyondALongAreCompared() {
        List<String> p = TunerConfigFile.problems(List.of(
                "allreduce,9999999999999999999,9999999999999999999,ring,simple,-1,-1,-1,-1,-1"));
        assertTrue(p.stream().noneMatch(x -> x.contains("max_bytes")), p.toString());
        List<String> q = TunerConfigFile.problems(List.of(
                "allreduce,9999999999999999999,9999999999999999998,ring,simple,-1,-1,-1,-1,-1"));
        assertTrue(q.stream().anyMatch(x -> x.contains("max_bytes")), q.toString());
    }

    private static List<Finding> diagnose(String text) throws Exception {
        List<Dataset> ds = MeasurementReader.read("t.txt", text);
        return new Diagnoser().diagnose(ds, List.of(text.split("\n", -1))).get(0).findings();
    }
}
