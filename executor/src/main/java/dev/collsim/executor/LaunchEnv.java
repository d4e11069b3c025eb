package dev.collsim.executor;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rank, world size and rendezvous address of one process, read from the launcher that started it.
 *
 * <p>Checked in this order: torchrun-style ({@code RANK}, {@code WORLD_SIZE}, {@code LOCAL_RANK},
 * {@code MASTER_ADDR}, {@code MASTER_PORT}), Open MPI ({@code OMPI_COMM_WORLD_RANK}, {@code _SIZE},
 * {@code _LOCAL_RANK}), Slurm ({@code SLURM_PROCID}, {@code SLURM_NTASKS}, {@code SLURM_LOCALID}; the address
 * of rank 0 from {@code MASTER_ADDR} or the first host of {@code SLURM_JOB_NODELIST} / {@code SLURM_NODELIST}
 * when it is a plain name). The port defaults to {@link #DEFAULT_PORT}; {@code COLLSIM_RDZV_ADDR} /
 * {@code COLLSIM_RDZV_PORT} override both for any launcher. Rank 0 listens on {@code masterAddr} only (it must
 * name this host), or on {@code COLLSIM_RDZV_BIND} when set (e.g. {@code 0.0.0.0}, or one address of a host
 * whose MASTER_ADDR is a load balancer).
 *
 * <p>The rendezvous secret: {@code COLLSIM_RENDEZVOUS_SECRET} when set (any text, the same on every rank); else
 * derived from the launcher's job id ({@code SLURM_JOB_ID}, {@code TORCHELASTIC_RUN_ID} other than torchrun's
 * default {@code none}, {@code PMIX_NAMESPACE} or {@code OMPI_MCA_ess_base_jobid}) with the port and world size.
 * A derived secret keeps out other jobs and stray clients, not a user who can read the job id (e.g. with
 * {@code squeue}); with 2+ ranks and neither set, detection fails (usage error) asking for the variable.
 *
 * @param launcher   {@code torchrun}, {@code openmpi} or {@code slurm}
 * @param rank       global rank
 * @param worldSize  number of processes (one GPU each)
 * @param localRank  rank on this host (selects the GPU)
 * @param masterAddr host name or address of rank 0's rendezvous server
 * @param masterPort TCP port of the rendezvous server
 * @param bindAddr   address rank 0 listens on
 * @param secret     the job's rendezvous secret (HMAC key text; "" for a world of one rank)
 */
public record LaunchEnv(String launcher, int rank, int worldSize, int localRank, String masterAddr,
        int masterPort, String bindAddr, String secret) {

    /** Variable holding the rendezvous secret. */
    public static final String SECRET_VARIABLE = "COLLSIM_RENDEZVOUS_SECRET";

    /** Launcher variables naming a job, tried in this order when {@link #SECRET_VARIABLE} is not set. */
    private static final List<String> JOB_IDS = List.of("SLURM_JOB_ID", "TORCHELASTIC_RUN_ID", "PMIX_NAMESPACE",
            "OMPI_MCA_ess_base_jobid");

    /** Default rendezvous port when the launcher gives none (torchrun's default MASTER_PORT is 29500). */
    public static final int DEFAULT_PORT = 29517;

    /**
     * @param env the process environment
     * @return the launch, or empty when no launcher variables are set (or the world size is 1)
     * @throws ExecutorException (usage) when variables are present but malformed or inconsistent
     */
    public static Optional<LaunchEnv> detect(Map<String, String> env) {
        LaunchEnv e = null;
        if (env.containsKey("RANK") && env.containsKey("WORLD_SIZE")) {
            e = new LaunchEnv("torchrun", num(env, "RANK"), num(env, "WORLD_SIZE"),
                    env.containsKey("LOCAL_RANK") ? num(env, "LOCAL_RANK") : 0,
                    env.getOrDefault("MASTER_ADDR", "127.0.0.1"),
                    env.containsKey("MASTER_PORT") ? num(env, "MASTER_PORT") : DEFAULT_PORT, "", "");
        } else if (env.containsKey("OMPI_COMM_WORLD_RANK") && env.containsKey("OMPI_COMM_WORLD_SIZE")) {
            e = new LaunchEnv("openmpi", num(env, "OMPI_COMM_WORLD_RANK"), num(env, "OMPI_COMM_WORLD_SIZE"),
                    env.containsKey("OMPI_COMM_WORLD_LOCAL_RANK") ? num(env, "OMPI_COMM_WORLD_LOCAL_RANK") : 0,
                    env.getOrDefault("MASTER_ADDR", "127.0.0.1"),
                    env.containsKey("MASTER_PORT") ? num(env, "MASTER_PORT") : DEFAULT_PORT, "", "");
        } else if (env.containsKey("SLURM_PROCID") && env.containsKey("SLURM_NTASKS")) {
            String nodes = env.getOrDefault("SLURM_JOB_NODELIST", env.getOrDefault("SLURM_NODELIST", ""));
            String addr = env.getOrDefault("MASTER_ADDR", firstHost(nodes));
            e = new LaunchEnv("slurm", num(env, "SLURM_PROCID"), num(env, "SLURM_NTASKS"),
                    env.containsKey("SLURM_LOCALID") ? num(env, "SLURM_LOCALID") : 0, addr,
                    env.containsKey("MASTER_PORT") ? num(env, "MASTER_PORT") : DEFAULT_PORT, "", "");
        }
        if (e == null) {
            return Optional.empty();
        }
        String addr = env.getOrDefault("COLLSIM_RDZV_ADDR", e.masterAddr);
        int port = env.containsKey("COLLSIM_RDZV_PORT") ? num(env, "COLLSIM_RDZV_PORT") : e.masterPort;
        if (addr == null || addr.isBlank()) {
            throw new ExecutorException(e.launcher + " launch: cannot tell rank 0's address; set MASTER_ADDR or "
                    + "COLLSIM_RDZV_ADDR", ExecutorException.USAGE);
        }
        if (e.worldSize < 1 || e.rank < 0 || e.rank >= e.worldSize || e.localRank < 0) {
            throw new ExecutorException(e.launcher + " launch: rank " + e.rank + " / world size " + e.worldSize
                    + " / local rank " + e.localRank + " is inconsistent", ExecutorException.USAGE);
        }
        if (port < 1 || port > 65535) {
            throw new ExecutorException("rendezvous port " + port + " is outside 1..65535", ExecutorException.USAGE);
        }
        String bind = env.getOrDefault("COLLSIM_RDZV_BIND", addr);
        return Optional.of(new LaunchEnv(e.launcher, e.rank, e.worldSize, e.localRank, addr, port, bind,
                secret(env, e.launcher, e.worldSize, port)));
    }

    private static String secret(Map<String, String> env, String launcher, int worldSize, int port) {
        String given = env.get(SECRET_VARIABLE);
        if (given != null && !given.isEmpty()) {
            return given;
        }
        for (String k : JOB_IDS) {
            String v = env.get(k);
            if (v != null && !v.isBlank() && !(k.equals("TORCHELASTIC_RUN_ID") && v.equals("none"))) {
                return "collsim-rendezvous|" + k + "=" + v + "|port=" + port + "|world=" + worldSize;
            }
        }
        if (worldSize == 1) {
            return "";
        }
        throw new ExecutorException(launcher + " launch: no rendezvous secret; set " + SECRET_VARIABLE
                + " to the same text on every rank (e.g. export " + SECRET_VARIABLE + "=$(openssl rand -hex 16)"
                + " before launching) so that only this job's ranks receive NCCL's id", ExecutorException.USAGE);
    }

    /** @return the record with the secret masked, so that logs do not show it */
    @Override
    public String toString() {
        return "LaunchEnv[launcher=" + launcher + ", rank=" + rank + ", worldSize=" + worldSize + ", localRank="
                + localRank + ", masterAddr=" + masterAddr + ", masterPort=" + masterPort + ", bindAddr=" + bindAddr
                + ", secret=" + (secret.isEmpty() ? "none" : "(set)") + "]";
    }

    /**
     * First host of a Slurm node list when it can be read without {@code scontrol}: {@code node1,node2} gives
     * node1, {@code gpu[03-05,7]} gives gpu03.
     *
     * @param nodeList a Slurm node list
     * @return the first host name, or "" when the list is empty
     */
    public static String firstHost(String nodeList) {
        if (nodeList == null || nodeList.isBlank()) {
            return "";
        }
        String s = nodeList.trim();
        int br = s.indexOf('[');
        int comma = s.indexOf(',');
        if (br < 0 || (comma >= 0 && comma < br)) {
            return comma < 0 ? s : s.substring(0, comma);
        }
        String prefix = s.substring(0, br);
        String inside = s.substring(br + 1, s.indexOf(']', br));
        String first = inside.split(",")[0].split("-")[0];
        return prefix + first;
    }

    private static int num(Map<String, String> env, String key) {
        String v = env.get(key);
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException | NullPointerException ex) {
            throw new ExecutorException("environment variable " + key + "='" + v + "' is not a whole number",
                    ExecutorException.USAGE);
        }
    }
}
