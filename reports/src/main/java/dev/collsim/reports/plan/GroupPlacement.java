package dev.collsim.reports.plan;

import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Places a job's process groups on a cluster the way Megatron-LM and DeepSpeed do: global rank r runs on the r-th
 * GPU of the topology (hosts in order, local index within a host), and {@link RankOrder} maps ranks to
 * (tp, cp, pp, dp) coordinates. Each group kind is represented by the group that contains rank 0; all groups of a kind
 * are translates of it, and all run at the same time.
 *
 * <p>Expert-parallel groups are {@code ep} consecutive members of a data-parallel group, and expert-data-parallel
 * groups the members {@code ep} apart (Megatron-Core's expert layout). With context parallelism the experts see the
 * tokens of every context-parallel rank as tokens of their own (MoE layers are not split by sequence), so, as in
 * Megatron-Core's expert rank generator, the dp x cp ranks that hold the same dense weights are numbered
 * {@code q = c + cp d} and cut into expert groups of {@code ep} consecutive q, expert-data-parallel groups of the q
 * that are {@code ep} apart ({@code dp cp / ep} ranks). This class is immutable.
 */
public final class GroupPlacement {

    private final Topology topology;
    private final TrainingJob job;
    private final RankOrder order;

    /**
     * @param topology the cluster
     * @param job      the job
     * @param order    rank order
     * @throws InvalidRequestException when the job needs more GPUs than the cluster has, or tp neither divides
     *                                 the GPUs per host nor is a multiple of them (a TP group would straddle hosts
     *                                 unevenly)
     */
    /**
     * The one wording of a job larger than its cluster, for {@code collsim plan} (which refuses it) and a report's plan
     * row (which notes it): what the job needs, its factors, and what the cluster has.
     *
     * @param job     the job
     * @param cluster the cluster's name, or null for "the cluster"
     * @param have    the cluster's GPUs
     * @return e.g. {@code needs 32 GPUs (dp=2 x tp=8 x pp=2), the cluster has 8}
     */
    public static String tooFewGpus(TrainingJob job, String cluster, int have) {
        return "needs " + job.nGpus() + " GPUs (dp=" + job.dp() + " x tp=" + job.tp() + " x pp=" + job.pp()
                + (job.cp() > 1 ? " x cp=" + job.cp() : "") + "), " + (cluster == null ? "the cluster"
                : "cluster '" + cluster + "'") + " has " + have;
    }

    public GroupPlacement(Topology topology, TrainingJob job, RankOrder order) {
        if (job.nGpus() > topology.gpus().size()) {
            throw new InvalidRequestException("the job " + tooFewGpus(job, topology.name(), topology.gpus().size())
                    + "; allowed: dp x tp x pp" + (job.cp() > 1 ? " x cp" : "") + " at most " + topology.gpus().size()
                    + " (fewer pipeline stages or less parallelism), or a cluster of more hosts (-c NAMExN)");
        }
        int perHost = topology.gpusOf(topology.gpus().get(0).host()).size();
        if (perHost % job.tp() != 0 && job.tp() % perHost != 0) {
            throw new InvalidRequestException("--tp " + job.tp() + " must divide the " + perHost + " GPUs per host of"
                    + " cluster '" + topology.name() + "' (allowed: " + TrainingJob.divisors(perHost, perHost)
                    + ") or be a multiple of it (tensor parallelism across whole hosts)");
        }
        this.topology = topology;
        this.job = job;
        this.order = order;
    }

    /** @return the GPUs of the group of {@code kind} that holds rank 0, in group-rank order */
    public List<Gpu> group(GroupKind kind) {
        return groups(kind).get(0);
    }

    /**
     * @return every group of {@code kind} (all run at the same time), each in group-rank order, the group holding
     *         rank 0 first; PP groups are the pairs of the first two stages, as {@link #group} models send/recv
     */
    public List<List<Gpu>> groups(GroupKind kind) {
        int ep = Math.max(1, job.ep());
        Map<List<Integer>, List<Integer>> byKey = new TreeMap<>(GroupPlacement::compareKeys);
        for (int t = 0; t < job.tp(); t++) {
            for (int c = 0; c < job.cp(); c++) {
                for (int p = 0; p < job.pp(); p++) {
                    for (int d = 0; d < job.dp(); d++) {
                        List<Integer> g = groupAt(kind, t, c, p, d, ep);
                        if (g != null) {
                            byKey.put(listingKey(kind, t, c, p, d), g);
                        }
                    }
                }
            }
        }
        return byKey.values().stream().map(g -> g.stream().map(r -> topology.gpus().get(r)).toList()).toList();
    }

    /**
     * @return the listing order of a kind's groups: TP by (p, d, c), CP by (t, p, d), PP by (t, d, c), DP, EP, EDP by
     *         (p, t, c, d); the group holding rank 0 comes first in each
     */
    private static List<Integer> listingKey(GroupKind kind, int t, int c, int p, int d) {
        return switch (kind) {
            case TP -> List.of(p, d, c);
            case CP -> List.of(t, p, d);
            case PP -> List.of(t, d, c);
            default -> List.of(p, t, c, d);
        };
    }

    private static int compareKeys(List<Integer> a, List<Integer> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int x = Integer.compare(a.get(i), b.get(i));
            if (x != 0) {
                return x;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /**
     * @return the group of {@code kind} whose first member sits at (t, c, p, d), or null when that coordinate is not
     *         a first member (so each group is listed once)
     */
    private List<Integer> groupAt(GroupKind kind, int t, int c, int p, int d, int ep) {
        List<Integer> g = new ArrayList<>();
        switch (kind) {
            case TP -> {
                for (int k = 0; t == 0 && k < job.tp(); k++) {
                    g.add(order.rank(k, c, p, d, job));
                }
            }
            case CP -> {
                for (int k = 0; c == 0 && k < job.cp(); k++) {
                    g.add(order.rank(t, k, p, d, job));
                }
            }
            case PP -> {
                for (int k = 0; p == 0 && k < Math.min(2, job.pp()); k++) {
                    g.add(order.rank(t, c, k, d, job));
                }
            }
            case DP -> {
                // gradients are reduced over the data-parallel ranks of every context-parallel index (Megatron-Core's
                // data-parallel group with context parallelism)
                for (int k = 0; d == 0 && c == 0 && k < job.dp(); k++) {
                    for (int j = 0; j < job.cp(); j++) {
                        g.add(order.rank(t, j, p, k, job));
                    }
                }
            }
            case EP -> {
                int q = c + job.cp() * d;
                for (int k = 0; q % ep == 0 && k < ep; k++) {
                    g.add(order.rank(t, (q + k) % job.cp(), p, (q + k) / job.cp(), job));
                }
            }
            case EDP -> {
                int q = c + job.cp() * d;
                for (int k = q; q < ep && k < job.dp() * job.cp(); k += ep) {
                    g.add(order.rank(t, k % job.cp(), p, k / job.cp(), job));
                }
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        return g.isEmpty() ? null : g;
    }

    /** @return distinct hosts the group of {@code kind} spans */
    public int hosts(GroupKind kind) {
        Set<Integer> hosts = new HashSet<>();
        for (Gpu g : group(kind)) {
            hosts.add(g.host());
        }
        return hosts.size();
    }

    /**
     * @param topology the cluster
     * @param job      the job
     * @return the GPUs the job runs on: the cluster's first dp x tp x pp (x cp), all of them when it needs more
     */
    public static List<Gpu> jobGpus(Topology topology, TrainingJob job) {
        List<Gpu> all = topology.gpus();
        return job.nGpus() >= all.size() ? all : all.subList(0, job.nGpus());
    }

    /**
     * @return GPUs of the job on rank 0's host that belong to some group of {@code kind} crossing the network,
     *         divided by the members of one group on that host: how many groups share that host's NICs
     */
    public int groupsSharingHost(GroupKind kind) {
        List<Gpu> g = group(kind);
        int host = g.get(0).host();
        long members = g.stream().filter(x -> x.host() == host).count();
        long jobOnHost = jobGpus(topology, job).stream().filter(x -> x.host() == host).count();
        return (int) Math.max(1, jobOnHost / members);
    }

    /**
     * The GPUs the job leaves idle: global rank r runs on the r-th GPU (class javadoc), so a job of
     * {@code dp x tp x pp x cp} GPUs on a larger cluster leaves the GPUs from that count on without work.
     *
     * @param topology the cluster, at least as many GPUs as the job
     * @param job      the job
     * @return empty when the job uses every GPU of the cluster; else one line naming the idle GPUs (their indices
     *         in the topology's order and the hosts they are on) and why: {@code dp x tp x pp x cp} is fewer, dp
     *         being bounded by {@code floor(GPUs / (tp x pp x cp))} ({@link JobBuilder#clusterFillingDp(int,
     *         int)}, the default, filling the cluster), or given below that bound
     */
    public static Optional<String> idleGpus(Topology topology, TrainingJob job) {
        int total = topology.gpus().size();
        int used = job.nGpus();
        if (used >= total) {
            return Optional.empty();
        }
        int replica = used / job.dp();
        int fits = JobBuilder.clusterFillingDp(total, replica);
        int firstHost = topology.gpus().get(used).host();
        int lastHost = topology.gpus().get(total - 1).host();
        boolean cp = job.cp() > 1;
        String product = "tp x pp" + (cp ? " x cp" : "") + " x dp = " + job.tp() + " x " + job.pp()
                + (cp ? " x " + job.cp() : "") + " x " + job.dp() + " = " + used + " of " + total;
        String bound = job.dp() < fits ? "dp=" + job.dp() + " as given, below the " + fits + " that fit"
                : "dp is bounded by " + total + " GPUs / (tp x pp" + (cp ? " x cp" : "") + " = " + replica + ") = "
                + String.format(Locale.ROOT, "%.2f", (double) total / replica) + ", rounded down to " + fits
                + " (a tp x pp" + (cp ? " x cp" : "") + " that divides " + total + " fills the cluster)";
        return Optional.of((total - used) + " of " + total + " GPUs idle (GPUs " + used + "-" + (total - 1) + ", "
                + (firstHost == lastHost ? "host " + firstHost : "hosts " + firstHost + "-" + lastHost) + "): "
                + product + "; " + bound);
    }

    /** @return the topology */
    public Topology topology() {
        return topology;
    }

    /** @return the rank order */
    public RankOrder order() {
        return order;
    }
}
