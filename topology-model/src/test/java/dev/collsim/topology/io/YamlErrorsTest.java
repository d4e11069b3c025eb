package dev.collsim.topology.io;

import dev.collsim.topology.io.yaml.YamlClusterReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad YAML cluster specs: every problem is reported with file, line, column, field, found and allowed. */
class YamlErrorsTest {

    private static List<InputProblem> problems(String yaml) {
        InputException e = assertThrows(InputException.class, () -> new YamlClusterReader().read("bad.yaml", yaml));
        return e.problems();
    }

    private static InputProblem find(List<InputProblem> list, String field) {
        return list.stream().filter(p -> p.field().equals(field)).findFirst()
                .orElseThrow(() -> new AssertionError("no problem for " + field + " in " + list));
    }

    /** Unknown key, bare number, wrong unit, zero and negative bandwidth and a bad kind, all in one report. */
    @Test
    void everyProblemIsListedWithItsLocation() {
        String yaml = String.join("\n",
                "schema: collsim/v1",
                "name: bad",
                "hosts: dgx-h100",
                "count: 2",
                "colour: blue",
                "fabric:",
                "  kind: fattree",
                "  linkSpeed: 400",
                "  switchLatency: 0.6 parsecs",
                "  oversubscription: 2",
                "");
        List<InputProblem> list = problems(yaml);
        InputProblem unknown = find(list, "colour");
        assertEquals(5, unknown.line());
        assertEquals(1, unknown.column());
        assertTrue(unknown.message().contains("allowed: count, fabric, hosts, name, schema, source"), unknown.message());
        InputProblem kind = find(list, "fabric.kind");
        assertEquals(7, kind.line());
        assertEquals(9, kind.column());
        assertTrue(kind.message().contains("'fattree'") && kind.message().contains("fat-tree"), kind.message());
        InputProblem bare = find(list, "fabric.linkSpeed");
        assertEquals(8, bare.line());
        assertTrue(bare.message().contains("without a unit") && bare.message().contains("Gb/s"), bare.message());
        assertEquals(9, find(list, "fabric.switchLatency").line());
        assertEquals(10, find(list, "fabric.oversubscription").line());
        assertEquals(5, list.size(), list.toString());
        assertTrue(list.get(0).toString().startsWith("bad.yaml:5:1: colour: unknown key"), list.get(0).toString());
    }

    /** Inline host: zero and negative bandwidths, an undeclared parent switch, an undeclared GPU, a missing model. */
    @Test
    void inlineHostProblems() {
        String yaml = String.join("\n",
                "schema: collsim/v1",
                "name: bad-inline",
                "hosts:",
                "  gpus: {count: 2, sm: 90, memory: 80}",
                "  cpus: {count: 2, vendor: GenuineIntel, model: Xeon, interconnect: 0 GB/s}",
                "  nvlink: {switches: 1, linksPerGpu: 18, bandwidthPerLink: -25 GB/s}",
                "  pcie:",
                "    gen: 5",
                "    switches:",
                "      - {name: sw0, parent: swX, gpus: [0, 7]}",
                "");
        List<InputProblem> list = problems(yaml);
        assertEquals(4, find(list, "hosts.gpus.model").line(), "missing model");
        assertEquals(4, find(list, "hosts.gpus.memory").line(), "bare number for memory");
        InputProblem zero = find(list, "hosts.cpus.interconnect");
        assertEquals(5, zero.line());
        assertTrue(zero.message().contains("> 0"), zero.message());
        assertTrue(find(list, "hosts.nvlink.bandwidthPerLink").message().contains("> 0"));
        InputProblem parent = find(list, "hosts.pcie.switches[0].parent");
        assertEquals(10, parent.line());
        assertTrue(parent.message().contains("undeclared device 'swX'"), parent.message());
        InputProblem gpu = find(list, "hosts.pcie.switches[0].gpus");
        assertTrue(gpu.message().contains("undeclared GPU 7") && gpu.message().contains("0..1"), gpu.message());
        assertEquals(6, list.size(), "GPU 0 is declared: " + list);
    }

    /** Two GPUs with neither NVLink nor PCIe cannot talk: reported at the hosts key. */
    @Test
    void gpuWithNoPathToAnother() {
        String yaml = String.join("\n",
                "schema: collsim/v1",
                "name: islands",
                "hosts:",
                "  gpus: {count: 2, model: X, sm: 90}",
                "  cpus: {count: 1, vendor: GenuineIntel, model: Xeon}",
                "");
        List<InputProblem> list = problems(yaml);
        InputProblem p = find(list, "hosts");
        assertEquals(4, p.line());
        assertTrue(p.message().contains("GPU 0 has no path to GPU 1"), p.message());
    }

    /** A YAML syntax error stops at Jackson's first error, with its location, worded as every YAML input words it. */
    @Test
    void syntaxError() {
        List<InputProblem> list = problems("schema: collsim/v1\nname: [unclosed\n");
        assertEquals(1, list.size());
        assertTrue(list.get(0).line() >= 2, list.toString());
        assertTrue(list.get(0).message().startsWith("not valid YAML: "), list.toString());
    }

    /** Unknown names and formats list what is allowed. */
    @Test
    void loaderListsAllowedNamesAndFormats() {
        InputException e = assertThrows(InputException.class, () -> ClusterLoader.load("dgx-h1000"));
        assertTrue(e.getMessage().contains("dgx-h100") && e.getMessage().contains("default"), e.getMessage());
        InputException f = assertThrows(InputException.class, () -> ClusterLoader.read("x.txt", "hello"));
        assertTrue(f.getMessage().contains("unrecognized format"), f.getMessage());
        InputException g = assertThrows(InputException.class,
                () -> ClusterLoader.read("x.yaml", "schema: collsim/v2\nname: n\nhosts: nope\n"));
        assertEquals(2, g.problems().size(), g.getMessage());
    }
}
