package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Works {@code PerformanceParameters.launchOverheadUs} out again from the measured files it names, without collsim's
 * model: per dataset the floor (the minimum measured time at sizes up to 1 KiB, or at the smallest size when the
 * table starts above 1 KiB) less NCCL's latency worked out by hand from NCCL 2.30.7 {@code src/graph/tuning.cc}
 * (baseLat + hwLat per step, ../shared/nccl-model.md §2.2 and §2.4); median per file, then median over files. The
 * files are every healthy one-host file (no network in the call) whose floor the host cannot set (floor above G x
 * 6.0 us, G the GPUs of one process; 6.0 the highest per-GPU host rate {@code HostLaunch} records), as the javadoc
 * of {@code PerformanceParameters} lists them.
 */
class LaunchOverheadDerivationTest {

    /** One dataset: file, its line in the file, NCCL's latency for it in us, and the largest size of its floor. */
    private record Floor(String file, int line, double ncclLatencyUs, long upToBytes) {
    }

    /**
     * NCCL's latencies, us (NCCL 2.30.7 {@code tuning.cc}, ../shared/nccl-model.md §2.2 and §2.4; one host, so no
     * network term): Ring/LL AllReduce on 8 GPUs is 6.6 + 2 x (8 - 1) steps x hwLat; NVLink 0.6 (8x A100 SXM, thanos,
     * one process per GPU: 15.0), PCI 1.0 (8x RTX PRO 6000 PCIe: 20.6); Tree AllReduce on ppn PCIe GPUs is
     * baseLat + 2 x (ppn - 1) x hwLat[PCI][Tree]: LL128 (NCCL_PROTO=LL128) 14.0 + 2 x 1.9 on 2 L40S, Simple
     * (NCCL_PROTO=simple) 8.4 + 2 x 4.0 on 2 L40S and 8.4 + 2 x 3 x 4.0 = 32.4 on 4 L40S.
     */
    private static final List<Floor> FLOORS = List.of(
            new Floor("A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt", 74, 6.6 + 14 * 0.6, 1024),
            new Floor("A-allreduce-1x8xRTXPRO6000-wrx90-cpayne-pcie-switches-torchdist-ring-nccl2.27.txt", 20,
                    6.6 + 14 * 1.0, 4096),
            new Floor("A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt", 197, 14.0 + 2 * 1.9, 1024),
            new Floor("A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt", 241, 8.4 + 2 * 4.0, 1024),
            new Floor("A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt", 343, 8.4 + 2 * 3 * 4.0,
                    1024));

    /**
     * The fifth file is collsim's own run on two H200 with one process per GPU (data/device/h200x2-2proc-2026-11-29/
     * run4/2proc-all_reduce.rank0.txt lines 12-14: 9.63 / 9.34 / 10.43 us at 8 / 32 / 128 B, NCCL 2.28.3, out of
     * place), Ring/LL 6.6 + 2 x 0.6: floor 9.34 less 7.8 = 1.54 us.
     */
    private static final double H200_PAIR_US = 9.34 - (6.6 + 2 * 0.6);

    @Test
    void defaultIsTheMedianOverFilesOfFloorLessNcclLatency() throws Exception {
        List<String> files = new ArrayList<>();
        List<List<Double>> perFile = new ArrayList<>();
        for (Floor f : FLOORS) {
            int i = files.indexOf(f.file());
            if (i < 0) {
                files.add(f.file());
                perFile.add(new ArrayList<>());
                i = files.size() - 1;
            }
            for (double floor : floors(f)) {
                perFile.get(i).add(floor - f.ncclLatencyUs());
            }
        }
        double[] medians = new double[perFile.size() + 1];
        for (int i = 0; i < perFile.size(); i++) {
            medians[i] = FileMedians.median(perFile.get(i).stream().mapToDouble(Double::doubleValue).toArray());
        }
        medians[perFile.size()] = H200_PAIR_US;
        assertEquals(5, medians.length);
        double median = FileMedians.median(medians);
        // worked by hand from the files' lines: thanos 17.90 (line 78, 16 B, out of place) - 15.0 = +2.90; RTX PRO 6000 +0.09
        // (4 KiB: 23.89 and 17.48 us against 20.6); 2x L40S -2.64 (LL128 15.16) and +4.72 (Simple 21.12), median
        // +1.04; 4x L40S Simple 38.65 - 32.4 = +6.25; the H200 pair +1.54, the median
        assertEquals(1.54, median, 0.01);
        assertEquals(Math.round(median * 10) / 10.0, PerformanceParameters.DEFAULTS.launchOverheadUs(), 1e-9);
        // leaving any one file out: 1.29 (one of the two highest out), 1.97 (the H200 pair out) or 2.22 us (one of
        // the two lowest out)
        double[] range = FileMedians.leaveOneOutRange(medians);
        assertTrue(range[0] > 1.28 && range[1] < 2.23, "leave-one-out range " + Arrays.toString(range));
    }

    /**
     * @return per dataset at the floor's line (the RTX PRO 6000 table at line 20 holds two groups), the minimum
     *         measured time at sizes up to the floor's bound, us
     */
    private static List<Double> floors(Floor f) throws Exception {
        List<Double> out = new ArrayList<>();
        for (Dataset d : MeasurementReader.read(Path.of(Corpus.DIR.toString(), f.file()))) {
            if (d.line() == f.line()) {
                out.add(Comparer.usable(d).stream().filter(p -> p.sizeBytes() <= f.upToBytes())
                        .mapToDouble(p -> p.primary().timeUs()).min().orElseThrow(() -> new AssertionError(f)));
            }
        }
        assertTrue(!out.isEmpty(), f.toString());
        return out;
    }
}
