package dev.collsim.executor;

import dev.collsim.nccl.env.NcclVariable;
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
 *
 * <p>Every {@code NCCL_*} name is checked with {@link NcclVariable#checkForRun}: a variable collsim models must
 * have a valid value, one NCCL reads but collsim does not model (NCCL_IB_HCA, NCCL_SOCKET_IFNAME, ...) passes, and
 * an unknown name is refused with the message {@code collsim predict} gives. nccl-tests' own {@code NCCL_TESTS_*}
 * variables (nccl-tests 2.19.6 README: NCCL_TESTS_DEVICE, NCCL_TESTS_SPLIT, ...) and non-NCCL variables
 * (CUDA_VISIBLE_DEVICES) pass unchecked.
 */
public final class EnvSettings {

    private EnvSettings() {
    }

    /**
     * @param assignments {@code NAME=VALUE} texts
     * @return name to value, in the given order
     * @throws ExecutorException (usage) when an item has no '=' or an empty name, or names an unknown NCCL
     *                           variable or a bad value of a modelled one
     */
    public static Map<String, String> parseFixed(List<String> assignments) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String a : assignments) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new ExecutorException("--env '" + a + "': expected NAME=VALUE, e.g. NCCL_PROTO=Simple",
                        ExecutorException.USAGE);
            }
            String name = a.substring(0, eq).trim();
            check("--env '" + a + "'", name, a.substring(eq + 1));
            out.put(name, a.substring(eq + 1));
        }
        return out;
    }

    /**
     * @param what  the option and its text, for the message
     * @param name  the variable
     * @param value its value
     * @throws ExecutorException (usage) for an unknown NCCL variable or a bad value of a modelled one
     */
    private static void check(String what, String name, String value) {
        if (!name.startsWith("NCCL_") || name.startsWith("NCCL_TESTS_")) {
            return;
        }
        try {
            NcclVariable.checkForRun(name, value);
        } catch (IllegalArgumentException e) {
            throw new ExecutorException(what + ": " + e.getMessage(), ExecutorException.USAGE);
        }
    }

    /**
     * @param sweeps {@code NAME=V1,V2,...} texts
     * @return every combination (first variable varies slowest), each as name to value; one empty map when
     *         there is no sweep
     * @throws ExecutorException (usage) when an item is malformed or has no values, or names an unknown NCCL
     *                           variable or a bad value of a modelled one
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
                    check("--sweep-env '" + s + "'", name, v);
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
