package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hierarchical schedule (what NVLS and NVLSTree are simulated as) pipelines its three phases chunk by chunk, as
 * NCCL does (NCCL 2.28.9 {@code src/device/all_reduce.h}, NVLSTree): its time is the slowest phase plus the fill,
 * not the sum of the phases, worked out by hand below, as docs/flow-backend.md says.
 */
class FlowHierarchicalPhasesTest {

    /** 256 MiB, bytes. */
    private static final double S = 268_435_456;

    /**
     * AllReduce of S = 256 MiB on 4 DGX H100 (8 GPUs, 8 x 400 Gb/s NICs per host, rail-optimized, nothing shared),
     * 8 channels, so 32 chunks (a loop of 8 channels x 8 GPUs x 128 KiB = 8 MiB) and 34 pipeline steps, by hand:
     * per chunk, the intra-host ReduceScatter sends 7/8 x S/32 = 7,340,032 B per GPU over its 18 NVLink4 = 450 GB/s
     * (DGX H100 User Guide): 16.311 us, the same for the AllGather; the inter-host AllReduce of the chunk's S/8 shard
     * over each rail's ring of 4 hosts sends 2 x 3/4 x S/8/32 = 1,572,864 B through one 50 GB/s NIC: 31.457 us.
     * Steps: RS alone, RS + AR, 30 x (RS + AG on NVLink, 32.622 us, with AR beside), AR + AG, AG alone:
     * 2 x 16.311 + 2 x 31.457 + 30 x 32.622 = 1,074.21 us. Phases in turn would take 2 x 521.96 + 1,006.63 =
     * 2,050.55 us; the NVLink phases alone 1,043.92. The links backend (each transfer alone on its route) must give
     * the pipelined time; flow adds only per-step latencies (within 1 %).
     */
    @Test
    void phasesOverlapOnARailFabric() {
        double rs = 7.0 / 8 * S / 32 / 450e9 * 1e6;
        double ar = 2 * 0.75 * S / 8 / 32 / 50e9 * 1e6;
        double handUs = 2 * rs + 2 * ar + 30 * Math.max(2 * rs, ar);
        assertEquals(1074.21, handUs, 0.01);
        double links = timeUs("links");
        double flow = timeUs("flow");
        assertEquals(handUs, links, handUs * 1e-3);
        assertTrue(flow >= links && flow <= handUs * 1.01, "flow " + flow + " us, by hand " + handUs);
    }

    /**
     * The same on a 4:1 fat-tree, 16 host ports per leaf (2 hosts per leaf) and 16 / 4 = 4 uplinks of 50 GB/s,
     * ideal spraying: the rail rings' hops from host 1 to 2 and 3 to 0 each put 8 NIC flows on 4 uplinks, 25 GB/s
     * each, so the inter-host AllReduce of a chunk takes 1,572,864 B / 25 GB/s = 62.915 us and dominates:
     * 2 x 16.311 + 32 x 62.915 = 2,045.89 us (phases in turn: 1,043.92 + 2,013.27 = 3,057.18 us). Flow adds the
     * per-step latencies of the spine hops (within 4 %).
     */
    @Test
    void oversubscribedNicPhaseDominates() {
        double rs = 7.0 / 8 * S / 32 / 450e9 * 1e6;
        double ar = 2 * 0.75 * S / 8 / 32 / 25e9 * 1e6;
        double handUs = 2 * rs + 32 * ar;
        assertEquals(2045.89, handUs, 0.01);
        String[] fatTree = {"--fabric", "fat-tree", "--oversubscription", "4:1", "--leaf-radix", "16", "--routing",
            "spray"};
        double links = timeUs("links", fatTree);
        double flow = timeUs("flow", fatTree);
        assertEquals(handUs, links, handUs * 1e-3);
        assertTrue(flow >= links && flow <= handUs * 1.04, "flow " + flow + " us, by hand " + handUs);
    }

    /**
     * NCCL's choice (NVLSTree, 16 channels) on 2 DGX H100, 4 GiB: 256 chunks (4 GiB / (16 x 8 x 128 KiB)); per
     * chunk RS = 7/8 x 4 GiB/256 / 450 GB/s = 32.622 us, AR = 2 x 1/2 x 4 GiB/8/256 / 50 GB/s = 41.943 us:
     * 2 x 32.622 + 2 x 41.943 + 254 x 65.245 = 16,721.3 us. On this non-blocking rail fabric the flow backend must
     * be within 1 % of that and within 10 % of the analytical backend (NCCL's model with its NVLSTree efficiency; a
     * measured 2 x 8 DGX H100 run, A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt line 9, gives 437.58 GB/s
     * busbw at 8 GiB; flow: 2 x 15/16 x 4 GiB / 16,721.3 us = 481.6).
     */
    @Test
    void flowAndAnalyticalAgreeOnTwoHosts() {
        double g = 4.0 * (1L << 30);
        double rs = 7.0 / 8 * g / 256 / 450e9 * 1e6;
        double ar = g / 8 / 256 / 50e9 * 1e6;
        double handUs = 2 * rs + 2 * ar + 254 * 2 * rs;
        assertEquals(16_721.3, handUs, 0.1);
        double flow = time("flow", "dgx-h100x2", "4G", false);
        double analytical = time("analytical", "dgx-h100x2", "4G", false);
        assertEquals(handUs, flow, handUs * 0.01);
        assertEquals(analytical, flow, analytical * 0.10);
    }

    private static double timeUs(String backend, String... extra) {
        return time(backend, "dgx-h100x4", "256M", true, extra);
    }

    private static double time(String backend, String cluster, String size, boolean hierarchical, String... extra) {
        List<String> args = new ArrayList<>(List.of("predict", "allreduce", "-c", cluster, "-b", size, "-e", size,
                "--backend", backend, "--format", "csv"));
        if (hierarchical) {
            args.addAll(List.of("--schedule", "hierarchical"));
        }
        args.addAll(Arrays.asList(extra));
        CliRun r = CliRun.run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().filter(l -> !l.startsWith("#")).toList();
        int col = Arrays.asList(lines.get(0).split(",")).indexOf("time_us");
        return Double.parseDouble(lines.get(1).split(",")[col]);
    }
}
