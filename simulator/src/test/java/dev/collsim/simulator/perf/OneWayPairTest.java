package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.SimulatorFixtures;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A 2-rank Ring Broadcast/Reduce through the CPU uses one hop of the ring: the pair path's whole bandwidth. */
class OneWayPairTest {

    private static Prediction predict(Topology t, Collective c, long bytes) throws Exception {
        return SimulatorFixtures.predict(t, c, bytes,
                SimulatorFixtures.env("NCCL_P2P_DISABLE", "1", "NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"));
    }

    /**
     * 2x RTX 2080 Ti behind one PCIe Gen3 x16 switch, P2P off (path diverted through the CPU): the broadcast's one
     * hop runs at the path's 12 GB/s (NCCL's PCIe Gen3 x16 bandwidth, 16 lanes x 60 / 80, NCCL 2.30.7 topo.cc) x
     * bwEfficiencySimple 0.98 = 11.76 GB/s, less each channel's step waits (ShmStepWaits: 2 channels of 512 MiB, 1024
     * chunks of 512 KiB each, 1023 x 4.728 us): 1073741824 / (1073741824 / 11760 + 4836.7) = 11.169 GB/s busbw (at 1
     * GiB the microseconds of latency are below 0.1 %). Measured 11.09 GB/s on that machine (../shared/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-
     * nop2p-autodl.txt line 131). The ring AllReduce loads the switch uplink with both hops and stays under half of
     * it (measured 4.00, line 47).
     */
    @Test
    void broadcastUsesTheWholePathAllReduceHalfOfIt() throws Exception {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow(), 2,
                Bandwidth.ofGbits(100), 2), 1);
        long bytes = 1L << 30;
        Prediction b = predict(t, Collective.BROADCAST, bytes);
        assertEquals(Algorithm.RING, b.algorithm());
        assertEquals(11.169, b.busBw(), 11.169 * 0.002, b.toString());
        Prediction ar = predict(t, Collective.ALL_REDUCE, bytes);
        assertTrue(ar.busBw() <= 6.0 * 0.98 * 1.001, ar.toString());
    }

    /**
     * The same pair exchanging (AllToAll: both ranks send at once) shares the switch uplink in each direction as the
     * ring does: NCCL's ring search charges both hops on the 12 GB/s uplink, one channel of 12 / 2 = 6 GB/s, so each
     * rank sends its S/2 at 6 x 0.98 = 5.88 GB/s, and stores to and loads from host memory at once on separate send and
     * receive warps (NCCL 2.28.9 src/device/sendrecv.h: the link's duplex ceiling 0.815, the H100 probe's figure in
     * ShmLinkShare, not the Gen3 ring hop's 0.666), so the busbw (algbw x (n-1)/n = per-rank bytes / time) is 5.88 x
     * 0.815 = 4.792 GB/s, less each channel's step waits (ShmStepWaits: 2 channels of 256 MiB, 2048 chunks of 128
     * KiB each, 2047 x 4.728 us): 536870912 / (536870912 / 4792.2 + 9678.2) = 4.411 at 1 GiB, not the one-way 11.76.
     * Measured 4.61 (the data file above, line 258; the ring AllReduce, one primitive loading and storing, measured
     * 4.00).
     */
    @Test
    void allToAllThroughTheCpuSharesTheUplinkAsTheRingDoes() throws Exception {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow(), 2,
                Bandwidth.ofGbits(100), 2), 1);
        Prediction a2a = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_TO_ALL,
                1L << 30, DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_P2P_DISABLE", "1"))));
        assertEquals(4.411, a2a.busBw(), 4.411 * 0.002, a2a.toString());
    }

    /**
     * The root of a rooted chain over SHM runs into its next call while the last rank still loads (a sender waits
     * only for a free slot of NCCL_STEPS, and the step counters outlive the kernel: NCCL 2.30.7
     * src/device/prims_simple.h waitPeer line 107, ~Primitives line 714), so nccl-tests' back-to-back calls pay no
     * per-call wait for the first slice: the time is a fixed part plus the bytes at the one hop's rate and each
     * channel's step waits (ShmStepWaits), and from 1 MiB to 4 MiB it grows by 3 MiB at 12 x 0.98 = 11.76 GB/s,
     * 3 x 1048576 / 11760 = 267.49 us, and 3 more 512 KiB chunks on each of the 2 channels, 3 x 4.728: 281.67 us.
     * Measured on
     * that machine (the data file above, lines 121 and 123): Broadcast 113.8 -> 400.5 us (+286.7, at its 11.09 GB/s
     * 283.7), Reduce (lines 164 and 166) 112.5 -> 400.1 us (+287.6). A fill of one slice per call would add the
     * slice's growth on top (collsim's per-rank slice: 256 KiB at 1 MiB, the 512 KiB chunk at 4 MiB).
     */
    @Test
    void rootedChainOverShmPaysNoFillPerCall() throws Exception {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow(), 2,
                Bandwidth.ofGbits(100), 2), 1);
        for (Collective c : new Collective[] {Collective.BROADCAST, Collective.REDUCE}) {
            double small = predict(t, c, 1L << 20).timeUs();
            double large = predict(t, c, 4L << 20).timeUs();
            assertEquals(281.67, large - small, 0.05, c + ": " + small + " -> " + large);
        }
    }
}
