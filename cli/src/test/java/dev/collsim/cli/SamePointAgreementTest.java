package dev.collsim.cli;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One point, four commands, one number: an AllReduce of 64 MiB (67,108,864 B) of float over the 16 GPUs of two
 * catalog DGX H100 hosts ({@code -c dgx-h100x2}), no NCCL settings, default performance parameters, timed by
 * {@code collsim predict}, {@code compare} (the 2-node run of nccl-tests issue 290, which has that size),
 * {@code plan} (a data-parallel job whose gradient AllReduce is that point: 16,777,216 parameters x 4-byte
 * gradients / (tp 1 x pp 1) = 67,108,864 B on dp = 16, one DP group, so no NIC sharing) and {@code report} (a sweep
 * of that one size). Each command prints its own precision (predict's CSV 0.001 us, compare 0.01 us, plan 0.1 us,
 * the report's CSV 1e-6 us), so they must agree with predict's time within half a unit of the coarser printed digit. All four go through the simulator's prepared
 * communicator; before, {@code report} could raise a point to a host-NIC floor {@code predict} did not apply.
 */
class SamePointAgreementTest {

    private static final Path RUN290 = Path.of("../validation/src/test/resources/data/"
            + "A-allreduce-1x8-and-2x8xH100-ndr-issue-nccltests290.txt");

    @Test
    void predictComparePlanAndReportGiveTheSameTime(@TempDir Path tmp) throws IOException {
        double predicted = predictUs("dgx-h100x2", "64M");
        assertTrue(predicted > 0);

        // compare: the 2-node run (16 ranks, float, sizes 8M..8G) of issue 290 alone
        List<String> file = Files.readAllLines(RUN290);
        int from = file.indexOf(file.stream().filter(l -> l.startsWith("### run 2")).findFirst().orElseThrow());
        int to = file.indexOf(file.stream().filter(l -> l.startsWith("### run 3")).findFirst().orElseThrow());
        Path measured = tmp.resolve("run2.txt");
        Files.write(measured, file.subList(from, to));
        CliRun compare = run("compare", "-m", measured.toString(), "-c", "dgx-h100x2");
        assertEquals(0, compare.code(), compare.err());
        String row = compare.out().lines().filter(l -> l.trim().startsWith("67108864 ")).findFirst().orElseThrow();
        assertEquals(predicted, Double.parseDouble(row.trim().split("\\s+")[2]), 0.0051, compare.out());

        assertEquals(predicted, planUs("dgx-h100x2", "16777216", 16, "64M"), 0.051);
        assertEquals(predicted, reportUs(tmp, "dgx-h100x2", "64M", 67108864L), 0.00051);
    }

    /**
     * A GB200 NVL72 rack (configs/gb200-nvl72.yaml: 18 trays of 4 GPUs, one NVLink domain, so one NCCL node):
     * AllReduce of 256 MiB over all 72 GPUs runs over NVLink only. predict, plan (67,108,864 parameters x 4 B on
     * dp = 72) and report agree; the report and the plan used to raise it to a floor of the trays' NICs
     * (2 (k-1)/k x 256 MiB over a tray's 4 x 50 GB/s with k = 18 trays: 2,535 us, about four times the NVLink
     * time), counting trays as hosts.
     */
    @Test
    void nvlinkDomainIsNotFlooredByTrayNics(@TempDir Path tmp) throws IOException {
        double predicted = predictUs("gb200-nvl72", "256M");
        assertTrue(predicted > 0 && predicted < 2 * 71 / 72.0 * 268435456 / 200e3, "NVLink time " + predicted);
        assertEquals(predicted, planUs("gb200-nvl72", "67108864", 72, "256M"), 0.051);
        assertEquals(predicted, reportUs(tmp, "gb200-nvl72", "256M", 268435456L), 0.00051);
    }

    private static double predictUs(String cluster, String size) {
        CliRun predict = run("predict", "allreduce", "-c", cluster, "-b", size, "-e", size, "--format", "csv");
        assertEquals(0, predict.code(), predict.err());
        List<String> lines = predict.out().lines().toList();
        int col = Arrays.asList(lines.get(0).split(",")).indexOf("time_us");
        return Double.parseDouble(lines.get(1).split(",")[col]);
    }

    /** us/call of the DP gradient AllReduce of a pure data-parallel job with 4-byte gradients. */
    private static double planUs(String cluster, String params, int dp, String size) {
        CliRun plan = run("plan", "-c", cluster, "--params", params, "--grad-reduce-dtype", "fp32", "--dp", String.valueOf(dp),
                "--global-batch", String.valueOf(dp), "--step-compute-ms", "10");
        assertEquals(0, plan.code(), plan.err());
        String row = plan.out().lines().filter(l -> l.trim().startsWith("DP gradient AllReduce")).findFirst()
                .orElseThrow();
        String[] f = row.trim().split("\\s+");
        assertEquals(size, f[6], row);
        return Double.parseDouble(f[8]);
    }

    private static double reportUs(Path tmp, String cluster, String size, long bytes) throws IOException {
        Path spec = tmp.resolve("point.yaml");
        Files.writeString(spec, "title: one point\ncluster: " + cluster + "\nsweeps:\n  - {collective: allreduce, min: "
                + size + ", max: " + size + ", factor: 2, datatype: float}\n");
        Path out = tmp.resolve("rep");
        CliRun report = run("report", spec.toString(), "-o", out.toString(), "--no-progress");
        assertEquals(0, report.code(), report.err());
        List<String> csv = Files.readAllLines(out.resolve("data/sweeps.csv"));
        int t = Arrays.asList(csv.get(0).split(",")).indexOf("timeUs");
        String point = csv.stream().filter(l -> l.contains("," + bytes + ",")).findFirst().orElseThrow();
        return Double.parseDouble(point.split(",")[t]);
    }
}
