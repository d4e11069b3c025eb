package dev.collsim.cli.flow;

import dev.collsim.nccl.Collective;
import dev.collsim.units.DataSize;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One {@code --job} option: another collective sharing the fabric.
 *
 * @param name       job name
 * @param collective collective
 * @param sizeBytes  size (nccl-tests size column), bytes
 * @param ranks      ranks
 * @param schedule   schedule algorithm name, or null for the collective's default
 * @param channels   channels, or 0 for the default
 * @param placement  placement policy text
 * @param startUs    start time, microseconds
 */
record JobSpec(String name, Collective collective, long sizeBytes, int ranks, String schedule, int channels,
        String placement, double startUs) {

    private static final Set<String> KEYS = Set.of("name", "coll", "size", "ranks", "schedule", "channels",
            "placement", "start");

    /**
     * Parses {@code key=value,...}.
     *
     * @param text  the option value
     * @param index position among the --job options (names default to job1, job2, ...)
     * @return the spec
     * @throws IllegalArgumentException naming the option, the bad part and the allowed keys or values (a key given
     *                                  twice, ranks or channels below 1, a negative start)
     */
    static JobSpec parse(String text, int index) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String part : text.split(",")) {
            String[] p = part.split("=", 2);
            String k = p[0].trim().toLowerCase(Locale.ROOT);
            if (p.length != 2 || !KEYS.contains(k)) {
                throw new IllegalArgumentException("--job '" + text + "': '" + part + "' is not allowed; use key=value"
                        + " with keys " + String.join(", ", new TreeSet<>(KEYS)));
            }
            if (kv.put(k, p[1].trim()) != null) {
                throw new IllegalArgumentException("--job '" + text + "': key " + k + " given twice; give each key"
                        + " once");
            }
        }
        for (String required : new String[] {"coll", "size", "ranks"}) {
            if (!kv.containsKey(required)) {
                throw new IllegalArgumentException("--job '" + text + "': missing " + required
                        + " (coll, size and ranks are required)");
            }
        }
        try {
            double start = kv.containsKey("start") ? Double.parseDouble(kv.get("start").replace("us", "").trim()) : 0;
            int ranks = Integer.parseInt(kv.get("ranks"));
            int channels = kv.containsKey("channels") ? Integer.parseInt(kv.get("channels")) : 0;
            if (ranks < 1) {
                throw new IllegalArgumentException("--job '" + text + "': ranks must be >= 1, got " + ranks);
            }
            if (kv.containsKey("channels") && channels < 1) {
                throw new IllegalArgumentException("--job '" + text + "': channels must be >= 1, got " + channels
                        + " (leave it out for the default: the job's GPUs per host)");
            }
            if (!(start >= 0) || Double.isInfinite(start)) {
                throw new IllegalArgumentException("--job '" + text + "': start must be a finite number of"
                        + " microseconds >= 0, got " + kv.get("start"));
            }
            return new JobSpec(kv.getOrDefault("name", "job" + index), Collective.parse(kv.get("coll")),
                    DataSize.parseBytes(kv.get("size")), ranks, kv.get("schedule"), channels,
                    kv.getOrDefault("placement", "contiguous"), start);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--job '" + text + "': ranks and channels must be whole numbers and"
                    + " start a number of microseconds");
        }
    }
}
