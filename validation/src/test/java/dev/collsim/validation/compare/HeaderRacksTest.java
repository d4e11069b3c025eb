package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Gpu;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Runs spread over several GB200 NVL72 racks: the ranks fall into the racks as the file states, so NCCL's nodes (one
 * per NVLink domain) hold the ranks they held in the run.
 */
class HeaderRacksTest {

    private static final String OCI = "A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt";

    private static Dataset run(String label) throws Exception {
        return Corpus.read(OCI).stream().filter(d -> d.label().startsWith(label)).findFirst().orElseThrow();
    }

    /** Ranks per NVLink domain of the guessed cluster (18 trays of 4 GPUs per NVL72 domain). */
    private static Map<Integer, Integer> ranksPerDomain(ClusterGuess g) {
        Map<Integer, Integer> per = new TreeMap<>();
        for (Gpu gpu : g.ranks()) {
            per.merge(gpu.host() / 18, 1, Integer::sum);
        }
        return per;
    }

    @Test
    void twoRacksOf16TraysAreTwoNodesOf64Ranks() throws Exception {
        // OCI file line 79, "AlltoAll 32 hosts, 2 racks (128 GPUs)": 16 trays of 4 GPUs in each rack. Filling the
        // first rack's 18 trays would make nodes of 72 and 56 ranks, and the 56-rank node's GPUs would each send
        // 72/128 of S over one 400 Gb/s NIC: busbw at most (127/128) x 50 GB/s x 128/72 = 88.2 GB/s, below the 89.70
        // measured at 8 GiB (file line 83); 64 + 64 allows (127/128) x 50 x 2 = 99.2
        ClusterGuess g = ClusterGuesser.guess(run("AlltoAll 32 hosts")).orElseThrow();
        assertEquals(Map.of(0, 64, 1, 64), ranksPerDomain(g));
        assertTrue(g.assumptions().stream().anyMatch(a -> a.contains("32 hosts over 2 NVLink domains")),
                g.assumptions().toString());
        // "AllReduce 48 hosts, 3 racks (192 GPUs)": 16 trays per rack
        assertEquals(Map.of(0, 64, 1, 64, 2, 64), ranksPerDomain(ClusterGuesser.guess(
                run("AllReduce 48 hosts")).orElseThrow()));
    }

    @Test
    void oneRackStaysOneDomain() throws Exception {
        // "AlltoAll 16 hosts, 1 rack (64 GPUs)": one domain, no statement of more
        ClusterGuess g = ClusterGuesser.guess(run("AlltoAll 16 hosts")).orElseThrow();
        assertEquals(Map.of(0, 64), ranksPerDomain(g));
        assertTrue(g.assumptions().stream().noneMatch(a -> a.contains("NVLink domains (racks)")));
    }

    @Test
    void domainCountsReadFromTitleOrHeaderEntry() throws Exception {
        Dataset d = run("AlltoAll 32 hosts");
        assertEquals(2, HeaderRacks.statedDomains(d, 32));
        // the header's nodes_x_gpus entry "48x4 (3 racks)" for a run whose title gives none
        Dataset untitled = new Dataset(d.file(), "AllReduce", d.line(), d.kind(), d.collective(), d.dataType(),
                d.nRanks(), d.nHosts(), d.gpuModel(), d.ncclRelease(), d.env(), d.header(), d.ranks(), d.points(),
                d.avgBusBw(), d.summaryMaxBusBw(), d.log(), d.notes(), d.launch());
        assertEquals(3, HeaderRacks.statedDomains(untitled, 48));
        assertEquals(0, HeaderRacks.statedDomains(untitled, 2));
        // run host h -> built host: 16 per domain of 18 puts run host 16 on the second domain's first tray
        assertEquals(List.of(0, 15, 18, 33), List.of(HeaderRacks.builtHost(0, 16, 18), HeaderRacks.builtHost(15, 16,
                18), HeaderRacks.builtHost(16, 16, 18), HeaderRacks.builtHost(31, 16, 18)));
    }
}
