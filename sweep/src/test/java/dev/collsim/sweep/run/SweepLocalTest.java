package dev.collsim.sweep.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.plan.JobBuilder;
import dev.collsim.reports.plan.RankOrder;
import dev.collsim.reports.plan.StepPlanner;
import dev.collsim.reports.spec.ReportSpecReader;
import dev.collsim.reports.whatif.ReportData;
import dev.collsim.reports.whatif.ReportRunner;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.sweep.point.PointResult;
import dev.collsim.topology.Topology;
import dev.collsim.topology.edit.ClusterEditor;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.validation.calibration.ProfileSelector;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small sweep in Spark's local mode with 2 threads (one session for the class), every point compared with the same
 * point computed one by one through the report, predict and plan code paths.
 */
class SweepLocalTest {

    /** 2 hosts x 2 fabrics x 3 NCCL settings = 12 grid designs, then one listed variant; 2 workloads: 26 points. */
    static final String SPEC = """
            title: test sweep
            cluster: default
            grid:
              hosts: [1, 2]
              fabric: [fat-tree, single-switch]
              env: [{}, {NCCL_ALGO: Ring}, {NCCL_ALGO: CollNetDirect}]
            variants:
              - name: 2 hosts 2:1
                hosts: 2
                fabric: fat-tree
                leaf-radix: 8
                oversubscription: 2
            sweeps:
              - {collective: allreduce, min: 64M, max: 64M, datatype: bfloat16}
            plans:
              - name: 13B tp8 dp2
                params: 13B
                tp: 8
                dp: 2
                mfu: 0.4
                global-batch: 64
            cost:
              gpu: 25000 USD
              nic-port: 1500 USD
              switch-port: 1000 USD
              cable: 300 USD
            targets:
              - name: fast allreduce
                busbw: 100 GB/s
            """;

    @TempDir
    static Path dir;
    static SparkSession spark;
    static SweepRun.Result first;

    @BeforeAll
    static void run() throws Exception {
        spark = SparkSession.builder().master("local[2]").appName("SweepLocalTest").config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        Files.writeString(dir.resolve("s.yaml"), SPEC);
        first = SweepRun.run(options(dir.resolve("out")), new PrintWriter(new StringWriter()));
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    static SweepOptions options(Path out) {
        // chunks of 4 points: 7 Spark tasks, so designs are split across tasks and threads
        return new SweepOptions(dir.resolve("s.yaml"), out, "local[2]", 4, List.of(), Map.of(), true, false);
    }

    @Test
    void everyPointIsTheReportsNumberForTheSameVariant() throws Exception {
        assertEquals(26, first.rows().size());
        // the same designs written out by hand as report variants (CollNetDirect ones are checked below: a report
        // stops at them)
        StringBuilder report = new StringBuilder("cluster: default\nvariants:\n");
        for (String h : List.of("1", "2")) {
            for (String f : List.of("fat-tree", "single-switch")) {
                for (String env : List.of("{}", "{NCCL_ALGO: Ring}")) {
                    report.append("  - {name: \"h").append(h).append(' ').append(f).append(' ').append(env)
                            .append("\", hosts: ").append(h).append(", fabric: ").append(f).append(", env: ")
                            .append(env).append("}\n");
                }
            }
        }
        report.append("  - {name: listed, hosts: 2, fabric: fat-tree, leaf-radix: 8, oversubscription: 2}\n");
        report.append(SPEC.substring(SPEC.indexOf("sweeps:"), SPEC.indexOf("cost:")));
        ReportData data = new ReportRunner(new SimulatorResolver(), null, null)
                .run(ReportSpecReader.read("r.yaml", report.toString(), dir));
        int checked = 0;
        int skipped = 0;
        for (PointResult p : first.rows()) {
            String name = p.design() == 12 ? "listed" : "h" + p.axes().get(0) + " " + p.axes().get(1) + " "
                    + (p.axes().get(2).equals("-") ? "{}" : "{" + p.axes().get(2).replace("=", ": ") + "}");
            if (p.label().contains("CollNetDirect")) {
                // NCCL has no algorithm for the setting on this cluster; a plan on 1 host (8 GPUs) does not fit first
                boolean noFit = p.kind().equals("plan") && p.hosts() == 1;
                assertEquals(noFit ? PointResult.NO_FIT : PointResult.FAILED, p.status(), p.label());
                assertTrue(noFit || p.reason().contains("No algorithm/protocol available"), p.reason());
                continue;
            }
            if (p.kind().equals("collective")) {
                ReportData.SweepRow r = data.sweeps().stream().filter(s -> s.variant().equals(name)).findFirst()
                        .orElseThrow();
                assertEquals(r.timeUs(), p.timeUs(), name);
                assertEquals(r.busBw(), p.busBw(), name);
            } else if (p.hosts() != 1) {
                // a report variant that sets hosts scales its plans' dp to its GPUs (ReportRunner); a sweep keeps the
                // plan's dp, so only the base's host count is compared here (pointsMatchPredictAndPlanCalledDirectly
                // checks the others against PlanRows.row)
                skipped++;
                continue;
            } else {
                ReportData.PlanRow r = data.plans().stream().filter(s -> s.variant().equals(name)).findFirst()
                        .orElseThrow();
                assertEquals(r.fits() ? PointResult.OK : PointResult.NO_FIT, p.status(), name);
                assertEquals(r.fits() ? r.stepMs() : Double.NaN, p.stepMs(), name);
                assertEquals(r.fits() ? r.tokensPerS() : Double.NaN, p.tokensPerS(), name);
            }
            checked++;
        }
        // 26 points less 8 of CollNetDirect designs (4 designs x 2 workloads)
        assertEquals(18, checked + skipped);
    }

    @Test
    void pointsMatchPredictAndPlanCalledDirectly() throws Exception {
        // design "hosts=2 fabric=fat-tree env=NCCL_ALGO=Ring" is design 1 x 6 + 0 x 3 + 1 = 7: points 14 and 15
        Topology t = ClusterEditor.build(ClusterLoader.resolve("default", HardwareHints.NONE, null).spec(),
                new ClusterEdits(2, null, null, null, FabricKind.FAT_TREE, null, null, null));
        NcclSettings ring = NcclSettings.parse(Map.of("NCCL_ALGO", "Ring"));
        // a sweep point, as predict and plan, uses the profile shipped for the cluster's class (2 DGX H100:
        // hopper-infiniband, whose network efficiency moves this NIC-bound Ring)
        NcclPredictor direct = ProfileSelector.select(t).calibration().map(x -> new NcclPredictor(NcclVersion.DEFAULT,
                x.parameters())).orElseGet(NcclPredictor::new);
        double predict = direct.predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE,
                64L << 20, DataType.BFLOAT16, null, ring)).timeUs();
        PointResult c = first.rows().get(14);
        assertEquals("hosts=2 fabric=fat-tree env=NCCL_ALGO=Ring", c.label());
        assertEquals(predict, c.timeUs());
        JobBuilder b = new JobBuilder();
        b.params = "13B";
        b.tp = 8;
        b.dp = 2;
        b.mfu = 0.4;
        b.globalBatch = 64;
        double step = new StepPlanner(direct, ring, RankOrder.TP_PP_DP).plan(t, b.build(), Double.NaN)
                .stepUs() / 1e3;
        assertEquals(step, first.rows().get(15).stepMs());
        // 2 DGX H100, 16 NICs on one leaf (radix 32): 16 x 25000 + 16 x 1500 + 16 x 1000 + 16 x 300 USD
        assertEquals(444_800, c.cost(), 1e-6);
    }

    @Test
    void rerunResumesFromFinishedChunks() throws Exception {
        // a second output folder whose parts folder already holds chunks 0, 1 and 5 (as if interrupted)
        Path out2 = dir.resolve("out2");
        Path parts = SweepOutput.partsDir(out2);
        Files.createDirectories(parts);
        for (String f : List.of(PartStore.FINGERPRINT, PartStore.fileName(0), PartStore.fileName(1),
                PartStore.fileName(5))) {
            Files.copy(dir.resolve("out").resolve(SweepOutput.CHUNKS).resolve(f), parts.resolve(f));
        }
        SweepRun.Result again = SweepRun.run(options(out2), new PrintWriter(new StringWriter()));
        assertEquals(12, again.resumed());
        assertEquals(14, again.computed());
        assertEquals(first.rows(), again.rows());
        assertTrue(Files.notExists(parts), "the parts folder is removed once the output is written");
        // the finished folder resumes everything: nothing computed
        SweepRun.Result third = SweepRun.run(options(out2), new PrintWriter(new StringWriter()));
        assertEquals(26, third.resumed());
        assertEquals(0, third.computed());
        assertEquals(first.rows(), third.rows());
    }

    @Test
    void outputsHoldEveryPoint() throws Exception {
        Path out = dir.resolve("out");
        List<String> csv = Files.readAllLines(out.resolve("points.csv"));
        assertEquals(27, csv.size());
        assertTrue(csv.get(0).startsWith("point,design,label,grid_hosts,grid_fabric,grid_env,workload,"));
        var parquet = spark.read().parquet(out.resolve("points.parquet").toString());
        assertEquals(26, parquet.count());
        double t14 = parquet.filter("point = 14").select("time_us").first().getDouble(0);
        assertEquals(first.rows().get(14).timeUs(), t14);
        String html = Files.readString(out.resolve("index.html"));
        assertTrue(html.contains("echarts.init") && html.contains("Pareto front"));
        // the target: busbw >= 100 GB/s; the cheapest design meeting it is a 1-host one (8 GPUs, no fabric parts
        // counted beyond its 8 NICs)
        List<String> targets = Files.readAllLines(out.resolve("targets.csv"));
        assertTrue(targets.get(1).startsWith("fast allreduce,busbw >= 100.000 GB/s,"), targets.get(1));
    }
}
