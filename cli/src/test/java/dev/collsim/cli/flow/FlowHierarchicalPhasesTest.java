package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hierarchical schedule (what NVLS and NVLSTree are simulated as) runs its three phases one after the other, as
 * docs/flow-backend.md says: its time is the sum of the phases worked out by hand, which is why a flow-timed variant
 * of a multi-host NVLS cluster can be slower than the analytical time with no link shared at all.
 */
class FlowHierarchicalPhasesTest {

    /**
     * AllReduce of S = 256 MiB = 268,435,456 B on 4 DGX H100 (8 GPUs, 8 x 400 Gb/s NICs per host), by hand:
     * intra-host ReduceScatter: each GPU sends 7/8 x S over its 18 NVLink4 = 450 GB/s (DGX H100 User Guide):
     * 234,881,024 B / 450e9 = 521.96 us; the same for the intra-host AllGather; inter-host AllReduce of each GPU's
     * S/8 shard over its rail's ring of 4 hosts: 2 x 3/4 x 33,554,432 B = 50,331,648 B through one 50 GB/s NIC:
     * 1,006.63 us. Sum: 2,050.55 us (overlapped, the NIC phase alone would bound it: 1,006.63 us). The links backend
     * (each transfer alone on its route) must give that sum; flow adds only per-step latencies (within 1 %).
     */
    @Test
    void phasesAddUp() {
        double handUs = 2 * (7.0 / 8 * 268_435_456 / 450e9) * 1e6 + 2 * 0.75 * (268_435_456 / 8.0) / 50e9 * 1e6;
        assertEquals(2050.55, handUs, 0.01);
        double links = timeUs("links");
        double flow = timeUs("flow");
        assertEquals(handUs, links, handUs * 1e-3);
        assertTrue(flow >= links && flow <= handUs * 1.01, "flow " + flow + " us, by hand " + handUs);
    }

    private static double timeUs(String backend) {
        CliRun r = CliRun.run("predict", "allreduce", "-c", "dgx-h100x4", "-b", "256M", "-e", "256M", "--backend",
                backend, "--schedule", "hierarchical", "--format", "csv");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().filter(l -> !l.startsWith("#")).toList();
        int col = Arrays.asList(lines.get(0).split(",")).indexOf("time_us");
        return Double.parseDouble(lines.get(1).split(",")[col]);
    }
}
