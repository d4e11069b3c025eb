package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.NvSwitch;
import dev.collsim.validation.calibration.ProfileClass;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Hosts a data file places in different NVLink domains are built as separate NCCL nodes joined by the network. */
class HeaderNvlDomainsTest {

    private static final String GB300 = "A-allgather-2x4xGB300-gcp-a4xmax-gke-gib-cross-nvl-domain-nccl2.28.txt";

    @ParameterizedTest
    @ValueSource(strings = {
        // the GB300 file, header lines 4, 5 and the run title at line 10
        "2x4 (run 1: pods in distinct NVLink domains); run 2: JobSet NUM_NODES=2",
        "run 1 crosses NVLink domains, so all traffic goes over GPUDirect RDMA",
        "Run 1: two-node test (pods in distinct NVLink domains -> cross-domain RDMA)",
        // other spellings of the same meaning
        "trays in different NVL72 domains", "a cross-NVL-domain run", "placed across NVLink domains",
        "hosts in separate NVL domains"})
    void phrasesThatSeparateTheHosts(String text) {
        assertTrue(HeaderNvlDomains.APART.matcher(text).find(), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2 trays in the same NVLink domain", "MNNVL across 2 trays", "one NVL72 domain",
        "distinct hosts, one NVLink domain", "cross-domain RDMA"})
    void phrasesThatDoNot(String text) {
        assertFalse(HeaderNvlDomains.APART.matcher(text).find(), text);
    }

    /**
     * Run 1 (title: "pods in distinct NVLink domains") and run 2 (header line 4 states it for the file) of the GB300
     * file: 2 trays, each on an NVLink switch of its own, so the class is a network one (RoCE), not MNNVL.
     */
    @Test
    void gb300TraysOfDifferentDomainsAreTwoNodes() throws Exception {
        List<Dataset> runs = Corpus.read(GB300);
        // run 2's label says nothing of domains; header line 4 says it of run 1: "2x4 (run 1: pods in distinct NVLink
        // domains); run 2: JobSet NUM_NODES=2 (rank list elided)", and the text must say so
        List<String> from = List.of("the run's label", "the header's nodes_x_gpus line (\"run 1: pods in distinct"
                + " NVLink domains\"), said there of run 1, not of this run (run 2)");
        for (int i = 0; i < 2; i++) {
            ClusterGuess g = ClusterGuesser.guess(runs.get(i)).orElseThrow();
            assertEquals("catalog:a4x-maxgpu-4g-metal", g.source());
            String expected = "each host in an NVLink domain of its own (read from " + from.get(i);
            assertTrue(g.assumptions().stream().anyMatch(a -> a.startsWith(expected)), g.assumptions().toString());
            var probe = g.topology().hostTemplate().orElse(g.topology());
            assertTrue(probe.devices(NvSwitch.class).stream().allMatch(s -> s.host() >= 0), "no rack-wide switch");
            assertEquals("blackwell-roce", ProfileClass.of(g.topology()).key());
        }
    }

    /**
     * The bandwidth end of run 1: 16 GiB all_gather on 2 trays x 4 GB300 took 42,091.7 us (file line 51, busbw
     * 357 GB/s). Two NCCL nodes over 4 x 800 Gb/s (100 GB/s) NICs per tray bound the ring's busbw at 4 x 100 =
     * 400 GB/s, i.e. 16 GiB x 7/8 / 400 GB/s = 37,580 us; the model must land within 10 % of the measured time (the
     * single-domain guess predicted 21,363 us: NVLink speed, -49 %; P2C NICs capped by NCCL's Gen5 x16 48 GB/s gave
     * 80,120 us, +90 %).
     */
    @Test
    void gb300BandwidthEndIsTheNics() throws Exception {
        Dataset d = Corpus.read(GB300).get(0);
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        List<PerfPoint> pts = Comparer.usable(d);
        PerfPoint last = pts.get(pts.size() - 1);
        assertEquals(17179869184L, last.sizeBytes());
        assertEquals(42091.7, last.primary().timeUs(), 1e-6);
        Comparer comparer = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);
        double predicted = comparer.model(d, g, NcclSettings.modelled(d.env()), List.of(last)).get(0)
                .timeUs(PerformanceParameters.DEFAULTS);
        assertTrue(predicted > 37580 * 0.999, "no faster than the NIC bound: " + predicted);
        assertEquals(42091.7, predicted, 42091.7 * 0.10);
    }
}
