package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputLimits;
import dev.collsim.topology.Topology;
import dev.collsim.topology.fabric.ClusterLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cluster files that crashed or were silently accepted when fuzzed (src/test/resources/fuzz): each is one located
 * problem, exit 3, never an IllegalStateException, an OutOfMemoryError or a fabric with an infinite ratio. Lines and
 * columns were read off the files by hand (1-based, the value's first character).
 */
class FuzzFindingsClusterTest {

    private static final Path DIR = Path.of("src/test/resources/fuzz");

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        // count: with nothing after it (YAML null) was "a spec with no reported problem must build"
        "c15-yaml-count-null.yaml|4|7|count|found nothing (null)",
        // 2e9 hosts ran out of memory after 4.5 GB
        "c19-yaml-count-2e9.yaml|4|8|count|found 2000000000 hosts; allowed: at most 32768",
        // 1:1e-320 is an infinite ratio, 1:1e-300 a ratio of 1e300: both far beyond any fabric
        "c08-oversubscription-denormal.yaml|8|21|fabric.oversubscription|found '1:1e-320'",
        "s03-oversubscription-1e300.yaml|8|21|fabric.oversubscription|found '1:1e-300'",
        // 1e-320 Mb/s became a NIC of speed 0
        "c14-xml-net-speed-denormal.xml|19|32|net.speed|found '1e-320'",
    })
    void badValueIsOneLocatedProblem(String file, int line, int column, String field, String start) {
        InputException e = assertThrows(InputException.class,
                () -> ClusterLoader.load(DIR.resolve(file).toString()));
        assertEquals(1, e.problems().size(), e.problems().toString());
        var p = e.problems().get(0);
        assertEquals(line, p.line(), p.toString());
        assertEquals(column, p.column(), p.toString());
        assertEquals(field, p.field());
        assertTrue(p.message().startsWith(start), p.message());
    }

    /**
     * -c NAMExN with N beyond the host limit is refused before any host is built (was an OutOfMemoryError): past
     * 2^20 hosts even described once; past {@link ClusterLimits#maxHosts()} when something asks for every device.
     */
    @Test
    void shorthandBeyondTheHostLimitIsRefused() {
        InputException e = assertThrows(InputException.class, () -> ClusterLoader.load("dgx-h100x2147483647"));
        assertTrue(e.problems().get(0).message().contains("at most 1048576 hosts of one type"),
                e.problems().toString());
        int over = ClusterLimits.maxHosts() + 1;
        Topology described = ClusterLoader.load("dgx-h100x" + over);
        assertEquals(8L * over, described.gpus().size());
        InputException full = assertThrows(InputException.class, described::graph);
        assertTrue(full.problems().get(0).message().contains("at most " + ClusterLimits.maxHosts()),
                full.problems().toString());
        assertTrue(full.problems().get(0).message().contains(ClusterLimits.MAX_HOSTS_VARIABLE));
        assertEquals("-c/--cluster", full.problems().get(0).field());
    }

    /**
     * c12: 5,000 nested PCIe bridges (the text of the fuzz-findings generator c12-xml-deep-pci-gen.py) overflowed the
     * stack. system is depth 1, cpu depth 2, the k-th pci depth k + 2, so with the default limit of 256 the 255th
     * pci is the first element refused; its column is found here by counting tags in the generated text.
     */
    @Test
    void deeplyNestedXmlIsRefusedAtTheFirstElementPastTheLimit(@TempDir Path dir) throws Exception {
        int n = 5000;
        StringBuilder sb = new StringBuilder("<system version=\"1\"><cpu numaid=\"0\" arch=\"x86_64\" affinity=\"ff\" "
                + "vendor=\"GenuineIntel\" familyid=\"6\" modelid=\"143\">");
        for (int i = 0; i < n; i++) {
            sb.append(String.format("<pci busid=\"%04x:%02x:00.0\" class=\"0x060400\" link_speed=\"32.0 GT/s PCIe\" "
                    + "link_width=\"16\">", i / 256, i % 256));
        }
        sb.append("<pci busid=\"ffff:ff:00.0\" class=\"0x030200\" vendor=\"0x10de\" device=\"0x2330\" "
                + "link_speed=\"32.0 GT/s PCIe\" link_width=\"16\"><gpu dev=\"0\" sm=\"90\" rank=\"0\" gdr=\"1\"/></pci>");
        sb.append("</pci>".repeat(n)).append("</cpu></system>\n");
        String text = sb.toString();
        int at = -1;
        for (int k = 0; k < 255; k++) {
            at = text.indexOf("<pci ", at + 1);
        }
        Path f = dir.resolve("c12-xml-deep-pci.xml");
        Files.writeString(f, text);
        InputException e = assertThrows(InputException.class, () -> ClusterLoader.load(f.toString()));
        var p = e.problems().get(0);
        assertEquals(1, p.line(), p.toString());
        assertEquals(at + 1, p.column(), p.toString());
        assertEquals("pci", p.field());
        assertTrue(p.message().startsWith("element nested 257 deep; allowed: at most 256"), p.message());
        assertTrue(p.message().contains(InputLimits.MAX_XML_DEPTH_VARIABLE), p.message());
    }

    /** A cluster YAML with one line past the YAML line limit is refused at that line before the YAML parser runs. */
    @Test
    void yamlLineBeyondTheLimitIsRefusedBeforeParsing(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("long.yaml");
        Files.writeString(f, "schema: collsim/v1\n# " + "9".repeat(InputLimits.DEFAULT_MAX_LINE_CHARS) + "\n");
        InputException e = assertThrows(InputException.class, () -> ClusterLoader.load(f.toString()));
        var p = e.problems().get(0);
        assertEquals(2, p.line(), p.toString());
        assertEquals(InputLimits.DEFAULT_MAX_LINE_CHARS + 1, p.column(), p.toString());
        assertTrue(p.message().startsWith("line of 65538 characters; allowed: at most 65536"), p.message());
    }
}
