package dev.collsim.cli.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.collsim.cli.CliRun;
import dev.collsim.validation.calibration.CalibrationProfile;
import dev.collsim.validation.calibration.FitParameter;
import dev.collsim.validation.calibration.FittedValue;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 2x H200 profile (configs/calibration/h200x2-nv18-nccl2.28.yaml, docs/calibration-h200x2.md): the file says
 * the command that wrote it, its fitted values are estimates inside their ranges, and compare and predict read it.
 */
class H200x2ProfileCliTest {

    private static final Path DIR = Path.of("../data/device/h200x2-2026-11-29");
    private static final Path PROFILE = Path.of("../configs/calibration/h200x2-nv18-nccl2.28.yaml");

    /**
     * {@code calibrate -o} writes {@code generatedBy}: "collsim" and the arguments exactly as given, so the file
     * says how to remake it; the shipped profile carries the doc's command (its two fitted parameters).
     */
    @Test
    void calibrateWritesTheCommandIntoTheProfile(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("p.yaml");
        String[] args = {"calibrate", "-c", DIR.resolve("nccl-topo-dump.xml").toString(), "-o", out.toString(),
            "-m", DIR.resolve("collsim-all_reduce.json").toString(), "-m", DIR.resolve("collsim-sendrecv.json")
                .toString(), "--fit", "LAUNCH_OVERHEAD_US,LATENCY_SCALE"};
        CliRun r = CliRun.run(args);
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals("collsim " + String.join(" ", args), generatedBy(out));
        String shipped = generatedBy(PROFILE);
        assertTrue(shipped.startsWith("collsim calibrate -c data/device/h200x2-2026-11-29/nccl-topo-dump.xml -o "
                + "configs/calibration/h200x2-nv18-nccl2.28.yaml "), shipped);
        assertTrue(shipped.endsWith(" --fit LAUNCH_OVERHEAD_US,LATENCY_SCALE"), shipped);
    }

    private static String generatedBy(Path profile) throws Exception {
        return new ObjectMapper(new YAMLFactory()).readTree(profile.toFile()).path("generatedBy").asText();
    }

    /** Every fitted value of the shipped profile lies inside its fit range and not at a bound: an estimate. */
    @Test
    void fittedValuesAreInsideTheirRanges() throws Exception {
        List<FittedValue> fitted = CalibrationProfile.read(PROFILE).fitted();
        assertEquals(List.of("launchOverheadUs", "latencyScale"), fitted.stream().map(FittedValue::name).toList());
        for (FittedValue v : fitted) {
            FitParameter p = FitParameter.ofField(v.name());
            assertTrue(v.value() > p.lo() && v.value() < p.hi() && !v.atBound(), v.toString());
            assertTrue(v.sigma() > 0 && v.sigma() < 0.5 * Math.abs(v.value()), "determined: " + v);
        }
    }

    /**
     * compare reads the profile: it names it with its 3 datasets and 91 points (the fitted files' rows: AllReduce 31,
     * AllGather 31 less its 2 rows of size 0, Send/Recv 31), and the fitted launch overhead brings the 8 B AllReduce
     * near the run's small-size floor: the measured times at 8 B..32 KiB (collsim-all_reduce.txt lines 12-24, out
     * of place) have median 20.17 us; the calibrated prediction is within 20 % of it, the bare model's is not.
     */
    @Test
    void compareUsesTheProfile() {
        String[] common = {"compare", "-m", DIR.resolve("collsim-all_reduce.json").toString(), "-c",
            DIR.resolve("nccl-topo-dump.xml").toString(), "--nccl-version", "2.28", "--calibration"};
        CliRun cal = CliRun.run(concat(common, PROFILE.toString()));
        assertEquals(0, cal.code(), cal.err());
        assertTrue(cal.out().startsWith("calibration: " + PROFILE + " (fitted on 3 dataset(s), 91 points)"), cal.out());
        CliRun bare = CliRun.run(concat(common, "none"));
        assertEquals(0, bare.code(), bare.err());
        double floor = 20.17;
        assertTrue(Math.abs(predicted8(cal.out()) / floor - 1) < 0.20, cal.out());
        assertTrue(Math.abs(predicted8(bare.out()) / floor - 1) > 0.20, bare.out());
    }

    /**
     * The shipped profile is what its own command writes with today's model: {@code generatedBy} is run again (its
     * repository paths taken from this module) and every parameter, fitted or carried from the defaults, and the
     * band must come out as the file has it (fitted values to 1e-6 relative: the fit is deterministic). A model change that moves
     * the fit, or a changed default the profile still carries, fails here: re-run the command of
     * docs/calibration-h200x2.md and regenerate its tables ({@code docs/calibration-h200x2-table.sh}).
     */
    @Test
    void shippedProfileIsWhatItsCommandWritesToday(@TempDir Path tmp) throws Exception {
        String[] words = generatedBy(PROFILE).split(" ");
        assertEquals("collsim", words[0]);
        Path out = tmp.resolve("again.yaml");
        String[] args = new String[words.length - 1];
        for (int i = 1; i < words.length; i++) {
            String w = words[i];
            args[i - 1] = "-o".equals(words[i - 1]) ? out.toString()
                    : w.startsWith("data/") || w.startsWith("configs/") ? "../" + w : w;
        }
        CliRun r = CliRun.run(args);
        assertEquals(0, r.code(), r.out() + r.err());
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode shipped = yaml.readTree(PROFILE.toFile());
        JsonNode again = yaml.readTree(out.toFile());
        assertEquals(shipped.path("points"), again.path("points"));
        assertEquals(shipped.path("fittedOn"), again.path("fittedOn"));
        assertSame(shipped.path("parameters"), again.path("parameters"), "parameters");
        assertSame(shipped.path("band").path("belowMiBPercent"), again.path("band").path("belowMiBPercent"), "band");
        assertSame(shipped.path("band").path("atLeastMiBPercent"), again.path("band").path("atLeastMiBPercent"),
                "band");
    }

    /** Asserts two YAML trees equal, numbers to 1e-6 relative. */
    private static void assertSame(JsonNode want, JsonNode got, String where) {
        if (want.isNumber()) {
            assertTrue(got.isNumber() && Math.abs(got.asDouble() - want.asDouble())
                    <= 1e-6 * Math.max(1, Math.abs(want.asDouble())), where + ": shipped " + want + ", now " + got
                    + " (re-run the profile's generatedBy command: the model moved)");
            return;
        }
        assertEquals(want.size(), got.size(), where);
        if (want.isArray()) {
            for (int i = 0; i < want.size(); i++) {
                assertSame(want.get(i), got.get(i), where + "[" + i + "]");
            }
        } else if (want.isObject()) {
            want.fieldNames().forEachRemaining(f -> assertSame(want.get(f), got.path(f), where + "." + f));
        } else {
            assertEquals(want, got, where);
        }
    }

    /** predict reads the profile on the machine it was fitted for (same GPU generation): no warning, named. */
    @Test
    void predictUsesTheProfile() throws Exception {
        CliRun r = CliRun.run("predict", "-c", DIR.resolve("nccl-topo-dump.xml").toString(), "--calibration",
                PROFILE.toString(), "--nccl-version", "2.28", "allreduce", "-b", "8", "-e", "8");
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err().strip());
        assertTrue(r.out().contains("# Performance parameters: calibration: " + PROFILE), r.out());
        // and its band, as the profile's band fields give it (factor = 1 + percent / 100, two decimals)
        var band = new ObjectMapper(new YAMLFactory()).readTree(PROFILE.toFile()).path("band");
        assertTrue(r.out().contains(String.format(Locale.ROOT, "; band factor %.2f", 1 + band.path(
                "belowMiBPercent").asDouble() / 100)), r.out());
    }

    /** @return the predicted time of the 8 B row of compare's table, us */
    private static double predicted8(String out) {
        Matcher m = Pattern.compile("(?m)^ +8 +([0-9.]+) +([0-9.]+) ").matcher(out);
        assertTrue(m.find(), out);
        return Double.parseDouble(m.group(2));
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
