package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.NetworkClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The network read from NCCL INFO lines ({@link NetworkLog}). Real files where they exist (the D-info files of the
 * public corpus and collsim's own 2x H200 log); the lines no public file holds (aws-ofi-nccl's provider line, NCCL's
 * GPU Direct RDMA, NVLS multicast and device speed lines) are written here from the format strings in the sources
 * named on each test, because no real log with them is available.
 */
class NetworkLogTest {

    private static final Path DATA = Path.of("src/test/resources/data");

    private static NetworkLog read(Path file) throws Exception {
        NcclLogParser p = new NcclLogParser();
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            p.accept(lines.get(i), i + 1);
        }
        return p.build().net();
    }

    private static NetworkLog read(String... lines) {
        NcclLogParser p = new NcclLogParser();
        for (int i = 0; i < lines.length; i++) {
            p.accept(lines[i], i + 1);
        }
        return p.build().net();
    }

    /**
     * Tencent H20 VMs (NCCL 2.26): line 29 {@code NET/IB : Using [0]mlx5_bond_6:1/RoCE [1]mlx5_bond_7:1/RoCE [RO]},
     * line 30 {@code Using network NCCL RDMA Plugin v6}; all 18 NET connections end in {@code /GDRDMA/Shared}, the first
     * at line 65. RoCE, two NICs, GDR on.
     */
    @Test
    void roceDevicesOfAnIbPlugin() throws Exception {
        NetworkLog n = read(DATA.resolve("D-info-alltoall-2x2xH20-tencent-vm-roce-bond-nccl2.26-issue-nccltests321.txt"));
        assertEquals("NCCL RDMA Plugin v6", n.used());
        assertEquals(List.of("mlx5_bond_6:1", "mlx5_bond_7:1"), n.devices().stream().map(NetworkLog.Device::name).toList());
        assertEquals(List.of("RoCE", "RoCE"), n.devices().stream().map(NetworkLog.Device::linkLayer).toList());
        assertEquals(Optional.of(NetworkClass.ROCE), n.networkClass());
        assertEquals(2, n.nicCount());
        assertEquals(new NetworkLog.State(true, true, 65), n.gdr());
    }

    /**
     * A100 container (NCCL 2.20): {@code NET/IB : No device found.} (lines 22-23), {@code NET/Socket : Using
     * [0]eth0:10.0.0.2<0>} (line 24), {@code Using network Socket} (line 26). Sockets over eth0.
     */
    @Test
    void socketWhenNoIbDevice() throws Exception {
        NetworkLog n = read(DATA.resolve("D-info-1x2xA100-sxm4-80gb-nccl2.20.txt"));
        assertEquals("Socket", n.used());
        assertTrue(n.ibNotFound());
        assertEquals(List.of("eth0"), n.usedDevices().stream().map(NetworkLog.Device::name).toList());
        assertEquals(Optional.of(NetworkClass.SOCKET), n.networkClass());
    }

    /**
     * collsim's own 2x H200 VM log (NCCL 2.28): an IB line with no device ({@code NET/IB : Using [RO]; OOB ...},
     * line 5) lists nothing; sockets over eth0 (line 7); channels 24 coll, 24 collnet, 0 nvls, 32 p2p (lines 256
     * and 293, one per rank).
     */
    @Test
    void h200VmLogInCompareWords() throws Exception {
        List<Dataset> ds = MeasurementReader.read(Path.of("../data/device/h200x2-2026-11-29/nccl-info-allreduce.txt"));
        NetworkLog n = ds.get(0).log().net();
        assertEquals(List.of("Socket eth0"), n.devices().stream().map(d -> d.transport() + " " + d.name()).toList());
        assertEquals(Optional.of(NetworkClass.SOCKET), n.networkClass());
        assertEquals("NCCL used Socket, class socket, 1 device (eth0), no IB device", n.describe());
        NcclLog.ChannelCounts c = ds.get(0).log().lastChannelCounts().orElseThrow();
        assertEquals(List.of(293, 24, 24, 0, 32), List.of(c.line(), c.coll(), c.collnet(), c.nvls(), c.p2p()));
    }

    /**
     * aws-ofi-nccl (src/nccl_ofi_net.cpp, {@code "Selected provider is %s, fabric is %s (found %d nics)"} after the
     * {@code "NET/OFI "} prefix of include/nccl_ofi_log.h; releases before 2024 spell "Provider" and print no fabric);
     * {@code Using network AWS Libfabric} (src/init.cc {@code "Using network %s"}).
     */
    @Test
    void efaFromTheOfiPlugin() {
        NetworkLog n = read("h:1:2 [0] NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct (found 32 nics)",
                "h:1:2 [0] NCCL INFO Using network AWS Libfabric");
        assertEquals(Optional.of(NetworkClass.EFA), n.networkClass());
        assertEquals(32, n.nicCount());
        NetworkLog old = read("h:1:2 [0] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)");
        assertEquals("efa", old.ofiProvider());
        assertEquals(4, old.ofiNics());
    }

    /**
     * HPE Slingshot: the same plugin on libfabric's CXI provider (libfabric {@code prov/cxi}, provider name
     * {@code cxi}; one device per NIC, cxi0..cxi3 on a 4-NIC node): its own class, not EFA although the network is
     * "AWS Libfabric".
     */
    @Test
    void slingshotFromTheOfiPlugin() {
        NetworkLog n = read("h:1:2 [0] NCCL INFO NET/OFI Selected provider is cxi, fabric is cxi (found 4 nics)",
                "h:1:2 [0] NCCL INFO Using network AWS Libfabric");
        assertEquals("cxi", n.ofiProvider());
        assertEquals(Optional.of(NetworkClass.SLINGSHOT), n.networkClass());
    }

    /**
     * NCCL 2.30: {@code "NET/IB: [%d] %s:%s:%d/%s provider=%s speed=%d ..."} (src/transport/net_ib/init.cc, speed in
     * Mb/s: 400000 = 400 Gb/s), {@code "NET/IB : Using%s %s; OOB %s:%s"}, {@code "NET/%s : GPU Direct RDMA %s for HCA
     * %d '%s'"} (src/graph/topo.cc), {@code "NVLS multicast support is %savailable on dev %d"} (src/transport/nvls.cc).
     */
    @Test
    void ibSpeedGdrAndNvls() {
        NetworkLog n = read(
                "h:1:2 [0] NCCL INFO NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=400000 context=0x1 pciPath=/x ar=0",
                "h:1:2 [0] NCCL INFO NET/IB: [1] mlx5_1:uverbs1:1/IB provider=Mlx5 speed=400000 context=0x2 pciPath=/y ar=0",
                "h:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.0.0.1<0>",
                "h:1:2 [0] NCCL INFO Using network IB",
                "h:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'",
                "h:1:2 [0] NCCL INFO NVLS multicast support is not available on dev 0");
        assertEquals(Optional.of(NetworkClass.INFINIBAND), n.networkClass());
        assertEquals(400.0, n.nicGbits().orElseThrow(), 1e-9);
        assertEquals(new NetworkLog.State(true, false, 5), n.gdr());
        assertEquals(new NetworkLog.State(true, false, 6), n.nvls());
        assertFalse(n.describe().isEmpty());
    }

    /**
     * A log that lists IB devices but lost its {@code Using network} line (NCCL 2.28.9 {@code src/init.cc} prints it
     * once per communicator; an excerpt may cut it): NCCL tries external plugins, then IB, then Socket, and stops at the
     * first it assigns ({@code src/plugin/net.cc ncclNetInit}); IB prints its device list only after it initialized
     * with devices, so IB was used. Link layer RoCE on both devices: class RoCE. With a socket device listed too (IB
     * found none usable and NCCL went on to Socket), nothing is inferred.
     */
    @Test
    void ibDeviceListWithoutUsingNetworkLine() {
        NetworkLog n = read("node01:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.2<0>");
        assertEquals("", n.used());
        assertTrue(n.ibByDeviceList());
        assertEquals(Optional.of(NetworkClass.ROCE), n.networkClass());
        assertTrue(n.describe().startsWith("network not named (IB: only IB devices listed), class roce"), n.describe());
        NetworkLog mixed = read("node01:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:10.0.0.2<0>",
                "node01:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>");
        assertFalse(mixed.ibByDeviceList());
        assertEquals(Optional.empty(), mixed.networkClass());
    }

    /**
     * NCCL 2.16.5 {@code src/graph/paths.cc ncclTopoCheckGdr} lines 393 and 398: {@code "GPU Direct RDMA Disabled for
     * GPU %lx / HCA %d (distance %d > %d)"} and {@code "... Enabled ... (distance %d <= %d), read %d"}; lines as the
     * A100 PCIe file prints them (A-allreduce-2x1xA100pcie-40GB-hdr-ib-gdr-off-vs-on-linear-steps-nccl2.16.txt lines
     * 20 and 189). The distance and level of the line that gives GDR's state are kept.
     */
    @Test
    void gdrLineDistanceAndLevel() {
        NetworkLog off = read("n013:1:2 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 81000 / HCA 0 (distance 6 > 4)");
        assertEquals(new NetworkLog.State(true, false, 1), off.gdr());
        assertEquals(new NetworkLog.GdrDistance(6, 4), off.gdrDistance());
        NetworkLog on = read("n013:1:2 [0] NCCL INFO GPU Direct RDMA Enabled for GPU 1000 / HCA 0 (distance 7 <= 7),"
                + " read 0");
        assertEquals(new NetworkLog.GdrDistance(7, 7), on.gdrDistance());
        NetworkLog word = read("h:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'");
        assertEquals(NetworkLog.GdrDistance.NONE, word.gdrDistance());
    }
}
