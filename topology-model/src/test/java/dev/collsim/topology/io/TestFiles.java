package dev.collsim.topology.io;

import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Topology;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/** Loads the real data files copied into test resources, and small graph queries for assertions. */
final class TestFiles {

    private TestFiles() {
    }

    static String text(String name) {
        try (InputStream in = TestFiles.class.getResourceAsStream(name)) {
            Objects.requireNonNull(in, "test resource " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the directed links from a to b of a type */
    static List<Link> links(Topology t, String from, String to, LinkType type) {
        Device a = t.device(from).orElseThrow(() -> new AssertionError("no device " + from));
        return t.outgoing(a).stream().filter(l -> l.type() == type && t.target(l).id().equals(to)).toList();
    }

    /** @return the single link from a to b of a type */
    static Link link(Topology t, String from, String to, LinkType type) {
        List<Link> l = links(t, from, to, type);
        if (l.size() != 1) {
            throw new AssertionError("expected one " + type + " link " + from + " -> " + to + ", found " + l.size());
        }
        return l.get(0);
    }

    /** @return number of directed links of a type */
    static long count(Topology t, LinkType type) {
        return t.graph().edgeSet().stream().filter(l -> l.type() == type).count();
    }

    /** @return the id of the device a device's single PCIe uplink leads to, among candidates of a kind */
    static String pcieParent(Topology t, String id, String prefix) {
        Device d = t.device(id).orElseThrow(() -> new AssertionError("no device " + id));
        List<String> ups = t.outgoing(d).stream().filter(l -> l.type() == LinkType.PCIE).map(l -> t.target(l).id())
                .filter(x -> x.contains(prefix)).toList();
        if (ups.size() != 1) {
            throw new AssertionError(id + ": expected one PCIe link to a " + prefix + ", found " + ups);
        }
        return ups.get(0);
    }
}
