package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A host whose GPUs reach each other peer to peer over NVLink only: Azure NC A100 v4, two NVLink-bridged pairs,
 * {@code nvidia-smi topo -p2p w} OK within a pair and NS across (NVIDIA/cuQuantum#191). NCCL turns P2P off for a pair
 * NVML or CUDA refuses (NCCL 2.30.7 {@code src/graph/paths.cc ncclTopoCheckP2p}: p2pStatusRead/Write not OK, p2p = 0;
 * NCCL 2.16.5 {@code src/transport/p2p.cc p2pCanConnect}: cudaDeviceCanAccessPeer 0, "Could not enable P2P") and the
 * SHM transport connects it; NCCL_P2P_LEVEL=NVL gives the same split (P2P when the path type is at most NVL). The
 * fact is the VM type's ({@link NvlinkOnlyP2p}, on the cluster config), or a header's ({@link HeaderPcie#p2pOff}).
 */
class NvlinkOnlyP2pTest {

    private static final String NC96 = "A-allreduce-1x4xA100pcie-azure-nc96v4-srun-graph-vs-topo-file.txt";
    private static final String NC48 = "A-allreduce-1x2xA100pcie-azure-nc48v4-srun-graph-vs-topo-file.txt";
    private static final String GATHER = "A-allgather-1x4xA100pcie-azure-ncv4-single-size.txt";

    private static Optional<String> vmRule(Dataset d, Map<String, String> settings) {
        return NvlinkOnlyP2p.apply(d, ClusterGuesser.guess(d).orElseThrow(), settings);
    }

    /**
     * Every NC A100 v4 file of 4 ranks gets level NVL from the VM type, with no word in its header: the 4-GPU
     * AllReduce (both runs) and the AllGather. The NC48 pair (GPUs 0-1, NV12) has no pair off the bridge: unchanged.
     * A run's own P2P setting wins; the VM's fact wins over NCCL 2.16's AMD default (SYS, {@link OlderAmdP2p}).
     */
    @Test
    void theVmTypeGivesP2pOverNvlinkOnly() throws Exception {
        for (Dataset d : List.of(Corpus.read(NC96).get(0), Corpus.read(NC96).get(1),
                Corpus.read(GATHER).get(0))) {
            Map<String, String> settings = new HashMap<>(d.env());
            assertTrue(vmRule(d, settings).isPresent(), d.toString());
            assertEquals("NVL", settings.get("NCCL_P2P_LEVEL"));
            assertFalse(settings.containsKey("NCCL_P2P_DISABLE"), "the NVLink pairs keep P2P");
        }
        Dataset d = Corpus.read(NC96).get(1);
        Map<String, String> settings = new HashMap<>(d.env());
        RunSettings.modelSettings(d, ClusterGuesser.guess(d).orElseThrow(), true, settings);
        assertEquals("NVL", settings.get("NCCL_P2P_LEVEL"), "not OlderAmdP2p's SYS");
        assertTrue(vmRule(d, new HashMap<>(Map.of("NCCL_P2P_LEVEL", "SYS"))).isEmpty(), "a run's own setting wins");
        for (Dataset pair : Corpus.read(NC48)) {
            assertTrue(vmRule(pair, new HashMap<>()).isEmpty(), "the NC48 pair is one NVLink pair");
        }
    }

    /**
     * The VM's name is the evidence, not the GPU: the same file with its hardware line naming a bare-metal host of 4x
     * A100 80GB PCIe in NVLink-bridged pairs (the cluster is still the config azure-nc96ads-a100-v4, ClusterGuesser's
     * host for the GPU) gets no P2P level; the VM's names as Azure writes them all count.
     */
    @Test
    void aBareA100PcieHostIsNotTheVm() throws Exception {
        String hw = Corpus.read(NC96).get(1).header().text("hardware");
        String text = Corpus.text(NC96).replace(hw, "bare-metal Supermicro server: 4x NVIDIA A100 80GB PCIe");
        Dataset d = MeasurementReader.read(NC96, text).get(1);
        assertEquals(NvlinkOnlyP2p.NC_A100_V4, ClusterGuesser.guess(d).orElseThrow().topology().name());
        assertTrue(vmRule(d, new HashMap<>()).isEmpty());
        for (String name : List.of("Standard_NC96ads_A100_v4", "NC48ads A100 v4", "Azure NC A100 v4 series",
                "AZHOP partition nc96v4", "ncv4 image")) {
            assertTrue(NvlinkOnlyP2p.VM_TYPE.matcher(name.toLowerCase(Locale.ROOT)).find(), name);
        }
        for (String name : List.of("Standard_NC6s_v3", "NC24ads_A100_v3", "DGX A100", "ND96asr_v4")) {
            assertFalse(NvlinkOnlyP2p.VM_TYPE.matcher(name.toLowerCase(Locale.ROOT)).find(), name);
        }
    }

    /** A header saying "P2P over PCIe not supported" gives the same level on any host (HeaderPcie.NO_PCIE_P2P). */
    @Test
    void aHeaderCanSayItToo() throws Exception {
        String text = Corpus.text(NC96).replace("SYS (PCIe across the SMP interconnect) between the pairs;",
                "SYS (PCIe across the SMP interconnect) between the pairs; P2P over PCIe not supported;");
        Dataset d = MeasurementReader.read(NC96, text).get(1);
        Map<String, String> settings = new HashMap<>();
        assertTrue(HeaderPcie.p2pOff(d, 1, settings).isPresent());
        assertEquals("NVL", settings.get("NCCL_P2P_LEVEL"));
        assertTrue(HeaderPcie.p2pOff(Corpus.read(NC96).get(1), 1, new HashMap<>()).isEmpty(), "the file says nothing");
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
