package dev.collsim.validation.diagnose;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import dev.collsim.validation.ingest.HeaderNics;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The NICs per host of a cluster the user names ({@code collsim diagnose -c CLUSTER}), as diagnose's bound reads them
 * ({@link HeaderNics}: count and speed): the compute NICs of host 0 (those on the compute fabric, rail &gt;= 0, as
 * {@code CatalogNics} and {@code ClusterEditor} count them) that the run's GPUs use. Whether a dataset fits the
 * cluster is decided as compare decides it (the cli's {@code DatasetCluster.place}). Stateless.
 */
public final class ClusterNics {

    private ClusterNics() {
    }

    /**
     * The NICs a run's GPUs use on the cluster's first host: the union of the {@linkplain HostPaths#localNics local
     * compute NICs} (NCCL 2.30.7 {@code ncclTopoGetLocal}, {@code src/graph/topo.cc}: a GPU's channels cross the
     * network through its local NICs) of the host's first {@code gpusPerHost} GPUs, as ranks fill a host in GPU
     * order. A 2-GPU run on a DGX H100 (one NIC per GPU) uses 2 of its 8 NICs, as measured: the 2x2 DGX H100 file
     * {@code A-allreduce-2x2xH100-dgx-ib.txt} peaks at 148 GB/s busbw, 2 x 400 Gb/s per node.
     *
     * @param topo        the cluster
     * @param name        the cluster as the user named it, for the text (e.g. {@code dgx-h100:2})
     * @param gpusPerHost the run's GPUs per host; 0 (unknown) or more than the host has: every GPU of the host
     * @return those NICs' count and speed in Gb/s (the mean when they differ, which keeps the host's total, since
     *         NCCL's NIC bandwidth is linear in the speed, {@code NcclBandwidths.net}), line 0 (no file line); empty
     *         when the cluster's first host has no compute NIC reachable from those GPUs
     */
    public static Optional<HeaderNics> of(Topology topo, String name, int gpusPerHost) {
        return ofCluster(topo, "-c " + name, gpusPerHost);
    }

    /**
     * As {@link #of}, the cluster named in words ({@code -c dgx-h100:2}, or a system the data file shows).
     *
     * @param topo        the cluster
     * @param cluster     the cluster in words, after "per host of"
     * @param gpusPerHost as {@link #of}
     * @return as {@link #of}
     */
    public static Optional<HeaderNics> ofCluster(Topology topo, String cluster, int gpusPerHost) {
        List<Gpu> gpus = topo.gpusOf(0);
        int used = gpusPerHost <= 0 ? gpus.size() : Math.min(gpusPerHost, gpus.size());
        HostPaths paths = PathFinder.of(topo).host(0);
        Set<Nic> nics = new LinkedHashSet<>();
        for (Gpu g : gpus.subList(0, used)) {
            nics.addAll(paths.localNics(g, n -> n.rail() >= 0));
        }
        if (nics.isEmpty()) {
            return Optional.empty();
        }
        int all = (int) topo.devices(Nic.class).stream().filter(n -> n.host() == 0 && n.rail() >= 0).count();
        double gbits = nics.stream().mapToDouble(n -> n.speed().gbits()).sum() / nics.size();
        return Optional.of(new HeaderNics(nics.size(), gbits, 0, String.format(Locale.ROOT,
                "the NICs local to %d GPU(s) of the %d per host of %s", used, all, cluster)));
    }
}
