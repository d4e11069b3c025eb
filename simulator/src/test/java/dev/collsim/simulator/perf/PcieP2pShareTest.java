package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.SimulatorFixtures;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.PcieEightGpu;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Simple ring over P2P through the CPU on PCIe Gen4 moves 1.076 of NCCL's 24 GB/s link figure (PcieP2pShare's note:
 * the median of three measured Gen4 x16 P2P rings); SHM, LL, LL128 and other generations keep their own rates.
 */
class PcieP2pShareTest {

    /** 8 GiB: latency and pipeline fill below 0.1 % of the time. */
    private static final long BIG = 8L << 30;

    private static final NcclSettings P2P_SYS = NcclSettings.parse(Map.of("NCCL_P2P_LEVEL", "SYS"));

    private static double busBw(Topology t, List<Integer> gpus, Collective c, String... env) throws Exception {
        return SimulatorFixtures.predict(t, gpus, c, BIG,
                SimulatorFixtures.env(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"), env)).busBw();
    }

    private static ChannelPlan plan(Topology t, int ranks, NcclSettings s) {
        return ChannelSearch.search(t, t.gpus().subList(0, ranks), s, NcclVersion.V2_30_7);
    }

    private static Topology synthesized(String sku) {
        return Catalog.standalone(new SynthesizedHost(GpuModels.sku(sku).orElseThrow(), 4, Bandwidth.ofGbits(400)), 1);
    }

    /**
     * 4 L40S (PCIe Gen4 x16, GPU database), each on its own switch under one CPU: PHB pairs, P2P with
     * NCCL_P2P_LEVEL=SYS. The ring's plateau is the measured Gen4 P2P ring's: 25.31 GB/s busbw, the 4x RTX 4090 P2P box
     * at 1 GiB (validation/src/test/resources/data/A-allreduce-1x4xRTX4090-p2p-driver-8gpu-box.txt line 53), the
     * median of the three Gen4 files. AllGather's busbw is its link rate too: the same 25.31.
     */
    @Test
    void gen4P2pRingMovesTheMeasuredRate() throws Exception {
        Topology t = synthesized("L40S");
        List<Integer> g = List.of(0, 1, 2, 3);
        assertEquals(25.31, busBw(t, g, Collective.ALL_REDUCE, "NCCL_P2P_LEVEL", "SYS"), 25.31 * 0.003);
        assertEquals(25.31, busBw(t, g, Collective.ALL_GATHER, "NCCL_P2P_LEVEL", "SYS"), 25.31 * 0.003);
    }

    /** The share is Simple's over P2P on a Gen4 GPU link through the CPU, and 1 everywhere else. */
    @Test
    void onlySimpleOverGen4P2pThroughTheCpu() {
        ChannelPlan gen4 = plan(synthesized("L40S"), 4, P2P_SYS);
        assertEquals(4, gen4.gpuPcieGen());
        assertEquals(1.076, PcieP2pShare.factor(gen4, P2P_SYS, Algorithm.RING, Protocol.SIMPLE, false), 1e-12);
        assertEquals(1.0, PcieP2pShare.factor(gen4, P2P_SYS, Algorithm.RING, Protocol.LL, false), 1e-12);
        assertEquals(1.0, PcieP2pShare.factor(gen4, P2P_SYS, Algorithm.RING, Protocol.LL128, false), 1e-12);
        ChannelPlan shm = plan(synthesized("L40S"), 4, NcclSettings.DEFAULTS);
        assertEquals(1.0, PcieP2pShare.factor(shm, NcclSettings.DEFAULTS, Algorithm.RING, Protocol.SIMPLE, false),
                1e-12, "PHB beyond NCCL's default P2P level on an Intel host: SHM");
        ChannelPlan gen5 = plan(synthesized("RTX PRO 6000 Blackwell"), 4, P2P_SYS);
        assertEquals(5, gen5.gpuPcieGen());
        assertEquals(1.0, PcieP2pShare.factor(gen5, P2P_SYS, Algorithm.RING, Protocol.SIMPLE, false), 1e-12);
    }

    /**
     * Gen5 P2P keeps NCCL's figure: 48 x 0.98 = 47.04 GB/s busbw, where the 4x RTX PRO 6000 P2P ring moved 46.65 at
     * 128 MiB (A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt, "Patched (P2P)"), 0.8 % below.
     * The SYS pair of the 8x L40S host over SHM keeps ShmLinkShare's 24 x 0.98 x 0.666 = 15.66 (CpuRouteRateTest).
     */
    @Test
    void gen5P2pAndShmRingsAreUnchanged() throws Exception {
        List<Integer> g = List.of(0, 1, 2, 3);
        assertEquals(47.04, busBw(synthesized("RTX PRO 6000 Blackwell"), g, Collective.ALL_REDUCE, "NCCL_P2P_LEVEL",
                "SYS"), 47.04 * 0.003);
        Topology l40s = Catalog.standalone(PcieEightGpu.l40s(), 1);
        assertEquals(15.66, busBw(l40s, List.of(0, 4), Collective.ALL_REDUCE), 15.66 * 0.003);
    }
}
