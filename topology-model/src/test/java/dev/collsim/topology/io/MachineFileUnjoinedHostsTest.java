package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.topology.io.export.InfraGraphWriter;
import dev.collsim.topology.io.export.NcclTopoXmlWriter;
import dev.collsim.topology.io.infragraph.InfraGraphReader;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Machine files of several hosts that leave a host unjoined are refused at read time, each problem at a real position
 * of the file (the element of the GPU or host it is about), never at line 0: what is missing (a NIC, an edge) has no
 * line of its own. Lines and columns are counted by hand in the XML below; the InfraGraph position is found in the
 * file's text by searching for its instance entry.
 */
class MachineFileUnjoinedHostsTest {

    /**
     * Two hosts (NCCL tells them apart by each cpu's {@code host_hash}: {@code src/graph/topo.cc ncclGetSystemId}),
     * one H100 each, no NIC and no NVLink: each GPU's {@code <pci>} element is at line 3 resp. 8, column 5.
     */
    private static final String TWO_HOSTS_NO_NIC = read("src/test/resources/machines/two-hosts-no-nic.xml");

    @Test
    void ncclXmlOfTwoHostsWithoutNicsNamesEachGpuElement() {
        InputException e = assertThrows(InputException.class,
                () -> new NcclTopoXmlReader(HardwareHints.NONE).read("two.xml", TWO_HOSTS_NO_NIC));
        List<InputProblem> p = e.problems();
        assertEquals(2, p.size(), e.getMessage());
        assertTrue(p.get(0).toString().startsWith("two.xml:3:5: pci: host 0: GPU 0 reaches no NIC and no multi-host"
                + " NVLink switch, so no other host; allowed: "), p.get(0).toString());
        assertTrue(p.get(1).toString().startsWith("two.xml:8:5: pci: host 1: GPU 0 reaches no NIC"), p.get(1).toString());
    }

    /**
     * NCCL XML describes no network between its hosts (NCCL finds it at run time): two hosts whose GPUs reach a NIC
     * are joined through it, as a catalog cluster exported and read back is (two p5.48xlarge here).
     */
    @Test
    void ncclXmlHostsWithNicsAreJoinedByTheNetworkItDoesNotDescribe() throws Exception {
        String two = new NcclTopoXmlWriter().write(ClusterLoader.resolve("p5.48xlargex2", HardwareHints.NONE, null)
                .topology());
        assertEquals(16, new NcclTopoXmlReader(HardwareHints.NONE).read("p5x2.xml", two).gpus().size());
    }

    /** Both GPUs on one host (one host_hash, two NUMA nodes) read: one host needs no NIC. */
    @Test
    void oneHostWithoutANicReads() throws Exception {
        String one = TWO_HOSTS_NO_NIC.replace("0x2222\" numaid=\"0\"", "0x1111\" numaid=\"1\"")
                .replace("<gpu dev=\"0\" sm=\"90\" rank=\"1\"", "<gpu dev=\"1\" sm=\"90\" rank=\"1\"");
        assertEquals(2, new NcclTopoXmlReader(HardwareHints.NONE).read("one.xml", one).gpus().size());
    }

    /**
     * Two DGX H100 written as InfraGraph, every edge of host[1] taken out: host 1 keeps its NICs but no switch, so
     * the problem stands at the host instance's entry (the first {@code - } under {@code instances:}, column 5: its
     * first key).
     */
    @Test
    void infraGraphWithAHostLeftOffTheFabricNamesTheHostInstance() throws Exception {
        String full = new InfraGraphWriter().write(ClusterLoader.resolve("dgx-h100x2", HardwareHints.NONE, null)
                .topology());
        String cut = withoutEdgesOf(full, "host[1]");
        List<String> lines = List.of(cut.split("\n", -1));
        int instances = lines.indexOf("  instances:");
        // the first entry under instances: is the host instance (its key order is the writer's)
        assertTrue(instances > 0 && lines.get(instances + 1).startsWith("  - ") && lines.subList(instances + 1,
                instances + 4).stream().anyMatch(l -> l.endsWith("name: host")), String.join("\n",
                        lines.subList(instances, instances + 4)));
        InputException e = assertThrows(InputException.class, () -> new InfraGraphReader().read("ig.yaml", cut));
        assertEquals(1, e.problems().size(), e.getMessage());
        InputProblem p = e.problems().get(0);
        assertEquals(instances + 2, p.line(), p.toString());
        assertEquals(5, p.column(), p.toString());
        assertTrue(p.message().startsWith("host[1] (host 1): host 1 is not reachable from host 0"), p.message());
    }

    /** @return the InfraGraph text without the top-level edges that name {@code instance} */
    private static String withoutEdgesOf(String text, String instance) {
        List<String> in = List.of(text.split("\n", -1));
        List<String> out = new ArrayList<>();
        int edges = in.indexOf("  edges:");
        assertTrue(edges > 0, "top-level edges");
        out.addAll(in.subList(0, edges + 1));
        int i = edges + 1;
        while (i < in.size()) {
            List<String> block = new ArrayList<>(List.of(in.get(i)));
            int j = i + 1;
            while (j < in.size() && in.get(j).startsWith("    ")) {
                block.add(in.get(j++));
            }
            if (!in.get(i).startsWith("  - ep1:") || block.stream().noneMatch(l -> l.contains(instance))) {
                out.addAll(block);
            }
            i = j;
        }
        return String.join("\n", out);
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
