package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.topology.fabric.ClusterLimits;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

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

    /** -c NAMExN with N beyond the host limit is refused before any host is built (was an OutOfMemoryError). */
    @Test
    void shorthandBeyondTheHostLimitIsRefused() {
        InputException e = assertThrows(InputException.class, () -> ClusterLoader.load("dgx-h100x2147483647"));
        assertTrue(e.problems().get(0).message().contains("at most " + ClusterLimits.maxHosts()),
                e.problems().toString());
        assertTrue(e.problems().get(0).message().contains(ClusterLimits.MAX_HOSTS_VARIABLE));
    }
}
