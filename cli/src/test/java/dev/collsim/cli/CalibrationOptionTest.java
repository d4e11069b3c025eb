package dev.collsim.cli;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.collsim.simulator.perf.PerformanceParameters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --calibration none} is the bare model; without the option the class's shipped choice is named. */
class CalibrationOptionTest {

    private static final Path DATA = Path.of("../validation/src/test/resources/data");

    private static List<String> rows(String out) {
        return out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }

    /**
     * predict with {@code --calibration none} gives exactly the times of the documented defaults written to a file
     * and passed explicitly (the bare model), on a two-host InfiniBand cluster, the class a profile would serve.
     */
    @Test
    void noneEqualsTheBareModel(@TempDir Path dir) throws Exception {
        Path defaults = dir.resolve("defaults.json");
        Files.writeString(defaults, new ObjectMapper().writeValueAsString(PerformanceParameters.DEFAULTS));
        String[] common = {"predict", "allreduce", "-c", "dgx-h100x2", "-b", "1K", "-e", "1G", "-f", "16"};
        CliRun none = run(concat(common, "--calibration", "none"));
        CliRun bare = run(concat(common, "--perf-params", defaults.toString()));
        assertEquals(0, none.code(), none.err());
        assertEquals(0, bare.code(), bare.err());
        assertEquals(rows(bare.out()), rows(none.out()));
        assertTrue(none.out().contains("--calibration none"), none.out());
    }

    /** compare names the choice on its first line: none, or the class's shipped profile or bare model. */
    @Test
    void compareNamesTheCalibration() {
        String f = DATA.resolve("A-allreduce-2x2xH100-dgx-ib.txt").toString();
        CliRun none = run("compare", "--summary", "--calibration", "none", "-m", f);
        assertEquals(0, none.code(), none.err());
        assertTrue(none.out().startsWith("calibration: none (bare model)"), none.out());
        CliRun auto = run("compare", "--summary", "-m", f);
        assertEquals(0, auto.code(), auto.err());
        String first = auto.out().lines().findFirst().orElse("");
        assertTrue(first.startsWith("calibration: ") && first.contains("hopper-infiniband"), first);
        assertFalse(first.contains("none (bare model)"), first);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
