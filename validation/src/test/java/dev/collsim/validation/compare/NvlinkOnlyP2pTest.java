package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A host whose GPUs reach each other peer to peer over NVLink only: Azure NC96ads_A100_v4, two NVLink-bridged pairs,
 * {@code nvidia-smi topo -p2p w} OK within a pair and NS across (NVIDIA/cuQuantum#191). NCCL turns P2P off for a pair
 * NVML or CUDA refuses (NCCL 2.30.7 {@code src/graph/paths.cc ncclTopoCheckP2p}: p2pStatusRead/Write not OK, p2p = 0;
 * NCCL 2.16.5 {@code src/transport/p2p.cc p2pCanConnect}: cudaDeviceCanAccessPeer 0, "Could not enable P2P") and the
 * SHM transport connects it; NCCL_P2P_LEVEL=NVL gives the same split (P2P when the path type is at most NVL).
 */
class NvlinkOnlyP2pTest {

    private static final String NC96 = "A-allreduce-1x4xA100pcie-azure-nc96v4-srun-graph-vs-topo-file.txt";

    /** The header line 5 says "P2P over PCIe not supported between the pairs": level NVL, not P2P off everywhere. */
    @Test
    void theHeaderGivesP2pOverNvlinkOnly() throws Exception {
        Dataset d = Corpus.read(NC96).get(1);
        Map<String, String> settings = new HashMap<>(d.env());
        assertTrue(HeaderPcie.p2pOff(d, 1, settings).isPresent());
        assertEquals("NVL", settings.get("NCCL_P2P_LEVEL"));
        assertFalse(settings.containsKey("NCCL_P2P_DISABLE"), "the NVLink pairs keep P2P");
        assertTrue(OlderAmdP2p.apply(d, ClusterGuesser.guess(d).orElseThrow().topology(), settings).isEmpty(),
                "the header's word wins over NCCL 2.16's AMD default (SYS)");
        assertTrue(HeaderPcie.p2pOff(d, 1, new HashMap<>(Map.of("NCCL_P2P_LEVEL", "SYS"))).isEmpty(),
                "a run's own P2P setting wins");
        Dataset pair = Corpus.read("A-allreduce-1x2xA100pcie-azure-nc48v4-srun-graph-vs-topo-file.txt").get(1);
        assertTrue(HeaderPcie.p2pOff(pair, 1, new HashMap<>()).isEmpty(), "the NC48 pair's header says nothing");
    }

    /**
     * Run 2 (line 56), 8 GiB, Ring/Simple on two opposite GPU orders (0-1-2-3 and 0-3-2-1): every GPU link carries one
     * order's cross-pair hop each way through host memory, the duplex SHM share of the link: NCCL's Gen4 x16 figure
     * 24 GB/s (src/graph/topo.h) x bwEfficiencySimple 0.98 x ShmLinkShare.DUPLEX_SHARE 0.666 (measured on the L40S
     * and RTX 2080 Ti files) = 15.66 GB/s per order, busbw 2 x 15.66 = 31.33 GB/s (measured 28.21 at 8 GiB, 30.99 at
     * 1 GiB; over P2P collsim predicted 50.61).
     */
    @Test
    void crossPairHopsMoveTheDuplexShmShare() throws Exception {
        Dataset d = Corpus.read(NC96).get(1);
        DatasetComparison c = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null)
                .compare(d, Optional.empty());
        PointComparison p = c.points().stream().filter(x -> x.sizeBytes() == 8589934592L).findFirst().orElseThrow();
        double busBw = 1.5 * 8589934592L / (p.predictedUs() * 1000.0); // nccl-tests: 2 (n - 1) / n, n = 4
        assertEquals(2 * 24 * 0.98 * 0.666, busBw, 0.005 * busBw, "predicted " + p.predictedUs() + " us");
    }
}
