package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.spec.ReportSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The built-in what-if report with the real simulator on the default cluster (4 x DGX H100, eight 400 Gb/s NICs per
 * host, rail-optimized). Expected relations worked by hand from the hardware:
 * <ul>
 * <li>AllReduce busbw at 8 GiB on n = 32 ranks over k = 4 hosts is bounded by the NICs: every host must send at
 *     least 2(k-1)/k of the data, while busbw counts 2(n-1)/n of it, so busbw <= H (31/32)/(3/4): 516.67 GB/s for
 *     the base (H = 8 x 50 GB/s) and 258.33 GB/s with 200 Gb/s NICs (H = 200 GB/s); and no prediction exceeds its
 *     own physical bound.</li>
 * <li>1 host: NVLink only (no NIC): busbw above the NIC-bound multi-host figure.</li>
 * <li>2:1 fat-tree with 8 ports per leaf (timed by flow): each host's leaf has 200 GB/s of uplinks and a ring
 *     AllReduce sends 2(n-1)/n of the data out of every host, so busbw <= 200 GB/s, below the analytical base; its
 *     bound, any algorithm, is 258.33 GB/s (FabricBound's class comment).</li>
 * <li>The plans need 32 GPUs: they do not fit on 1 host (8 GPUs). A variant that sets hosts scales the plan's dp
 *     with the GPU count: on 32 hosts (256 GPUs) the dense plan's dp2 becomes 2 x 256/32 = 16 (global batch 128 /
 *     (b 1 x 16) whole) and the MoE plan's dp16 becomes 128 (256 / 128 whole, ep 8 | 128); on 1 host dp 2 x 8/32
 *     rounds to 0 (one tp8 pp2 replica is 16 GPUs) and the MoE plan's 16 x 8/32 = 4 is not a multiple of ep 8.</li>
 * </ul>
 */
class BuiltinReportTest {

    @Test
    void examplesCopyIsTheBuiltinSpec() throws IOException {
        Path example = Path.of("..", "examples", "whatif-default.yaml");
        assertEquals(Files.readString(example), BuiltinSpec.text(), "examples/whatif-default.yaml and the resource differ");
    }

    @Test
    void runsOnTheDefaultCluster() throws InputException {
        ReportSpec spec = BuiltinSpec.read();
        ReportData d = new ReportRunner(new SimulatorResolver(null), null, ProgressListener.NONE).run(spec);
        assertEquals(6, d.variants().size());
        double base = busBwAt8G(d, spec.variants().get(0).name());
        double slow = busBwAt8G(d, "NIC 200 Gb/s");
        double oneHost = busBwAt8G(d, "1 host");
        assertTrue(base <= 516.6667 * 1.0001, "8 x 400 Gb/s = 400 GB/s per host: " + base);
        assertTrue(slow <= 258.3334 * 1.0001, "8 x 200 Gb/s = 200 GB/s per host: " + slow);
        assertTrue(oneHost > base, "NVLink-only 1 host " + oneHost + " vs " + base);
        // 2:1 fat-tree, 8 ports per leaf: each host's 8 NICs fill a leaf whose uplinks carry 400 / 2 = 200 GB/s,
        // and every ring step sends the same bytes out of each host, so busbw <= 200 GB/s (FlowBackendReportTest
        // derives it); ECMP collisions can only lower it. Timed by flow, so below the analytical base.
        double fatTree = busBwAt8G(d, "2:1 fat-tree, 8 ports/leaf");
        assertTrue(fatTree <= 200.0 * 1.0001 && fatTree < base, "2:1 fat-tree " + fatTree + " vs base " + base);
        assertEquals("flow (ecmp, seed 0)", d.variants().get(2).backend());
        // the bound line sees the leaves' uplinks: 4 leaf groups of 200 GB/s, any algorithm allowed, n = 32:
        // U / (2 (G-1)) x 2(n-1)/n = 800 / 6 x 62/32 = 258.33 (FabricBound); the base's one rail-optimized unit
        // keeps its NICs' 400 x 4/3 x 31/32 = 516.67
        assertEquals(800.0 / 6 * 62 / 32, at8G(d, "2:1 fat-tree, 8 ports/leaf").boundBusBw(), 1e-6);
        assertEquals(400.0 * 4 / 3 * 31 / 32, at8G(d, spec.variants().get(0).name()).boundBusBw(), 1e-6);
        assertTrue(d.sweeps().stream().allMatch(r -> r.busBw() <= r.boundBusBw() * 1.0001),
                "no prediction above its physical bound");
        assertFalse(d.plans().stream().filter(p -> p.variant().equals("1 host")).findFirst().orElseThrow().fits());
        assertTrue(d.plans().stream().filter(p -> !p.variant().equals("1 host")).allMatch(p -> p.fits()
                && p.efficiency() > 0 && p.efficiency() <= 1));
        // '1 host' is a cluster of 8 GPUs: its 32-GPU plan does not fit, and the target search may not grow it to
        // more GPUs than it has (it once answered 'reached with 512 GPUs' after rebuilding the cluster)
        ReportData.TargetRow oneHostTarget = d.targets().stream().filter(t -> t.variant().equals("1 host")).findFirst()
                .orElseThrow();
        assertNull(oneHostTarget.gpus(), oneHostTarget.toString());
        assertNull(oneHostTarget.tokensPerS(), oneHostTarget.toString());
        assertTrue(oneHostTarget.note().contains("hosts: 1"), oneHostTarget.note());
        assertTrue(d.scaling().stream().filter(r -> r.variant().equals("1 host")).allMatch(r -> r.gpus() <= 8));
        List<ReportData.PlanRow> big = d.plans().stream().filter(p -> p.variant().equals("32 hosts")).toList();
        assertEquals(List.of(256, 256), big.stream().map(ReportData.PlanRow::gpus).toList());
        assertTrue(big.get(0).job().contains("dp=16 tp=8 pp=2") && big.get(1).job().contains("dp=128 tp=2"),
                big.toString());
        ReportData.PlanRow baseDense = d.plans().get(0);
        assertTrue(big.get(0).stepMs() < baseDense.stepMs() && big.get(0).tokensPerS() > baseDense.tokensPerS());
        List<ReportData.PlanRow> small = d.plans().stream().filter(p -> p.variant().equals("1 host")).toList();
        assertEquals("does not fit: needs 32 GPUs (dp=2 x tp=8 x pp=2), the cluster has 8; even dp=1 needs 16",
                small.get(0).notFitReason());
        assertTrue(small.get(1).notFitReason().endsWith("the cluster has 8; no dp of at most 4 (what fits) is"
                + " allowed: global batch 256 / (micro-batch 1 x dp) must be whole, dp a multiple of ep=8"),
                small.get(1).notFitReason());
        assertTrue(ReportSummary.text(ReportSummary.table(d)).contains(" ms at dp=16 "),
                ReportSummary.text(ReportSummary.table(d)));
        assertTrue(d.scaling().stream().anyMatch(r -> r.variant().equals("32 hosts") && r.gpus() == 256));
        assertFalse(ReportSummary.text(ReportSummary.table(d)).isBlank());
    }

    private static double busBwAt8G(ReportData d, String variant) {
        return at8G(d, variant).busBw();
    }

    private static ReportData.SweepRow at8G(ReportData d, String variant) {
        return d.sweeps().stream().filter(r -> r.variant().equals(variant) && r.collective().equals("AllReduce")
                && r.sizeBytes() == 8L << 30).findFirst().orElseThrow();
    }
}
