package dev.collsim.topology.fabric;

/**
 * Limits checked before a cluster is built, so that a typo such as {@code count: 2000000000} or
 * {@code -c dgx-h100x2147483647} is a clear error at once instead of minutes of work and an OutOfMemoryError.
 * Every host is built as graph vertices today: a DGX H100 host takes about 130 KB (10,000 hosts measured at 1.3 GB
 * resident by {@code collsim predict -c dgx-h100x10000}), so the default of 32,768 hosts (262,144 GPUs of 8-GPU hosts)
 * needs about 4.3 GB of heap. {@code COLLSIM_MAX_HOSTS} raises (or lowers) it for a machine with the memory.
 */
public final class ClusterLimits {

    /** Hosts per cluster allowed when {@code COLLSIM_MAX_HOSTS} is not set. */
    public static final int DEFAULT_MAX_HOSTS = 32_768;

    /** The environment variable that overrides {@link #DEFAULT_MAX_HOSTS}. */
    public static final String MAX_HOSTS_VARIABLE = "COLLSIM_MAX_HOSTS";

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
        return "found " + hosts + " hosts; allowed: at most " + max + " (a limit that protects memory: each host is "
                + "built in full, about 130 KB for an 8-GPU host; set " + MAX_HOSTS_VARIABLE + "=N to go past it on "
                + "a machine with the memory)";
    }
}
