package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A network send's cycle through its slot ({@link NetSendCycle}), values worked by hand. */
class NetSendCycleTest {

    /** GKE's A3 High settings (A-allgather-2x8xH100-gcp-a3high-gke-tcpx-cluster-toolkit.txt header), Ring/Simple. */
    private static final NcclSettings GKE = NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple",
            "NCCL_MIN_NCHANNELS", "8", "NCCL_MAX_NCHANNELS", "8", "NCCL_BUFFSIZE", "4194304",
            "NCCL_SOCKET_NTHREADS", "1", "NCCL_NSOCKS_PERTHREAD", "4"));

    /** Slots alone 10 GB/s, the network 5 GB/s, 4 sends in flight: 1 / (1/10 + 1/20) = 6.667 GB/s. */
    @Test
    void aSlotHoldsItsSendsBytes() {
        assertEquals(20.0 / 3, NetSendCycle.slotBusBw(10, 5, 4), 1e-12);
        assertEquals(10, NetSendCycle.slotBusBw(10, Double.POSITIVE_INFINITY, 4), 0);
    }

    /**
     * 2 x A3 High, 16 ranks, 8 channels, AllGather of 1 MiB: a ring step carries 1 MiB / (8 x 16) = 8192 B in 2
     * slices, so a connection sends 15 x 2 = 30 sends of 4096 B, 4 in flight: 7.5 cycles by the slot count, 8 to
     * the last delivery, half a cycle more: 870 / 7.5 x 0.5 = 58 us on a slot count of 870 us. AllReduce: 2 x 15 x 2 =
     * 60 sends, 15 whole cycles, nothing more. InfiniBand (2 DGX H100): none, its cycle is a credit loop.
     */
    @Test
    void tcpxPaysTheLastCyclesRoundUp() {
        Topology t = ClusterLoader.load("a3-highgpu-8gx2");
        ChannelPlan plan = ChannelSearch.search(t, t.gpus(), GKE, NcclVersion.DEFAULT);
        assertEquals(58, NetSendCycle.lastDeliveryUs(plan, GKE, Collective.ALL_GATHER, Algorithm.RING, Protocol.SIMPLE,
                1L << 20, 8, 870), 1e-9);
        assertEquals(0, NetSendCycle.lastDeliveryUs(plan, GKE, Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE,
                1L << 20, 8, 870), 1e-9);
        Topology ib = ClusterLoader.load("dgx-h100x2");
        ChannelPlan dgx = ChannelSearch.search(ib, ib.gpus(), GKE, NcclVersion.DEFAULT);
        assertEquals(0, NetSendCycle.lastDeliveryUs(dgx, GKE, Collective.ALL_GATHER, Algorithm.RING, Protocol.SIMPLE,
                1L << 20, 8, 870), 0);
    }

    /**
     * The whole call, GKE's 1 MiB AllGather (measured 996.7 us, line 17): 8 cycles of two 58 us steps plus one send's
     * 4096 B at the connection's 4 streams x 2.225 GB/s: 8 x (116 + 4096 / 8900) = 931.68 us.
     */
    @Test
    void theA3HighAllGatherAtOneMebibyte() {
        Topology t = ClusterLoader.load("a3-highgpu-8gx2");
        double us = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_GATHER, 1L << 20,
                DataType.FLOAT, RedOp.SUM, GKE)).timeUs();
        assertEquals(8 * (116 + 4096 / 8900.0), us, 1e-6);
    }
}
