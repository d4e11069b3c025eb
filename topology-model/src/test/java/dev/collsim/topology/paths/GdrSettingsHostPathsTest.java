package dev.collsim.topology.paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL_NET_GDR_LEVEL, NCCL_NET_GDR_READ and NCCL_NET_GDR_C2C acting on the path table, worked out by hand from NCCL
 * 2.30 {@code src/graph/paths.cc}: {@code ncclTopoCheckGdr} (default level P2C, PXB with NCCL_NET_GDR_C2C=0; the user
 * level overrides it; a PXN path is judged by its relay GPU's distance; {@code read=1} also needs NCCL_NET_GDR_READ,
 * default on for sm80+) and {@code ncclTopoComputePaths} (a GPU-NIC path better than PHB without GDR goes through the
 * GPU's local CPU both ways; PXN needs the relay GPU's GDR for reads). Catalog DGX H100: each GPU and its compute NIC
 * sit on separate bridges of one PCIe Gen5 switch, whose one x16 uplink goes to the CPU; NCCL's Gen5 x16 figure is
 * 48 GB/s ({@code src/graph/topo.h}), the NIC is 400 Gb/s = 50 GB/s, so each GPU-NIC path is 48.
 */
class GdrSettingsHostPathsTest {

    private static final double EPS = 1e-9;

    private static PathFinder finder(Topology t, Map<String, String> env) {
        return PathFinder.of(t, PathFinder.Options.of(NcclSettings.parse(env)));
    }

    private static Topology dgxH100() {
        return Catalog.standalone(Catalog.hostType("dgx-h100").orElseThrow(), 1);
    }

    private static List<String> devices(DevicePath p) {
        return p.hops().stream().map(Hop::to).map(Device::id).toList();
    }

    /**
     * Default: GPU0-NIC0 is PXB (GPU bridge, switch, NIC bridge: 4 PCIe hops), within P2C, so GDR stays on. At
     * NCCL_NET_GDR_LEVEL=LOC, PXB > LOC: both directions go GPU0-bridge-switch-CPU0 (3 hops, PHB) then
     * CPU0-switch-bridge-NIC0 (3 hops, PHB), 6 hops, merged type PHB, bottleneck still 48: the send and the receive
     * flows now both cross the switch's one uplink, each in both of its directions.
     */
    @Test
    void gdrLevelLocSendsNicTrafficThroughTheCpu() {
        Topology t = dgxH100();
        DevicePath on = finder(t, Map.of()).path("h0/gpu0", "h0/nic0");
        assertEquals(PathType.PXB, on.type());
        assertEquals(4, on.hopCount());
        assertTrue(on.hops().stream().noneMatch(h -> h.to() instanceof Cpu));
        PathFinder off = finder(t, Map.of("NCCL_NET_GDR_LEVEL", "LOC"));
        for (DevicePath p : List.of(off.path("h0/gpu0", "h0/nic0"), off.path("h0/nic0", "h0/gpu0"))) {
            assertEquals(PathType.PHB, p.type());
            assertEquals(6, p.hopCount());
            assertEquals(48.0, p.nccl().gbps(), EPS);
            assertEquals("h0/cpu0", devices(p).get(2), "third hop reaches CPU0 over the switch uplink");
        }
    }

    /**
     * NCCL_NET_GDR_LEVEL=PIX (and its legacy integer 1): PXB > PIX, GDR off as with LOC. PXB (legacy 2) is NCCL's
     * default on a host without C2C (PXB and P2C let the same PCIe paths through), so every GPU-NIC path is unchanged.
     */
    @Test
    void gdrLevelPixTurnsGdrOffAndPxbChangesNothing() {
        Topology t = dgxH100();
        assertEquals(PathType.PHB, finder(t, Map.of("NCCL_NET_GDR_LEVEL", "PIX")).path("h0/gpu0", "h0/nic0").type());
        assertEquals(PathType.PHB, finder(t, Map.of("NCCL_NET_GDR_LEVEL", "1")).path("h0/nic0", "h0/gpu0").type());
        PathFinder def = finder(t, Map.of());
        for (String level : List.of("PXB", "2", "P2C")) {
            PathFinder pxb = finder(t, Map.of("NCCL_NET_GDR_LEVEL", level));
            for (var g : t.gpus()) {
                for (Device n : t.graph().vertexSet().stream().filter(Nic.class::isInstance).toList()) {
                    assertEquals(def.path(g, n), pxb.path(g, n), level + " " + g.id() + "-" + n.id());
                    assertEquals(def.path(n, g), pxb.path(n, g), level + " " + n.id() + "-" + g.id());
                }
            }
        }
    }

    /**
     * Default: GPU1 reaches NIC0 as PXN through GPU0 (NVL, then GPU0's PXB path with GDR; GPU1's own path crosses
     * CPU0, PHB > PXN). At NCCL_NET_GDR_LEVEL=LOC the relay GPU0 has no GDR (PXB > LOC): no PXN, GPU1-NIC0 stays the
     * search's PHB path through CPU0 (48), which the GDR rule leaves alone (not below PHB). NCCL_NET_GDR_READ=0 also
     * stops PXN (the relay check is {@code read=1}) but keeps GPU0-NIC0 direct (that rule checks {@code read=0}).
     */
    @Test
    void pxnNeedsTheRelayGpusGdrForReads() {
        Topology t = dgxH100();
        assertEquals(PathType.PXN, finder(t, Map.of()).path("h0/gpu1", "h0/nic0").type());
        DevicePath noLevel = finder(t, Map.of("NCCL_NET_GDR_LEVEL", "LOC")).path("h0/gpu1", "h0/nic0");
        assertEquals(PathType.PHB, noLevel.type());
        assertEquals(48.0, noLevel.nccl().gbps(), EPS);
        PathFinder noRead = finder(t, Map.of("NCCL_NET_GDR_READ", "0"));
        assertEquals(PathType.PHB, noRead.path("h0/gpu1", "h0/nic0").type());
        assertEquals(PathType.PXB, noRead.path("h0/gpu0", "h0/nic0").type());
        assertEquals(4, noRead.path("h0/gpu0", "h0/nic0").hopCount());
        assertEquals(PathType.PXN, finder(t, Map.of("NCCL_NET_GDR_READ", "1")).path("h0/gpu1", "h0/nic0").type());
    }

    /**
     * Catalog DGX GB200 tray: GPU0 reaches NIC0 (on CPU0's PCIe) over C2C, P2C. GPU2 (CPU1) sends to NIC0 as PXN
     * through GPU0 by default. NCCL_NET_GDR_C2C=0 lowers the default GDR level to PXB: P2C > PXB, so GPU0 has no GDR
     * to NIC0; GPU0-NIC0 already runs through CPU0 and keeps type P2C (C2C merged with PHB), but GPU2 loses the PXN
     * relay and keeps its SYS path over the CPU link.
     */
    @Test
    void gdrC2cOffDropsPxnThroughC2cGpus() {
        Topology t = Catalog.standalone(Catalog.hostType("dgx-gb200").orElseThrow(), 1);
        assertEquals(PathType.PXN, finder(t, Map.of()).path("h0/gpu2", "h0/nic0").type());
        PathFinder off = finder(t, Map.of("NCCL_NET_GDR_C2C", "0"));
        assertEquals(PathType.P2C, off.path("h0/gpu0", "h0/nic0").type());
        assertEquals(PathType.SYS, off.path("h0/gpu2", "h0/nic0").type());
        assertEquals(PathType.PXN, finder(t, Map.of("NCCL_NET_GDR_C2C", "0", "NCCL_NET_GDR_LEVEL", "P2C"))
                .path("h0/gpu2", "h0/nic0").type(), "the user level overrides the NCCL_NET_GDR_C2C default");
    }
}
