package dev.collsim.reports.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import dev.collsim.reports.whatif.ResolvedVariant;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report whose base is a YAML cluster with an inline host (not a catalog type) varies its hardware like a catalog
 * base: the "what changes with 400G NICs" question of a cluster the catalog does not have. Expected by hand from the
 * YAML: 2 hosts of 8 H100 PCIe in NVLink-bridged pairs (12 links x 25 GB/s = 300 GB/s per direction, H100 PCIe
 * datasheet: 600 GB/s bidirectional) and 2 ConnectX-7 NICs each; 200 Gb/s = 25 GB/s, 400 Gb/s = 50 GB/s per
 * direction; 3 hosts hold 24 GPUs; the base's RoCE stays.
 */
class InlineBaseVariantTest {

    @TempDir
    Path dir;

    @Test
    void nicSpeedAndHostCountVaryOnAnInlineHost() throws Exception {
        Files.writeString(dir.resolve("pcie.yaml"), """
                schema: collsim/v1
                name: h100pcie
                hosts:
                  name: h100pcie-8
                  gpus: {count: 8, model: H100-PCIE-80GB}
                  cpus: {count: 2, vendor: AuthenticAMD, model: EPYC 9654, interconnect: 64 GB/s}
                  nvlink:
                    bandwidthPerLink: 25 GB/s
                    pairs: [{gpus: [0, 1], links: 12}, {gpus: [2, 3], links: 12}, {gpus: [4, 5], links: 12},
                            {gpus: [6, 7], links: 12}]
                  pcie:
                    gen: 5
                    switches: [{name: sw0, cpu: 0, gpus: [0, 1, 2, 3], nics: [0]},
                               {name: sw1, cpu: 1, gpus: [4, 5, 6, 7], nics: [1]}]
                  nics: [{name: mlx5_0, speed: 200 Gb/s, rail: 0}, {name: mlx5_1, speed: 200 Gb/s, rail: 1}]
                count: 2
                fabric: {kind: rail-optimized, linkSpeed: 200 Gb/s, network: roce}
                """);
        ReportSpec spec = ReportSpecReader.read(dir.resolve("w.yaml").toString(), """
                cluster: pcie.yaml
                variants:
                  - name: NIC 400 Gb/s
                    nic-speed: 400 Gb/s
                  - name: 3 hosts
                    hosts: 3
                sweeps: [{collective: allreduce, min: 1M, max: 1M}]
                """, dir);
        SimulatorResolver r = new SimulatorResolver();
        Topology base = r.resolve(spec, spec.variants().get(0)).topology();
        ResolvedVariant fast = r.resolve(spec, spec.variants().get(1));
        Topology three = r.resolve(spec, spec.variants().get(2)).topology();
        for (Nic n : base.devices(Nic.class)) {
            assertEquals(25.0, n.speed().gbps(), 1e-9, n.id());
        }
        for (Nic n : fast.topology().devices(Nic.class)) {
            assertEquals(50.0, n.speed().gbps(), 1e-9, n.id());
        }
        Link pair = fast.topology().outgoing(fast.topology().gpus().get(0)).stream()
                .filter(l -> l.type() == LinkType.NVLINK).findFirst().orElseThrow();
        assertEquals(300.0, pair.bandwidth().gbps(), 1e-9);
        assertEquals(24, three.gpus().size());
        assertEquals(NetworkClass.ROCE, fast.topology().networkClass());
        assertEquals(NetworkClass.ROCE, three.networkClass());
    }
}
