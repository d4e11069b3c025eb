package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.ChannelNics;
import dev.collsim.simulator.channel.RingChannel;
import dev.collsim.simulator.channel.SearchedHost;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.yaml.YamlClusterReader;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A host of 12 NICs (two hosts of 8 H100 on NVSwitch, a rail-optimized fabric): NIC k is the k-th entry of the YAML's
 * {@code nics} list, id {@code nic<k>}, so NCCL, numbering NET devices in the order the net plugin lists them (2.28.9
 * {@code src/graph/topo.cc ncclTopoPopulateNics}: {@code dev = n}), names it NET dev k. Only NICs 10 and 11 share a
 * PCIe switch with GPUs (GPUs 0, 1 and 4, 5); NICs 0..9 hang off the CPUs' root ports, PHB from every GPU. Ids
 * compared as text put {@code nic10} and {@code nic11} at positions 2 and 3, which is how the search's graph and
 * the flow router numbered NICs before one order ({@code Topology#nicsOf}) served both.
 */
class ManyNicsChannelNetsTest {

    private static final Topology T = cluster();

    private static Topology cluster() {
        StringBuilder nics = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            nics.append(i == 0 ? "" : ", ").append("{name: mlx5_").append(i).append(", speed: 400 Gb/s, rail: ")
                    .append(i).append('}');
        }
        String yaml = "schema: collsim/v1\nname: twelve-nics\nhosts:\n"
                + "  gpus:   {count: 8, model: H100-SXM5-80GB}\n"
                + "  cpus:   {count: 2, vendor: GenuineIntel, model: Xeon Platinum 8480C, interconnect: 64 GB/s}\n"
                + "  nvlink: {switches: 4, linksPerGpu: 18, bandwidthPerLink: 25 GB/s}\n"
                + "  pcie:   {gen: 5, switches: [{name: sw0, cpu: 0, gpus: [0, 1], nics: [10]},"
                + " {name: sw1, cpu: 0, gpus: [2, 3]}, {name: sw2, cpu: 1, gpus: [4, 5], nics: [11]},"
                + " {name: sw3, cpu: 1, gpus: [6, 7]}],"
                + " rootPorts: [{cpu: 0, nics: [0, 1, 2, 3, 4]}, {cpu: 1, nics: [5, 6, 7, 8, 9]}]}\n"
                + "  nics:   [" + nics + "]\n"
                + "count: 2\nfabric:\n  kind: rail-optimized\n  linkSpeed: 400 Gb/s\n";
        try {
            return new YamlClusterReader().readCluster("twelve-nics.yaml", yaml).topology();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Position k of a host's NICs is NCCL's NET dev k: nic0, nic1, ..., nic9, nic10, nic11 on both hosts. */
    @Test
    void aHostsNicsAreNumberedAsNcclsNetDevs() {
        for (int h = 0; h < 2; h++) {
            int host = h;
            assertEquals(IntStream.range(0, 12).mapToObj(k -> "h" + host + "/nic" + k).toList(),
                    T.nicsOf(h).stream().map(Nic::id).toList());
        }
        SearchedHost s = SearchedHost.of(T, T.gpusOf(0));
        for (int k = 0; k < 12; k++) {
            assertEquals(k, s.nic(k).ncclDev(), "position " + k);
        }
    }

    /**
     * The search's channels cross hosts by GPU-local NICs, so by NET dev 10 or 11 (any other NIC is PHB from every
     * GPU and NCCL's search tries PIX/PXB NICs first), named by positions 10 and 11, and the flow router sends each
     * channel's hop from host 0 to host 1 through exactly that NIC on both hosts: {@code h0/nic<d>} and {@code
     * h1/nic<d>}, no other NIC.
     */
    @Test
    void flowCrossesHostsByTheNicsOfTheSearchedChannels() {
        SearchedHost s = SearchedHost.of(T, T.gpusOf(0));
        List<RingChannel> ring = s.ringChannels(NcclSettings.DEFAULTS, NcclVersion.V2_28_9);
        assertFalse(ring.isEmpty());
        ChannelNets nets = ChannelNics.searched(T, T.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_28_9)
                .orElseThrow().nets();
        NetworkModel m = NetworkModel.of(T);
        Router router = new Router(m);
        for (int c = 0; c < ring.size(); c++) {
            RingChannel r = ring.get(c);
            assertTrue(r.entryNic() >= 10 && r.exitNic() >= 10, "channel " + c + ": " + r);
            assertEquals(r.entryNic(), s.nic(r.entryNic()).ncclDev());
            List<Integer> order = r.order();
            Gpu from = T.gpusOf(0).get(order.get(order.size() - 1));
            Gpu to = T.gpusOf(1).get(order.get(0));
            List<Device> hops = TestFabrics.routeDevices(m, router.route(m.indexOf(from), m.indexOf(to), c, nets.exit(c, 0),
                    nets.entry(c, 8)));
            List<String> nicIds = hops.stream().filter(Nic.class::isInstance).map(Device::id).distinct().toList();
            assertEquals(List.of("h0/nic" + r.exitNic(), "h1/nic" + r.entryNic()), nicIds, hops::toString);
        }
    }
}
