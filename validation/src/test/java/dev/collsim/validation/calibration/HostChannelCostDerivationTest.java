package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import dev.collsim.validation.ingest.PerfPoint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Works out from the measured files, without collsim's model, the figures of docs/launch-overhead.md section "A host
 * cost per channel under {@code -g G}?": why {@code HostLaunch} keeps one cost per GPU and call, whatever the call's
 * channel count.
 *
 * <p>Channels, worked by hand from NCCL 2.19.3 {@code src/enqueue.cc topoGetAlgoInfo} (lines 1224-1228: the count
 * drops while {@code nBytes < nc x nt x threadThreshold}; 2.8.4 the same, lines 308-312): a Ring/LL AllReduce has
 * nt = 512 threads ({@code NCCL_LL_MAX_NTHREADS}, {@code src/include/device.h} line 57) and a threshold of
 * {@code NCCL_LL_THREAD_THRESHOLD} 8 B x nRanks ({@code src/include/comm.h} line 34, {@code src/graph/tuning.cc}
 * lines 358-362) = 64 B on 8 ranks, so nc = nBytes / 32768 up to the 24 runtime channels of an A100 NVSwitch host:
 * 1 channel up to 32 KiB, 2, 4, 8, 16 at 64, 128, 256, 512 KiB, and 24 at every size from 1 MiB (LL128 and Simple
 * too).
 */
class HostChannelCostDerivationTest {

    private static final String THANOS = "A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt";

    /** One {@code -g 8} A100 run: file and line of its table. */
    private record Run(String file, int line) {
    }

    /** The four one-process A100 NVSwitch runs with sizes from 32 KiB to 512 KiB (dkh NCCL 2.19.3, ND v4 2.18.5). */
    private static final List<Run> G8_RUNS = List.of(new Run(THANOS, 25),
            new Run("A-allreduce-1x8xA100-80GB-sxm-dkh-g8-nccl2.19-8B-128M.txt", 28),
            new Run("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt", 25),
            new Run("A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-horovod-container-sweep.txt", 25));

    @Test
    void excessOverTheOneChannelFloorGrowsWithChannelsAtRatesSixTimesApart() throws Exception {
        double[] slopes = new double[G8_RUNS.size()];
        for (int i = 0; i < slopes.length; i++) {
            slopes[i] = slopePerChannel(points(G8_RUNS.get(i)));
        }
        // worked by hand (least squares of time on channels over the floor at 1 channel and 64-512 KiB at 2-16):
        // thanos floor 39.39, 40.97 / 42.26 / 43.97 / 48.31 us -> 0.556 us per channel per call; dkh floor 36.57,
        // 37.48 / 40.33 / 46.38 / 56.27 -> 1.335; ND A100 v4 (in place) floor 43.11, 42.48 / 44.54 / 45.38 / 47.69
        // -> 0.326; OCI floor 32.03, 35.40 / 38.50 / 45.21 / 58.96 -> 1.742
        assertEquals(0.556, slopes[0], 0.005);
        assertEquals(1.335, slopes[1], 0.005);
        assertEquals(0.326, slopes[2], 0.005);
        assertEquals(1.742, slopes[3], 0.005);
        double[] s = slopes.clone();
        Arrays.sort(s);
        // one rate for every host would be the median, 0.95 us per channel per call (0.12 per channel per GPU);
        // leaving one file out gives 0.556 or 1.335, and the hosts lie 5.3x apart
        assertEquals(0.945, (s[1] + s[2]) / 2, 0.005);
        assertTrue(s[3] / s[0] > 5, Arrays.toString(s));
    }

    @Test
    void hostCannotSetTheExcessFromOneMebibyte() throws Exception {
        // every call from 1 MiB runs all 24 channels, so one thread's launches cost the same per iteration at every
        // size from 1 MiB, and the measured 1 MiB time bounds that cost from above (thanos -g 8: 52.61 us, line 44).
        // At 4, 8, 16 MiB the -g 8 run takes 103.80, 162.60, 260.50 us against 81.66, 130.60, 213.30 under mpirun on
        // the same host (lines 95-97): above both, so its excess over mpirun is not the host's launches
        List<PerfPoint> g8 = points(new Run(THANOS, 25));
        List<PerfPoint> mpi = points(new Run(THANOS, 74));
        double hostBound = time(g8, 1 << 20);
        assertEquals(52.61, hostBound, 1e-9);
        for (long size : new long[] {4L << 20, 8L << 20, 16L << 20}) {
            double excess = time(g8, size) - time(mpi, size);
            assertTrue(excess > 20 && time(g8, size) > hostBound + 50, size + ": " + excess);
        }
        // and the excess is not added per call either: at 1 GiB the two launches take 8247.6 and 8244.5 us
        assertEquals(3.1, time(g8, 1L << 30) - time(mpi, 1L << 30), 1e-6);
    }

    /**
     * @return least-squares slope, us per added channel per call, of the measured time on NCCL 2.19.3's channel
     *         count: the floor (median time at sizes up to 32 KiB, one channel) and 64, 128, 256, 512 KiB (2-16)
     */
    private static double slopePerChannel(List<PerfPoint> pts) {
        double[] floor = pts.stream().filter(p -> p.sizeBytes() <= 32768).mapToDouble(p -> p.primary().timeUs())
                .toArray();
        List<double[]> xy = new ArrayList<>();
        xy.add(new double[] {1, FileMedians.median(floor)});
        for (long size = 65536; size <= 524288; size *= 2) {
            xy.add(new double[] {size / 32768.0, time(pts, size)});
        }
        double mx = xy.stream().mapToDouble(v -> v[0]).average().orElseThrow();
        double my = xy.stream().mapToDouble(v -> v[1]).average().orElseThrow();
        double sxy = 0;
        double sxx = 0;
        for (double[] v : xy) {
            sxy += (v[0] - mx) * (v[1] - my);
            sxx += (v[0] - mx) * (v[0] - mx);
        }
        return sxy / sxx;
    }

    private static double time(List<PerfPoint> pts, long size) {
        return pts.stream().filter(p -> p.sizeBytes() == size).mapToDouble(p -> p.primary().timeUs()).findFirst()
                .orElseThrow(() -> new AssertionError("no row at " + size));
    }

    private static List<PerfPoint> points(Run r) throws Exception {
        for (Dataset d : MeasurementReader.read(Path.of(Corpus.DIR.toString(), r.file()))) {
            if (d.line() == r.line()) {
                return Comparer.usable(d);
            }
        }
        throw new AssertionError("no table at " + r);
    }
}
