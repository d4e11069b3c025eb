package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.topology.NetworkClass;
import org.junit.jupiter.api.Test;

/** The network transport of a YAML cluster: {@code fabric.network}. */
class YamlNetworkClassTest {

    private static final String BASE = "schema: collsim/v1\nname: two\nhosts: dgx-h100\ncount: 2\nfabric:\n"
            + "  kind: rail-optimized\n";

    @Test
    void theFabricNamesTheTransportAndInfinibandIsTheDefault() throws Exception {
        assertSame(NetworkClass.ROCE, ClusterLoader.read("c.yaml", BASE + "  network: roce\n").networkClass());
        assertSame(NetworkClass.INFINIBAND, ClusterLoader.read("c.yaml", BASE).networkClass());
    }

    @Test
    void anUnknownTransportIsReportedAtItsLineWithTheAllowedValues() {
        InputException e = assertThrows(InputException.class,
                () -> ClusterLoader.read("c.yaml", BASE + "  network: ethernet\n"));
        InputProblem p = e.problems().stream().filter(x -> x.field().equals("fabric.network")).findFirst()
                .orElseThrow(() -> new AssertionError(e.problems().toString()));
        assertEquals(7, p.line());
        assertEquals("unknown value 'ethernet'; allowed: infiniband, roce, efa, tcpx, tcpxo, socket, slingshot",
                p.message());
    }

    /** {@code network} written beside {@code fabric} (a natural slip) is refused at its key and told where it goes. */
    @Test
    void aNetworkKeyAtTheTopSaysItBelongsUnderFabric() {
        InputException e = assertThrows(InputException.class, () -> ClusterLoader.read("c.yaml",
                "schema: collsim/v1\nname: two\nhosts: dgx-h100\ncount: 2\nnetwork: slingshot\n"));
        assertEquals(1, e.problems().size(), e.problems().toString());
        InputProblem p = e.problems().get(0);
        assertEquals(5, p.line());
        assertEquals(1, p.column());
        assertEquals("unknown key 'network'; allowed: count, fabric, hosts, name, schema, source, traysPerDomain"
                + " (network belongs under fabric: fabric.network)", p.message());
    }
}
