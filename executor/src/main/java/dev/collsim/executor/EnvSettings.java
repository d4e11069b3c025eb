package dev.collsim.executor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * NCCL settings given on the command line: fixed ones ({@code --env NCCL_PROTO=Simple}) and swept ones
 * ({@code --sweep-env NCCL_ALGO=Ring,Tree}). A sweep is the cartesian product of its variables' values; each
 * combination runs in its own process, since NCCL reads most settings once per process (NCCL 2.28
 * {@code src/misc/param.cc ncclParam*} caches the first read).
 */
public final class EnvSettings {

    private EnvSettings() {
    }

    /**
     * @param assignments {@code NAME=VALUE} texts
     * @return name to value, in the given order
     * @throws ExecutorException (usage) when an item has no '=' or an empty name
     */
    public static Map<String, String> parseFixed(List<String> assignments) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String a : assignments) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new ExecutorException("--env '" + a + "': expected NAME=VALUE, e.g. NCCL_PROTO=Simple",
                        ExecutorException.USAGE);
            }
            out.put(a.substring(0, eq).trim(), a.substring(eq + 1));
        }
        return out;
    }

    /**
     * @param sweeps {@code NAME=V1,V2,...} texts
     * @return every combination (first variable varies slowest), each as name to value; one empty map when
     *         there is no sweep
     * @throws ExecutorException (usage) when an item is malformed or has no values
     */
    public static List<Map<String, String>> expandSweep(List<String> sweeps) {
        List<Map<String, String>> out = new ArrayList<>();
        out.add(new LinkedHashMap<>());
        for (String s : sweeps) {
            int eq = s.indexOf('=');
            if (eq <= 0 || eq == s.length() - 1) {
                throw new ExecutorException("--sweep-env '" + s + "': expected NAME=V1,V2,..., e.g. NCCL_ALGO=Ring,Tree",
                        ExecutorException.USAGE);
            }
            String name = s.substring(0, eq).trim();
            String[] values = s.substring(eq + 1).split(",", -1);
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> base : out) {
                for (String v : values) {
                    if (v.isEmpty()) {
                        throw new ExecutorException("--sweep-env '" + s + "': empty value", ExecutorException.USAGE);
                    }
                    Map<String, String> m = new LinkedHashMap<>(base);
                    m.put(name, v);
                    next.add(m);
                }
            }
            out = next;
        }
        return out;
    }

    /**
     * @param setting one combination
     * @return its label, e.g. {@code NCCL_ALGO=Ring NCCL_PROTO=LL}, or "" for none
     */
    public static String label(Map<String, String> setting) {
        StringBuilder sb = new StringBuilder();
        setting.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return sb.toString();
    }

    /**
     * @param env an environment
     * @return its {@code NCCL_*} variables, sorted by name
     */
    public static Map<String, String> ncclVariables(Map<String, String> env) {
        Map<String, String> out = new TreeMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("NCCL_")) {
                out.put(k, v);
            }
        });
        return out;
    }
}
