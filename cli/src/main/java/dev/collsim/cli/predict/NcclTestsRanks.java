package dev.collsim.cli.predict;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.simulator.HostLaunch;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * Which GPUs {@code collsim predict} uses as ranks, the way nccl-tests 2.19.6 lays them out ({@code src/common.cu};
 * NCCL fact sheet (../shared/nccl-model.md) section 7.6): every process runs nThreads ({@code -t}) threads of nGpus ({@code -g}) GPUs
 * each, so ranks = nProcs x nThreads x nGpus; rank = proc x t x g + thread x g + i; a process sits on one host and
 * its GPUs are {@code localRank x t x g + i}, localRank being the count of lower-numbered processes on the same host.
 * A plain nccl-tests run is one process; under {@code mpirun -np P -N Q} there are P processes, Q per host
 * ({@code --nprocs}, {@code --procs-per-host}); {@code -N Q} without {@code -np} starts Q processes on every host
 * (Open MPI 4.0 mpirun(1): "-N: launch num processes per node on all allocated nodes"), so {@code --procs-per-host Q}
 * alone is Q x hosts processes. Without any of these options every GPU of the cluster is a rank
 * (as {@code mpirun -np <GPUs> all_reduce_perf -g 1} would run), collsim's default.
 */
public final class NcclTestsRanks {

    @Option(names = {"-g", "--ngpus"}, paramLabel = "NGPUS", description = "GPUs per thread, as nccl-tests: one"
            + " process drives -t x -g GPUs of one host (default 1 when -t, --nprocs or --procs-per-host is given;"
            + " without any of them every GPU of the cluster is a rank)")
    private Integer gpus;

    @Option(names = {"-t", "--nthreads"}, paramLabel = "N", description = "threads per process, as nccl-tests"
            + " (default 1): ranks = nprocs x nthreads x ngpus")
    private Integer threads;

    @Option(names = "--nprocs", paramLabel = "P", description = "processes, as mpirun -np P would start nccl-tests"
            + " (also -np, --np; default: --procs-per-host x the cluster's hosts when that is given, as mpirun -N Q"
            + " without -np; else 1). A pasted launcher prefix sets it too: mpirun -np"
            + " N -N K, srun -N NODES --ntasks-per-node K, torchrun --nnodes N --nproc-per-node K")
    private Integer procs;

    @Option(names = "--procs-per-host", paramLabel = "Q", description = "processes per host, as mpirun -N Q (also"
            + " -npernode, --npernode; default: as many as the host's GPUs hold, filling host 0 first)")
    private Integer procsPerHost;

    @Option(names = LauncherPrefix.LAUNCHER_OPTION, hidden = true, paramLabel = "TEXT",
            description = "the launcher prefix read from the command line (set by LauncherPrefix)")
    private String launcher;

    /** The cluster's host count, set by {@link #place} for {@link #describe} ({@code --procs-per-host} alone). */
    private int clusterHosts;

    @Option(names = "--ranks", paramLabel = "N", description = "use only the first N of those ranks")
    private Integer ranks;

    /** @param p mpirun's spelling of {@code --nprocs} */
    @Option(names = {"-np", "--np"}, hidden = true, paramLabel = "P")
    private void np(int p) {
        procs = p;
    }

    /** @param q mpirun's spelling of {@code --procs-per-host} */
    @Option(names = {"-npernode", "--npernode"}, hidden = true, paramLabel = "Q")
    private void npernode(int q) {
        procsPerHost = q;
    }

    /**
     * @param cudaGraph  whether nccl-tests' {@code -G} replays CUDA graphs
     * @param timedCalls timed calls per run, nccl-tests' {@code -n x -m} ({@link NcclTestsTimingFlags#timedCalls}),
     *                   >= 1
     * @return how one process drives its GPUs: {@code -g} GPUs on each of {@code -t} threads (1 and 1 when not given)
     */
    public HostLaunch launch(boolean cudaGraph, int timedCalls) {
        return new HostLaunch(atLeastOne("-g (ngpus)", gpus), atLeastOne("-t (nthreads)", threads), cudaGraph,
                timedCalls);
    }

    /** @return true when the layout follows nccl-tests' processes, threads and GPUs (any of -g -t --nprocs given) */
    private boolean layoutGiven() {
        return gpus != null || threads != null || procs != null || procsPerHost != null;
    }

    /**
     * @param topo the cluster
     * @return the GPU of each rank, in rank order
     * @throws UserError (usage) when a count is below 1 or the processes do not fit the cluster, naming the counts
     */
    public List<Gpu> place(Topology topo) {
        List<Gpu> all = layoutGiven() ? processes(topo) : topo.gpus();
        if (ranks != null) {
            if (ranks < 1 || ranks > all.size()) {
                throw new UserError("--ranks must be in [1, " + all.size() + "], got " + ranks, ExitCodes.USAGE);
            }
            return List.copyOf(all.subList(0, ranks));
        }
        // the topology's own list is immutable; for hosts described once it is made on demand, so it is not copied
        return all == topo.gpus() ? all : List.copyOf(all);
    }

    private List<Gpu> processes(Topology topo) {
        int g = atLeastOne("-g (ngpus)", gpus);
        int t = atLeastOne("-t (nthreads)", threads);
        int p = processCount(topo.hostCount());
        int perProc = t * g;
        List<Gpu> out = new ArrayList<>();
        int placed = 0;
        for (int h = 0; h < topo.hostCount() && placed < p; h++) {
            List<Gpu> onHost = topo.gpusOf(h);
            int fit = onHost.size() / perProc;
            if (procsPerHost != null && (procsPerHost < 1 || procsPerHost > fit)) {
                throw new UserError(String.format(Locale.ROOT, "--procs-per-host must be in [1, %d] (host %d has %d"
                        + " GPUs, each process drives -t %d x -g %d = %d), got %d", fit, h, onHost.size(), t, g,
                        perProc, procsPerHost), ExitCodes.USAGE);
            }
            int here = Math.min(p - placed, procsPerHost != null ? procsPerHost : fit);
            out.addAll(onHost.subList(0, here * perProc));
            placed += here;
        }
        if (placed < p) {
            int maxPerHost = topo.hostCount() == 0 ? 0 : topo.gpusOf(0).size();
            // nccl-tests: one process drives its -t threads x -g GPUs, all of them on its own host
            String why = perProc > maxPerHost ? String.format(Locale.ROOT, "one process drives its -t x -g = %d GPUs"
                    + " on one host, which has %d; give -g at most %d (for more GPUs, more processes: --nprocs or"
                    + " --procs-per-host)", perProc, maxPerHost, Math.max(1, maxPerHost / t))
                    : String.format(Locale.ROOT, "a process drives -t x -g = %d GPUs of one host, so only %d such"
                    + " process(es) fit", perProc, placed);
            throw new UserError(String.format(Locale.ROOT, "%d process(es) x -t %d x -g %d GPUs do not fit cluster %s"
                    + " (%d host(s), %d GPUs on host 0): %s", p, t, g, topo.name(), topo.hostCount(), maxPerHost, why),
                    ExitCodes.USAGE);
        }
        return out;
    }

    /**
     * @param hosts the cluster's host count
     * @return {@code --nprocs}, else {@code --procs-per-host} x hosts (mpirun -N Q without -np), else 1
     */
    private int processCount(int hosts) {
        clusterHosts = hosts;
        if (procs == null && procsPerHost != null) {
            return atLeastOne("--procs-per-host", procsPerHost) * hosts;
        }
        return atLeastOne("--nprocs", procs);
    }

    private static int atLeastOne(String option, Integer value) {
        if (value != null && value < 1) {
            throw new UserError(option + " must be >= 1, got " + value, ExitCodes.USAGE);
        }
        return value == null ? 1 : value;
    }

    private String perHostText() {
        return procsPerHost == null ? "" : " --procs-per-host " + procsPerHost;
    }

    /**
     * @param rankList the ranks {@link #place} gave
     * @param testName nccl-tests' name of the collective (e.g. {@code all_reduce}, {@code alltoall}): the binary
     *                 {@code <testName>_perf} the text names
     * @param trays    true when the hosts are trays of a rack-scale NVLink domain (NVL72): the ranks' hosts are
     *                 counted as trays, as the {@code Cluster:} line counts them
     * @return the header line saying how the rank count follows from the options, e.g.
     *         {@code Ranks: 8 = 1 process x 2 threads x 4 GPUs (nccl-tests -t 2 -g 4)}
     */
    public String describe(List<Gpu> rankList, String testName, boolean trays) {
        long hosts = rankList.stream().mapToInt(Gpu::host).distinct().count();
        String where = " on " + hosts + (trays ? " tray" : " host") + (hosts == 1 ? "" : "s");
        if (!layoutGiven()) {
            String cut = ranks == null ? rankList.size() + " = " : "the first " + ranks + " (--ranks) of ";
            return "Ranks: " + cut + "every GPU of the cluster, one process each (as mpirun -np <GPUs>"
                    + " " + testName + "_perf -g 1)" + where;
        }
        boolean everyHost = procs == null && procsPerHost != null;
        int p = procs != null ? procs : everyHost ? procsPerHost * clusterHosts : 1;
        int t = threads == null ? 1 : threads;
        int g = gpus == null ? 1 : gpus;
        String layout = String.format(Locale.ROOT, "%d = %d process%s x %d thread%s x %d GPU%s (nccl-tests -t %d -g %d,"
                + " %s)", p * t * g, p, p == 1 ? "" : "es", t, t == 1 ? "" : "s", g, g == 1 ? "" : "s", t, g,
                everyHost ? "--procs-per-host " + procsPerHost + " on each of the cluster's " + clusterHosts
                        + (clusterHosts == 1 ? " host" : " hosts") + ", as mpirun -N " + procsPerHost + " without -np"
                        : procs == null ? "one process as without mpirun; --nprocs P for mpirun -np P"
                        : launcher != null ? launcher : "--nprocs " + p + perHostText());
        return "Ranks: " + (ranks == null ? layout : "the first " + ranks + " (--ranks) of " + layout) + where;
    }
}
