package dev.collsim.cli.validation;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * calibrate over a clean file and a copy of it whose every point from 1 MiB on took twice as long (a half-speed
 * link): the 2x2 DGX H100 AllReduce run, sizes 8 B to 8 GiB, of which 1 MiB to 8 GiB are 14 sizes (2^20 .. 2^33).
 * The copy's error at a size is (1 + e) / 2 - 1 where e is the clean file's, so it is beyond -20 % wherever e is
 * below +60 %: all 14 points measure slower than any fit that suits the clean file, and calibrate warns naming the
 * copy. The clean file with a copy 5 % slower everywhere disagrees by less than the 20 % rule: no warning.
 */
class CalibrateDisagreeingFilesTest {

    private static final Path DATA = Path.of("../validation/src/test/resources/data");

    @TempDir
    Path dir;

    /** The clean file with each time from {@code from} bytes on multiplied by {@code factor} (bandwidths divided). */
    private Path slowed(String name, long from, double factor) throws Exception {
        List<String> lines = Files.readAllLines(DATA.resolve("A-allreduce-2x2xH100-dgx-ib.txt"));
        Path f = dir.resolve(name);
        Files.writeString(f, lines.stream().map(l -> {
            String[] c = l.trim().split("\\s+");
            if (l.startsWith("#") || c.length != 13 || !c[0].matches("\\d+") || Long.parseLong(c[0]) < from) {
                return l;
            }
            for (int i : new int[] {5, 9}) {
                c[i] = String.format(Locale.ROOT, "%.2f", Double.parseDouble(c[i]) * factor);
            }
            for (int i : new int[] {6, 7, 10, 11}) {
                c[i] = String.format(Locale.ROOT, "%.2f", Double.parseDouble(c[i]) / factor);
            }
            return String.join("  ", c);
        }).collect(Collectors.joining("\n", "", "\n")));
        return f;
    }

    @Test
    void aHalfSpeedCopyIsNamed() throws Exception {
        Path clean = slowed("clean.txt", Long.MAX_VALUE, 1);
        Path half = slowed("half.txt", 1 << 20, 2);
        CliRun r = run("calibrate", "-m", clean.toString(), "-m", half.toString(), "-o",
                dir.resolve("p.yaml").toString(), "--fit", "latencyScale");
        assertEquals(0, r.code(), r.out() + r.err());
        List<String> warnings = r.err().lines().filter(l -> l.startsWith("collsim: warning: ")).toList();
        assertEquals(1, warnings.size(), r.err());
        assertTrue(warnings.get(0).startsWith("collsim: warning: half.txt:"), warnings.get(0));
        assertTrue(warnings.get(0).contains("its 14 points at >= 1 MiB all measure slower than the fit predicts"),
                warnings.get(0));
    }

    @Test
    void aFivePercentSlowerCopyIsNot() throws Exception {
        Path clean = slowed("clean.txt", Long.MAX_VALUE, 1);
        Path slower = slowed("slower.txt", 0, 1.05);
        CliRun r = run("calibrate", "-m", clean.toString(), "-m", slower.toString(), "-o",
                dir.resolve("p.yaml").toString(), "--fit", "latencyScale");
        assertEquals(0, r.code(), r.out() + r.err());
        assertFalse(r.err().contains("the files disagree"), r.err());
    }
}
