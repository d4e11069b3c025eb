package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PreparedCall;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.LaunchShape;
import dev.collsim.validation.ingest.MeasurementReader;
import dev.collsim.validation.ingest.PerfPoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The host launch of nccl-tests -g G in compare: read from the file, applied to its points, nothing else moved. */
class HostLaunchMeasuredTest {

    private final Comparer comparer = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);

    /**
     * Azure ND A100 v4, {@code #@ command: ... all_reduce_perf -b 8 -e 8G -f 2 -g 8 -n 40} (line 8): one thread
     * launches 8 kernels per iteration. Line 27, 1K at 0.04 GB/s busbw: time = 1024 B x 2 x 7/8 / 0.04 GB/s = 44.8 us;
     * collsim: 8 x 4.4 = 35.2 us (by hand), 21 % below, plus the first call's kernel over the 40 timed calls (at most
     * 35.2 / 40 = 0.88 us, {@code HostLaunch.fillUs}); line 29, 4K at 0.17 GB/s: 4096 x 1.75 / 0.17 = 42.2 us, so
     * collsim is (42.165 - 36.08) / 42.165 = 14.4 % to (42.165 - 35.2) / 42.165 = 16.5 % below. Without the host launch
     * collsim predicted about 22 us there (half the measurement).
     */
    @Test
    void azureA100EightGpusPerThreadFloor() throws Exception {
        Dataset d = Corpus.read("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt").get(0);
        assertEquals(new LaunchShape(1, 8, 0, 40), d.launch());
        DatasetComparison c = comparer.compare(d, Optional.empty());
        PointComparison p = c.points().get(0);
        assertEquals(1024, p.sizeBytes());
        assertEquals(27, p.line());
        assertEquals(44.8, p.measuredUs(), 0.01);
        assertTrue(p.predictedUs() > 35.2 && p.predictedUs() <= 35.2 + 35.2 / 40, "" + p.predictedUs());
        PointComparison k4 = c.points().get(2);
        assertEquals(29, k4.line());
        assertEquals(42.165, k4.measuredUs(), 0.01);
        assertTrue(k4.predictedUs() > 35.2 && k4.predictedUs() <= 35.2 + 35.2 / 40, "" + k4.predictedUs());
        assertTrue(k4.apePercent() >= 14.4 && k4.apePercent() < 16.6, "" + k4.apePercent());
        assertTrue(c.cluster().assumptions().stream().noneMatch(a -> a.startsWith("GPUs per process")));
        // compare says what it charged: 8 kernels of 4.4 us launched by one thread, 35.2 us per iteration (by hand)
        assertTrue(c.cluster().assumptions().contains("host launch: 8 GPUs per thread (nccl-tests -g 8), 35.2 us per"
                + " iteration on the host, overlapping the GPUs; the first call's launch skew spread over 40 timed"
                + " calls"), c.cluster().assumptions().toString());
    }

    /**
     * The dkh file (-g 8, line 15 "# nThread 1 nGpus 8 ... iters: 20") with nccl-tests' "# Blocking Enabled" line
     * added under its nThread line (as -z 1 prints it): by hand from HostLaunch, the 8 B row without it is host-bound,
     * 8 x 4.4 + K / 20 (K the kernel, below 35.2 us), so K = 20 x (t - 35.2); blocking calls pay 35.2 + 3.3 + K.
     */
    @Test
    void blockingLineChargesEveryCallItsLaunches() throws Exception {
        String text = Files.readString(Path.of("src/test/resources/data")
                .resolve("A-allreduce-1x8xA100-80GB-sxm-dkh-g8-nccl2.19-8B-128M.txt"));
        int eol = text.indexOf('\n', text.indexOf("# nThread"));
        String z = text.substring(0, eol + 1) + "# Blocking Enabled: wait for completion and barrier after each"
                + " collective \n" + text.substring(eol + 1);
        PointComparison plain = comparer.compare(MeasurementReader.read("dkh.txt", text).get(0), Optional.empty())
                .points().get(0);
        DatasetComparison zc = comparer.compare(MeasurementReader.read("dkh-z.txt", z).get(0), Optional.empty());
        PointComparison blocking = zc.points().get(0);
        assertTrue(zc.cluster().assumptions().stream().anyMatch(a -> a.startsWith("host launch: blocking calls")),
                zc.cluster().assumptions().toString());
        assertEquals(8, plain.sizeBytes());
        double k = 20 * (plain.predictedUs() - 35.2);
        assertTrue(k > 0 && k < 35.2, "8 B is host-bound without -z: kernel " + k);
        assertEquals(38.5 + k, blocking.predictedUs(), 1e-6);
    }

    /** nccl-tests' own line, {@code # nThread 1 nGpus 4 ... warmup iters: 5 iters: 20 agg iters: 1 ... graph: 0}. */
    @Test
    void nThreadLineGivesTheShape() throws Exception {
        Dataset d = Corpus.read("A-allreduce-1x4xRTX4090-p2p-driver-8gpu-box.txt").get(0);
        assertEquals(new LaunchShape(1, 4, 0, 20), d.launch(), "line 22");
        Dataset g1 = Corpus.read("A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt").get(0);
        assertEquals(new LaunchShape(1, 1, 0, 20), g1.launch(), "line 12: # nThread 1 nGpus 1 ... iters: 20 ...");
    }

    @Test
    void commandLineFlags() {
        assertEquals(new LaunchShape(1, 8, 0, 40), LaunchShape.fromCommand(
                "NCCL_ALGO=Ring ./build/all_reduce_perf -b 8 -e 8G -f 2 -g 8 -n 40 (in-place busbw column extracted)"));
        assertEquals(new LaunchShape(2, 4, 10, 20),
                LaunchShape.fromCommand("mpirun -np 2 all_gather_perf -t 2 -g 4 -G 10"));
        assertEquals(new LaunchShape(1, 1, 0, 20),
                LaunchShape.fromCommand("srun -N 2 ./build/all_reduce_perf -b 8 -e 1G"));
        // -n 5 iterations of -m 4 aggregated calls: 20 timed calls (nccl-tests divides by iters x agg_iters)
        assertEquals(new LaunchShape(1, 8, 0, 20), LaunchShape.fromCommand("all_reduce_perf -g 8 -n 5 -m 4"));
        // 999999 x 999999 calls overflow nccl-tests' int (and Java's): the count is not said, never a wrapped value
        assertEquals(new LaunchShape(1, 8, 0, 0), LaunchShape.fromCommand("all_reduce_perf -g 8 -n 999999 -m 999999"));
        assertEquals(new LaunchShape(1, 8, 0, 0), LaunchShape.fromCommand("all_reduce_perf -g 8 -n 0"));
        // mpirun's -n before the binary is not nccl-tests'; a text without a *_perf binary says nothing
        assertEquals(new LaunchShape(1, 2, 0, 20), LaunchShape.fromCommand("mpirun -n 8 -g 7 x all_reduce_perf -g 2"));
        assertFalse(LaunchShape.fromCommand("torchrun --nproc-per-node 8 bench.py").known());
        assertFalse(LaunchShape.fromCommand("").known());
        // a binary followed by words describes the run; its -g may be among the arguments left out
        assertFalse(LaunchShape.fromCommand("all_reduce_perf (sizes 1 MiB..8 GiB, x2 steps); exact args not shown")
                .known());
        assertFalse(LaunchShape.fromCommand("all_reduce_perf over 4 nodes, sizes 8M..128M").known());
        assertFalse(LaunchShape.fromCommand("run_nccl_tests.sh (nccl-tests all_gather_perf, warmup 50 iters 100)")
                .known());
        // a shell separator or a brace expansion after the binary is still a command line
        assertEquals(new LaunchShape(1, 2, 0, 20), LaunchShape.fromCommand("{all_reduce_perf|alltoall_perf} -g 2"));
        assertEquals(new LaunchShape(1, 1, 0, 20), LaunchShape.fromCommand("./build/all_reduce_perf; echo done"));
    }

    /**
     * The Talos DGX H100 file's header (line 8): {@code #@ command: all_reduce_perf (sizes 1 MiB..8 GiB, x2 steps);
     * exact args not shown}, with no {@code # nThread} line: the GPUs per process are not known, so compare says it
     * assumes one (it read the description as a complete command line, -g 1, and said nothing).
     */
    @Test
    void describedCommandLeavesTheLaunchUnknown() throws Exception {
        Dataset d = Corpus.read("A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt").get(0);
        assertEquals(LaunchShape.UNKNOWN, d.launch());
        DatasetComparison c = comparer.compare(d, Optional.empty());
        assertTrue(c.cluster().assumptions().stream().anyMatch(a -> a.startsWith("GPUs per process not given")),
                "" + c.cluster().assumptions());
    }

    /**
     * Every corpus dataset whose file says {@code -g 1} or nothing is predicted exactly as the simulator predicts a
     * plain call (no host launch) of the release its file is modelled with, so the change moves only runs with several
     * GPUs per thread.
     */
    @Test
    void oneGpuPerProcessLeavesEveryPredictionUnchanged() throws Exception {
        List<String> checked = new ArrayList<>();
        try (Stream<Path> files = Files.list(Corpus.DIR)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".txt")).sorted().toList()) {
                for (Dataset d : Corpus.read(f.getFileName().toString())) {
                    List<PerfPoint> pts = Comparer.usable(d);
                    Optional<ClusterGuess> c = ClusterGuesser.guess(d);
                    if (d.launch().gpusPerThread() > 1 || pts.isEmpty() || c.isEmpty()) {
                        continue;
                    }
                    NcclSettings env = NcclSettings.modelled(d.env());
                    List<PreparedCall> model = comparer.model(d, c.get(), env, pts);
                    NcclPredictor plain = new NcclPredictor(comparer.modelled(d), PerformanceParameters.DEFAULTS);
                    // the run's own release, as compare models it (a run before 2.12: its own ring steps)
                    PreparedCommunicator comm = plain.prepare(c.get().topology(), c.get().ranks(), env,
                            HeaderNcclVersion.runMinor(d, Optional.empty()));
                    DataType type = d.dataType() == null ? DataType.FLOAT : d.dataType();
                    for (int i = 0; i < pts.size(); i++) {
                        double expected = comm.call(d.collective(), pts.get(i).sizeBytes(), type, RedOp.SUM)
                                .timeUs(PerformanceParameters.DEFAULTS);
                        assertEquals(expected, model.get(i).timeUs(PerformanceParameters.DEFAULTS), 0, d.id());
                    }
                    checked.add(d.id());
                }
            }
        }
        assertTrue(checked.size() >= 30, checked.toString());
    }
}
