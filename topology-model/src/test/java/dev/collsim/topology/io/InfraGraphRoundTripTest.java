package dev.collsim.topology.io;

import dev.collsim.topology.io.export.InfraGraphWriter;
import dev.collsim.topology.io.infragraph.InfraGraphReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.paths.DevicePath;
import dev.collsim.topology.paths.PathFinder;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Writes clusters as InfraGraph YAML and reads them back: the same devices (ids and facts), the same links (type,
 * lanes, physical and NCCL bandwidth, latency, detail, per direction) and, between every GPU pair and GPU-NIC pair,
 * the same NCCL path type and bottleneck bandwidth. Hosts with an id the writer cannot express (a multi-host NVLink
 * domain's {@code nvl0/nvs0}) are left out of the catalog list.
 */
class InfraGraphRoundTripTest {

    static List<String> names() {
        return Catalog.names().stream().filter(n -> {
            Topology t = Catalog.standalone(Catalog.hostType(n).orElseThrow(), 1);
            return t.devices(Device.class).stream().allMatch(d -> d.host() >= 0);
        }).toList();
    }

    @ParameterizedTest
    @MethodSource("names")
    void catalogHostComesBackTheSame(String name) throws InputException {
        same(Catalog.standalone(Catalog.hostType(name).orElseThrow(), 1));
    }

    static List<String> configs() {
        return ClusterLoader.configNames();
    }

    /** Every shipped config the writer can express (hosts hH/NAMEi, switches NAMEi) comes back the same. */
    @ParameterizedTest
    @MethodSource("configs")
    void shippedConfigComesBackTheSame(String name) throws InputException {
        Topology t = ClusterLoader.load(name);
        try {
            new InfraGraphWriter().write(t);
        } catch (IllegalArgumentException notExpressible) {
            assertTrue(notExpressible.getMessage().startsWith("InfraGraph export: "), notExpressible.getMessage());
            return;
        }
        same(t);
    }

    @Test
    void twoHostFatTreeComesBackTheSame() throws InputException {
        Topology t = ClusterLoader.load("dgx-h100x2");
        assertEquals(2, t.hostCount());
        Topology back = same(t);
        assertEquals(2, back.hostCount());
        Gpu a = back.gpusOf(0).get(0);
        Gpu b = back.gpusOf(1).get(0);
        DevicePath p = PathFinder.of(back).path(a, b);
        assertEquals(PathFinder.of(t).path(t.gpusOf(0).get(0), t.gpusOf(1).get(0)).nccl().gbps(), p.nccl().gbps(),
                1e-9);
    }

    /**
     * The written file keeps one key order from run to run: each instance entry lists name, device, count in that order
     * (the writer used to copy {@code Map.of}, whose iteration order depends on a salt chosen per JVM run, so the same
     * cluster came out with different key orders in the test JVM and the CLI).
     */
    @Test
    void instanceKeysKeepTheirOrder() throws InputException {
        String text = new InfraGraphWriter().write(ClusterLoader.load("dgx-h100x2"));
        assertTrue(text.contains("- name: host\n    device: host\n    count: 2\n"), text);
    }

    /** Hosts of two shapes (2 GPUs, then 1) become two devices and instances; the cables keep their hosts. */
    @Test
    void hostsOfTwoShapesComeBackTheSame() throws InputException {
        TopologyBuilder b = Topology.builder("mixed");
        NetSwitch leaf = b.add(new NetSwitch("leaf0", NetSwitch.Tier.LEAF, 0));
        for (int h = 0; h < 3; h++) {
            int gpus = h == 0 ? 2 : 1;
            Cpu cpu = b.add(new Cpu("h" + h + "/cpu0", h, 0, "x86_64", "GenuineIntel", "Xeon"));
            Nic nic = b.add(new Nic("h" + h + "/nic0", h, "mlx5_0", Bandwidth.ofGbits(400), 1, true, 0, ""));
            b.connect(cpu, nic, LinkType.PCIE, 16, Bandwidth.ofGBps(63.0), Latency.ZERO, "PCIe Gen5 x16");
            b.connectOneWay(nic, leaf, LinkType.NET, 1, Bandwidth.ofGBps(50), Latency.ofMicros(0.6), "NIC-leaf");
            b.connectOneWay(leaf, nic, LinkType.NET, 1, Bandwidth.ofGBps(50), Latency.ZERO, "NIC-leaf");
            for (int i = 0; i < gpus; i++) {
                Gpu g = b.add(new Gpu("h" + h + "/gpu" + i, h, i, "H100-SXM5-80GB", 90, 80L << 30, ""));
                b.connect(cpu, g, LinkType.PCIE, 16, Bandwidth.ofGBps(63.0), Latency.ZERO, "PCIe Gen5 x16");
            }
        }
        Topology t = b.build();
        String yaml = new InfraGraphWriter().write(t);
        assertTrue(yaml.contains("instance: \"host-1[1]\""), yaml);
        same(t);
    }

    @Test
    void theLoaderDetectsTheWrittenFileAsInfraGraph() throws InputException {
        String yaml = new InfraGraphWriter().write(ClusterLoader.load("dgx-h100"));
        assertTrue(new InfraGraphReader().accepts(yaml));
        assertEquals(8, ClusterLoader.read("x.yaml", yaml).gpus().size());
    }

    private static Topology same(Topology original) throws InputException {
        String yaml = new InfraGraphWriter().write(original);
        Topology back = new InfraGraphReader().read(original.name() + ".yaml", yaml);
        assertEquals(devices(original), devices(back), yaml);
        assertEquals(links(original), links(back), yaml);
        PathFinder a = PathFinder.of(original);
        PathFinder b = PathFinder.of(back);
        List<Device> ends = new ArrayList<>(original.gpus());
        ends.addAll(original.devices(Nic.class));
        for (Gpu g : original.gpus()) {
            for (Device e : ends) {
                if (e.host() != g.host() || e == g) {
                    continue;
                }
                DevicePath p = a.path(g, e);
                DevicePath q = b.path(back.device(g.id()).orElseThrow(), back.device(e.id()).orElseThrow());
                String where = original.name() + " " + g.id() + " -> " + e.id();
                assertEquals(p.type(), q.type(), where);
                assertEquals(p.nccl().gbps(), q.nccl().gbps(), 1e-9, where);
            }
        }
        return back;
    }

    private static List<String> devices(Topology t) {
        return t.devices(Device.class).stream().map(Object::toString).sorted().toList();
    }

    private static List<String> links(Topology t) {
        List<String> out = new ArrayList<>();
        for (Link l : t.graph().edgeSet()) {
            out.add(String.format(Locale.ROOT, "%s>%s %s x%d %.6f/%.6f GB/s %.6f us %s", t.source(l).id(),
                    t.target(l).id(), l.type(), l.count(), l.bandwidth().gbps(), l.ncclBandwidth().gbps(),
                    l.latency().micros(), l.detail()));
        }
        return out.stream().sorted().toList();
    }
}
