package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.SimulatorFixtures;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.PcieEightGpu;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Over SHM a GPU that stores to and loads from host memory in the same step moves 0.666 of its link per direction on
 * PCIe Gen3 and Gen4 (the median of three measured runs, ShmLinkShare's note) and 0.815 on Gen5 (the ll128read probe
 * on a lent H100, data/device/h100-ll128read.txt: median 38.35 GB/s each way over 48 x 0.98); one that only stores or
 * only loads moves all of it; one that stores, then loads (a 2-rank AllGather or ReduceScatter) half of it each way.
 */
class ShmLinkShareTest {

    private static final long GIB = 1L << 30;
    /** 8 GiB: latency and pipeline fill below 0.1 % of the time. */
    private static final long BIG = 8L << 30;

    private static Prediction predict(Topology t, List<Integer> gpus, Collective c, long bytes, String... env)
            throws Exception {
        return SimulatorFixtures.predict(t, gpus, c, bytes, SimulatorFixtures.env(env));
    }

    private static Topology rtx2080TiPair() {
        return Catalog.standalone(new SynthesizedHost(GpuModels.sku("GeForce RTX 2080 Ti").orElseThrow(), 2,
                Bandwidth.ofGbits(100), 2), 1);
    }

    /**
     * 2x RTX 2080 Ti behind one PCIe Gen3 x16 switch, P2P off: NCCL's ring charges both hops on the 12 GB/s uplink,
     * 6 GB/s, x bwEfficiencySimple 0.98 = 5.88 GB/s per direction (OneWayPairTest). An AllReduce rank stores and loads
     * in its middle step (NCCL 2.30.7 src/device/all_reduce.h runRing, directRecvReduceCopyDirectSend): 5.88 x 0.666 =
     * 3.916 GB/s busbw (Gen3). A 2-rank AllGather or ReduceScatter has no middle step (all_gather.h runRing: directSend, then
     * directRecv; reduce_scatter.h: send, then recvReduceCopy), so a channel stores, then loads; its 2 channels share
     * one direction (1/2 each) while in the same phase and move 0.666 each way while in opposite phases, half the
     * bytes each way on average (ShmLinkShare.alternatingShare): 5.88 / (1 / (2 x 0.666) + 1) = 3.3586. Broadcast of 2 ranks is one-way (the root stores, the other loads): the pair path's 12 x 0.98 = 11.76, with each
     * of its 2 channels' 8191 further 512 KiB steps waiting 4.728 us (ShmStepWaits): 8 GiB / (8 GiB / 11760 + 38727.0)
     * = 11.167.
     * Measured on that machine at 1 GiB
     * (validation/src/test/resources/data/A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt
     * lines 47, 89, 131): AllReduce 4.00, AllGather 3.79 (3.14-3.39 from 4 to 512 MiB), Broadcast 11.09.
     */
    @Test
    void twoRankRingOverShmOnASharedSwitch() throws Exception {
        Topology t = rtx2080TiPair();
        List<Integer> g = List.of(0, 1);
        String[] ring = {"NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple", "NCCL_P2P_DISABLE", "1"};
        assertEquals(3.916, predict(t, g, Collective.ALL_REDUCE, BIG, ring).busBw(), 3.916 * 0.002);
        assertEquals(3.3586, predict(t, g, Collective.ALL_GATHER, BIG, ring).busBw(), 3.3586 * 0.002);
        assertEquals(3.3586, predict(t, g, Collective.REDUCE_SCATTER, BIG, ring).busBw(), 3.3586 * 0.002);
        assertEquals(11.167, predict(t, g, Collective.BROADCAST, BIG, ring).busBw(), 11.167 * 0.002);
        assertEquals(4.00, predict(t, g, Collective.ALL_REDUCE, GIB, ring).busBw(), 4.00 * 0.03,
                "measured AllReduce busbw at 1 GiB");
    }

    /**
     * 4 GPUs each on its own PCIe switch under one Intel CPU: every pair is PHB, beyond NCCL's default P2P level PXB,
     * so NCCL uses SHM; with NCCL_P2P_LEVEL=SYS the same paths carry P2P at the same links' rate. SHM over P2P, for
     * the unrooted ring collectives of 4 ranks, AllGather and ReduceScatter included (their middle steps store and
     * load at once; a Broadcast's middle ranks do too, but over SHM its channels also wait each step's chain,
     * ShmStepWaits, which P2P does not): the duplex share of the GPUs' link generation, 0.815 for the RTX PRO 6000
     * Blackwell (PCIe Gen5 x16, GPU database; the probe's 38.35 / 47.04) and 0.666 for the L40S (Gen4 x16), over
     * what P2P moves on the same links: NCCL's figure on Gen5, 1.076 of it on Gen4 (PcieP2pShare's measured rings).
     */
    @Test
    void fourRankRingShmAgainstP2pOnTheSamePaths() throws Exception {
        Topology gen5 = Catalog.standalone(new SynthesizedHost(GpuModels.sku("RTX PRO 6000 Blackwell").orElseThrow(),
                4, Bandwidth.ofGbits(400)), 1);
        Topology gen4 = Catalog.standalone(new SynthesizedHost(GpuModels.sku("L40S").orElseThrow(), 4,
                Bandwidth.ofGbits(400)), 1);
        for (Collective c : List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.REDUCE_SCATTER)) {
            assertEquals(38.35 / (48 * 0.98), ratio(gen5, c), 0.002, "Gen5 " + c);
            assertEquals(0.666 / 1.076, ratio(gen4, c), 0.002, "Gen4 " + c);
        }
    }

    /**
     * The generation the share is keyed on is that of the GPUs' own PCIe links as the GPU database gives them
     * (NVIDIA datasheets: RTX 2080 Ti PCIe 3.0 x16, L40S PCIe 4.0 x16, RTX PRO 6000 Blackwell PCIe 5.0 x16), read from
     * the topology's GPU links, not from the switch uplinks or NCCL's figure.
     */
    @Test
    void generationIsTheGpusOwnLinks() {
        assertEquals(3, gen(rtx2080TiPair()));
        assertEquals(4, gen(Catalog.standalone(new SynthesizedHost(GpuModels.sku("L40S").orElseThrow(), 4,
                Bandwidth.ofGbits(400)), 1)));
        assertEquals(5, gen(Catalog.standalone(new SynthesizedHost(GpuModels.sku("RTX PRO 6000 Blackwell")
                .orElseThrow(), 4, Bandwidth.ofGbits(400)), 1)));
        assertEquals(4, gen(Catalog.standalone(PcieEightGpu.l40s(), 1)));
    }

    private static int gen(Topology t) {
        return ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_30_7).gpuPcieGen();
    }

    private static double ratio(Topology t, Collective c) throws Exception {
        List<Integer> g = List.of(0, 1, 2, 3);
        return predict(t, g, c, BIG, "NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple").busBw()
                / predict(t, g, c, BIG, "NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple", "NCCL_P2P_LEVEL", "SYS").busBw();
    }

    /**
     * The 2-rank Tree chain over SHM (GPUs 0 and 4 of the 8x L40S host, two CPU nodes: SYS): its leaf sends up while
     * it receives down, so 24 (the GPU's Gen4 x16 link, CpuRouteRateTest) x 0.98 x 0.666 = 15.66 GB/s; a chain of 2
     * moves what a ring of 2 moves (IntraNodeChain), so busbw = algbw; its root waits one more step chain (2 x 1.0 +
     * 2 x 1.364 = 4.728 us) per 1 MiB of a channel's data than the ring's share holds (ShmStepWaits.treePairUs: a
     * Tree slice is one 512 KiB step, a Ring slice two), so each 1 MiB a channel takes 1048576 / 7832 = 133.88 us +
     * 4.728: 15.664 x 133.88 / 138.61 = 15.13 GB/s. Measured on such a pair 14.81 at 128 MiB
     * (A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt run 3); at 8 GiB the chain's one-slice fill
     * (2 channels x 512 KiB at 7.8 GB/s a channel, 134 us of 548,000) is below 0.1 %.
     */
    @Test
    void twoRankTreeChainOverShmIsDuplex() throws Exception {
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        Prediction p = predict(t, List.of(0, 4), Collective.ALL_REDUCE, BIG, "NCCL_ALGO", "Tree", "NCCL_PROTO",
                "Simple");
        assertEquals(15.13, p.busBw(), 15.13 * 0.003, p.toString());
    }

    /**
     * The 4-rank Tree chain over SHM (GPUs 0, 1, 4, 5 of the 8x L40S host: two per CPU node, every pair beyond NCCL's
     * P2P level). A middle rank sends S up and S down and receives S from each side at once (NCCL 2.29.2
     * src/device/all_reduce.h runTreeSplit), all on its one Gen4 x16 link (24 GB/s, CpuRouteRateTest): the link
     * moves its duplex ceiling, 0.815 (data/device/h100-ll128read.txt, test=simple, median over 2-132 blocks of
     * rw_GBps_each_way / 47.04), so algBw = 24 x 0.98 x 0.815 / 2 = 9.584 GB/s. Each hop carries S each way, at most
     * a ring hop's 24 x 0.98 x 0.666 = 15.66 GB/s: not the bound. nccl-tests' busbw = algbw x 2 x 3 / 4 = 14.376.
     * Measured 14.05 at 128 MiB (A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt line 231,
     * NCCL_ALGO=tree), where the ring hop's share alone (7.91 algBw, 11.86 busbw) was 16 % low.
     */
    @Test
    void fourRankTreeChainOverShmRunsAtTheMiddleRanksLink() throws Exception {
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        Prediction p = predict(t, List.of(0, 1, 4, 5), Collective.ALL_REDUCE, BIG, "NCCL_ALGO", "Tree",
                "NCCL_PROTO", "Simple");
        assertEquals(14.376, p.busBw(), 14.376 * 0.003, p.toString());
        assertEquals(14.05, p.busBw(), 14.05 * 0.03, "measured busbw at 128 MiB");
        assertEquals(ShmLinkShare.DUPLEX_SHARE, ShmLinkShare.chainShare(2, ShmLinkShare.DUPLEX_SHARE), 1e-12,
                "a chain of 2 has no middle rank");
    }

    /**
     * The same pair with P2P on is PIX (never through the CPU): P2P write mode loads each GPU link both ways in every
     * step, so AllReduce runs at the pair's link rate, 12 x 0.98 = 11.76 GB/s, as the one-way Broadcast does.
     */
    @Test
    void p2pUnderOneSwitchIsNotShm() throws Exception {
        Topology t = rtx2080TiPair();
        assertEquals(11.76, predict(t, List.of(0, 1), Collective.ALL_REDUCE, BIG, "NCCL_ALGO", "Ring", "NCCL_PROTO",
                "Simple").busBw(), 11.76 * 0.002);
    }
    /**
     * The Gen3/Gen4 duplex share is the median of the three duplex SHM runs in the class note, the 2-rank Tree taken
     * without its root's extra step waits (ShmStepWaits.treePairUs), which the ring share does not hold. Measured
     * (validation/src/test/resources/data): 2x L40S Ring 15.67 GB/s at 128 MiB
     * (A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt line 47) over 24 x 0.98 = 0.6662; its Tree
     * 9061.25 us at 128 MiB (line 135): 1 MiB a channel (2 channels) every 9061.25 / 64 = 141.58 us, less one chain
     * (2 x 1.0 + 2 x 1.364 = 4.728 us) 136.86 us, 1048576 B / 136.86 us / 11760 MB/s (half of 23.52 a channel) =
     * 0.6515; 2x RTX 2080 Ti Ring 4.00 GB/s at 1 GiB (A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-
     * nop2p-autodl.txt line 47) over 6 x 0.98 = 0.6803. Median 0.6662, the constant's 0.666.
     */
    @Test
    void duplexShareIsTheMedianOfTheDuplexRunsWithTheTreesWaitsTakenOut() {
        double ring = 15.67 / (24 * 0.98);
        double tree = 1048576 / (9061.25 / 64 - (2 * 1.0 + 2 * 1.364)) / (24 * 0.98 / 2 * 1000);
        double turing = 4.00 / (6 * 0.98);
        assertEquals(0.6515, tree, 5e-4);
        double[] runs = {ring, tree, turing};
        Arrays.sort(runs);
        assertEquals(ShmLinkShare.DUPLEX_SHARE, runs[1], 5e-4);
    }
}
