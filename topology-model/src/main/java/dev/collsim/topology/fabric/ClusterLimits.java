package dev.collsim.topology.fabric;

/**
 * Limits checked before a cluster is built, so that a typo such as {@code count: 2000000000} or
 * {@code -c dgx-h100x2147483647} is a clear error at once instead of minutes of work and an OutOfMemoryError.
 * A cluster built in full holds every host as graph vertices: a DGX H100 host takes about 130 KB (10,000 hosts
 * measured at 1.3 GB resident by {@code collsim predict -c dgx-h100x10000} when every host was built), so the default
 * of 32,768 hosts (262,144 GPUs of 8-GPU hosts) needs about 4.3 GB of heap. {@code COLLSIM_MAX_HOSTS} raises (or
 * lowers) it for a machine with the memory. Hosts of one type described once ({@code ClusterSpec.build}) are built in
 * full only for commands that need every device (topo, the flow backend), and this limit is checked then; the
 * analytical prediction of such a cluster needs memory for its rank list only, up to
 * {@link #MAX_DESCRIBED_HOSTS} hosts.
 */
public final class ClusterLimits {

    /** Hosts per cluster allowed when {@code COLLSIM_MAX_HOSTS} is not set. */
    public static final int DEFAULT_MAX_HOSTS = 32_768;

    /** The environment variable that overrides {@link #DEFAULT_MAX_HOSTS}. */
    public static final String MAX_HOSTS_VARIABLE = "COLLSIM_MAX_HOSTS";

    /**
     * Hosts a cluster of identical hosts described once may have: 1,048,576 (2^20; 8,388,608 GPUs of 8-GPU hosts, a
     * rank list well inside an int). Its GPUs are made on demand, so the limit guards the rank lists and per-node maps
     * of a prediction (a few hundred bytes per host), not a graph.
     */
    public static final int MAX_DESCRIBED_HOSTS = 1 << 20;

    private ClusterLimits() {
    }

    /** @return the host limit in force: {@code COLLSIM_MAX_HOSTS} when it is a whole number >= 1, else the default */
    public static int maxHosts() {
        String v = System.getenv(MAX_HOSTS_VARIABLE);
        if (v != null && v.strip().matches("[1-9][0-9]{0,9}")) {
            long n = Long.parseLong(v.strip());
            return (int) Math.min(n, Integer.MAX_VALUE);
        }
        return DEFAULT_MAX_HOSTS;
    }

    /**
     * @param hosts a host count asked for
     * @return null when it is within the limit, else the message to show (what was found, the limit, how to go past)
     */
    public static String hostsProblem(long hosts) {
        int max = maxHosts();
        if (hosts <= max) {
            return null;
        }
        return "found " + hosts + " hosts; allowed: at most " + max + " (a limit that protects memory: this needs each "
                + "host built in full, about 130 KB for an 8-GPU host; set " + MAX_HOSTS_VARIABLE + "=N to go past it on "
                + "a machine with the memory)";
    }

    /**
     * @param hosts       hosts of one type described once
     * @param gpusPerHost GPUs per host
     * @return null when within {@link #MAX_DESCRIBED_HOSTS} (and the GPUs fit an int), else the message to show
     */
    public static String describedProblem(long hosts, int gpusPerHost) {
        if (hosts <= MAX_DESCRIBED_HOSTS && hosts * Math.max(1, gpusPerHost) <= Integer.MAX_VALUE) {
            return null;
        }
        return "found " + hosts + " hosts; allowed: at most " + MAX_DESCRIBED_HOSTS + " hosts of one type";
    }
}
