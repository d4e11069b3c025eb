package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.Collective;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.SimulatorFixtures;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
import org.junit.jupiter.api.Test;

/** A Ring AllReduce over PCIe P2P on one host: NCCL's latency plus the bytes at the ring's rate, no pipeline fill. */
class PcieRingFillTest {

    private static final long MIB = 1L << 20;

    private static Prediction predict(Topology t, Collective c, long bytes) throws Exception {
        return SimulatorFixtures.predict(t, c, bytes,
                SimulatorFixtures.env("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple", "NCCL_P2P_LEVEL", "SYS"));
    }

    /**
     * 4 RTX PRO 6000 Blackwell, each on its own PCIe Gen5 x16 switch under one CPU, P2P allowed to PHB: NCCL's Gen5
     * x16 figure is 32 GT/s x 16 lanes / 80 x 12.5 = 48 GB/s per GPU (width x speed code 240 / 80, NCCL 2.30.7
     * {@code src/graph/topo.cc}), the ring graph moves 48 GB/s busBw, x bwEfficiencySimple 0.98 x bwEfficiencyPcie
     * 1.0 = 47.04, algbw 47.04 / (2 x 3/4) = 31.36 GB/s. Time at 16 MiB = launchOverheadUs 1.5 + the Ring/Simple
     * latency on PCI with P2P (NCCL's base 8.4 + 2 x 3 steps x 2 P2P store flights of NCCL's PCI LL hop 1.0 us = 20.4
     * us, PcieSimpleStep; NCCL 2.30.7 {@code src/graph/tuning.cc}) + 16777216 B / (1000 x 31.36) = 534.99 us: 556.89
     * us. The fill the form would add, 2/4 x min(2 MiB chunk, 16 MiB / (4 channels x 4 ranks) = 1 MiB) at 47.04 / 4
     * GB/s per channel, is 44.6 us, and is not there. Measured on such a host with NCCL 2.29.7
     * (A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt, "Patched (P2P)"): 560.11 us.
     */
    @Test
    void sixteenMibIsLatencyPlusBytes() throws Exception {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("RTX PRO 6000 Blackwell").orElseThrow(), 4,
                Bandwidth.ofGbits(400)), 1);
        double expected = 1.5 + 8.4 + 6 * 2 * 1.0 + 16 * MIB / (1000.0 * 48 * 0.98 / 1.5);
        assertEquals(556.89, expected, 0.01);
        assertEquals(expected, predict(t, Collective.ALL_REDUCE, 16 * MIB).timeUs(), expected * 0.002);
    }
}
