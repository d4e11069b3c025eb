package dev.collsim.validation.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.ingest.HeaderNics;
import dev.collsim.validation.ingest.MeasurementReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The DGX H100 2 x 2 file (A-allreduce-2x2xH100-dgx-ib.txt), as a fresh user read it. Its line 5 says "NDR 400Gb IB,
 * one NIC per GPU" and its rank lines put ranks 0,1 on node01 and 2,3 on node02: 2 GPUs per host, so 2 x 400 Gb/s
 * NICs per host (diagnose once read 1). Its line 32, the 16384-byte row, has 291.4 us out-of-place against 24.76 us
 * in-place (291.4 / 24.76 = 11.77x), while the neighbouring sizes take 20.21 (8192 B) and 29.22 us (32768 B).
 */
class DgxH100NicsAndOutlierTest {

    private static Diagnoser.Diagnosis diagnose() throws Exception {
        Path p = Path.of("src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt");
        List<Diagnoser.Diagnosis> d = new Diagnoser().diagnose(MeasurementReader.read(p), Files.readAllLines(p));
        assertEquals(1, d.size());
        return d.get(0);
    }

    @Test
    void oneNicPerGpuIsTwoNicsPerHost() throws Exception {
        HeaderNics nic = diagnose().nic().orElseThrow();
        assertEquals(2, nic.count());
        assertEquals(400, nic.gbits());
        assertEquals(5, nic.line());
    }

    /**
     * Had the header said one NIC per host, 147.98 GB/s busbw (the file's peak) could not be true: an AllReduce host
     * sends and receives at least S over its NICs even with in-network reduction, so algbw <= 400/8 = 50 GB/s and
     * busbw <= 2(4-1)/4 x 50 = 75 GB/s (78.75 with 5% slack). With the header's 2 NICs the bound is 157.5: no warning.
     */
    @Test
    void oneNicPerHostCannotCarryThePeak() throws Exception {
        Path p = Path.of("src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt");
        String text = Files.readString(p).replace("one NIC per GPU", "one NIC per node");
        Diagnoser.Diagnosis d = new Diagnoser().diagnose(MeasurementReader.read(p.getFileName().toString(), text),
                List.of(text.split("\n"))).get(0);
        assertEquals(1, d.nic().orElseThrow().count());
        Finding f = d.findings().stream().filter(x -> x.kind() == Finding.Kind.ABOVE_PHYSICAL_BOUND).findFirst()
                .orElseThrow(() -> new AssertionError(d.findings().toString()));
        assertTrue(f.message().contains("147.98") && f.message().contains("78.8"), f.message());
        assertTrue(diagnose().findings().stream().noneMatch(x -> x.kind() == Finding.Kind.ABOVE_PHYSICAL_BOUND));
    }

    @Test
    void sixteenKibRowIsAnOutlier() throws Exception {
        Finding f = diagnose().findings().stream().filter(x -> x.kind() == Finding.Kind.OUTLIER).findFirst()
                .orElseThrow(() -> new AssertionError("no OUTLIER finding"));
        assertEquals(32, f.evidence().get(0).line());
        assertTrue(f.evidence().get(0).text().startsWith("16384"), f.evidence().toString());
        assertTrue(f.message().contains("291.4") && f.message().contains("24.8") && f.message().contains("11.8x"),
                f.message());
    }
}
