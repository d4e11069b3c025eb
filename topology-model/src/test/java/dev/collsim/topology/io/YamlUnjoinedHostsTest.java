package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.topology.io.yaml.YamlClusterReader;
import org.junit.jupiter.api.Test;

/**
 * Hosts that neither a fabric nor one NVLink domain joins are refused at read time, at {@code count}, with what was
 * found and what is allowed. A DGX H100's NVLink stays inside the host (DGX H100 User Guide: 4 NVSwitch chips on the
 * baseboard); a GB200/GB300 NVL72 rack joins its 18 compute trays in one NVLink domain (NVIDIA GB200 NVL72 datasheet).
 * Lines and columns below are counted by hand in each test's YAML text.
 */
class YamlUnjoinedHostsTest {

    private static final String ALLOWED_KINDS = "kind: single-switch, fat-tree, rail-optimized";

    private static InputProblem onlyProblem(String yaml) {
        InputException e = assertThrows(InputException.class,
                () -> new YamlClusterReader().readCluster("c.yaml", yaml));
        assertEquals(1, e.problems().size(), e.getMessage());
        return e.problems().get(0);
    }

    /** Two DGX H100 without a fabric: line 4 ("count: 2"), column 8 (the value); found 2 hosts, allowed fabric or 1. */
    @Test
    void twoHostsWithoutAFabricAreRefusedAtCount() {
        InputProblem p = onlyProblem("schema: collsim/v1\nname: two\nhosts: dgx-h100\ncount: 2\n");
        assertTrue(p.toString().startsWith("c.yaml:4:8: count: found 2 hosts of dgx-h100 and no 'fabric' section"),
                p.toString());
        assertTrue(p.message().contains("allowed: a 'fabric:' section") && p.message().contains(ALLOWED_KINDS)
                && p.message().endsWith("or count: 1 (one host, no network)"), p.message());
    }

    /** The key may come after the hosts and in flow style: the column is the value's, line 5 column 11 here. */
    @Test
    void theLocationIsTheCountAsWritten() {
        InputProblem p = onlyProblem("schema: collsim/v1\nname: x\nhosts: dgx-a100\n# two hosts\ncount:    3\n");
        assertEquals(5, p.line());
        assertEquals(11, p.column());
        assertEquals("count", p.field());
        assertTrue(p.message().startsWith("found 3 hosts of dgx-a100"), p.message());
    }

    /** One host needs no fabric; neither do 18 trays of one NVL72 rack (one NVLink domain of 18 trays). */
    @Test
    void oneHostOrOneNvlinkDomainNeedsNoFabric() throws Exception {
        assertEquals(8, new YamlClusterReader().read("c.yaml",
                "schema: collsim/v1\nname: one\nhosts: dgx-h100\ncount: 1\n").gpus().size());
        assertEquals(72, new YamlClusterReader().read("c.yaml",
                "schema: collsim/v1\nname: rack\nhosts: gb200-nvl72\ncount: 18\n").gpus().size());
    }

    /** 36 NVL72 trays are 2 racks (2 NVLink domains of 18): with no fabric nothing joins the racks. */
    @Test
    void twoRacksWithoutAFabricAreRefused() {
        InputProblem p = onlyProblem("schema: collsim/v1\nname: racks\nhosts: gb200-nvl72\ncount: 36\n");
        assertTrue(p.toString().startsWith("c.yaml:4:8: count: found 36 trays of gb200-nvl72 in 2 NVLink domains"),
                p.toString());
        assertTrue(p.message().contains(ALLOWED_KINDS) && p.message().contains("count up to 18"), p.message());
    }

    /** traysPerDomain 2 over 6 trays makes 3 domains, so a fabric is needed; traysPerDomain 6 is one domain. */
    @Test
    void traysSplitIntoSeveralDomainsNeedAFabric() throws Exception {
        InputProblem p = onlyProblem("schema: collsim/v1\nname: t\nhosts: gb300-nvl72\ncount: 6\ntraysPerDomain: 2\n");
        assertTrue(p.toString().startsWith("c.yaml:4:8: count: found 6 trays of "), p.toString());
        assertTrue(p.message().contains("in 3 NVLink domains"), p.message());
        assertEquals(24, new YamlClusterReader().read("c.yaml",
                "schema: collsim/v1\nname: t\nhosts: gb300-nvl72\ncount: 6\ntraysPerDomain: 6\n").gpus().size());
    }
}
