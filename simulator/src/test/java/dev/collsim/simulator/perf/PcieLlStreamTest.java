package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.PcieEightGpu;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A one-host Ring LL AllReduce over PCIe, with P2P or SHM, hides NCCL's per-step hops behind its data ({@link PcieLlStream}).
 *
 * <p>The host: 4 RTX PRO 6000 Blackwell, each on its own PCIe Gen5 x16 switch under one CPU, P2P allowed (the
 * P2P level SYS). NCCL's Gen5 x16 figure is 16 lanes x speed code 240 / 80 = 48 GB/s (NCCL 2.30.7
 * {@code src/graph/topo.cc}); the ring graph moves 48 GB/s busBw, Ring LL half of it (NCCL 2.30.7
 * {@code src/graph/tuning.cc}: {@code busBw * .5}), x bwEfficiencyLL 1.0 x bwEfficiencyPcie 1.0 = 24 GB/s busBw,
 * algbw 24 / (2 x 3/4) = 16 GB/s. NCCL's Ring LL latency on PCI: baseLat 6.6 + 2 x 3 steps x hwLat 1.0 = 12.6 us;
 * the hops LL hides: (6 - 1) x 1.0 = 5 us, or the data time when that is shorter. collsim adds launchOverheadUs 1.5.
 */
class PcieLlStreamTest {

    private static final long KIB = 1L << 10;

    private static PredictionRequest request(long bytes) {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("RTX PRO 6000 Blackwell").orElseThrow(), 4,
                Bandwidth.ofGbits(400)), 1);
        return new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, bytes, DataType.FLOAT, RedOp.SUM,
                NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "LL", "NCCL_P2P_LEVEL", "SYS")));
    }

    private static double predictUs(long bytes) throws Exception {
        return new NcclPredictor().predict(request(bytes)).timeUs();
    }

    /**
     * 256 KiB: data 262144 B / (1000 x 16 GB/s) = 16.384 us, longer than the 5 us of hops, so all 5 are hidden:
     * 1.5 + 12.6 - 5 + 16.384 = 25.484 us. Measured on such a host with NCCL 2.29.7
     * (A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt, "Patched (P2P)", 256K: 15.58 GB/s
     * busbw = 262144 x 1.5 / 15580 = 25.24 us); NCCL's own sum, 1.0 + 12.6 + 16.384 = 29.98 us, is 18.8 % slow.
     */
    @Test
    void hopsHiddenOnceTheDataIsLonger() throws Exception {
        double expected = 1.5 + 12.6 - 5.0 + 256 * KIB / (1000.0 * 24 / 1.5);
        assertEquals(25.484, expected, 0.001);
        assertEquals(expected, predictUs(256 * KIB), expected * 0.002);
    }

    /**
     * 32 KiB: data 32768 / 16000 = 2.048 us, shorter than the hops: the call takes NCCL's latency alone, 1.5 + 12.6
     * = 14.1 us (the hops bound it, the data streams under them). Above one GPU per process's host launch of 4.7 us
     * ({@code HostLaunch}), so the kernel sets it.
     */
    @Test
    void shortDataHidesOnlyItself() throws Exception {
        assertEquals(1.5 + 12.6, predictUs(32 * KIB), 14.1 * 0.002);
    }

    /**
     * With NCCL's latency doubled (latencyScale 2, a calibration's factor) the hidden part is capped at the data time
     * over 2, so below the 5 us of hops the time stays at 1.5 + 2 x 12.6 = 26.7 us instead of falling by the data
     * time (26.7 - 2.048 = 24.65 us at 32 KiB had the cap been the data time), and it never falls as size grows.
     */
    @Test
    void neverFasterAsSizeGrowsUnderALatencyScale() throws Exception {
        PerformanceParameters d = PerformanceParameters.DEFAULTS;
        PerformanceParameters twice = new PerformanceParameters(d.launchOverheadUs(), 2.0, d.bwEfficiencyLL(),
                d.bwEfficiencyLL128(), d.bwEfficiencySimple(), d.perChannelCapLL(), d.perChannelCapLL128(),
                d.perChannelCapSimple(), d.pipelineFillChunks(), d.p2pBaseLatencyUs(), d.localCopyGBps(),
                d.netStepUs(), d.perChannelCapNvls(), d.nvlsBwScale(), d.netClasses(), d.nvlsLoopUs(),
                d.bwEfficiencyNet(), d.bwEfficiencyNvlink(), d.bwEfficiencyPcie());
        NcclPredictor predictor = new NcclPredictor();
        assertEquals(1.5 + 2 * 12.6, predictor.prepare(request(32 * KIB)).call(request(32 * KIB)).predict(twice)
                .timeUs(), 26.7 * 0.002);
        double previous = 0;
        for (long bytes = 16 * KIB; bytes <= 1024 * KIB; bytes += 16 * KIB) {
            double us = predictor.prepare(request(bytes)).call(request(bytes)).predict(twice).timeUs();
            assertTrue(us >= previous - 1e-9, bytes + " B: " + us + " us after " + previous);
            previous = us;
        }
    }
    private static double shmPairUs(long bytes) throws Exception {
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        return new NcclPredictor().predict(new PredictionRequest(t, List.of(t.gpus().get(0), t.gpus().get(4)),
                Collective.ALL_REDUCE, bytes, DataType.FLOAT, RedOp.SUM,
                NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "LL")))).timeUs();
    }

    /**
     * Over SHM the LL kernel is the same ({@code prims_ll.h} forwards each line once its flags match), so the hops
     * hide too. GPUs 0 and 4 of the 8x L40S host sit on two CPU nodes: SHM (ShmLinkShareTest). The links give 24
     * (Gen4 x16) x 0.5 (NCCL's LL rule) x 0.666 (SHM duplex share, Gen4) = 7.992 GB/s busBw = algBw for 2 ranks
     * (ShmHostReadsTest); NCCL's Ring LL latency on PCI: 6.6 + 2 x 1 steps x 1.0 = 8.6 us, of which 2 - 1 = 1 hop can
     * hide. 64 KiB: data 65536 / 7992 = 8.200 us, longer than the hop: 1.5 + 8.6 - 1.0 + 8.200 = 17.300 us (18.300
     * without the rule). The host reads (2 channels x 4096 B per 1.364 us round trip, 6.006 GB/s) give 1.5 + 10.912
     * = 12.41 us and do not bind. Measured on such a pair (FarmShare, NCCL 2.29.2, nccl-tests -g 2,
     * A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt line 168, NCCL_PROTO=ll): 17.79 us out of place.
     */
    @Test
    void shmHidesTheHopBehindTheData() throws Exception {
        double expected = 1.5 + 8.6 - 1.0 + 64 * KIB / (1000.0 * 7.992);
        assertEquals(17.300, expected, 0.001);
        assertEquals(expected, shmPairUs(64 * KIB), expected * 0.002);
    }

    /**
     * 8 bytes over the same SHM pair: the data time, 8 / 7992 = 0.001 us, is all that can hide, so the call takes
     * NCCL's latency: 1.5 + 8.6 = 10.1 us.
     */
    @Test
    void shmShortDataHidesOnlyItself() throws Exception {
        assertEquals(10.1, shmPairUs(8), 10.1 * 0.002);
    }
}
