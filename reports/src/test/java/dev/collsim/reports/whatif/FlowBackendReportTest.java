package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Fabric what-ifs timed by the flow backend, end to end (spec, real clusters, NCCL model, flow simulation), on the
 * default cluster: 4 DGX H100 (8 GPUs and eight 400 Gb/s = 50 GB/s NICs per host), rebuilt as a fat-tree with 8
 * host ports per leaf, so each host's 8 NICs fill one leaf and every ring hop between hosts crosses the spines.
 *
 * <p>Expected busbw of the 2:1 variant, by hand. The leaf has 8 x 50 = 400 GB/s down; at 2:1 its uplinks carry
 * {@code U = 400 / 2 = 200 GB/s} (FabricBuilder: U = d s / oversubscription, d = 8 used ports, s = 50 GB/s). Ring
 * AllReduce (forced with NCCL_ALGO=Ring) on n = 32 ranks and C channels: in each of the 2(n-1) steps every channel
 * crosses from each host to the next once, sending {@code b = S / (n C)} bytes; all C flows leaving a host go up
 * through its leaf's uplinks, and with spray routing each splits evenly over them, so the max-min fair share is
 * {@code U / C} per flow (the NIC share 50 / (C / 8) = 400 / C GB/s is twice that, so the uplinks limit). A step
 * lasts {@code b / (U / C) = S / (n U)}, the collective {@code T = 2(n-1) S / (n U)}, and busbw = S / T x 2(n-1)/n
 * = U = 200 GB/s, whatever C is. Route latency adds a few microseconds per step to 1342 us (S = 8 GiB: S / (32 x
 * 200 GB/s)), so the simulated busbw lies in [0.99 U, U]. That is below the analytical model's busbw on the 1:1
 * cluster (NCCL's Ring/Simple at about 330 GB/s), so the fabric sets the time; the analytical variant on 2:1 is held
 * to the same U (FabricBound's Ring form: every ring leaves every leaf) and gives exactly 200 GB/s.
 *
 * <p>With 1:1 uplinks (U = 400 GB/s) the same derivation gives 400 GB/s, above the analytical busbw: nothing in
 * the fabric limits, and the flow-timed variant must equal the analytical base exactly.
 */
class FlowBackendReportTest {

    private static final String SPEC = """
            cluster: default
            variants:
              - name: 1:1 fat-tree
                fabric: fat-tree
                oversubscription: 1
                leaf-radix: 8
                env: {NCCL_ALGO: Ring}
                backend: flow
                routing: spray
              - name: 2:1 fat-tree
                fabric: fat-tree
                oversubscription: 2
                leaf-radix: 8
                env: {NCCL_ALGO: Ring}
                backend: flow
                routing: spray
              - name: 2:1 fat-tree, analytical
                fabric: fat-tree
                oversubscription: 2
                leaf-radix: 8
                env: {NCCL_ALGO: Ring}
            sweeps:
              - collective: allreduce
                min: 8G
                max: 8G
            """;

    private static ReportData.SweepRow at8G(ReportData d, String variant) {
        return d.sweeps().stream().filter(r -> r.variant().equals(variant)).findFirst().orElseThrow();
    }

    @Test
    void oversubscriptionSlowsTheFlowVariantToTheUplinkShare() throws InputException {
        ReportSpec spec = ReportSpecReader.read("flow.yaml", SPEC.replace("cluster: default\n",
                "cluster: default\nbase-name: base\n"), Path.of("."));
        ReportData d = new ReportRunner(new SimulatorResolver(null), null, ProgressListener.NONE).run(spec);
        ReportData.SweepRow base = at8G(d, "base");
        ReportData.SweepRow one = at8G(d, "1:1 fat-tree");
        ReportData.SweepRow two = at8G(d, "2:1 fat-tree");
        ReportData.SweepRow analytical = at8G(d, "2:1 fat-tree, analytical");
        assertEquals("Ring", two.algorithm());
        assertTrue(two.busBw() <= 200.0 * (1 + 1e-9) && two.busBw() >= 0.99 * 200.0, "hand: U = 200 GB/s, got "
                + two.busBw());
        assertEquals("flow", two.backend(), two.bottleneck());
        assertTrue(two.timeUs() > base.timeUs() * 1.5, "2:1 " + two.timeUs() + " us vs base " + base.timeUs());
        // the analytical backend holds the Ring to the uplinks too: 8 GiB x 62/32 / 200 GB/s = 83,214.99 us
        assertEquals(8_589_934_592.0 * 62 / 32 / 200e3, analytical.timeUs(), 1e-6);
        assertEquals(200.0, analytical.busBw(), 1e-9);
        assertTrue(analytical.bottleneck().startsWith("fabric leaf uplinks"), analytical.bottleneck());
        assertEquals("analytical", analytical.backend());
        assertTrue(base.busBw() < 400.0 * 0.99 && base.busBw() > 200, "precondition: analytical between the two"
                + " fabric limits, got " + base.busBw());
        assertEquals(base.timeUs(), one.timeUs(), 0.0, "1:1: the fabric does not limit, so the analytical time");
        assertEquals("analytical", one.backend(), one.bottleneck());
        assertTrue(one.bottleneck().contains("the fabric does not limit"), one.bottleneck());
        assertEquals("flow (spray)", d.variants().get(2).backend());
        assertEquals("analytical", d.variants().get(0).backend());
    }
}
