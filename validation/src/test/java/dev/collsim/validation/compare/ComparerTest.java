package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.PreparedCall;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** compare's bookkeeping: regimes, error arithmetic, cluster assumptions, agreement with the simulator facade. */
class ComparerTest {

    private final Comparer comparer = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);

    /**
     * Azure ND A100 v4 has 24 sizes 1K..8G (powers of two): 6 below 64 KiB (1K-32K), 11 from 64 KiB to 64 MiB
     * (65K-67M), 7 above (134M-8G).
     */
    @Test
    void regimeSplit() throws Exception {
        Dataset d = Corpus.read("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt").get(0);
        DatasetComparison c = comparer.compare(d, Optional.empty());
        assertTrue(c.compared());
        assertEquals(6, c.byRegime().get(Regime.LATENCY).n());
        assertEquals(11, c.byRegime().get(Regime.MID).n());
        assertEquals(7, c.byRegime().get(Regime.BANDWIDTH).n());
        assertEquals(14, c.atLeast1MiB().n(), "1M..8G");
        PointComparison p = c.points().get(23);
        assertEquals(Math.abs(p.predictedUs() - p.measuredUs()) / p.measuredUs() * 100, p.apePercent(), 1e-9);
        assertEquals(8589934592.0 / (231.58 / 1.75) / 1e3, p.measuredUs(), 1e-6);
        // the header's hardware line names "Azure ND96amsr_A100_v4": the catalog's instance, not the GPU's DGX
        assertTrue(c.cluster().assumptions().stream().anyMatch(a -> a.contains("standard_nd96amsr_a100_v4")));
    }

    /**
     * The compared points' prepared calls give exactly what the simulator's own facade predicts. The file states no
     * NCCL release; its date, 2025-03-04, attributes the newest tagged by then: 2.25.1 (tag v2.25.1-1 of 2025-01-27;
     * v2.26.2-1 followed on 2025-03-12), modelled by the 2.25-2.26 entry.
     */
    @Test
    void preparedCallsMatchPredictor() throws Exception {
        Dataset d = Corpus.read("A-allreduce-1x8-and-2x8xH100-ndr-issue-nccltests290.txt").get(1);
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        assertEquals(2, g.topology().hostCount());
        var pts = Comparer.usable(d);
        List<PreparedCall> pm = comparer.model(d, g, NcclSettings.modelled(d.env()), pts);
        assertEquals(NcclVersion.V2_25_1, comparer.modelled(d));
        NcclPredictor facade = new NcclPredictor(NcclVersion.V2_25_1, PerformanceParameters.DEFAULTS);
        for (int i = 0; i < pts.size(); i += 3) {
            PredictionRequest r = new PredictionRequest(g.topology(), g.ranks(), d.collective(), pts.get(i).sizeBytes(),
                    DataType.FLOAT, RedOp.SUM, NcclSettings.modelled(d.env()));
            assertEquals(facade.predict(r).timeUs(), pm.get(i).timeUs(PerformanceParameters.DEFAULTS), 1e-9);
        }
    }

    @Test
    void notComparableSaysWhy() throws Exception {
        // no catalog host type for GH200: the hosts are synthesized and the dataset compared
        Dataset gh = Corpus.read("A-allreduce-2x1xGH200-cscs-alps-slingshot-nccl2.30.txt").get(0);
        DatasetComparison c = comparer.compare(gh, Optional.empty());
        assertTrue(c.compared());
        assertTrue(c.cluster().assumptions().stream().anyMatch(a -> a.contains("GH200 host synthesized")),
                c.cluster().assumptions().toString());
        Dataset summary = Corpus.read(
                "A-summary-allgather-allreduce-alltoall-reducescatter-2x1-4x1xGB10-dgxspark-roce-multiswitch.txt").get(0);
        assertTrue(comparer.compare(summary, Optional.empty()).reason().contains("no per-size times"));
    }

    /**
     * The Tencent H20 VM run sets NCCL_NET_GDR_LEVEL=1 (its log: "set by environment to PIX") and its INFO log
     * shows {@code GDRDMA} on every NET connection (line 65): the real GPU-NIC paths were within PIX. The guessed
     * DGX-like host puts GPU and NIC at PXB, where PIX would turn GDR off (NCCL 2.30 {@code src/graph/paths.cc}
     * {@code ncclTopoCheckGdr}), so the log wins and the level is not applied; it is not listed as ignored either.
     */
    @Test
    void gdrOnInTheLogOverridesTheGdrLevel() throws Exception {
        Dataset d = Corpus.read("D-info-alltoall-2x2xH20-tencent-vm-roce-bond-nccl2.26-issue-nccltests321.txt").get(0);
        DatasetComparison c = comparer.compare(d, Optional.empty());
        assertTrue(c.compared(), c.reason());
        List<String> a = c.cluster().assumptions();
        assertTrue(a.stream().anyMatch(x -> x.contains("GPU Direct RDMA on as the NCCL INFO log says (line 65)")
                && x.contains("NCCL_NET_GDR_LEVEL=PIX not applied")), a.toString());
        assertTrue(a.stream().noneMatch(x -> x.startsWith("NCCL_NET_GDR_LEVEL ignored")), a.toString());
    }

    /**
     * The A100 PCIe pair prints its GPU-NIC distance on NCCL 2.16.5's GPU Direct RDMA line: run 2 (table at line 152)
     * {@code Disabled for GPU 81000 / HCA 0 (distance 6 > 4)} (line 146), run 4 (line 272) {@code Enabled ...
     * (distance 6 <= 7)} under NCCL_NET_GDR_LEVEL=SYS (line 265); 6 is PATH_PHB in 2.16.5 ({@code src/graph/topo.h}).
     * The synthesized host therefore puts the NIC on a CPU root port of its own (PHB), not on the GPU's switch, and
     * run 4's own level, which the log shows met on that path, is applied.
     */
    @Test
    void theLoggedGdrDistanceBuildsTheGuessedHost() throws Exception {
        List<Dataset> runs = Corpus.read(
                "A-allreduce-2x1xA100pcie-40GB-hdr-ib-gdr-off-vs-on-linear-steps-nccl2.16.txt");
        Dataset off = runs.stream().filter(d -> d.line() == 152).findFirst().orElseThrow();
        List<String> a = comparer.compare(off, Optional.empty()).cluster().assumptions();
        assertTrue(a.stream().anyMatch(x -> x.contains("GPU-NIC path PHB")), a.toString());
        assertTrue(a.stream().noneMatch(x -> x.contains("GPU-NIC path PIX")), a.toString());
        Dataset on = runs.stream().filter(d -> d.line() == 272).findFirst().orElseThrow();
        List<String> b = comparer.compare(on, Optional.empty()).cluster().assumptions();
        assertTrue(b.stream().anyMatch(x -> x.contains("NCCL_NET_GDR_LEVEL=SYS applied")), b.toString());
    }

    /**
     * The Dell XE9680 run sets NCCL_NET_GDR_LEVEL=1 (PIX) and has no NCCL INFO log; collsim guesses a catalog DGX H100,
     * whose GPU and NIC are PXB apart, where PIX would turn GDR off and stage every network byte through the CPU. The
     * level names a distance on the run's own paths, so on the guessed host it is not applied (and not listed as
     * ignored).
     */
    @Test
    void aGdrLevelIsNotJudgedOnGuessedPathsWithoutALog() throws Exception {
        Dataset d = Corpus.read("A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt").get(0);
        DatasetComparison c = comparer.compare(d, Optional.empty());
        assertTrue(c.compared(), c.reason());
        List<String> a = c.cluster().assumptions();
        assertTrue(a.stream().anyMatch(x -> x.startsWith("NCCL_NET_GDR_LEVEL=1 not applied: it names a distance")),
                a.toString());
        assertTrue(a.stream().noneMatch(x -> x.startsWith("NCCL_NET_GDR_LEVEL ignored")), a.toString());
    }

    /** A log with NCCL's TUNING choice lines: the predicted algorithm is checked against them. */
    @Test
    void algorithmCheckedAgainstLog() throws Exception {
        String text = """
                #@ hardware: DGX A100
                # Collective test starting: all_reduce_perf
                #  Rank  0 Group  0 Pid 1 on a device  0 [0x07] NVIDIA A100-SXM4-80GB
                #  Rank  1 Group  0 Pid 1 on a device  1 [0x0f] NVIDIA A100-SXM4-80GB
                a:1:1 [0] NCCL INFO 1048576 Bytes -> Algo 1 proto 2 time 30.000000
                a:1:1 [0] NCCL INFO 2097152 Bytes -> Algo 4 proto 2 time 40.000000
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                     1048576        262144     float     sum      -1    30.00   34.95   34.95      0    30.00   34.95   34.95      0
                     2097152        524288     float     sum      -1    40.00   52.43   52.43      0    40.00   52.43   52.43      0
                """;
        Dataset d = MeasurementReader.read("tuning.txt", text).get(0);
        DatasetComparison c = comparer.compare(d, Optional.empty());
        assertEquals(2, c.algorithmChecked());
        List<PointComparison> p = c.points();
        assertEquals("Ring", p.get(0).measuredAlgorithm());
        assertEquals("NVLS", p.get(1).measuredAlgorithm());
        assertTrue(p.get(1).algorithmMismatch(), "A100 has no NVLS, so the prediction cannot be NVLS");
    }

    /**
     * A hand-made 8-rank paste whose {@code #@ command} header names all_reduce_perf, with one all_gather row among
     * its all_reduce rows (line 19: redop none, size 16777216 = 8 ranks x 4 B x count 524288, busbw = algbw x 7 / 8).
     * nccl-tests prints each type/op/root apart ({@code -o all}), so the row is a dataset of its own, read as
     * all_gather; compare must say so among its assumptions, naming the claim's line and the row's file:line.
     */
    @Test
    void rowsContradictingTheCommandHeaderAreAnAssumption() throws Exception {
        StringBuilder ranks = new StringBuilder();
        for (int r = 0; r < 8; r++) {
            ranks.append(String.format("#  Rank %2d Group  0 Pid %d on h device %2d [0x%02x] NVIDIA H100 80GB HBM3%n",
                    r, 100 + r, r, 16 + r));
        }
        String text = "#@ command: mpirun -np 8 ./build/all_reduce_perf -b 1M -e 16M -f 4 -g 1\n"
                + "# nThread 1 nGpus 1 minBytes 1048576 maxBytes 16777216 step: 4(factor) warmup iters: 5 iters: 20"
                + " agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n" + ranks + """
                #
                #                                                              out-of-place                       in-place
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                     1048576        262144     float     sum      -1    20.00   52.43   91.75      0    20.00   52.43   91.75      0
                     4194304       1048576     float     sum      -1    40.00  104.86  183.50      0    40.00  104.86  183.50      0
                    16777216        524288     float    none      -1   100.00  167.77  146.80      0   100.00  167.77  146.80      0
                """;
        List<Dataset> ds = MeasurementReader.read("paste.txt", text);
        assertEquals(2, ds.size());
        assertEquals(Collective.ALL_REDUCE, ds.get(0).collective());
        assertEquals(Collective.ALL_GATHER, ds.get(1).collective());
        DatasetComparison c = comparer.compare(ds.get(1), Optional.empty());
        assertTrue(c.compared(), c.reason());
        List<String> a = c.cluster().assumptions();
        assertTrue(a.stream().anyMatch(x -> x.startsWith("the file claims all_reduce (#@ command, line 1) but the rows"
                + " at paste.txt:19 ") && x.contains("read as all_gather")), a.toString());
        List<String> agreed = comparer.compare(ds.get(0), Optional.empty()).cluster().assumptions();
        assertTrue(agreed.stream().noneMatch(x -> x.startsWith("the file claims")), agreed.toString());
    }

    @Test
    void errorStatsPercentiles() {
        ErrorStats s = ErrorStats.of(List.of(1.0, 2.0, 3.0, 4.0, 10.0));
        assertEquals(3.0, s.median(), 1e-12);
        assertEquals(10.0, s.max(), 0);
        assertEquals(5, s.n());
    }
}
