package dev.collsim.reports.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.reports.plan.CommKind;
import dev.collsim.reports.plan.CommTiming;
import dev.collsim.reports.plan.JobBuilder;
import dev.collsim.reports.plan.RankOrder;
import dev.collsim.reports.plan.StepPlan;
import dev.collsim.reports.plan.StepPlanner;
import dev.collsim.reports.plan.TrainingJob;
import dev.collsim.topology.edit.ClusterEditor;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.units.Bandwidth;
import org.junit.jupiter.api.Test;

/**
 * The classic back-of-envelope, end to end with the real simulator on catalog DGX H100 hosts (32 hosts, rail-
 * optimized): 175B parameters with fp32 gradients, tp=8 inside each host, dp=32 across hosts, so each DP AllReduce
 * carries 175e9/8 x 4 B = 87.5 GB and the 8 DP groups of a host run at once (700 GB per host in all).
 * <ul>
 * <li>One 800 Gb/s (100 GB/s) NIC per host: a ring crosses each host boundary once and sends 2(n-1)/n of the
 *     data: 8 x 2*31/32 x 87.5e9 / 100e9 = 13.5625 s at best (about 2(n-1)/n x 7 s, not the 7 s of size / link
 *     speed).</li>
 * <li>Eight 400 Gb/s (50 GB/s) NICs per host: 400 GB/s per host, a quarter: 3.390625 s at best.</li>
 * </ul>
 * Pure data parallelism (tp=1, 256 ranks on n = 32 hosts, one 700 GB AllReduce): whatever the algorithm, each host
 * must send 2(n-1)/n of the data (host-level reduce-scatter plus all-gather), so 3.390625 s with eight 400 Gb/s NICs.
 * With one 800 Gb/s NIC per host NCCL cannot use that host-level bound: its multi-node NVLS graph has one head per
 * NIC, and an NVLS graph of one channel leaves NVLSTree off (NCCL 2.30.7 {@code src/graph/search.cc
 * ncclTopoSearchRecNet}; {@code src/graph/tuning.cc}: {@code if (graphs[a]->nChannels < 2) continue;}), so NCCL runs
 * Ring, whose 256 ranks cross each host boundary once per channel, and whose graph reaches the NIC through one GPU's
 * PCIe Gen5 x16 path, 48 GB/s in NCCL's view: a host sends 2 x 255/256 x 700e9 B at 48 GB/s at best, 29.0527 s.
 * Upper bounds allow 30% for what the simulator adds (protocol efficiency, per-channel limits, latency).
 */
class Classic175BTest {

    private static final ClusterSpec DGX_H100_X32 = new ClusterSpec("dgx-h100-x32", "", Catalog.hostType("dgx-h100")
            .orElseThrow(), 32, FabricSpec.of(FabricKind.RAIL_OPTIMIZED));

    private static double dpAllReduceSeconds(Topology t, int tp) {
        JobBuilder b = new JobBuilder();
        b.params = "175B";
        b.gradReduceDtype = "fp32";
        b.tp = tp;
        b.dp = 256 / tp;
        b.stepComputeMs = 1000;
        TrainingJob job = b.build();
        StepPlan p = new StepPlanner(new NcclPredictor(), NcclSettings.DEFAULTS, RankOrder.TP_PP_DP).plan(t, job, Double.NaN);
        CommTiming dp = p.comms().stream().filter(c -> c.op().kind() == CommKind.DP_ALLREDUCE).findFirst()
                .orElseThrow();
        assertTrue(dp.op().sizeBytes() == 700_000_000_000L / tp, "700 GB / tp per rank");
        return dp.perCallUs() / 1e6;
    }

    @Test
    void oneFastNicVersusEightNics() {
        Topology eight = ClusterEditor.build(DGX_H100_X32, ClusterEdits.NONE);
        Topology one = ClusterEditor.build(DGX_H100_X32, new ClusterEdits(null, null, Bandwidth.ofGbits(800), 1,
                null, null, null, null));
        double tEight = dpAllReduceSeconds(eight, 8);
        double tOne = dpAllReduceSeconds(one, 8);
        assertTrue(tOne >= 13.5625 * 0.999 && tOne <= 13.5625 * 1.3, "one 800G NIC: " + tOne + " s");
        assertTrue(tEight >= 3.390625 * 0.999 && tEight <= 3.390625 * 1.3, "eight 400G NICs: " + tEight + " s");
        double ratio = tOne / tEight;
        assertTrue(ratio > 3.0 && ratio < 4.1, "about a quarter: ratio " + ratio);
    }

    @Test
    void pureDataParallel700GB() {
        Topology eight = ClusterEditor.build(DGX_H100_X32, ClusterEdits.NONE);
        Topology one = ClusterEditor.build(DGX_H100_X32, new ClusterEdits(null, null, Bandwidth.ofGbits(800), 1,
                null, null, null, null));
        double tOne = dpAllReduceSeconds(one, 1);
        double tEight = dpAllReduceSeconds(eight, 1);
        assertTrue(tOne >= 29.0527 * 0.999 && tOne <= 29.0527 * 1.3, "one 800G NIC: " + tOne + " s");
        assertTrue(tEight >= 3.390625 * 0.999 && tEight <= 3.390625 * 1.3, "eight 400G NICs: " + tEight + " s");
    }
}
