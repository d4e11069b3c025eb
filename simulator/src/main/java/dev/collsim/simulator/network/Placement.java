package dev.collsim.simulator.network;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.topology.Gpu;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Rank placement: which GPU holds each rank, chosen from a pool of free GPUs (a topology's GPUs minus those other
 * jobs hold). All methods are pure functions of their arguments.
 */
public final class Placement {

    /** Placement policies, for command-line selection. */
    public enum Policy {
        /** Ranks fill hosts in order: host 0's GPUs, then host 1's. */
        CONTIGUOUS,
        /** Rank i goes to the i-th host (mod hosts): consecutive ranks land on different hosts. */
        ROUND_ROBIN,
        /** A seeded random choice of GPUs, in random rank order. */
        RANDOM;

        /**
         * @param text {@code contiguous}, {@code round-robin} (or {@code roundrobin}), {@code random}, any case
         * @return the policy
         * @throws PlacementException naming the allowed values
         */
        public static Policy parse(String text) {
            return switch (text.toLowerCase(Locale.ROOT)) {
                case "contiguous" -> CONTIGUOUS;
                case "round-robin", "roundrobin" -> ROUND_ROBIN;
                case "random" -> RANDOM;
                default -> throw new PlacementException("unknown placement '" + text + "'; allowed: contiguous,"
                        + " round-robin, random, hostfile:FILE");
            };
        }
    }

    private Placement() {
    }

    /**
     * @param policy policy
     * @param pool   free GPUs
     * @param nRanks ranks to place
     * @param seed   seed for {@link Policy#RANDOM} (java.util.Random)
     * @return GPU of each rank
     * @throws PlacementException when the pool has fewer than nRanks GPUs
     */
    public static List<Gpu> place(Policy policy, Collection<Gpu> pool, int nRanks, long seed) {
        List<Gpu> free = sorted(pool);
        if (nRanks < 1 || nRanks > free.size()) {
            throw new PlacementException("cannot place " + nRanks + " ranks on " + free.size()
                    + " free GPUs");
        }
        return switch (policy) {
            case CONTIGUOUS -> List.copyOf(free.subList(0, nRanks));
            case ROUND_ROBIN -> roundRobin(free, nRanks);
            case RANDOM -> {
                List<Gpu> copy = new ArrayList<>(free);
                Collections.shuffle(copy, new Random(seed));
                yield List.copyOf(copy.subList(0, nRanks));
            }
        };
    }

    private static List<Gpu> roundRobin(List<Gpu> free, int nRanks) {
        Map<Integer, List<Gpu>> byHost = new LinkedHashMap<>();
        for (Gpu g : free) {
            byHost.computeIfAbsent(g.host(), h -> new ArrayList<>()).add(g);
        }
        List<List<Gpu>> hosts = new ArrayList<>(byHost.values());
        List<Gpu> out = new ArrayList<>();
        int[] next = new int[hosts.size()];
        while (out.size() < nRanks) {
            for (int h = 0; h < hosts.size() && out.size() < nRanks; h++) {
                if (next[h] < hosts.get(h).size()) {
                    out.add(hosts.get(h).get(next[h]++));
                }
            }
        }
        return List.copyOf(out);
    }

    /**
     * Reads a hostfile: one host per line, {@code HOST [slots=N]}, where HOST is a host index ({@code 3}) or the
     * host part of GPU ids ({@code h3} for GPUs {@code h3/gpu0..}); {@code #} starts a comment. Ranks fill each
     * listed host's free GPUs in local-index order, up to N (default: all of them), in file order, as
     * mpirun fills hostfile slots.
     *
     * @param fileName name to cite in problems
     * @param content  the file's text
     * @param pool     free GPUs
     * @return GPU of each rank
     * @throws InputException listing every bad line (file, line, column, what was found, what is allowed)
     */
    public static List<Gpu> fromHostfile(String fileName, String content, Collection<Gpu> pool)
            throws InputException {
        return fromHostfile(fileName, content, pool, maxHost(sorted(pool)) + 1);
    }

    /**
     * As {@link #fromHostfile(String, String, Collection)}, knowing the cluster's host count, so that a listed host
     * whose GPUs are all taken (by other jobs) is reported as such rather than as unknown.
     *
     * @param fileName  name to cite in problems
     * @param content   the file's text
     * @param pool      free GPUs
     * @param hostCount hosts in the cluster (indexes 0..hostCount-1)
     * @return GPU of each rank
     * @throws InputException listing every bad line (file, line, column, what was found, what is allowed)
     */
    public static List<Gpu> fromHostfile(String fileName, String content, Collection<Gpu> pool, int hostCount)
            throws InputException {
        List<Gpu> free = sorted(pool);
        List<InputProblem> problems = new ArrayList<>();
        List<Gpu> out = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        String[] lines = content.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].replaceFirst("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split("\\s+");
            int host = hostOf(parts[0], free);
            int col = lines[i].indexOf(parts[0]) + 1;
            if (host < 0) {
                int index = hostIndex(parts[0]);
                String allowed = "allowed: a host index or h<index> of a host with free GPUs: " + freeHosts(free);
                problems.add(new InputProblem(fileName, i + 1, col, "host", index >= 0 && index < hostCount
                        ? "host '" + parts[0] + "' has no free GPUs (other jobs hold them all); " + allowed
                        : "unknown host '" + parts[0] + "'; " + allowed));
                continue;
            }
            if (!seen.add(host)) {
                problems.add(new InputProblem(fileName, i + 1, col, "host", "host '" + parts[0] + "' listed twice"));
                continue;
            }
            List<Gpu> gpus = free.stream().filter(g -> g.host() == host).toList();
            int slots = gpus.size();
            for (int p = 1; p < parts.length; p++) {
                String kv = parts[p].toLowerCase(Locale.ROOT);
                int pcol = lines[i].indexOf(parts[p]) + 1;
                if (kv.matches("slots=\\d{1,9}") && Integer.parseInt(kv.substring(6)) >= 1
                        && Integer.parseInt(kv.substring(6)) <= gpus.size()) {
                    slots = Integer.parseInt(kv.substring(6));
                } else {
                    problems.add(new InputProblem(fileName, i + 1, pcol, "slots", "'" + parts[p]
                            + "' is not allowed; use slots=N with N in 1.." + gpus.size() + " (free GPUs on host "
                            + host + ")"));
                }
            }
            out.addAll(gpus.subList(0, slots));
        }
        if (problems.isEmpty() && out.isEmpty()) {
            problems.add(new InputProblem(fileName, 0, 0, "", "no hosts listed; write one host per line"));
        }
        if (!problems.isEmpty()) {
            throw new InputException(problems);
        }
        return List.copyOf(out);
    }

    private static int hostOf(String token, List<Gpu> free) {
        int h = hostIndex(token);
        return h >= 0 && free.stream().anyMatch(g -> g.host() == h) ? h : -1;
    }

    /** @return the host index a token names ({@code 3} or {@code h3}), or -1 when it is neither */
    private static int hostIndex(String token) {
        String t = token.toLowerCase(Locale.ROOT);
        String digits = t.startsWith("h") ? t.substring(1) : t;
        return digits.matches("\\d{1,9}") ? Integer.parseInt(digits) : -1;
    }

    /** @return the hosts with free GPUs as ranges, e.g. {@code 0..2, 5}, or {@code none} */
    private static String freeHosts(List<Gpu> free) {
        List<Integer> hosts = free.stream().map(Gpu::host).distinct().sorted().toList();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < hosts.size(); i++) {
            int j = i;
            while (j + 1 < hosts.size() && hosts.get(j + 1) == hosts.get(j) + 1) {
                j++;
            }
            sb.append(sb.length() > 0 ? ", " : "").append(hosts.get(i)).append(j > i ? ".." + hosts.get(j) : "");
            i = j;
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }

    private static int maxHost(List<Gpu> free) {
        return free.stream().mapToInt(Gpu::host).max().orElse(-1);
    }

    private static List<Gpu> sorted(Collection<Gpu> pool) {
        List<Gpu> free = new ArrayList<>(pool);
        free.sort(Comparator.comparingInt(Gpu::host).thenComparingInt(Gpu::index));
        return free;
    }

    /**
     * NCCL's order of ranks along its rings and trees: NCCL builds rings from the topology, not from rank numbers,
     * so the ranks of one host sit next to each other (NCCL 2.x {@code src/graph/rings.cc}, {@code connect.cc}: the
     * intra-node ring is joined host after host). Hosts come in the order of their lowest rank, GPUs within a host
     * by index.
     *
     * @param ranks GPU of each rank, in rank order
     * @return the same GPUs, grouped by host
     */
    public static List<Gpu> topologyOrder(List<Gpu> ranks) {
        Map<Integer, List<Gpu>> byHost = new LinkedHashMap<>();
        for (Gpu g : ranks) {
            byHost.computeIfAbsent(g.host(), h -> new ArrayList<>()).add(g);
        }
        List<Gpu> out = new ArrayList<>(ranks.size());
        for (List<Gpu> host : byHost.values()) {
            host.sort(Comparator.comparingInt(Gpu::index));
            out.addAll(host);
        }
        return out;
    }

    /**
     * The host grouping of a rank list, as schedules need it ({@link dev.collsim.simulator.schedule.ScheduleRequest}
     * ranksPerHost).
     *
     * @param ranks GPU of each rank, in rank order
     * @return L when the ranks come in groups of L consecutive ranks per host (every group on its own host, all
     *         groups the same size), else 1
     */
    public static int ranksPerHost(List<Gpu> ranks) {
        int l = 1;
        while (l < ranks.size() && ranks.get(l).host() == ranks.get(0).host()) {
            l++;
        }
        if (ranks.size() % l != 0) {
            return 1;
        }
        for (int i = 0; i < ranks.size(); i++) {
            if (ranks.get(i).host() != ranks.get(i - i % l).host()
                    || (i % l == 0 && i > 0 && ranks.get(i).host() == ranks.get(i - 1).host())) {
                return 1;
            }
        }
        return l;
    }

    /**
     * @param ranks GPU of each rank, in schedule order
     * @return the sizes of the runs of consecutive ranks on one host when the ranks come host by host in unequal
     *         runs (a ring can still rotate its channels inside each), else empty (equal groups, one rank per host,
     *         or a host that appears in two runs)
     */
    public static List<Integer> hostGroups(List<Gpu> ranks) {
        List<Integer> sizes = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < ranks.size(); i++) {
            if (i > 0 && ranks.get(i).host() == ranks.get(i - 1).host()) {
                sizes.set(sizes.size() - 1, sizes.get(sizes.size() - 1) + 1);
            } else if (!seen.add(ranks.get(i).host())) {
                return List.of();
            } else {
                sizes.add(1);
            }
        }
        return sizes.size() == ranks.size() ? List.of() : List.copyOf(sizes);
    }
}
