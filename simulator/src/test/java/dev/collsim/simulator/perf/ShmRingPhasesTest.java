package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A ring over SHM pays one more link phase per loop than its steps: steps / (steps + 1) of the P2P link rate. */
class ShmRingPhasesTest {

    private static final long GIB = 1L << 30;
    /** 8 GiB: latency and pipeline fill below 0.1 % of the time. */
    private static final long BIG = 8L << 30;

    private static Prediction predict(Topology t, Collective c, long bytes, String... env) throws Exception {
        Map<String, String> m = new LinkedHashMap<>(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"));
        for (int i = 0; i < env.length; i += 2) {
            m.put(env[i], env[i + 1]);
        }
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), c, bytes, DataType.FLOAT, RedOp.SUM,
                NcclSettings.parse(m)));
    }

    private static Topology rtx2080TiPair() {
        return Catalog.standalone(new SynthesizedHost(GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow(), 2,
                Bandwidth.ofGbits(100), true), 1);
    }

    /**
     * 2x RTX 2080 Ti behind one PCIe Gen3 x16 switch, P2P off: NCCL's ring charges both hops on the 12 GB/s uplink,
     * 6 GB/s, x bwEfficiencySimple 0.98 = 5.88 GB/s per direction (OneWayPairTest). A 2-rank AllReduce loop is
     * send, recv-reduce-copy-send, recv: 2 steps in 3 link phases, 5.88 x 2/3 = 3.92 GB/s busbw; a 2-rank AllGather
     * loop is send, recv: 1 step in 2 phases, 5.88 / 2 = 2.94. Broadcast is a chain: its one hop keeps the pair
     * path's 12 x 0.98 = 11.76. Measured on that machine at 1 GiB
     * (validation/src/test/resources/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt
     * lines 47, 89, 131): AllReduce 4.00, AllGather 3.79 (3.16-3.39 from 4 MiB to 512 MiB), Broadcast 11.09.
     */
    @Test
    void twoRankRingOverShmOnASharedSwitch() throws Exception {
        Topology t = rtx2080TiPair();
        assertEquals(3.92, predict(t, Collective.ALL_REDUCE, BIG, "NCCL_P2P_DISABLE", "1").busBw(), 3.92 * 0.002);
        assertEquals(2.94, predict(t, Collective.ALL_GATHER, BIG, "NCCL_P2P_DISABLE", "1").busBw(), 2.94 * 0.002);
        assertEquals(11.76, predict(t, Collective.BROADCAST, BIG, "NCCL_P2P_DISABLE", "1").busBw(), 11.76 * 0.002);
        assertEquals(4.00, predict(t, Collective.ALL_REDUCE, GIB, "NCCL_P2P_DISABLE", "1").busBw(), 4.00 * 0.03,
                "measured AllReduce busbw at 1 GiB");
    }

    /**
     * 4 GPUs each on its own PCIe switch under one Intel CPU: every pair is PHB, beyond NCCL's default P2P level PXB,
     * so NCCL uses SHM; with NCCL_P2P_LEVEL=SYS the same paths carry P2P. A 4-rank AllReduce has 2 x 3 = 6 steps:
     * SHM/P2P = 6/7, AllGather and ReduceScatter 3 steps: 3/4, Broadcast 1.
     */
    @Test
    void fourRankRingShmAgainstP2pOnTheSamePaths() throws Exception {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("RTX PRO 6000 Blackwell").orElseThrow(), 4,
                Bandwidth.ofGbits(400)), 1);
        assertEquals(6.0 / 7, ratio(t, Collective.ALL_REDUCE), 0.005);
        assertEquals(3.0 / 4, ratio(t, Collective.ALL_GATHER), 0.005);
        assertEquals(3.0 / 4, ratio(t, Collective.REDUCE_SCATTER), 0.005);
        assertEquals(1.0, ratio(t, Collective.BROADCAST), 0.005);
    }

    private static double ratio(Topology t, Collective c) throws Exception {
        return predict(t, c, BIG).busBw() / predict(t, c, BIG, "NCCL_P2P_LEVEL", "SYS").busBw();
    }

    /**
     * The same pair with P2P on is PIX (never through the CPU): P2P write mode loads each GPU link both ways in every
     * step, so AllReduce runs at the pair's link rate, 12 x 0.98 = 11.76 GB/s, as the one-way Broadcast does.
     */
    @Test
    void p2pUnderOneSwitchIsNotShm() throws Exception {
        Topology t = rtx2080TiPair();
        assertEquals(11.76, predict(t, Collective.ALL_REDUCE, BIG).busBw(), 11.76 * 0.002);
    }
}
