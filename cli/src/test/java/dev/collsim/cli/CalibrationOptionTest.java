package dev.collsim.cli;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.collsim.simulator.perf.PerformanceParameters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
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
        assertTrue(none.out().contains("; calibration: none (bare model)"), none.out());
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

    /**
     * report and tune take the option as predict does. A parameters file that raises launchOverheadUs by 100 us
     * over the default adds 100 us to every call (the per-call fixed overhead), so the report's 1 MiB
     * AllReduce on one DGX H100 takes the bare model's time + 100 us, the time predict prints with the same file;
     * the report names the file on its calibration line and in the variants table; none and auto print the line
     * the other commands print.
     */
    @Test
    void reportAndTuneTakeTheOptionAsPredictDoes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("slow-launch.yaml");
        double slow = PerformanceParameters.DEFAULTS.launchOverheadUs() + 100;
        Files.writeString(file, "launchOverheadUs: " + slow + "\n");
        Path spec = dir.resolve("one.yaml");
        Files.writeString(spec, "cluster: dgx-h100\nsweeps:\n  - {collective: allreduce, min: 1M, max: 1M, datatype: "
                + "float}\n");
        CliRun rep = run("report", spec.toString(), "-o", dir.resolve("r").toString(), "--no-progress",
                "--calibration", file.toString());
        assertEquals(0, rep.code(), rep.err());
        assertTrue(rep.out().contains("\ncalibration: " + file.toAbsolutePath() + "\n"), rep.out());
        String csv = Files.readAllLines(dir.resolve("r/data/sweeps.csv")).get(1);
        double reportUs = Double.parseDouble(csv.split(",")[5]);
        String[] p = {"predict", "allreduce", "-c", "dgx-h100", "-b", "1M", "-e", "1M"};
        double withFile = time(run(concat(p, "--calibration", file.toString())));
        double bare = time(run(concat(p, "--calibration", "none")));
        assertEquals(withFile, reportUs, 0.005, csv);
        assertEquals(bare + 100, reportUs, 0.01, csv);
        assertTrue(Files.readString(dir.resolve("r/index.html")).contains("<td class=l>slow-launch.yaml</td>"));
        CliRun none = run("report", spec.toString(), "-o", dir.resolve("n").toString(), "--no-progress",
                "--calibration", "none");
        assertTrue(none.out().contains("\ncalibration: none (bare model)\n"), none.out());
        CliRun tune = run("tune", "-c", "dgx-h100", "-e", "1M", "--calibration", "none", "allreduce");
        assertEquals(0, tune.code(), tune.err());
        assertTrue(tune.out().startsWith("calibration: none (bare model)\n"), tune.out());
        CliRun auto = run("tune", "-c", "dgx-h100", "-e", "1M", "--calibration", "auto", "allreduce");
        assertEquals(0, auto.code(), auto.err());
        assertTrue(auto.out().startsWith("calibration: none shipped for hopper-1host-nvswitch"), auto.out());
    }

    /** @return the time (us) of the one size predict printed */
    private static double time(CliRun r) {
        assertEquals(0, r.code(), r.err());
        return Double.parseDouble(rows(r.out()).get(0).trim().split(" +")[5]);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * A mistyped word after --calibration (nonee, atuo) is no file: the message lists what the option takes and the
     * word likely meant (exit 3 as for any missing file), the same in predict, compare and tune.
     */
    @Test
    void aMistypedWordIsToldWhatTheOptionTakes() {
        for (String[] cmd : new String[][] {{"predict", "-c", "dgx-h100", "-b", "1M", "-e", "1M", "allreduce"},
            {"compare", "-m", "../validation/src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt"},
            {"tune", "-c", "dgx-h100", "-e", "1M", "allreduce"}}) {
            String[] args = Stream.concat(Arrays.stream(cmd), Stream.of("--calibration", "nonee"))
                    .toArray(String[]::new);
            CliRun r = run(args);
            assertEquals(ExitCodes.INPUT, r.code(), cmd[0] + ": " + r.err());
            assertTrue(r.err().contains("nonee: no such file (given to --calibration; allowed: none, auto or a"
                    + " calibration profile file; did you mean 'none'?)"), cmd[0] + ": " + r.err());
        }
    }
}
