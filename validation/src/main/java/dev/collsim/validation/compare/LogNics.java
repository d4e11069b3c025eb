package dev.collsim.validation.compare;

import dev.collsim.io.InputException;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.edit.ClusterEditor;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.io.ClusterSource;
import dev.collsim.units.Bandwidth;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NetworkLog;
import dev.collsim.validation.ingest.NcclLog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The NICs a run's NCCL INFO log lists ({@link NetworkLog}) applied to catalog hosts: the speed NCCL read when every
 * listed device has the same one, and the count when it is below the catalog host's compute NICs (NCCL uses only the
 * devices it lists, e.g. with {@code NCCL_IB_HCA}). When the log's NET connection lines ("Channel 00/0 : 7[1] -> 0[0]
 * [receive] via NET/IB/1/GDRDMA", {@link NcclLog.TransportEdge#netDevice()}) show a host sending and receiving on
 * every channel through fewer distinct devices than it lists, the count is that many: those are the NICs the run's
 * channels cross (two GPUs behind one PCIe switch with one NIC share it; the NICs listed but unused carry nothing).
 * Stateless.
 */
final class LogNics {

    private LogNics() {
    }

    /**
     * @param d           the dataset
     * @param type        the catalog host type
     * @param hosts       host count
     * @param assumptions where to say what was read
     * @return the hosts with the log's NICs, empty when the log changes nothing (one host, or no NIC figures)
     */
    static Optional<Topology> apply(Dataset d, HostType type, int hosts, List<String> assumptions) {
        NetworkLog net = d.log().net();
        Used used = used(d);
        if (hosts < 2 || net.usedDevices().isEmpty() && net.ofiNics() == 0 && used.count() == 0) {
            return Optional.empty();
        }
        ClusterSource built;
        try {
            built = ClusterLoader.hosts(type, hosts);
        } catch (InputException e) {
            throw new IllegalStateException("host type " + type.name() + " must build", e);
        }
        List<Nic> nics = built.topology().devices(Nic.class).stream().filter(n -> n.host() == 0 && n.rail() >= 0)
                .toList();
        OptionalDouble gbits = net.nicGbits();
        int listed = net.nicCount();
        boolean edges = used.count() > 0 && (listed == 0 || used.count() < listed);
        int count = edges ? used.count() : listed;
        boolean speed = gbits.isPresent() && nics.stream().anyMatch(n -> Math.abs(n.speed().gbits()
                - gbits.getAsDouble()) > 1e-6);
        boolean fewer = count > 0 && count < nics.size();
        if (!speed && !fewer) {
            return Optional.empty();
        }
        int line = net.usedDevices().isEmpty() ? 0 : net.usedDevices().get(0).line();
        String listedAt = " as the NCCL INFO log lists them" + (line > 0 ? " (line " + line + ")" : "");
        assumptions.add((fewer ? count + " of the " + nics.size() + " NICs per host" : "")
                + (fewer && speed ? " at " : "") + (speed ? Math.round(gbits.getAsDouble()) + " Gb/s per NIC" : "")
                + (edges && fewer ? " as the NCCL INFO log's NET connection lines use them (" + used.why() + ")"
                + (speed ? ", the speed" + listedAt : "") : listedAt));
        try {
            return Optional.of(ClusterEditor.build(built.spec(), new ClusterEdits(null, null,
                    speed ? Bandwidth.ofGbits(gbits.getAsDouble()) : null, fewer ? count : null, null, null, null,
                    null)));
        } catch (InputException e) {
            throw new IllegalStateException("host type " + type.name() + " must build", e);
        }
    }

    /**
     * NICs per host the run's channels cross, 0 when unknown.
     *
     * @param count NICs per host
     * @param why   the ranks, devices and first line that say so
     */
    private record Used(int count, String why) {
    }

    /**
     * Reads which NET device each rank's "[send]"/"[receive]" lines name (the host of a rank from nccl-tests' rank
     * lines). A host whose lines send and receive on every collective channel of the run (0 to coll - 1 of the
     * channel-count line) shows every NIC its channels cross: NCCL's graph search gives each channel of a host its NET
     * devices (2.12-2.30 {@code src/graph/search.cc}), so the host uses those devices and no others. An excerpt of
     * some ranks' or some channels' lines says nothing.
     *
     * @param d the dataset
     * @return the most distinct NET devices a fully shown host uses, 0 when no host's lines cover every channel
     */
    private static Used used(Dataset d) {
        int channels = d.log().lastChannelCounts().map(NcclLog.ChannelCounts::coll).orElse(0);
        Map<Integer, String> hostOf = new HashMap<>();
        d.ranks().forEach(r -> hostOf.put(r.rank(), r.host()));
        Map<String, Set<String>> sides = new TreeMap<>();
        Map<String, Set<Integer>> devices = new HashMap<>();
        Map<String, NcclLog.TransportEdge> first = new HashMap<>();
        for (NcclLog.TransportEdge t : d.log().transports()) {
            String host = hostOf.get(t.printingRank());
            if (host != null && t.netDevice() >= 0) {
                sides.computeIfAbsent(host, h -> new TreeSet<>()).add(t.side() + " " + t.channel());
                devices.computeIfAbsent(host, h -> new TreeSet<>()).add(t.netDevice());
                first.putIfAbsent(host, t);
            }
        }
        int most = 0;
        String why = "";
        for (Map.Entry<String, Set<String>> e : sides.entrySet()) {
            boolean all = channels > 0;
            for (int c = 0; c < channels; c++) {
                all &= e.getValue().contains("send " + c) && e.getValue().contains("receive " + c);
            }
            Set<Integer> used = devices.get(e.getKey());
            if (all && used.size() > most) {
                most = used.size();
                NcclLog.TransportEdge t = first.get(e.getKey());
                why = "host " + e.getKey() + " sends and receives on all " + channels + " channels via NET device(s) "
                        + used + ", line " + t.line() + ": " + t.fromRank() + " -> " + t.toRank() + " [" + t.side()
                        + "] via " + t.transport();
            }
        }
        return new Used(most, why);
    }
}
