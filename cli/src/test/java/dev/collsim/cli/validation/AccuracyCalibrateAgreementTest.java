package dev.collsim.cli.validation;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.collsim.cli.CliRun;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.validation.calibration.FitParameter;
import dev.collsim.validation.calibration.Series;
import dev.collsim.validation.calibration.SeriesBuilder;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.ingest.MeasurementReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code collsim accuracy} and {@code collsim calibrate} give the same fit for the same data. Data: nccl-tests
 * AllReduce tables of A100-SXM4-80GB GPUs on one host (one accuracy class), 22 sizes from 1-4 KiB up, whose times
 * are collsim's prediction under known parameters (exact data, so the fit outcome follows from the rules; see
 * each test). Accuracy's row for the first file is fitted on the other two, so calibrate is run on those.
 */
class AccuracyCalibrateAgreementTest {

    /** GPUs of each file: three rank counts (NCCL's latencies differ between them). */
    private static final int[] MIXED_RANKS = {8, 4, 2};
    /** One rank count: NCCL's latency of one algorithm and protocol is then the same in every file. */
    private static final int[] EIGHT_RANKS = {8, 8, 8};

    /** nccl-tests text of an AllReduce on {@code gpus} A100s of one host; times in microseconds. */
    private static String table(int gpus, String env, long[] sizes, double[] timesUs) {
        StringBuilder sb = new StringBuilder("#@ hardware: " + gpus + "x A100-SXM4-80GB (synthetic)\n#@ nodes_x_gpus: 1x"
                + gpus + "\n" + (env.isEmpty() ? "" : "#@ env: " + env + "\n") + "# Collective test starting: "
                + "all_reduce_perf\n");
        for (int r = 0; r < gpus; r++) {
            sb.append(String.format(Locale.ROOT, "#  Rank %2d Group  0 Pid 1 on node01 device %2d [0x%02x] "
                    + "NVIDIA A100-SXM4-80GB%n", r, r, 16 + r));
        }
        sb.append("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   "
                + "algbw   busbw #wrong\n");
        for (int i = 0; i < sizes.length; i++) {
            double alg = sizes[i] / (1000.0 * timesUs[i]);
            double bus = alg * 2 * (gpus - 1) / gpus;
            String half = String.format(Locale.ROOT, "%12.3f %8.3f %8.3f      0", timesUs[i], alg, bus);
            sb.append(String.format(Locale.ROOT, "%12d %13d     float     sum      -1 %s %s%n", sizes[i],
                    sizes[i] / 4, half, half));
        }
        return sb.toString();
    }

    /**
     * Writes one file per entry of {@code gpus}, file k with sizes 2^k KiB x 2^i (22 sizes), times predicted
     * under {@code truth} (the model is built from the file itself, so its cluster and NCCL settings are the ones
     * accuracy and calibrate will use).
     */
    private static List<Path> write(Path dir, int[] gpus, String env, PerformanceParameters truth)
            throws Exception {
        Comparer comparer = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);
        List<Path> files = new ArrayList<>();
        for (int k = 0; k < gpus.length; k++) {
            int g = gpus[k];
            long[] sizes = new long[22];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = 1024L << (k + i);
            }
            String name = "synthetic-allreduce-" + k + "-1x" + g + "xA100.txt";
            double[] placeholder = new double[sizes.length];
            Arrays.fill(placeholder, 1000.0);
            var d = MeasurementReader.read(name, table(g, env, sizes, placeholder)).get(0);
            Series s = SeriesBuilder.of(d, Optional.empty(), comparer).orElseThrow();
            double[] t = new double[sizes.length];
            for (int i = 0; i < t.length; i++) {
                t[i] = s.calls().get(i).timeUs(truth);
            }
            Path f = dir.resolve(name);
            Files.writeString(f, table(g, env, sizes, t));
            files.add(f);
        }
        return files;
    }

    private static PerformanceParameters with(PerformanceParameters p, FitParameter f, double v) {
        return f.with(p, GpuGeneration.AMPERE, v);
    }

    /** @return the accuracy table row of the file, split into its cells */
    private static String[] row(String table, Path file) {
        String line = table.lines().filter(l -> l.startsWith("| " + file.getFileName())).findFirst().orElseThrow(
                () -> new AssertionError("no row for " + file + " in\n" + table));
        return line.split(" \\| ");
    }

    /** @return calibrate's fitted values of its accepted fit as "label value" (3 significant digits), in order */
    private static List<String> calibrateFit(CliRun r) {
        String accepted = r.out().substring(r.out().lastIndexOf("fitted on "));
        Matcher m = Pattern.compile("(?m)^  (\\w+)\\s+(\\S+) \\+- ").matcher(accepted);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(FitParameter.ofField(m.group(1)).label() + " "
                    + String.format(Locale.ROOT, "%.3g", Double.parseDouble(m.group(2))));
        }
        return out;
    }

    /**
     * NCCL_ALGO=Ring NCCL_PROTO=Simple, 8 ranks on one host in every file: NCCL's Ring/Simple latency is one
     * constant (it depends on the rank count, not the size; no multi-host plateau), so launch overhead and latency
     * scale change every time alike and every set holding both is refused as ill-conditioned (all,
     * launch+latScale+effSimple, launch+latScale); the fallback {effSimple} fits the data, generated with
     * effSimple 0.8, exactly. Accuracy must show that fallback and its refusals, calibrate must write the same fit.
     */
    @Test
    void refusedFullFitFallsBackAlikeInAccuracyAndCalibrate(@TempDir Path dir) throws Exception {
        List<Path> files = write(dir, EIGHT_RANKS, "NCCL_ALGO=Ring NCCL_PROTO=Simple",
                with(PerformanceParameters.DEFAULTS, FitParameter.BW_EFFICIENCY_SIMPLE, 0.8));
        CliRun acc = run("accuracy", dir.toString());
        assertEquals(0, acc.code(), acc.err());
        String[] cells = row(acc.out(), files.get(0));
        assertEquals("all_reduce / A100 SXM / 1 host", cells[1]);
        assertEquals("0.0", cells[4], "exact data refitted exactly: " + String.join(" | ", cells));
        assertEquals("effSimple 0.800", cells[5]);
        assertEquals("all: ill-conditioned; launch+latScale+effSimple: ill-conditioned; launch+latScale: "
                + "ill-conditioned", cells[6]);
        Path profile = dir.resolve("p.yaml");
        CliRun cal = run("calibrate", "-m", files.get(1).toString(), "-m", files.get(2).toString(), "-o",
                profile.toString());
        assertEquals(0, cal.code(), cal.out() + cal.err());
        assertTrue(cal.out().contains("accepted fallback effSimple"), cal.out());
        assertEquals(List.of(cells[5]), calibrateFit(cal));
        // one fitted parameter: each Levenberg-Marquardt step is the residuals plus a central difference, 3 passes
        Matcher steps = Pattern.compile("(\\d+) Levenberg-Marquardt steps \\((\\d+) passes of the model over the"
                + " points\\)").matcher(cal.out().substring(cal.out().lastIndexOf("fitted on ")));
        assertTrue(steps.find(), cal.out());
        assertTrue(Integer.parseInt(steps.group(1)) >= 1, cal.out());
        assertEquals(3 * Integer.parseInt(steps.group(1)), Integer.parseInt(steps.group(2)), cal.out());
        assertTrue(Files.readString(profile).contains("bwEfficiencySimple"), Files.readString(profile));
        // the profile's band is its own fit's residuals: exact data refitted exactly leaves none in either regime
        // (the times are printed to 0.001 us), where the bare model's band over every class is wide
        JsonNode band = new ObjectMapper(new YAMLFactory()).readTree(profile.toFile()).path("band");
        assertTrue(band.path("belowMiBPercent").asDouble(-1) >= 0 && band.path("belowMiBPercent").asDouble() < 0.05,
                band.toString());
        assertTrue(band.path("atLeastMiBPercent").asDouble(-1) >= 0 && band.path("atLeastMiBPercent").asDouble()
                < 0.05, band.toString());
        // the points calibrate counts inside are counted against the band as stored (2 decimals, here 0.00 %:
        // only points the fit meets to the printed digit), the band compare reads back: both count the same
        Matcher inside = Pattern.compile("; (\\d+) of 44 fitted points inside").matcher(cal.out()); // 2 files x 22
        assertTrue(inside.find(), cal.out());
        assertFalse(cal.out().contains("was fitted: the band there is the bare model's"), "both regimes fitted");
        CliRun cmp = run("compare", "-m", files.get(1).toString(), "-m", files.get(2).toString(), "--calibration",
                profile.toString(), "--summary");
        assertEquals(0, cmp.code(), cmp.err());
        Matcher back = Pattern.compile("inside the band: (\\d+) of 22 points").matcher(cmp.out());
        int readBack = 0;
        for (int n = 0; n < 2; n++) {
            assertTrue(back.find(), cmp.out());
            readBack += Integer.parseInt(back.group(1));
        }
        assertEquals(readBack, Integer.parseInt(inside.group(1)), cal.out() + cmp.out());
    }

    /**
     * A fit on sizes of 1 MiB and more only has no residual below 1 MiB: the profile takes the bare model's band over
     * every class there (configs/calibration/auto/bare-model-bands.yaml, {@code all}), and its own fit's (0, exact
     * data) at >= 1 MiB.
     */
    @Test
    void aRegimeWithoutFittedPointsTakesTheBareBandOverEveryClass(@TempDir Path dir) throws Exception {
        List<Path> files = write(dir, EIGHT_RANKS, "NCCL_ALGO=Ring NCCL_PROTO=Simple",
                with(PerformanceParameters.DEFAULTS, FitParameter.BW_EFFICIENCY_SIMPLE, 0.8));
        Path big = dir.resolve("big-only.txt");
        List<String> keep = Files.readAllLines(files.get(0)).stream().filter(l -> !l.matches("^\\s+\\d+ .*")
                || Long.parseLong(l.strip().split("\\s+")[0]) >= 1 << 20).toList();
        Files.write(big, keep);
        Path profile = dir.resolve("p.yaml");
        CliRun cal = run("calibrate", "-m", big.toString(), "-o", profile.toString(), "--fit", "BW_EFFICIENCY_SIMPLE");
        assertEquals(0, cal.code(), cal.out() + cal.err());
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode band = yaml.readTree(profile.toFile()).path("band");
        JsonNode all = yaml.readTree(Path.of("../configs/calibration/auto/bare-model-bands.yaml").toFile()).path("all");
        assertEquals(all.path("belowMiBPercent").asDouble(), band.path("belowMiBPercent").asDouble(), 1e-9);
        assertTrue(band.path("atLeastMiBPercent").asDouble() < 0.05, band.toString());
        assertTrue(cal.out().contains("fitted points inside; no point below 1 MiB was fitted: the band there is the"
                + " bare model's over every class"), cal.out());
    }

    /**
     * 8, 4 and 2 ranks, NCCL's own choices, exact data from launch 9 us, latScale 1.3, effSimple 0.9, effLL128 0.9,
     * effLL 0.8 (inside their ranges, efficiencies below 1): zero residual at the truth, so the fit of every
     * parameter is accepted with those values, no fallback. Accuracy's fitted column must equal calibrate's fit
     * of the same two files, parameter by parameter.
     */
    @Test
    void acceptedFullFitIsCalibratesFit(@TempDir Path dir) throws Exception {
        PerformanceParameters truth = with(with(with(with(with(PerformanceParameters.DEFAULTS,
                FitParameter.LAUNCH_OVERHEAD_US, 9.0), FitParameter.LATENCY_SCALE, 1.3),
                FitParameter.BW_EFFICIENCY_SIMPLE, 0.9), FitParameter.BW_EFFICIENCY_LL128, 0.9),
                FitParameter.BW_EFFICIENCY_LL, 0.8);
        List<Path> files = write(dir, MIXED_RANKS, "", truth);
        CliRun acc = run("accuracy", dir.toString());
        assertEquals(0, acc.code(), acc.err());
        String[] cells = row(acc.out(), files.get(0));
        assertEquals("-", cells[6], "no refused fit: " + String.join(" | ", cells));
        List<String> fitted = List.of(cells[5].split(", "));
        assertTrue(fitted.containsAll(List.of("launch 9.00", "latScale 1.30", "effSimple 0.900")), cells[5]);
        CliRun cal = run("calibrate", "-m", files.get(1).toString(), "-m", files.get(2).toString(), "-o",
                dir.resolve("p.yaml").toString());
        assertEquals(0, cal.code(), cal.out() + cal.err());
        assertTrue(!cal.out().contains("fallback"), cal.out());
        assertEquals(fitted, calibrateFit(cal));
    }
}
