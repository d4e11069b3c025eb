package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.NetworkClass;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The network class and NIC speed compare reads from a data file, and the band every compared point carries. */
class NetworkClassGuessTest {

    private static ClusterGuess guess(String file, int run) throws Exception {
        return ClusterGuesser.guess(Corpus.read(file).get(run)).orElseThrow();
    }

    @Test
    void theRunsSettingsComeBeforeAHeaderThatDescribesSeveralRuns() throws Exception {
        String f = "A-allreduce-2x1-2x2xL40S-openshift-sriov-tcp-vs-roce-nccl2.27.txt";
        // run 1: NCCL_IB_DISABLE=1 (NCCL's socket transport); run 2: NCCL_IB_DISABLE=0 with NCCL_IB_HCA, header RoCE
        assertEquals(NetworkClass.SOCKET, guess(f, 0).topology().networkClass());
        assertEquals(NetworkClass.ROCE, guess(f, 1).topology().networkClass());
        assertTrue(guess(f, 0).assumptions().contains("network class socket (TCP sockets) read from"
                + " NCCL_IB_DISABLE=1"), guess(f, 0).assumptions().toString());
    }

    /**
     * NCCL_IB_DISABLE=1 chose the socket class of run 1, so compare does not also call it ignored; NCCL_IB_HCA (which
     * HCAs NCCL may use) is not modelled and still is. With a cluster the user gives, that cluster's class stands.
     */
    @Test
    void theSettingThatChoseTheTransportIsNotCalledIgnored() throws Exception {
        Dataset d = Corpus.read("A-allreduce-2x1-2x2xL40S-openshift-sriov-tcp-vs-roce-nccl2.27.txt").get(0);
        List<String> a = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null)
                .compare(d, Optional.empty()).cluster().assumptions();
        assertTrue(a.contains("network class socket (TCP sockets) read from NCCL_IB_DISABLE=1"), a.toString());
        assertTrue(a.stream().noneMatch(x -> x.startsWith("NCCL_IB_DISABLE ignored")), a.toString());
        assertTrue(a.contains("NCCL_IB_HCA ignored (not part of the model)"), a.toString());
        assertEquals(Optional.of("NCCL_IB_DISABLE ignored (it chooses NCCL's network transport; the given cluster's"
                + " network class stands)"), RunSettings.ignored("NCCL_IB_DISABLE", false));
        assertEquals(Optional.empty(), RunSettings.ignored("NCCL_NET", true));
    }

    @Test
    void tcpxoHostsGetTheirTwoHundredGigabitNicsAndTheirClass() throws Exception {
        ClusterGuess g = guess("A-allreduce-2x8xH100-gcp-a3mega-tcpxo.txt", 0);
        assertEquals(NetworkClass.TCPXO, g.topology().networkClass());
        // the header names "a3-megagpu-8g", whose catalog hosts already have the header's 8x 200 Gbps NICs
        assertEquals("catalog:a3-megagpu-8g", g.source());
        assertTrue(g.assumptions().stream().noneMatch(a -> a.startsWith("NIC speed")), g.assumptions().toString());
        // 8 x 200 Gb/s = 200 GB/s per node: the 2-node Ring AllReduce NIC bound is 200 x 30/16 = 375 GB/s busbw
        Dataset d = Corpus.read("A-allreduce-2x8xH100-gcp-a3mega-tcpxo.txt").get(0);
        DatasetComparison c = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null)
                .compare(d, Optional.empty());
        assertEquals(375.0, c.physicalBoundBusBw(), 1e-9);
    }

    @Test
    void slingshotIsReadAsItsOwnClass() throws Exception {
        ClusterGuess g = guess("A-allreduce-2x1xGH200-cscs-alps-slingshot-nccl2.30.txt", 0);
        assertEquals(NetworkClass.SLINGSHOT, g.topology().networkClass());
        // header line 5: "HPE Slingshot-11 (CXI, libfabric + aws-ofi-nccl plugin), 200 Gb/s per NIC": names the
        // aws-ofi-nccl plugin and libfabric, which alone would read as EFA
        assertTrue(g.assumptions().stream().anyMatch(a -> a.startsWith("network class slingshot (HPE Slingshot)"
                + " read from the header's interconnect")), g.assumptions().toString());
    }

    /**
     * The CSCS page's run without the aws-ofi-nccl hook (its label "Slingshot, plugin hook not enabled") ran on NCCL's
     * Socket transport: a Cassini NIC has no IB verbs device, so without the plugin NCCL falls back to Socket
     * (eth-cscs/cscs-docs nccl.md: a missing plugin otherwise falls "back to e.g. TCP"; {@link PluginAbsent}). The run
     * with the hook stays Slingshot.
     */
    @Test
    void slingshotWithoutItsPluginRunsOnSockets() throws Exception {
        String f = "A-allreduce-2x4xGH200-cscs-alps-slingshot-plugin-hook-vs-none.txt";
        assertEquals(NetworkClass.SLINGSHOT, guess(f, 0).topology().networkClass());
        assertEquals(NetworkClass.SOCKET, guess(f, 1).topology().networkClass());
        assertTrue(PluginAbsent.says("without the AWS OFI NCCL hook"));
        assertTrue(PluginAbsent.says("Slingshot, no net plugin"));
        assertTrue(!PluginAbsent.says("Slingshot, plugin hook enabled"));
    }

    @Test
    void oneHostHasNoNetworkClassLine() throws Exception {
        ClusterGuess g = guess("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt", 0);
        assertTrue(g.assumptions().stream().noneMatch(a -> a.startsWith("network class")), g.assumptions().toString());
    }

    /**
     * Without a calibration every point carries the uncalibrated band: [p / (1 + r), p (1 + r)] with r the typical
     * error of its size regime, and the comparison counts the measured points inside it.
     */
    @Test
    void uncalibratedPointsCarryTheTypicalErrorBand() throws Exception {
        Dataset d = Corpus.read("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt").get(0);
        DatasetComparison c = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null)
                .compare(d, Optional.empty());
        int inside = 0;
        for (PointComparison p : c.points()) {
            double r = (p.sizeBytes() >= 1 << 20 ? PredictionBand.UNCALIBRATED.atLeastMiBPercent()
                    : PredictionBand.UNCALIBRATED.belowMiBPercent()) / 100;
            assertEquals(p.predictedUs() / (1 + r), p.lowUs(), 1e-9);
            assertEquals(p.predictedUs() * (1 + r), p.highUs(), 1e-9);
            inside += p.measuredUs() >= p.lowUs() && p.measuredUs() <= p.highUs() ? 1 : 0;
        }
        assertEquals(inside, c.insideBand());
        String text = ComparisonText.render(List.of(c), true);
        assertTrue(text.contains("inside the band: " + inside + " of 24 points (uncalibrated typical error"), text);
    }
}
