package dev.collsim.reports.plan;

import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntUnaryOperator;

/**
 * Places a job's process groups on a cluster the way Megatron-LM and DeepSpeed do: global rank r runs on the r-th
 * GPU of the topology (hosts in order, local index within a host), and {@link RankOrder} maps ranks to
 * (tp, pp, dp) coordinates. Each group kind is represented by the group that contains rank 0; all groups of a kind
 * are translates of it, and all run at the same time.
 *
 * <p>Expert-parallel groups are {@code ep} consecutive members of a data-parallel group, and expert-data-parallel
 * groups the members {@code ep} apart (Megatron-Core's expert layout). This class is immutable.
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
    public GroupPlacement(Topology topology, TrainingJob job, RankOrder order) {
        if (job.nGpus() > topology.gpus().size()) {
            throw new InvalidRequestException("the job needs dp x tp x pp = " + job.nGpus() + " GPUs but cluster '"
                    + topology.name() + "' has " + topology.gpus().size());
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
        int tp = job.tp();
        int pp = job.pp();
        int dp = job.dp();
        int ep = Math.max(1, job.ep());
        List<List<Integer>> out = new ArrayList<>();
        switch (kind) {
            case TP -> {
                for (int p = 0; p < pp; p++) {
                    for (int d = 0; d < dp; d++) {
                        out.add(ranks(tp, t -> t, p, d, RankOrder.Axis.T));
                    }
                }
            }
            case PP -> {
                for (int t = 0; t < tp; t++) {
                    for (int d = 0; d < dp; d++) {
                        out.add(ranks(Math.min(2, pp), s -> s, t, d, RankOrder.Axis.P));
                    }
                }
            }
            case DP, EP, EDP -> {
                int size = kind == GroupKind.DP ? dp : kind == GroupKind.EP ? ep : dp / ep;
                int perReplica = kind == GroupKind.DP ? 1 : kind == GroupKind.EP ? dp / ep : ep;
                for (int p = 0; p < pp; p++) {
                    for (int t = 0; t < tp; t++) {
                        for (int j = 0; j < perReplica; j++) {
                            final int first = j;
                            out.add(ranks(size, k -> kind == GroupKind.EDP ? first + k * ep : first * ep + k, t, p,
                                    RankOrder.Axis.D));
                        }
                    }
                }
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        return out.stream().map(g -> g.stream().map(r -> topology.gpus().get(r)).toList()).toList();
    }

    /**
     * @param n     group size
     * @param index the varying coordinate of member k
     * @param a     first fixed coordinate (in t, p, d order, skipping the varying axis)
     * @param b     second fixed coordinate
     * @param axis  the varying axis
     * @return the global ranks
     */
    private List<Integer> ranks(int n, IntUnaryOperator index, int a, int b, RankOrder.Axis axis) {
        List<Integer> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            int v = index.applyAsInt(k);
            out.add(switch (axis) {
                case T -> order.rank(v, a, b, job);
                case P -> order.rank(a, v, b, job);
                case D -> order.rank(a, b, v, job);
            });
        }
        return out;
    }

    /** @return the number of groups of {@code kind} running at the same time: job GPUs / group size */
    public int concurrentGroups(GroupKind kind) {
        int size = kind == GroupKind.PP ? job.pp() : group(kind).size();
        return job.nGpus() / size;
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
     * @return GPUs of the job on rank 0's host that belong to some group of {@code kind} crossing the network,
     *         divided by the members of one group on that host: how many groups share that host's NICs
     */
    public int groupsSharingHost(GroupKind kind) {
        List<Gpu> g = group(kind);
        int host = g.get(0).host();
        long members = g.stream().filter(x -> x.host() == host).count();
        long jobOnHost = topology.gpus().subList(0, job.nGpus()).stream().filter(x -> x.host() == host).count();
        return (int) Math.max(1, jobOnHost / members);
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
