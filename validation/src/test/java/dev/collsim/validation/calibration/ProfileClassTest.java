package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.io.yaml.YamlClusterReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The profile selector's class for named clusters: the expected keys follow from the catalog's hardware (DGX H100:
 * H100 sm90 = Hopper, ConnectX-7 InfiniBand; AWS p5.48xlarge: H100 with EFA; GCP a3-megagpu-8g: H100 with
 * GPUDirect-TCPXO; GB200 NVL72: Blackwell trays sharing one NVLink domain), not from the code's output.
 */
class ProfileClassTest {

    private static String key(String cluster) throws Exception {
        return ProfileClass.of(ClusterLoader.load(cluster)).key();
    }

    @Test
    void namedClustersMapToTheirNetworkClass() throws Exception {
        assertEquals("hopper-infiniband", key("dgx-h100x2"));
        assertEquals("hopper-efa", key("p5.48xlargex2"));
        assertEquals("hopper-tcpxo", key("a3-megagpu-8gx2"));
        // GPUDirect-TCPX (A3 High) is its own network class but shares the GCP TCP class's calibration
        assertEquals("hopper-tcpxo", key("a3-highgpu-8gx2"));
        assertEquals("ampere-efa", key("p4d.24xlargex2"));
    }

    /** Only classes of several hosts joined by a network fit the network efficiency (FitLadder#network). */
    @Test
    void networkClassesAreThoseOfSeveralHostsOverANetwork() throws Exception {
        assertTrue(ProfileClass.of(ClusterLoader.load("dgx-h100x2")).network());
        assertTrue(ProfileClass.of(ClusterLoader.load("p5.48xlargex2")).network());
        assertFalse(ProfileClass.of(ClusterLoader.load("dgx-h100")).network());
        assertFalse(ProfileClass.of(ClusterLoader.load("gb200-nvl72")).network());
        assertFalse(ProfileClass.of(ClusterLoader.load("pcie-8x-l40s")).network());
    }

    /**
     * The class follows the NCCL nodes a communicator's ranks span (NCCL builds its graphs from its ranks' nodes): the
     * first 8 GPUs of dgx-h100x2 are host 0's 8 H100s on its NVSwitch, one host; the first 16 span both hosts over
     * InfiniBand. Of two GB200 NVL72 racks (18 trays of 4 GPUs each), the first 72 GPUs are rack 0, one NVLink domain
     * (MNNVL, one NCCL node); 76 reach a tray of rack 1, two domains over the network.
     */
    @Test
    void theClassIsThatOfTheNodesTheRanksSpan() throws Exception {
        Topology two = ClusterLoader.load("dgx-h100x2");
        assertEquals("hopper-1host-nvswitch", ProfileClass.ofRanks(two, two.gpus().subList(0, 8)).key());
        assertEquals("hopper-1host-nvswitch", ProfileClass.ofRanks(two, two.gpus().subList(8, 16)).key());
        assertEquals("hopper-infiniband", ProfileClass.ofRanks(two, two.gpus().subList(0, 16)).key());
        assertEquals("hopper-infiniband", ProfileClass.ofRanks(two, List.of()).key());
        Topology racks = ClusterLoader.load("gb200-nvl72x2");
        assertEquals("blackwell-mnnvl", ProfileClass.ofRanks(racks, racks.gpus().subList(0, 72)).key());
        assertEquals("blackwell-mnnvl-infiniband", ProfileClass.ofRanks(racks, racks.gpus().subList(0, 76)).key());
        assertEquals("blackwell-1host-nvltray", ProfileClass.ofRanks(racks, racks.gpus().subList(0, 4)).key());
    }

    @Test
    void singleHostIsItsOwnClassAndNvl72IsMnnvl() throws Exception {
        assertEquals("hopper-1host-nvswitch", key("dgx-h100"));
        assertEquals("blackwell-mnnvl", key("gb200-nvl72"));
    }

    /**
     * Two GB200 NVL72 racks ({@code gb200-nvl72x2}: 2 racks of 18 trays, each rack one NVLink domain, catalog from the
     * NVIDIA GB200 NVL72 datasheet) are two NCCL nodes joined by the trays' NICs (4 x 400 Gb/s ConnectX-7 per tray, on
     * collsim's default network class, InfiniBand, as the cluster names none), not one NVLink domain: the class names
     * both. One rack stays {@code blackwell-mnnvl};
     * a YAML cluster of 6 trays in 3 domains of 2 ({@code traysPerDomain: 2}) is multi-domain too, and a network class
     * of several NCCL nodes (its profile fits the network efficiency).
     */
    @Test
    void severalNvlinkDomainsAreNotOneDomain() throws Exception {
        assertEquals("blackwell-mnnvl-infiniband", key("gb200-nvl72x2"));
        assertEquals("Blackwell, several NVLink domains (MNNVL racks) joined over InfiniBand",
                ProfileClass.of(ClusterLoader.load("gb200-nvl72x2")).label());
        assertTrue(ProfileClass.of(ClusterLoader.load("gb200-nvl72x2")).network());
        assertEquals("blackwell-mnnvl", key("gb200-nvl72"));
        String yaml = "schema: collsim/v1\nname: t\nhosts: gb200-nvl72\ncount: 6\ntraysPerDomain: 2\n"
                + "fabric: {kind: rail-optimized}\n";
        Topology three = new YamlClusterReader().readCluster("t.yaml", yaml).topology();
        assertEquals("blackwell-mnnvl-infiniband", ProfileClass.of(three).key());
        assertEquals("blackwell-mnnvl-slingshot", ProfileClass.of(three, "HPE Slingshot 11").key());
    }

    /**
     * One GB200 compute tray (4 GPUs on 2 Grace CPUs by NVLink-C2C, NVSwitch chips in the rack's switch trays, Azure
     * ND GB200 v6 sizes page) and an HGX/DGX B200 baseboard (8 GPUs and 2 NVSwitch chips on one board, DGX B200
     * user guide) are different classes: a profile fitted on trays is not applied to baseboards.
     */
    @Test
    void aGraceTrayIsNotABaseboard() throws Exception {
        // one VM: the bare name is a whole rack (ClusterLoader.catalogSpec), so one tray is built as NAME hosts x 1
        assertEquals("blackwell-1host-nvltray", ProfileClass.of(ClusterLoader.hosts(
                Catalog.hostType("Standard_ND128isr_NDR_GB200_v6").orElseThrow(), 1).topology()).key());
        assertEquals("blackwell-mnnvl", key("Standard_ND128isr_NDR_GB200_v6"));
        assertEquals("blackwell-1host-nvswitch", key("dgx-b200"));
    }

    /**
     * L40S and RTX 4090 are sm89, Ada Lovelace (CUDA C++ Programming Guide, compute capabilities), not Ampere, although
     * NCCL's tables share one row for sm80-89; A100 stays Ampere.
     */
    @Test
    void adaIsItsOwnGeneration() throws Exception {
        assertEquals("ada-1host-pcie", key("pcie-8x-l40s"));
        assertEquals("Ada, one host, GPUs joined by PCIe", ProfileClass.of(ClusterLoader.load("pcie-8x-l40s")).label());
        assertEquals("ada-1host-pcie", key("pcie-8x-rtx4090"));
        assertEquals("ampere-1host-nvswitch", key("dgx-a100"));
    }

    @Test
    void slingshotNamedInTheDataIsNotInfiniBand() throws Exception {
        assertEquals("hopper-slingshot", ProfileClass.of(ClusterLoader.load("dgx-h100x2"),
                "2x GH200, HPE Slingshot 11").key());
        // a cluster given with the class (YAML fabric.network: slingshot, --network slingshot) needs no text
        ProfileClass own = ProfileClass.of(ClusterLoader.load("dgx-h100x2").withNetworkClass(NetworkClass.SLINGSHOT),
                null);
        assertEquals("hopper-slingshot", own.key());
        assertEquals("Hopper, several hosts over HPE Slingshot", own.label());
    }

    /**
     * The class follows the network a cluster is timed with, not the words of its name or source: a YAML cluster
     * described as on Slingshot and declaring it is the Slingshot class; the same cluster with InfiniBand put in
     * force ({@code --network infiniband}, a report variant's {@code network: infiniband}) is timed with InfiniBand's
     * figures and must take InfiniBand's profile and band; a cluster named "slingshot" without the class is
     * InfiniBand, the network it is timed with.
     */
    @Test
    void theClassIsTheNetworkInForceNotTheClustersWords() throws Exception {
        String yaml = "schema: collsim/v1\nname: h100-slingshot\nsource: DGX H100 hosts on HPE Slingshot 200\n"
                + "hosts: dgx-h100\ncount: 2\nfabric:\n  kind: rail-optimized\n  network: %s\n";
        Topology sling = new YamlClusterReader().readCluster("s.yaml", yaml.formatted("slingshot")).topology();
        assertEquals("hopper-slingshot", ProfileClass.of(sling).key());
        assertEquals("hopper-infiniband", ProfileClass.of(sling.withNetworkClass(NetworkClass.INFINIBAND)).key());
        Topology ib = new YamlClusterReader().readCluster("s.yaml", yaml.formatted("infiniband")).topology();
        assertEquals("hopper-infiniband", ProfileClass.of(ib).key());
    }

    /** No shipped file for the class: the bare model, with the class's bare band or else the 'all' band. */
    @Test
    void withoutAFileTheBareModelIsChosen() {
        String bands = """
                all: {belowMiBPercent: 40.0, atLeastMiBPercent: 20.0}
                classes:
                  hopper-efa: {belowMiBPercent: 30.0, atLeastMiBPercent: 25.0}
                """;
        ProfileSelector.Choice efa = ProfileSelector.select(new ProfileClass("hopper-efa", "Hopper, EFA"),
                Optional.empty(), Optional.of(bands));
        assertTrue(efa.calibration().isEmpty());
        assertEquals(25.0, efa.band().orElseThrow().atLeastMiBPercent());
        assertTrue(efa.line().contains("bare model"), efa.line());
        ProfileSelector.Choice other = ProfileSelector.select(new ProfileClass("volta-roce", "Volta, RoCE"),
                Optional.empty(), Optional.of(bands));
        assertEquals(40.0, other.band().orElseThrow().belowMiBPercent());
    }

    /** A shipped profile with a band: its parameters, its band, and a line naming the file and its data. */
    @Test
    void aShippedFileIsUsedAndNamed() throws Exception {
        Path file = Path.of("../configs/calibration/h200x2-nv18-nccl2.28.yaml");
        String text = Files.readString(file) + "band:\n  belowMiBPercent: 12.5\n  atLeastMiBPercent: 7.5\n";
        ProfileSelector.Choice c = ProfileSelector.select(new ProfileClass("hopper-1host-nvlink", "Hopper, NVLink"),
                Optional.of(text), Optional.empty());
        assertTrue(c.calibration().isPresent());
        // the file's own fitted parameters, not the defaults
        var own = CalibrationProfile.read(file).parameters();
        assertEquals(own.latencyScale(), c.calibration().get().parameters().latencyScale());
        assertEquals(own.launchOverheadUs(), c.calibration().get().parameters().launchOverheadUs());
        assertTrue(c.calibration().get().parameters().latencyScale() != PerformanceParameters.DEFAULTS.latencyScale());
        assertEquals(7.5, c.band().orElseThrow().atLeastMiBPercent());
        assertTrue(c.line().contains("configs/calibration/auto/hopper-1host-nvlink.yaml")
                // 91 = the fitted files' rows: all_reduce 31 + all_gather 31 less its 2 rows of size 0 + sendrecv 31
                && c.line().contains("3 dataset(s), 91 points"), c.line());
        assertFalse(c.line().contains("none shipped"), c.line());
    }
}
