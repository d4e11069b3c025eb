package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.fabric.Bisection;
import dev.collsim.topology.paths.DevicePath;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every shipped file in {@code configs/} loads, by name from the classpath and by path, with hand-checked sizes. */
class ConfigsTest {

    private static final double EPS = 1e-6;

    /** The index lists exactly the YAML files of the repository's configs/ folder, and each loads both ways. */
    @Test
    void everyConfigLoadsByNameAndByPath() throws IOException, InputException {
        Path dir = Path.of("..", "configs");
        List<String> onDisk;
        try (Stream<Path> s = Files.list(dir)) {
            onDisk = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml"))
                    .map(n -> n.substring(0, n.length() - 5)).sorted().toList();
        }
        assertEquals(onDisk, ClusterLoader.configNames().stream().sorted().toList());
        for (String name : onDisk) {
            Topology byName = ClusterLoader.load(name);
            Topology byPath = ClusterLoader.load(dir.resolve(name + ".yaml").toString());
            assertEquals(byName.gpus().size(), byPath.gpus().size(), name);
            assertTrue(byName.gpus().size() >= 4, name);
        }
    }

    /** The built-in default is 4 DGX H100 (DGX H100 User Guide: 8 GPUs each): 32 GPUs; blank means default. */
    @Test
    void defaultIsFourDgxH100() throws InputException {
        Topology t = ClusterLoader.load(null);
        assertEquals(4, t.hostCount());
        assertEquals(32, t.gpus().size());
    }

    /**
     * 32 DGX H100 = 256 NICs of 50 GB/s. Rail-optimized in one 32-host unit: all half-to-half traffic stays in the rail
     * leaves, bisection = 128 x 50 = 6400 GB/s. Fat-tree 2:1 with 32 downlinks per leaf: 8 leaves, uplink 32 x 50 / 2
     * = 800 GB/s each; half A owns 4 leaves: min(6400, 4 x 800) = 3200 GB/s.
     */
    @Test
    void thirtyTwoHostBisections() throws InputException {
        Topology rail = ClusterLoader.load("dgx-h100-32x-rail");
        assertEquals(256, rail.gpus().size());
        assertEquals(6400.0, Bisection.of(rail).gbps(), EPS);
        assertEquals(3200.0, Bisection.of(ClusterLoader.load("dgx-h100-32x-fattree-2to1")).gbps(), EPS);
    }

    /** GB200 NVL72: 18 trays x 4 GPUs = 72 GPUs on one NVLink domain (NVIDIA GB200 NVL72 datasheet). */
    @Test
    void gb200RackIsOneNvlinkDomain() throws InputException {
        Topology t = ClusterLoader.load("gb200-nvl72");
        assertEquals(72, t.gpus().size());
        assertEquals(PathType.NVL, PathFinder.of(t).path("h0/gpu0", "h17/gpu3").type());
    }

    /**
     * The inline Azure NC96ads A100 v4 spec reproduces the real {@code nvidia-smi topo -m} of that VM (NV12 pairs,
     * SYS otherwise); NCCL sees the SYS pairs through its 12 GB/s GPU links (Azure's NCCL_TOPO_FILE leaves their
     * link_speed empty: NCCL's 8 GT/s x16 fallback, 16 x 60 / 80), below the AMD inter-CPU link's 16 GB/s.
     */
    @Test
    void inlineAzureSpecMatchesTheRealTopoOutput() throws Exception {
        Topology t = ClusterLoader.load("azure-nc96ads-a100-v4");
        HostPaths hp = PathFinder.of(t).host(0);
        String file = new String(getClass().getResourceAsStream("/data/B-topo-azure-nc96ads-a100-v4-4xA100pcie.txt")
                .readAllBytes(), StandardCharsets.UTF_8);
        int compared = 0;
        for (String line : file.split("\n")) {
            String[] c = line.trim().split("\\s+");
            if (line.startsWith("GPU")) {
                Gpu a = hp.gpus().get(Integer.parseInt(c[0].substring(3)));
                for (int j = 0; j < 4; j++) {
                    assertEquals(c[j + 1], hp.path(a, hp.gpus().get(j)).smiLabel(), line);
                    compared++;
                }
            }
        }
        assertEquals(16, compared);
        DevicePath sys = hp.path(hp.gpus().get(0), hp.gpus().get(2));
        assertEquals(PathType.SYS, sys.type());
        assertEquals(12.0, sys.nccl().gbps(), EPS);
        assertEquals(240.0, hp.path(hp.gpus().get(0), hp.gpus().get(1)).nccl().gbps(), EPS, "12 x 20 GB/s (sm80)");
        // its 'memory: 80 GB' (the A100 80GB datasheet's figure) is 80 GiB, what nvidia-smi shows (81,920 MiB) and
        // what plan's memory fit compares against: 80 x 2^30 = 85,899,345,920 B, not 80e9 (74.5 GiB)
        assertEquals(85_899_345_920L, t.gpus().get(0).memoryBytes());
    }
}
