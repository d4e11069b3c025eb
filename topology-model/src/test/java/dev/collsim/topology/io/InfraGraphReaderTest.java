package dev.collsim.topology.io;

import dev.collsim.topology.io.export.NcclTopoXmlWriter;
import dev.collsim.topology.io.infragraph.InfraGraphReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.collsim.io.InputException;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PathType;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.PathFinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reads the hand-written InfraGraph example (two generic servers of the InfraGraph blueprint shape on one switch; its
 * header says what it holds) and checks each problem a file can have is reported at its line and column.
 */
class InfraGraphReaderTest {

    private static final String EXAMPLE = TestFiles.text("infragraph/generic-2server-leaf.yaml");

    @Test
    void theExampleReadsIntoItsDevices() throws InputException {
        Topology t = new InfraGraphReader().read("ex.yaml", EXAMPLE);
        // 2 instances of server: 2 x (2 cpu, 4 xpu, 1 nvlsw, 2 pciesw, 4 nic); 1 switch instance
        assertEquals(2, t.hostCount());
        assertEquals(8, t.gpus().size());
        assertEquals(4, t.devices(Cpu.class).size());
        assertEquals(2, t.devices(NvSwitch.class).size());
        assertEquals(4, t.devices(PcieSwitch.class).size());
        assertEquals(8, t.devices(Nic.class).size());
        assertEquals(1, t.devices(NetSwitch.class).size());
        assertEquals(NetSwitch.Tier.LEAF, t.devices(NetSwitch.class).get(0).tier());
        // "Generic GPU/XPU" names no model: assumed H100 SXM (sm 90), and said so
        Gpu g = t.gpus().get(0);
        assertEquals(90, g.sm());
        assertTrue(t.source().contains("assumed H100 SXM"), t.source());
        assertTrue(t.source().contains("custom component 'mgmt' is not modelled"), t.source());
        assertTrue(t.source().contains("memory component 'hbm'"), t.source());
        // eth: 400 gigabits per second = 50 GB/s per direction; rails by NIC order among networked NICs
        for (Nic n : t.devices(Nic.class)) {
            assertEquals(50.0, n.speed().gbps(), 1e-9, n.id());
        }
        assertEquals(3, ((Nic) t.device("h1/nic3").orElseThrow()).rail());
    }

    @Test
    void linksCarryTheirUnitsAndTypes() throws InputException {
        Topology t = new InfraGraphReader().read("ex.yaml", EXAMPLE);
        // pcie: 256 gigabits per second = 32 GB/s
        Link pcie = TestFiles.link(t, "h0/xpu0", "h0/pciesw0", LinkType.PCIE);
        assertEquals(32.0, pcie.bandwidth().gbps(), 1e-9);
        assertEquals(16, pcie.count(), "x16 in the description");
        Link nvl = TestFiles.link(t, "h0/xpu2", "h0/nvs0", LinkType.NVLINK);
        assertEquals(450.0, nvl.bandwidth().gbps(), 1e-9);
        assertEquals(64.0, TestFiles.link(t, "h0/cpu0", "h0/cpu1", LinkType.SMP).bandwidth().gbps(), 1e-9);
        // 600 ns = 0.6 us, on the way into the switch only
        assertEquals(0.6, TestFiles.link(t, "h0/nic0", "leaf0", LinkType.NET).latency().micros(), 1e-12);
        assertEquals(0.0, TestFiles.link(t, "leaf0", "h0/nic0", LinkType.NET).latency().micros(), 1e-12);
        PathFinder p = PathFinder.of(t);
        assertEquals(PathType.NVL, p.path("h0/xpu0", "h0/xpu3").type());
        assertEquals(PathType.NET, p.path("h0/xpu0", "h1/xpu0").type());
    }

    @Test
    void jsonReadsTheSame() throws Exception {
        Object tree = new ObjectMapper(new YAMLFactory()).readValue(EXAMPLE, Object.class);
        String json = new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(tree);
        assertTrue(new InfraGraphReader().accepts(json));
        Topology t = ClusterLoader.read("ex.json", json);
        assertEquals(8, t.gpus().size());
        assertEquals(1, t.devices(NetSwitch.class).size());
    }

    @Test
    void detectionTellsItFromCollsimYaml() throws Exception {
        String collsim = Files.readString(Path.of("..", "configs", "dgx-h100.yaml"));
        assertFalse(new InfraGraphReader().accepts(collsim));
        assertTrue(new InfraGraphReader().accepts(EXAMPLE));
        assertEquals("ex.yaml", ClusterLoader.read("ex.yaml", EXAMPLE).source().split(" ")[1]);
    }

    @Test
    void gigatransfersAreRefusedAtTheirLine() {
        String bad = EXAMPLE.replace("choice: gigabits_per_second, gigabits_per_second: 256",
                "choice: gigatransfers_per_second, gigatransfers_per_second: 16");
        InputException e = assertThrows(InputException.class, () -> new InfraGraphReader().read("bad.yaml", bad));
        assertTrue(e.getMessage().contains("bad.yaml:30:"), e.getMessage());
        assertTrue(e.getMessage().contains("GT/s"), e.getMessage());
    }

    @Test
    void aLinkWithoutBandwidthIsAProblemNotALink() {
        String bad = EXAMPLE.replace("physical: {bandwidth: {choice: gigabytes_per_second, gigabytes_per_second:"
                + " 450}}", "description: no figure");
        InputException e = assertThrows(InputException.class, () -> new InfraGraphReader().read("bad.yaml", bad));
        assertTrue(e.getMessage().contains("bad.yaml:26:9: links.physical.bandwidth: link 'nvlink'"),
                e.getMessage());
    }

    @Test
    void unknownChoiceIsLocatedOnceForTwoHosts() {
        String bad = EXAMPLE.replace("count: 4, choice: nic", "count: 4, choice: nicc");
        InputException e = assertThrows(InputException.class, () -> new InfraGraphReader().read("bad.yaml", bad));
        String m = e.getMessage();
        assertTrue(m.contains("bad.yaml:19:65: components.choice: found 'nicc'; allowed: [cpu, custom, device,"
                + " memory, nic, port, switch, xpu]"), m);
        // the two device edges naming nic (lines 39, 40) once each, not once per host; the two infrastructure edges
        assertEquals(5, e.problems().size(), m);
    }

    /**
     * A component count that is no number is one problem at its cell (line 16: "count: four", the value at column
     * 58); the edges slicing that component by the count the author meant (xpu[0:2], xpu[2:4] at lines 37, 38) are
     * not reported again against the stand-in count 1.
     */
    @Test
    void aBadCountIsOneProblemNotOnePerSliceOfIt() {
        String bad = EXAMPLE.replace("count: 4, choice: xpu", "count: four, choice: xpu");
        InputException e = assertThrows(InputException.class, () -> new InfraGraphReader().read("bad.yaml", bad));
        String m = e.getMessage();
        assertTrue(m.contains("bad.yaml:16:58: count: found 'four'; allowed: a whole number from 1 to 999999"), m);
        assertEquals(1, e.problems().size(), m);
        String slice = EXAMPLE.replace("component: \"xpu[2:4]\"", "component: \"xpu[4:6]\"");
        InputException s = assertThrows(InputException.class, () -> new InfraGraphReader().read("s.yaml", slice));
        assertTrue(s.getMessage().contains("slice [4:6] selects nothing of xpu (count 4)"), s.getMessage());
    }

    @Test
    void oneToOneMismatchIsLocated() {
        String bad = EXAMPLE.replace("component: \"port[4:8]\"", "component: \"port[4:7]\"");
        InputException e = assertThrows(InputException.class, () -> new InfraGraphReader().read("bad.yaml", bad));
        String m = e.getMessage();
        // port[4:7] is 3 ports for 4 NICs: the second infrastructure edge, line 61
        assertTrue(m.contains("bad.yaml:61:"), m);
        assertTrue(m.contains("one2one pairs the ends one by one, but ep1 names 4 nodes and ep2 3"), m);
    }

    @Test
    void theOlderConnectionFormIsNamed() {
        String old = "infrastructure:\n  devices:\n    - name: d\n      components: []\n      links: []\n"
                + "      connections:\n        - xpu.0.pcie.nic.0\n  instances: []\n";
        InputException e = assertThrows(InputException.class, () -> new InfraGraphReader().read("old.yaml", old));
        assertTrue(e.getMessage().contains("older connection-string form"), e.getMessage());
    }

    /**
     * A host of two NIC components (4 networked {@code nic}, then 2 {@code stor} with no network link) numbers its NET
     * devices once, as NCCL numbers a host's NET devices 0, 1, ... in the net plugin's order (2.28.9 {@code
     * src/graph/topo.cc ncclTopoPopulateNics}): nic0..nic3 are devs 0..3, stor0 and stor1 devs 4 and 5, not a second
     * 0 and 1. The NCCL XML written from it names six different {@code dev}s per host.
     */
    @Test
    void twoNicComponentsShareOneNetDevNumbering() throws InputException {
        String two = EXAMPLE.replace("      - {name: mgmt,", "      - {name: stor, description: Storage Nic, count: 2, choice: nic}\n"
                + "      - {name: mgmt,").replace("    edges:\n      - {ep1: {component: mgmt}",
                "    edges:\n      - {ep1: {component: stor}, ep2: {component: \"pciesw[1]\"}, scheme: many2many, link: pcie}\n"
                + "      - {ep1: {component: mgmt}");
        Topology t = new InfraGraphReader().read("two.yaml", two);
        for (int h = 0; h < 2; h++) {
            List<Nic> nics = t.nicsOf(h);
            assertEquals(List.of("nic0", "nic1", "nic2", "nic3", "stor0", "stor1"),
                    nics.stream().map(n -> n.id().substring(n.id().indexOf('/') + 1)).toList());
            assertEquals(List.of(0, 1, 2, 3, 4, 5), nics.stream().map(Nic::ncclDev).toList());
            assertEquals(-1, nics.get(4).rail(), "no network link: no rail");
        }
        String xml = new NcclTopoXmlWriter().write(t);
        for (int d = 0; d < 6; d++) {
            assertEquals(2, xml.split("dev=\"" + d + "\" speed", -1).length - 1, "dev " + d + " once per host");
        }
    }
}
