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
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A one-host Simple Ring over PCIe with P2P waits two P2P store flights a step (2 x NCCL's hwLat[PCI][Ring][LL] =
 * 2.0 us), over SHM those two flights and two host-memory round trips (+ 2 x 1.364 us), where NCCL's table
 * charges hwLat[PCI][Ring][Simple] = 5.7 us (NCCL 2.28.9 and 2.30.7 src/graph/tuning.cc,
 * Ring Simple base 8.4 us); NCCL's own estimate and choice keep the 5.7. The host: 4 RTX PRO 6000 Blackwell, each on
 * its own PCIe Gen5 x16 switch under one CPU (PcieLlStreamTest's); collsim adds launchOverheadUs 1.5.
 */
class PcieSimpleStepTest {

    private static Prediction predict(Collective c, long bytes, String... env) throws Exception {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("RTX PRO 6000 Blackwell").orElseThrow(), 4,
                Bandwidth.ofGbits(400)), 1);
        return SimulatorFixtures.predict(t, c, bytes,
                SimulatorFixtures.env(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"), env));
    }

    /**
     * 8 bytes, where the data takes nanoseconds: AllReduce 1.5 + 8.4 + 6 steps x 2.0 = 21.9 us, AllGather (3 steps)
     * 1.5 + 8.4 + 3 x 2.0 = 15.9 us; NCCL's estimate 8.4 + 6 x 5.7 = 42.6 us.
     */
    @Test
    void p2pSimpleStepsAreTwoFlights() throws Exception {
        Prediction ar = predict(Collective.ALL_REDUCE, 8, "NCCL_P2P_LEVEL", "SYS");
        assertEquals(21.9, ar.timeUs(), 0.05, ar.toString());
        assertEquals(42.6, ar.ncclEstimateUs(), 0.05, ar.toString());
        assertEquals(15.9, predict(Collective.ALL_GATHER, 8, "NCCL_P2P_LEVEL", "SYS").timeUs(), 0.05);
    }

    /**
     * Over SHM (PHB beyond NCCL's default P2P level) a step is the same two store flights into host memory, the
     * receiver's poll of the counter in host memory (one round trip, ShmHostReads' 1.364 us) and the slice's loads
     * (another): 2 x 1.0 + 2 x 1.364 = 4.728 us. AllReduce 1.5 + 8.4 + 6 x 4.728 = 38.268 us, AllGather (3 steps)
     * 1.5 + 8.4 + 3 x 4.728 = 24.084 us; NCCL's own estimate keeps 8.4 + 6 x 5.7 = 42.6 us.
     */
    @Test
    void shmSimpleStepsAreTwoFlightsAndTwoRoundTrips() throws Exception {
        Prediction ar = predict(Collective.ALL_REDUCE, 8);
        assertEquals(38.268, ar.timeUs(), 0.01, ar.toString());
        assertEquals(42.6, ar.ncclEstimateUs(), 0.05, ar.toString());
        assertEquals(24.084, predict(Collective.ALL_GATHER, 8).timeUs(), 0.01);
    }

    /**
     * LL over P2P keeps its own rule (PcieLlStream: at 8 bytes NCCL's 6.6 + 6 x 1.0, no data to hide hops behind):
     * 1.5 + 12.6 = 14.1 us. A rooted Broadcast keeps NCCL's own latency for a ring of one GPU order (sameChannels,
     * which NCCL keeps on this AMD host; the chain runs ahead into the next call, RingLoopFill.rootedRunsAhead):
     * 8.4 + one hop hwLat[PCI][Ring][Simple] 5.7 = 14.1, + 1.5 = 15.6 us over P2P; over SHM + the data loads' round
     * trip on each of the chain's 3 hops (ShmHostReads.simpleDataReadsUs): 15.6 + 3 x 1.364 = 19.692 us.
     */
    @Test
    void llAndRootedRingsKeepTheirSteps() throws Exception {
        assertEquals(14.1, predict(Collective.ALL_REDUCE, 8, "NCCL_P2P_LEVEL", "SYS", "NCCL_PROTO", "LL").timeUs(),
                0.05);
        assertEquals(15.6, predict(Collective.BROADCAST, 8, "NCCL_P2P_LEVEL", "SYS").timeUs(), 0.05);
        assertEquals(19.692, predict(Collective.BROADCAST, 8).timeUs(), 0.01);
    }

    /**
     * Checked against a measured file: the same host's SHM ring ("Stock (SHM)", same file as below), AllReduce 1 MiB
     * 80.78 us (19.47 GB/s busbw = 1048576 x 1.5 / 80780); NCCL's 5.7 us a step plus the second round trip left it
     * 14.9 % slow (92.85 us).
     */
    @Test
    void measuredShmRingAtOneMib() throws Exception {
        assertEquals(80.78, predict(Collective.ALL_REDUCE, 1 << 20).timeUs(), 80.78 * 0.05);
    }

    /**
     * Checked against a measured file: 4x RTX PRO 6000 patched P2P, NCCL 2.29.7, AllReduce 1 MiB 56.21 us
     * (validation/src/test/resources/data/A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt,
     * "Patched (P2P)", 27.98 GB/s busbw = 1048576 x 1.5 / 27980); NCCL's 5.7 us a step left it 37 % slow.
     */
    @Test
    void measuredP2pRingAtOneMib() throws Exception {
        assertEquals(56.21, predict(Collective.ALL_REDUCE, 1 << 20, "NCCL_P2P_LEVEL", "SYS").timeUs(), 56.21 * 0.03);
    }
}
