package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The NCCL release compare models for a file: the one the file states (nearest carried, not newer), or the user's. */
class HeaderNcclVersionTest {

    private static final Optional<NcclVersion> PER_FILE = Optional.empty();
    /** What the line adds for a release of 2.21-2.22 (the words simulator NcclVersionTest derives). */
    private static final String RULES_21 = ", the oldest release collsim models in full, with NCCL 2.21-2.22's own"
            + " bandwidth factors, latencies and allowed algorithms and protocols where they differ"
            + " (docs/nccl-releases.md)";
    private static final String OCI = "A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt";

    /**
     * The talos header says "2.22.3+cuda12.6" (file line 6): older than 2.28, so 2.28.9's tables under the rules of
     * 2.21-2.22 (NCCL v2.21.5-1 and v2.22.3-1 {@code src/graph/tuning.cc}), and the line says so.
     */
    @Test
    void anOlderReleaseIsModelledWith2289sTablesUnderItsOwnRules() {
        Dataset d = Corpus.read("A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt").get(1);
        assertEquals(NcclVersion.V2_21_5, HeaderNcclVersion.modelled(d, PER_FILE));
        assertEquals("NCCL 2.28.9 modelled (file states 2.22.3)" + RULES_21, HeaderNcclVersion.line(d, PER_FILE));
        assertEquals("NCCL 2.30.7 modelled (--nccl-version; file states 2.22.3)",
                HeaderNcclVersion.line(d, Optional.of(NcclVersion.V2_30_7)));
    }

    /**
     * Olivia's nccl-tests line says nccl-library=23004 (file line 10): 2.30.4 is the 2.30 series, so 2.30.7. The
     * farmshare L40S runs log "NCCL version 2.29.2+cuda13.1" (file line 62): 2.29 lies between the carried 2.28 and
     * 2.30 and takes the older.
     */
    @Test
    void aReleaseTakesTheNearestCarriedThatIsNotNewer() {
        Dataset olivia = Corpus.read("A-allreduce-int8-2x4xGH200-sigma2-olivia-slingshot-nccl2.30.txt").get(0);
        assertEquals("NCCL 2.30.7 modelled (file states 2.30.4)", HeaderNcclVersion.line(olivia, PER_FILE));
        Dataset farmshare = Corpus.read("A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt").get(1);
        assertEquals("NCCL 2.28.9 modelled (file states 2.29.2)", HeaderNcclVersion.line(farmshare, PER_FILE));
    }

    /**
     * "#@ nccl_version: unknown" (file line 6) states no release and "#@ date: unknown (2023-2024)" (line 2) is not
     * one date: the default, 2.30.7, and the line says so.
     */
    @Test
    void aFileThatStatesNoReleaseTakesTheDefault() throws Exception {
        Dataset d = Corpus.read("A-allreduce-2x2xH100-dgx-ib.txt").get(0);
        assertEquals(NcclVersion.V2_30_7, HeaderNcclVersion.modelled(d, PER_FILE));
        DatasetComparison c = new Comparer(PER_FILE, PerformanceParameters.DEFAULTS, null).compare(d, Optional.empty());
        assertTrue(c.cluster().assumptions().contains("NCCL 2.30.7 modelled (file states no release: the default)"),
                c.cluster().assumptions().toString());
        assertEquals("NCCL 2.28.9 modelled (--nccl-version; file states no release)",
                HeaderNcclVersion.line(d, Optional.of(NcclVersion.V2_28_9)));
    }

    /**
     * The NC A100 v4 file states no release ("#@ nccl_version: unknown", line 6) and is dated "2024" (line 2): read as
     * 2024-06-30, the newest release tagged by then is 2.22.3 (v2.22.3-1, 2024-06-19; v2.23.4-1 came 2024-09-16),
     * older than 2.28, so 2.28.9's tables under 2.21-2.22's rules model it. The tinybox file (2024-04, line 2): 2.21.5
     * (tagged 2024-04-02).
     */
    @Test
    void aDatedFileThatStatesNoReleaseTakesTheReleaseCurrentAtItsDate() {
        Dataset d = Corpus.read("A-allgather-1x4xA100pcie-azure-ncv4-single-size.txt").get(0);
        assertEquals("2.22.3", HeaderNcclVersion.release(d).text());
        assertEquals(NcclVersion.V2_21_5, HeaderNcclVersion.modelled(d, PER_FILE));
        assertEquals("NCCL 2.28.9 modelled (file states no release; 2.22.3 assumed, the newest out by its date 2024"
                + " (a year alone: by 30 June))" + RULES_21, HeaderNcclVersion.line(d, PER_FILE));
        Dataset tinybox = Corpus.read("A-allreduce-1x6xRTX4090-tinybox-p2p-driver-single-size.txt").get(0);
        assertEquals("NCCL 2.28.9 modelled (file states no release; 2.21.5 assumed, the newest out by its date"
                + " 2024-04)" + RULES_21, HeaderNcclVersion.line(tinybox, PER_FILE));
    }

    /**
     * The OCI 10 GiB file states its release per run (line 6: "(a) 2.26.5 ...; (b) unknown (NGC TensorFlow
     * container)"): run (a2) (line 57) is 2.26.5, modelled with 2.28.9's tables under 2.26's rules; run (b2) (line
     * 106) states none and its date (line 2, "(a) 2025 (...); (b) ~2023") is no one date: the default 2.30.7.
     */
    @Test
    void aPerRunReleaseAppliesToItsOwnRunsOnly() {
        List<Dataset> ds = Corpus.read("A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt");
        assertTrue(HeaderNcclVersion.line(ds.get(1), PER_FILE).startsWith("NCCL 2.28.9 modelled (file states 2.26.5)"));
        assertEquals(NcclVersion.V2_30_7, HeaderNcclVersion.modelled(ds.get(3), PER_FILE));
        assertEquals("NCCL 2.30.7 modelled (file states no release: the default)",
                HeaderNcclVersion.line(ds.get(3), PER_FILE));
    }

    /**
     * The nc48v4 file (line 6: "#@ nccl_version: unknown"; line 2: "#@ date: 2023-07 (nvidia-smi on the page: Fri Jul
     * 14 2023)") states no release and its date carries a remark: the leading 2023-07 bounds the release from above,
     * the newest then being 2.18.3 (v2.18.3-1 tagged 2023-06-14, v2.18.5-1 only 2023-08-23), so the 2.18 entry models
     * it (2.28.9's code under 2.18's rules), and the P2P rule reads the same release. A date that is no date before
     * its remark ("unknown (2023-2024)", the dgx-ib file) still gives the default (test above).
     */
    @Test
    void aDateWithARemarkBoundsTheRelease() {
        Dataset d = Corpus.read("A-allreduce-1x2xA100pcie-azure-nc48v4-srun-graph-vs-topo-file.txt").get(1);
        assertEquals(NcclVersion.V2_18_5, HeaderNcclVersion.modelled(d, PER_FILE));
        assertEquals("NCCL 2.28.9 modelled (file states no release; 2.18.3 assumed, the newest out by its date 2023-07"
                + " (its date '2023-07 (nvidia-smi on the page: Fri Jul 14 2023)': a run's day or a later one, so no"
                + " newer release can have made it))" + RULES_21.replace("2.21-2.22", "2.18"),
                HeaderNcclVersion.line(d, PER_FILE));
        assertEquals(Optional.of("version not given, run dated 2023-07: NCCL 2.18.3 then"), OlderAmdP2p.older(d));
    }

    /**
     * The awsome-distributed-training Scatter file's run 1 (table at line 14) prints no release (line 6: "run 2
     * 2.18.3+cuda12.2 (printed); run 1 not printed") and is dated "2023-07 (the commits; ...)" (line 2): a run shown by
     * a commit of July 2023 used at most 2.18.3, so it is modelled with the 2.18 entry, as run 2 (line 68), which
     * prints 2.18.3, is; not with 2.30.7, tagged 2026-06-04.
     */
    @Test
    void aRunShownByA2023CommitIsNotModelledAsNccl230() {
        List<Dataset> ds = Corpus.read(
                "A-scatter-2x8xA100-40GB-aws-p4d-efa-slurm-awsome-distributed-training-nccl2.18.txt");
        assertEquals("2.18.3", HeaderNcclVersion.release(ds.get(0)).text());
        assertEquals(NcclVersion.V2_18_5, HeaderNcclVersion.modelled(ds.get(0), PER_FILE));
        assertEquals(NcclVersion.V2_18_5, HeaderNcclVersion.modelled(ds.get(1), PER_FILE));
    }

    /**
     * OCI's three GB200 NVL72 racks (file line 42; "NCCL version 2.27.3+cuda12.8", line 43): 3 NCCL nodes of 64 ranks,
     * each GPU's NIC reached through the Grace (P2C) at 48 GB/s. NCCL 2.28.9 {@code src/transport/nvls.cc
     * ncclNvlsInit} gives sm100 on several nodes 32 NVLS channels and has no {@code ncclNvlsTuning}; NCCL 2.30.7's
     * {@code ncclNvlsTuning} (first in 2.30.3) takes 3 nodes with a NIC of [48, 96) GB/s to 24. A 2.27.3 run is
     * modelled with 2.28.9's NVLS code under 2.27's tuning rules, so 32; {@code --nccl-version 2.30} gives 24.
     */
    @Test
    void ociGb200ThreeRacksOfNccl2273TakeNccl2289sNvlsChannels() throws Exception {
        Dataset d = Corpus.read(OCI).stream().filter(x -> x.label().startsWith("AllReduce 48 hosts")).findFirst()
                .orElseThrow();
        Comparer perFile = new Comparer(PER_FILE, PerformanceParameters.DEFAULTS, null);
        Comparer given = new Comparer(Optional.of(NcclVersion.V2_30_7), PerformanceParameters.DEFAULTS, null);
        PreparedCommunicator own = comm(perFile, d);
        assertEquals(NcclVersion.V2_27_3, own.version());
        assertEquals(32, own.tunerChannelCap(Algorithm.NVLS));
        PreparedCommunicator newest = comm(given, d);
        assertEquals(NcclVersion.V2_30_7, newest.version());
        assertEquals(24, newest.tunerChannelCap(Algorithm.NVLS));
        List<String> a = perFile.compare(d, Optional.empty()).cluster().assumptions();
        assertTrue(a.contains("NCCL 2.28.9 modelled (file states 2.27.3)" + RULES_21.replace("2.21-2.22", "2.27")),
                a.toString());
        List<String> b = given.compare(d, Optional.empty()).cluster().assumptions();
        assertTrue(b.contains("NCCL 2.30.7 modelled (--nccl-version; file states 2.27.3)"), b.toString());
    }

    private static PreparedCommunicator comm(Comparer c, Dataset d) {
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        return c.model(d, g, NcclSettings.modelled(d.env()), Comparer.usable(d)).get(0).communicator();
    }

    /**
     * NCCL before 2.12 has no net plugin latency ({@code ncclNetProperties_t.latency} first at v2.12.7-1
     * {@code src/include/nccl_net.h} line 34): the p3dn run states 2.4.8 (its line 33), the p4d EKS run 2.8.3; the p4d
     * DLAMI run states 2.23.4 (its INFO line 32). A release the user names is modelled as its entry: 2.18.5 reads it,
     * 2.8.4 does not.
     */
    /**
     * NCCL 2.8-2.9 have their own entry (2.8.4; v2.9.6-1 {@code src/graph/tuning.cc} differs from v2.8.4-1 in CollNet
     * only) and 2.4, older than every entry, takes the oldest: the p4d EKS run (2.8.3) and the p3dn run (2.4.8) are
     * modelled with 2.8.4, and their line names that entry's range, 2.8-2.9, and its own tuning tables.
     */
    @Test
    void ncclTwoEightAndOlderTakeTheTwoEightEntry() {
        Dataset p3dn = Corpus.read("A-allreduce-2x8xV100-32GB-aws-p3dn-dlami-efa-nccl2.4.txt").get(0);
        Dataset p4d28 = Corpus.read("A-allreduce-2x8xA100-40GB-aws-p4d-eks-efa-nccl2.8.txt").get(0);
        assertEquals(NcclVersion.V2_8_4, HeaderNcclVersion.modelled(p3dn, PER_FILE));
        assertEquals(NcclVersion.V2_8_4, HeaderNcclVersion.modelled(p4d28, PER_FILE));
        assertEquals("NCCL 2.28.9 modelled (file states 2.8.3), the oldest release collsim models in full, with NCCL"
                + " 2.8-2.9's own tuning tables, bandwidth factors, latencies and allowed algorithms and protocols where"
                + " they differ (docs/nccl-releases.md)", HeaderNcclVersion.line(p4d28, PER_FILE));
    }

    @Test
    void onlyNcclBefore212IgnoresThePluginsLatency() {
        Dataset p3dn = Corpus.read("A-allreduce-2x8xV100-32GB-aws-p3dn-dlami-efa-nccl2.4.txt").get(0);
        Dataset p4d28 = Corpus.read("A-allreduce-2x8xA100-40GB-aws-p4d-eks-efa-nccl2.8.txt").get(0);
        Dataset p4d223 = Corpus.read("A-allreduce-2x8xA100-40GB-aws-p4d-dlami-efa-nccl2.23.txt").get(0);
        assertEquals(false, HeaderNcclVersion.readsPluginLatency(p3dn, PER_FILE));
        assertEquals(false, HeaderNcclVersion.readsPluginLatency(p4d28, PER_FILE));
        assertEquals(true, HeaderNcclVersion.readsPluginLatency(p4d223, PER_FILE));
        assertEquals(true, HeaderNcclVersion.readsPluginLatency(p4d28, Optional.of(NcclVersion.V2_18_5)));
        assertEquals(8, HeaderNcclVersion.runMinor(p4d28, PER_FILE));
        assertEquals(18, HeaderNcclVersion.runMinor(p4d28, Optional.of(NcclVersion.V2_18_5)));
        assertEquals(false, HeaderNcclVersion.readsPluginLatency(p4d28, Optional.of(NcclVersion.V2_8_4)));
        Topology two = ClusterLoader.load("p4d.24xlargex2");
        assertEquals(Optional.of("NCCL 2.8.3 predates the net plugin's latency (read from 2.12): the 75 us the AWS EFA"
                + " (aws-ofi-nccl) plugin reports is left out of NCCL's choice (the time never charges it)"),
                HeaderNcclVersion.pluginLatencyLine(p4d28, PER_FILE, two));
        assertEquals(Optional.empty(), HeaderNcclVersion.pluginLatencyLine(p4d223, PER_FILE, two));
    }
}
