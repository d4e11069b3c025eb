package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.SimulatorFixtures;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.TuningConstants;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A rooted Simple Ring's channel hands its data on in one-step slices (NCCL 2.24.3-2.30.7 src/include/collectives.h
 * BROADCAST_/REDUCE_ SLICESTEPS 1: 4 MiB / 8 = 512 KiB), where the Ring AllReduce the per-channel cap was measured on
 * uses two-step slices (ALLREDUCE_SLICESTEPS = NCCL_STEPS / 4 = 2: 1 MiB); each slice waits one handshake
 * (src/device/prims_simple.h genericOp), priced at NCCL's hwLat[NVLINK][Ring][Simple] = 3.4 us (NCCL 2.30.7
 * src/graph/tuning.cc).
 */
class RootedSliceWaitsTest {

    private static ChannelPlan plan(String cluster) {
        return SimulatorFixtures.plan(cluster, NcclVersion.V2_30_7);
    }

    /**
     * By hand at a 24 GB/s cap (NCCL's 8 x 48 GB/s over 16 runtime channels between 4 DGX H100): one byte takes 1 /
     * 24000 us = 4.1667e-5 us at the cap, and 3.4 us x (1 / 524288 - 1 / 1048576) = 3.2425e-6 us more, so the channel
     * keeps 4.1667e-5 / 4.4909e-5 = 0.92780 of the cap; at the 20.24 GB/s measured per channel for the AllGather of the
     * same 4x8 H100 cluster (ZiyanIshani/vpbenchmarking results/nccl/nccl_multinode/nccl_allgather_20260224_225706.txt,
     * 2 to 8 GiB rows: 6 GiB in 19268.55 us, 334.35 GB/s algbw x 31/32 / 16) it keeps 4.9407e-5 / 5.2650e-5 = 0.93841,
     * 18.99 GB/s, where its Broadcast moved 294.4 / 16 = 18.4 per added byte (A-bcast-reduce-4x8xH100-voltagepark-ib-
     * nccl2.24.txt lines 81-84).
     */
    @Test
    void rootedSimpleKeepsTheShareByHand() throws Exception {
        ChannelPlan p = plan("dgx-h100x4");
        TuningConstants c = TuningConstants.NCCL_2_30_7;
        assertEquals(3.4, RootedSliceWaits.handshakeUs(c), 1e-9);
        for (Collective f : new Collective[] {Collective.BROADCAST, Collective.REDUCE}) {
            assertEquals(0.92780, RootedSliceWaits.capShare(p, NcclSettings.DEFAULTS, c, f, Algorithm.RING,
                    Protocol.SIMPLE, 24.0), 5e-5, f.toString());
            assertEquals(18.99, 20.24 * RootedSliceWaits.capShare(p, NcclSettings.DEFAULTS, c, f, Algorithm.RING,
                    Protocol.SIMPLE, 20.24), 0.005, f.toString());
        }
    }

    /**
     * Calls whose slice is the reference's or that carry their flags in the lines keep the whole cap: the unrooted
     * Simple rings (two-step slices), LL and LL128, and a rooted ring under NCCL_BUFFSIZE = 8 MiB (its one-step slice
     * is then 1 MiB, the reference's).
     */
    @Test
    void othersKeepTheCap() throws Exception {
        ChannelPlan p = plan("dgx-h100x4");
        TuningConstants c = TuningConstants.NCCL_2_30_7;
        NcclSettings d = NcclSettings.DEFAULTS;
        assertEquals(1.0, RootedSliceWaits.capShare(p, d, c, Collective.ALL_GATHER, Algorithm.RING,
                Protocol.SIMPLE, 24.0));
        assertEquals(1.0, RootedSliceWaits.capShare(p, d, c, Collective.ALL_REDUCE, Algorithm.RING,
                Protocol.SIMPLE, 24.0));
        assertEquals(1.0, RootedSliceWaits.capShare(p, d, c, Collective.BROADCAST, Algorithm.RING,
                Protocol.LL128, 24.0));
        assertEquals(1.0, RootedSliceWaits.capShare(p, d, c, Collective.BROADCAST, Algorithm.RING,
                Protocol.LL, 24.0));
        NcclSettings big = NcclSettings.parse(Map.of("NCCL_BUFFSIZE", String.valueOf(8L << 20)));
        assertEquals(1.0, RootedSliceWaits.capShare(p, big, c, Collective.BROADCAST, Algorithm.RING,
                Protocol.SIMPLE, 24.0));
        NcclSettings small = NcclSettings.parse(Map.of("NCCL_BUFFSIZE", String.valueOf(2L << 20)));
        assertTrue(RootedSliceWaits.capShare(p, small, c, Collective.BROADCAST, Algorithm.RING, Protocol.SIMPLE,
                24.0) < 0.92780, "256 KiB slices wait more often");
    }

    /** The reference slice is NCCL's default step (4 MiB / 8) twice. */
    @Test
    void referenceSlice() {
        assertEquals(1048576.0, RootedSliceWaits.REFERENCE_SLICE_BYTES);
    }
}
