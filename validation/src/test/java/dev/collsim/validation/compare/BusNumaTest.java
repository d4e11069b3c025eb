package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.PathType;
import dev.collsim.topology.paths.PathFinder;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Ranks placed on NUMA nodes by the PCI bus of nccl-tests' rank lines, when the header says two of them. */
class BusNumaTest {

    private static final String L40S = "A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt";

    @Test
    void busNumberOfBothRankLineForms() {
        // nccl-tests 2.17.9 prints [domain:bus:device] (the L40S file), older versions [0xBUS] (the RTX 4090 files)
        assertEquals(OptionalInt.of(0x4a), BusNuma.bus("0000:4a:00"));
        assertEquals(OptionalInt.of(0xca), BusNuma.bus("0000:ca:00"));
        assertEquals(OptionalInt.of(0x81), BusNuma.bus("0x81"));
        assertEquals(OptionalInt.empty(), BusNuma.bus("0009:01:00"), "GH200's segment 9: not segment 0's split");
        assertEquals(OptionalInt.empty(), BusNuma.bus("NVIDIA"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2 NUMA nodes", "dual-socket server", "two sockets", "2x Xeon Platinum 8462Y+",
        "dual AMD EPYC 9654", "2 CPU sockets"})
    void headersThatSayTwoNodes(String text) {
        assertTrue(BusNuma.TWO.matcher(text.toLowerCase(Locale.ROOT)).find(), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1x AMD EPYC 9654", "both CPU sockets", "2x NVIDIA L40S", "NUMA node 0", "4 sockets"})
    void headersThatDoNot(String text) {
        assertFalse(BusNuma.TWO.matcher(text.toLowerCase(Locale.ROOT)).find(), text);
    }

    /**
     * L40S file, runs 2-6 (lines 45-46: [0000:4a:00], [0000:ca:00]); the header states 2 NUMA nodes. Bus 0x4a is below
     * 0x80 (node 0), 0xca above (node 1). The catalog host pcie-8x-l40s puts switches 0, 1 (GPUs 0-3) on CPU 0 and
     * switches 2, 3 (GPUs 4-7) on CPU 1 (PcieEightGpu.addL40s), so the ranks are GPU 0 and GPU 4, and NCCL's path
     * between them is SYS (they were GPUs 0 and 1, one PCIe switch, PIX, before).
     */
    @Test
    void l40sPairIsPlacedOnBothNumaNodes() throws Exception {
        Dataset d = Corpus.read(L40S).get(1);
        assertTrue(BusNuma.twoNodes(d));
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        List<Gpu> r = g.ranks();
        assertEquals(List.of(0, 4), List.of(r.get(0).index(), r.get(1).index()));
        assertEquals(PathType.SYS, PathFinder.of(g.topology()).path(r.get(0), r.get(1)).type());
        assertTrue(g.assumptions().stream().anyMatch(a -> a.contains("rank 0 [0000:4a:00] CPU 0, rank 1 [0000:ca:00]"
                + " CPU 1")), g.assumptions().toString());
    }

    /**
     * The 4-GPU companion (A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt, header line 5: NODE
     * between every pair, no two GPUs behind one PCIe switch; buses 4a, 61 on node 0, ca, e1 on node 1). The catalog
     * host puts GPUs 0-1, 2-3, 4-5, 6-7 behind one switch each, every switch on its own host bridge
     * (PcieEightGpu.addL40s), so the ranks take GPUs 0, 2, 4, 6: PHB within a CPU node (NCCL 2.30.7
     * {@code src/graph/paths.cc}: through the CPU, not a switch; NODE in nvidia-smi's words), SYS across; the first
     * free GPUs (0, 1) would have been a PIX pair, P2P where the host's pair is SHM.
     */
    @Test
    void l40sFourGpusKeepOffSharedSwitches() throws Exception {
        Dataset d = Corpus.read("A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt").get(0);
        assertTrue(HeaderPcie.noSharedSwitch(d));
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        List<Gpu> r = g.ranks();
        assertEquals(List.of(0, 2, 4, 6), r.stream().map(Gpu::index).toList());
        PathFinder paths = PathFinder.of(g.topology());
        assertEquals(PathType.PHB, paths.path(r.get(0), r.get(1)).type());
        assertEquals(PathType.SYS, paths.path(r.get(1), r.get(2)).type());
    }

    /** Run 1 ran on another node (oat-02) with buses 61 and e1: the same split. */
    @Test
    void l40sRunOnePairToo() throws Exception {
        ClusterGuess g = ClusterGuesser.guess(Corpus.read(L40S).get(0)).orElseThrow();
        assertEquals(4, g.ranks().get(1).index());
    }

    /**
     * The tinybox file's buses straddle 0x80 (0x01, 0x42, 0x81, 0x82) but its header names no two sockets or NUMA
     * nodes (a single-socket board spans the whole bus range too), so the rule stays out.
     */
    @Test
    void busesAloneDoNotPlaceRanks() throws Exception {
        Dataset d = Corpus.read("A-allreduce-1x6xRTX4090-tinybox-p2p-driver-single-size.txt").get(0);
        assertFalse(BusNuma.twoNodes(d));
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        assertFalse(g.assumptions().stream().anyMatch(a -> a.contains("ranks placed by PCI bus")));
    }
}
