package dev.collsim.topology.io;

import static dev.collsim.topology.io.TestFiles.link;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.smi.NvidiaSmiTopoReader;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code nvidia-smi topo -m} of a GB200 compute tray, hand-written in the layout of the driver 570 output posted for
 * a GB200 host (sgl-project/sglang issue 11208: four GPUs at NV18, "NUMA Affinity" a list such as 0,3-9,11-17 whose
 * first node is the Grace's, "GPU NUMA ID" 2/10/18/26), with the tray's four ConnectX-7 NICs on the Graces' root
 * ports, two per Grace: a NIC reads NODE to the two GPUs of its Grace and SYS to the other two. NCCL 2.30.7 reaches
 * such a NIC from its Grace's GPU over NVLink-C2C then PCIe, path P2C ({@code src/graph/paths.cc mergePathType}),
 * the GPU's local NICs ({@code topo.cc ncclTopoGetLocal}); the reader had no compute NIC and refused the NUMA lists.
 */
class GraceSmiMatrixTest {

    static final String GB200_TRAY = String.join("\n",
            "\tGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tNIC1\tNIC2\tNIC3\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID",
            "GPU0\t X \tNV18\tNV18\tNV18\tNODE\tNODE\tSYS\tSYS\t0-71\t0,3-9,11-17\t\t2",
            "GPU1\tNV18\t X \tNV18\tNV18\tNODE\tNODE\tSYS\tSYS\t0-71\t0,3-9,11-17\t\t10",
            "GPU2\tNV18\tNV18\t X \tNV18\tSYS\tSYS\tNODE\tNODE\t72-143\t1,19-25,27-33\t\t18",
            "GPU3\tNV18\tNV18\tNV18\t X \tSYS\tSYS\tNODE\tNODE\t72-143\t1,19-25,27-33\t\t26",
            "NIC0\tNODE\tNODE\tSYS\tSYS\t X \tNODE\tSYS\tSYS",
            "NIC1\tNODE\tNODE\tSYS\tSYS\tNODE\t X \tSYS\tSYS",
            "NIC2\tSYS\tSYS\tNODE\tNODE\tSYS\tSYS\t X \tNODE",
            "NIC3\tSYS\tSYS\tNODE\tNODE\tSYS\tSYS\tNODE\t X ",
            "", "NIC Legend:", "", "  NIC0: mlx5_0", "  NIC1: mlx5_1", "  NIC2: mlx5_2", "  NIC3: mlx5_3", "");

    @Test
    void theTraysNodeNicsAreComputeNicsReachedOverC2c() throws InputException {
        Topology t = new NvidiaSmiTopoReader().read("gb200.txt", GB200_TRAY);
        // two CPUs, NUMA 0 and 1: the first node of each list
        assertEquals(List.of(0, 1), t.devices(Cpu.class).stream().map(Cpu::numaId).sorted().toList());
        // Grace: arm64, joined by NCCL's ARM_BW, 6 GB/s (NCCL 2.30.7 src/graph/topo.h), as the catalog's tray
        assertTrue(t.devices(Cpu.class).stream().allMatch(c -> c.arch().equals("arm64")));
        assertEquals(6.0, link(t, "h0/cpu0", "h0/cpu1", LinkType.SMP).ncclBandwidth().gbps(), 1e-9);
        // every NIC is NODE to two GPUs, their nearest: four compute NICs on rails 0..3
        assertEquals(List.of(0, 1, 2, 3), t.devices(Nic.class).stream().map(Nic::rail).sorted().toList());
        // GPU NUMA IDs: each GPU joined to its Grace by NVLink-C2C, 450 GB/s per direction shared by 2 GPUs
        assertEquals(225.0, link(t, "h0/gpu0", "h0/cpu0", LinkType.C2C).bandwidth().gbps(), 1e-9);
        assertEquals(225.0, link(t, "h0/gpu3", "h0/cpu1", LinkType.C2C).bandwidth().gbps(), 1e-9);
        HostPaths p = PathFinder.of(t).host(0);
        Gpu gpu0 = t.gpus().get(0);
        Nic nic0 = (Nic) t.device("h0/nic0").orElseThrow();
        Nic nic2 = (Nic) t.device("h0/nic2").orElseThrow();
        assertEquals("NODE", p.path(gpu0, nic0).smiLabel());
        assertEquals("SYS", p.path(gpu0, nic2).smiLabel());
        assertEquals(PathType.P2C, p.path(gpu0, nic0).type(), "C2C then PHB is NCCL's P2C");
        assertTrue(t.source().contains("NVLink-C2C"), t.source());
    }
}
