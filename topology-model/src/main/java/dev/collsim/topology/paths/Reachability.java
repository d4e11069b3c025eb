package dev.collsim.topology.paths;

import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.jgrapht.alg.connectivity.ConnectivityInspector;

/**
 * What a cluster leaves unconnected, so that NCCL could not join its ranks: a GPU pair of one host with no path
 * (NCCL's {@code PATH_DIS}: no NVLink, PCIe or CPU route), a GPU of a multi-host cluster that reaches neither a NIC
 * nor a multi-host NVLink switch, and a host that the cluster's network fabric (when it describes one: NCCL XML does
 * not, NCCL finds the network at run time) or a shared NVLink domain does not join to host 0. Every
 * gap is an absence, so it has no line of its own in a file: readers name the element of the GPU or host it is about
 * (the YAML, NCCL XML and InfraGraph readers refuse such a cluster with that position), {@code collsim topo check}
 * lists the rest. Stateless; {@link #of} builds the whole graph of a cluster described once.
 */
public final class Reachability {

    /** What is not connected. */
    public enum Kind {
        /** Two GPUs of one host with no path between them. */
        GPU_PAIR,
        /** A GPU of a multi-host cluster with no route out of its host. */
        NO_WAY_OUT,
        /** A host that the cluster's network fabric (when it has one) or an NVLink domain does not join to host 0. */
        HOST
    }

    /**
     * One gap.
     *
     * @param kind what is not connected
     * @param host the host it is on (0-based)
     * @param gpu  the GPU it is about: the first of the pair, the GPU with no way out, or the host's first GPU
     * @param peer the second GPU of a pair; null for the other kinds
     * @param message what is missing, in words, e.g. {@code GPU 0 has no path to GPU 1 (no NVLink, PCIe or CPU
     *                route joins them)}
     */
    public record Gap(Kind kind, int host, Gpu gpu, Gpu peer, String message) {
    }

    private Reachability() {
    }

    /**
     * @param t the cluster
     * @return every gap, host by host (pairs, then GPUs with no way out, then the host itself); empty when NCCL
     *         could join every GPU to every other
     */
    public static List<Gap> of(Topology t) {
        List<Gap> gaps = new ArrayList<>();
        PathFinder pf = PathFinder.of(t);
        ConnectivityInspector<Device, Link> components = t.hostCount() > 1 ? new ConnectivityInspector<>(t.graph())
                : null;
        Gpu first = t.gpus().isEmpty() ? null : t.gpus().get(0);
        // without a network switch the network between hosts is not described (NCCL XML has none: NCCL finds it at
        // run time), so hosts whose GPUs reach a NIC are joined through it; with one, it must join them
        boolean fabric = components != null && !t.devices(NetSwitch.class).isEmpty();
        for (int h = 0; h < t.hostCount(); h++) {
            if (t.gpusOf(h).isEmpty()) {
                continue;
            }
            HostPaths hp = pf.host(h);
            gaps.addAll(pairs(hp, h));
            for (Gpu a : hp.gpus()) {
                if (components != null && !wayOut(t, hp, a)) {
                    gaps.add(new Gap(Kind.NO_WAY_OUT, h, a, null, "GPU " + a.index()
                            + " reaches no NIC and no multi-host NVLink switch, so no other host"));
                }
            }
            Gpu own = hp.gpus().get(0);
            if (h > 0 && first != null && fabric && !components.pathExists(first, own)) {
                gaps.add(new Gap(Kind.HOST, h, own, null, "host " + h + " is not reachable from host 0 (no network"
                        + " fabric or shared NVLink domain joins them)"));
            }
        }
        return gaps;
    }

    /**
     * @param hp   one host's paths
     * @param host the host's index
     * @return the {@link Kind#GPU_PAIR} gaps of that host, each pair once (lower index first)
     */
    public static List<Gap> pairs(HostPaths hp, int host) {
        List<Gap> gaps = new ArrayList<>();
        for (Gpu a : hp.gpus()) {
            for (Gpu b : hp.gpus()) {
                if (a.index() < b.index() && hp.path(a, b).type() == PathType.DIS) {
                    gaps.add(new Gap(Kind.GPU_PAIR, host, a, b, "GPU " + a.index() + " has no path to GPU " + b.index()
                            + " (no NVLink, PCIe or CPU route joins them)"));
                }
            }
        }
        return gaps;
    }

    /** @return true when GPU {@code a} reaches a NIC of its host or a multi-host NVLink switch (host -1) */
    private static boolean wayOut(Topology t, HostPaths hp, Gpu a) {
        boolean nic = hp.nearestNic(a).map(n -> hp.path(a, n).type() != PathType.DIS).orElse(false);
        return nic || t.graph().outgoingEdgesOf(a).stream().anyMatch(l -> t.target(l).host() < 0);
    }
}
