package dev.collsim.topology.io;

import dev.collsim.topology.io.export.NcclTopoXmlWriter;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.io.InputException;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.paths.DevicePath;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exports every catalog host as NCCL topology XML and reads it back: NCCL must see the same machine, i.e. the same
 * GPUs and NICs, and between every GPU pair and every GPU-NIC pair the same nvidia-smi label, NCCL path type and
 * NCCL bottleneck bandwidth (topo's {@link PathFinder}). Physical SMP bandwidths and the split of NVSwitch chips are
 * not part of NCCL's format (see {@link NcclTopoXmlWriter}), so they are not compared.
 */
class CatalogExportTest {

    static List<String> names() {
        return Catalog.names();
    }

    @ParameterizedTest
    @MethodSource("names")
    void ncclSeesTheSameHostAfterExportAndImport(String name) throws InputException {
        Topology original = Catalog.standalone(Catalog.hostType(name).orElseThrow(), 1);
        String xml = new NcclTopoXmlWriter().write(original);
        Topology back = new NcclTopoXmlReader().read(name + ".xml", xml);
        assertEquals(ids(original.gpus()), ids(back.gpus()), xml);
        assertEquals(ids(original.devices(Nic.class)), ids(back.devices(Nic.class)), xml);
        assertEquals(rails(original), rails(back), "compute/storage NICs");
        HostPaths a = PathFinder.of(original).host(0);
        HostPaths b = PathFinder.of(back).host(0);
        List<Device> ends = new ArrayList<>(original.gpus());
        ends.addAll(original.devices(Nic.class));
        for (Gpu g : original.gpus()) {
            for (Device e : ends) {
                DevicePath p = a.path(g, e);
                DevicePath q = b.path(back.device(g.id()).orElseThrow(), back.device(e.id()).orElseThrow());
                String where = name + " " + g.id() + " -> " + e.id();
                assertEquals(p.smiLabel(), q.smiLabel(), where);
                assertEquals(p.type(), q.type(), where);
                assertEquals(p.nccl().gbps(), q.nccl().gbps(), 1e-9, where);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("names")
    void twoHostsComeBackAsTwoHostsTellingThemApartByHostHash(String name) throws InputException {
        Topology original = Catalog.standalone(Catalog.hostType(name).orElseThrow(), 2);
        Topology back = new NcclTopoXmlReader().read(name + ".xml", new NcclTopoXmlWriter().write(original));
        assertEquals(2, back.hostCount());
        assertEquals(ids(original.gpus()), ids(back.gpus()));
        assertEquals(ids(original.devices(Nic.class)), ids(back.devices(Nic.class)));
    }

    private static List<String> rails(Topology t) {
        return t.devices(Nic.class).stream().map(n -> n.id() + "=" + n.rail() + "/" + n.speed().gbps()).toList();
    }

    private static List<String> ids(List<? extends Device> devices) {
        return devices.stream().map(Device::id).sorted().toList();
    }
}
