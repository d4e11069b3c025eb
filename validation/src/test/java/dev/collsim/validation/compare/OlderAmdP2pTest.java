package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * NCCL up to 2.22 used P2P at every distance on AMD hosts, from 2.23 only up to PXB (NCCL src/graph/paths.cc
 * ncclTopoCheckP2p at v2.22.3-1: "int p2pLevel = PATH_SYS", PXB only for Intel, ARM, Zhaoxin; at v2.23.4-1:
 * "int p2pLevel = PATH_PXB", SYS for AMD with at most 2 GPUs). Which runs are older is read from the file.
 */
class OlderAmdP2pTest {

    private static Dataset first(String file) throws Exception {
        return Corpus.read(file).get(0);
    }

    @Test
    void olderByVersionOrByDate() throws Exception {
        assertEquals(Optional.of("NCCL 2.18.5"),
                OlderAmdP2p.older(first("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt")),
                "version 2.18.5 in the header");
        assertEquals(Optional.of("version not given, run dated 2024-04: NCCL 2.21.5 then"),
                OlderAmdP2p.older(first("A-allreduce-1x6xRTX4090-tinybox-p2p-driver-single-size.txt")),
                "no version, dated 2024-04 (file line 2): v2.21.5-1 tagged 2024-04-02, before v2.23.4-1 (2024-09-16)");
        assertEquals(Optional.of("version not given, date '2024-2025' not placing it, header naming P2P between the"
                + " GPUs"), OlderAmdP2p.older(first("A-allreduce-1x4xRTX4090-p2p-driver-8gpu-box.txt")),
                "dated 2024-2025, which does not settle it; the header says 'P2P enabled via patched open driver'");
        assertEquals(Optional.of("version not given, run dated 2024: NCCL 2.22.3 then"),
                OlderAmdP2p.older(first("A-allgather-1x4xA100pcie-azure-ncv4-single-size.txt")),
                "dated 2024 alone (file line 2), read as 2024-06-30: v2.22.3-1 was tagged 2024-06-19, v2.23.4-1 only"
                        + " 2024-09-16");
        assertEquals(Optional.of("version not given, run dated 2023-07: NCCL 2.18.3 then"),
                OlderAmdP2p.older(first("A-allreduce-1x2xA100pcie-azure-nc48v4-srun-graph-vs-topo-file.txt")),
                "no version, header date '2023-07 (nvidia-smi on the page: Fri Jul 14 2023)': 2023-07 read, month's"
                        + " end 2023-07-31 after v2.18.3-1 (2023-06-14), before v2.18.5-1 (2023-08-23)");
        assertTrue(OlderAmdP2p.older(first("A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt"))
                .isEmpty(), "NCCL 2.29.7");
    }

    /**
     * The ABCI Compute Node (A) run: NCCL 2.8.4 (header line 6), guessed as a DGX A100 whose catalog CPUs are AMD EPYC,
     * but the header's hardware line (line 3) names two Intel Xeon Platinum 8360Y: NCCL's AMD default is not the
     * run's, so no P2P level is added (it was, with the line "NCCL before 2.23 (NCCL 2.8.4) on AMD CPUs").
     */
    @Test
    void theHeadersIntelCpuWinsOverTheCatalogHostsAmd() throws Exception {
        Dataset d = first("A-allreduce-2to16x8xA100-40GB-abci-anode-hdr-nccl2.8.txt");
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        assertEquals(Optional.of("NCCL 2.8.4"), OlderAmdP2p.older(d));
        assertTrue(OlderAmdP2p.headerNamesOtherCpu(d));
        Map<String, String> settings = new HashMap<>();
        assertTrue(OlderAmdP2p.apply(d, g.topology(), settings).isEmpty());
        assertEquals(Map.of(), settings);
    }

    /** The tinybox run (6x RTX 4090 on AMD root ports, 2024-04) is modelled with P2P; a run's own setting wins. */
    @Test
    void addsTheLevelOnlyOnAmdHostsWithoutAP2pSetting() throws Exception {
        String file = "A-allreduce-1x6xRTX4090-tinybox-p2p-driver-single-size.txt";
        Dataset d = first(file);
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        Map<String, String> settings = new HashMap<>();
        assertTrue(OlderAmdP2p.apply(d, g.topology(), settings).isPresent());
        assertEquals(Map.of("NCCL_P2P_LEVEL", "SYS"), settings);
        assertTrue(OlderAmdP2p.apply(d, g.topology(), new HashMap<>(Map.of("NCCL_P2P_DISABLE", "1"))).isEmpty());
        Dataset intel = first("A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt");
        ClusterGuess synth = ClusterGuesser.guess(intel).orElseThrow();
        assertTrue(OlderAmdP2p.apply(intel, synth.topology(), new HashMap<>()).isEmpty(),
                "the synthesized host's CPU is not AMD");
    }
}
