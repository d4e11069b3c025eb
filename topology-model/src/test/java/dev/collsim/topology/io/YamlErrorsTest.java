package dev.collsim.topology.io;

import dev.collsim.topology.io.yaml.YamlClusterReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.UserInputException;
import dev.collsim.io.InputProblem;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad YAML cluster specs: every problem is reported with file, line, column, field, found and allowed. */
class YamlErrorsTest {

    private static List<InputProblem> problems(String yaml) {
        InputException e = assertThrows(InputException.class, () -> new YamlClusterReader().read("bad.yaml", yaml));
        return e.problems();
    }

    /** The bandwidth units every bandwidth message lists ({@code Bandwidth.ALLOWED_UNITS}, spelled out here). */
    private static final String UNITS = "GB/s, Gb/s, MB/s, Mb/s, TB/s, Tb/s (GB = 1e9 B, Gb = 1e9 bit)";

    private static List<String> strings(List<InputProblem> list) {
        return list.stream().map(InputProblem::toString).toList();
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
                "  oversubscription: 1:2",
                "");
        // An unknown key is reported at the key, a bad value at the value's first character (columns counted by
        // hand in the lines above); each names the field, what was found and what is allowed.
        assertEquals(List.of(
                "bad.yaml:5:1: colour: unknown key 'colour'; allowed: count, fabric, hosts, name, schema, source,"
                        + " traysPerDomain",
                "bad.yaml:7:9: fabric.kind: unknown value 'fattree'; allowed: single-switch, fat-tree, rail-optimized",
                "bad.yaml:8:14: fabric.linkSpeed: found the bare number 400 without a unit; write the unit, one of "
                        + UNITS + ", e.g. '400 Gb/s' or '25 GB/s'",
                "bad.yaml:9:18: fabric.switchLatency: found '0.6 parsecs'; allowed: a number >= 0 with one of ns, us,"
                        + " ms, s",
                "bad.yaml:10:21: fabric.oversubscription: found '1:2'; allowed: down/up from 1 to 64 as a number (2)"
                        + " or as down:up with down >= up > 0, e.g. 1:1 or 2:1"),
                strings(problems(yaml)));
    }

    /**
     * {@code -c dgx-h100x4} is four DGX H100 (README, "Describing a cluster"); written as {@code hosts: dgx-h100x4}
     * in cluster YAML it is no host type, and the message says how YAML writes it: the type and a count. Column 8 is
     * the value's first character in "hosts: dgx-h100x4".
     */
    @Test
    void aCountedCatalogNameSaysToUseCount() {
        for (String v : List.of("dgx-h100x4", "dgx-h100:4")) {
            InputProblem p = problems("schema: collsim/v1\nname: n\nhosts: " + v + "\n").get(0);
            assertEquals("bad.yaml:3:8: hosts", p.toString().substring(0, "bad.yaml:3:8: hosts".length()));
            assertTrue(p.message().endsWith("; NAMExN and NAME:N are -c's spelling of N hosts: in cluster YAML write"
                    + " 'hosts: dgx-h100' and 'count: 4'"), p.message());
        }
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
        // A missing key is reported at the mapping that lacks it (the '{' in column 9); GPU 0 is declared, so only
        // GPU 7 is refused. Columns counted by hand in the lines above.
        assertEquals(List.of(
                "bad.yaml:4:9: hosts.gpus.model: missing required key 'model'",
                "bad.yaml:4:36: hosts.gpus.memory: found the bare number 80; allowed: a size with its unit, e.g."
                        + " '80 GB', '141 GiB'",
                "bad.yaml:5:69: hosts.cpus.interconnect: found '0 GB/s'; allowed: a number > 0 and at most 1000 TB/s with one of " + UNITS,
                "bad.yaml:6:60: hosts.nvlink.bandwidthPerLink: found '-25 GB/s'; allowed: a number > 0 and at most 1000 TB/s with one of "
                        + UNITS,
                "bad.yaml:10:29: hosts.pcie.switches[0].parent: link to undeclared device 'swX'; declared switches:"
                        + " sw0",
                "bad.yaml:10:40: hosts.pcie.switches[0].gpus: link to undeclared GPU 7; declared GPUs: 0..1"),
                strings(problems(yaml)));
    }

    /**
     * Two CPUs without a model: one problem, the model ('{' of line 4 in column 9); a model of the CPU database needs no
     * interconnect (EPYC 7V13: its socket links), so 'interconnect' is not reported missing as well.
     */
    @Test
    void aCpuWithoutModelIsOneProblem() {
        String yaml = String.join("\n",
                "schema: collsim/v1",
                "name: no-cpu-model",
                "hosts:",
                "  cpus: {count: 2, vendor: AuthenticAMD}",
                "  gpus: {count: 2, model: A100-PCIE-80GB}",
                "");
        assertEquals(List.of("bad.yaml:4:9: hosts.cpus.model: missing required key 'model'"), strings(problems(yaml)));
    }

    /** Whole numbers, booleans and index lists: found and allowed, at the value. */
    @Test
    void numbersAndFlagsNameTheirRange() {
        String yaml = String.join("\n",
                "schema: collsim/v1",
                "name: bad-numbers",
                "hosts:",
                "  gpus: {count: 0, model: X, sm: 90}",
                "  cpus: {count: 1, vendor: GenuineIntel, model: Xeon}",
                "  nvlink: {pairs: [{gpus: [0, x], links: 1}], bandwidthPerLink: 25 GB/s}",
                "  pcie: {gen: 7}",
                "  nics: {count: 1, speed: 400 Gb/s, gdr: maybe}",
                "");
        // count 0 at column 17 of line 4; the pair at column 20 and 'x' at column 31 of line 6; gen 7 at column 15
        // and 'maybe' at column 42 of lines 7 and 8 (counted by hand). With 'x' refused the pair has one end left;
        // the NIC has no PCIe switch to hang off (reported at hosts.pcie).
        assertEquals(List.of(
                "bad.yaml:4:17: hosts.gpus.count: found 0; allowed: a whole number >= 1",
                "bad.yaml:6:20: hosts.nvlink.pairs[0].gpus: found [0]; allowed: two different GPU indices, e.g. [0, 1]",
                "bad.yaml:6:31: hosts.nvlink.pairs[0].gpus[1]: found 'x'; allowed: a whole number >= 0",
                "bad.yaml:7:9: hosts.pcie: NIC 0 is not attached to any PCIe switch or root port",
                "bad.yaml:7:15: hosts.pcie.gen: found 7; allowed: a whole number from 1 to 6",
                "bad.yaml:8:42: hosts.nics.gdr: found 'maybe'; allowed: true, false"),
                strings(problems(yaml)));
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
        // the hosts mapping starts at its first key, line 4 column 3
        assertEquals(List.of("bad.yaml:4:3: hosts: GPU 0 has no path to GPU 1 (no NVLink, PCIe or CPU route joins"
                + " them); attach every GPU to nvlink or pcie"), strings(problems(yaml)));
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
        UserInputException e = assertThrows(UserInputException.class, () -> ClusterLoader.load("dgx-h1000"));
        assertTrue(e.getMessage().contains("dgx-h100") && e.getMessage().contains("default"), e.getMessage());
        InputException f = assertThrows(InputException.class, () -> ClusterLoader.read("x.txt", "hello"));
        assertTrue(f.getMessage().contains("unrecognized format"), f.getMessage());
        InputException g = assertThrows(InputException.class,
                () -> ClusterLoader.read("x.yaml", "schema: collsim/v2\nname: n\nhosts: nope\n"));
        assertEquals(2, g.problems().size(), g.getMessage());
    }

    /**
     * Cluster YAML takes both spellings of an oversubscription, as report variants and {@code --oversubscription}
     * do: the bare ratio 2 and "2:1" (README, "Describing a cluster"; docs/topology.md). Only up above down is refused.
     */
    @Test
    void oversubscriptionTakesANumberOrARatio() throws InputException {
        for (String v : List.of("2", "\"2:1\"", "2:1", "1.5")) {
            String yaml = "schema: collsim/v1\nname: n\nhosts: dgx-h100\ncount: 4\nfabric:\n  kind: fat-tree\n"
                    + "  oversubscription: " + v + "\n";
            assertEquals(32, new YamlClusterReader().read("ok.yaml", yaml).gpus().size(), v);
        }
        // "  oversubscription: " is 20 characters: the value starts at column 21 of line 7
        assertEquals(List.of("bad.yaml:7:21: fabric.oversubscription: found '0.5'; allowed: down/up from 1 to 64 as a"
                + " number (2) or as down:up with down >= up > 0, e.g. 1:1 or 2:1"), strings(problems(
                "schema: collsim/v1\nname: n\nhosts: dgx-h100\ncount: 4\nfabric:\n  kind: fat-tree\n"
                + "  oversubscription: 0.5\n")));
    }

    /**
     * A host count past an int (a typo: one digit too many) is refused by the host limit, which names the limit and
     * how to go past it, not by "allowed: a whole number >= 1", which the number is; a count past a long, and a
     * gpus count past an int, are refused with the range's upper end. "count: " is 7 characters: the value starts at
     * column 8 of line 4; "  gpus: {count: " is 16: column 17 of line 5.
     */
    @Test
    void aCountTooLargeSaysWhereTheAllowedRangeEnds() {
        String head = "schema: collsim/v1\nname: n\nhosts: dgx-h100\ncount: ";
        List<InputProblem> ten = problems(head + "2147483648\n");
        assertEquals(1, ten.size());
        assertTrue(ten.get(0).toString().startsWith("bad.yaml:4:8: count: found 2147483648 hosts; allowed: at most "),
                ten.get(0).toString());
        assertEquals(List.of("bad.yaml:4:8: count: found 99999999999999999999; allowed: a whole number from 1 to"
                + " 2147483647"), strings(problems(head + "99999999999999999999\n")));
        // the inline host also lacks its cpus (another problem of the same report)
        assertTrue(strings(problems("schema: collsim/v1\nname: n\nhosts:\n  name: h\n"
                + "  gpus: {count: 4294967296, sm: 90, memory: 80}\n")).contains("bad.yaml:5:17: hosts.gpus.count:"
                + " found 4294967296; allowed: a whole number from 1 to 2147483647"));
    }
}
