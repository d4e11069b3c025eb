package dev.collsim.cli.predict;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hosts and slots an MPI launcher is given: {@code -H a:8,b:8} (Open MPI: a host without {@code :slots} is one
 * slot, and naming it again adds one) or a hostfile (Open MPI {@code host slots=K}, MPICH/Hydra {@code host:K}, a
 * bare host one slot; {@code #} starts a comment). mpirun fills a host's slots before the next host's, as
 * {@code collsim predict --procs-per-host} does.
 */
final class MpiHosts {

    private final Map<String, Integer> slots = new LinkedHashMap<>();

    /** @return true when no host was named */
    boolean isEmpty() {
        return slots.isEmpty();
    }

    /** @return how many hosts were named */
    int hostCount() {
        return slots.size();
    }

    /** @return all slots of all hosts */
    int totalSlots() {
        return slots.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** @return the hosts' slot counts as typed, e.g. {@code a:8, b:4} */
    String text() {
        StringBuilder b = new StringBuilder();
        slots.forEach((h, s) -> b.append(b.length() == 0 ? "" : ", ").append(h).append(':').append(s));
        return b.toString();
    }

    /** @return the slots every host has, or null when they differ */
    Integer uniformSlots() {
        return slots.values().stream().distinct().count() == 1 ? slots.values().iterator().next() : null;
    }

    /**
     * @param list the value of {@code -H}, e.g. {@code node1:8,node2:8}
     * @throws UserError (usage) for a slot count that is not a whole number of at least 1
     */
    void addList(String list) {
        for (String entry : list.split(",")) {
            if (!entry.isBlank()) {
                add(entry.trim(), "-H " + list);
            }
        }
    }

    /**
     * @param file a hostfile
     * @throws UserError (usage) when it cannot be read or a slot count is not a whole number
     */
    void addFile(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UserError("hostfile " + file + ": cannot be read (" + e.getMessage() + ")", ExitCodes.USAGE);
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceAll("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split("\\s+");
            String where = "hostfile " + file + ":" + (i + 1);
            String host = words[0];
            for (int w = 1; w < words.length; w++) {
                if (words[w].startsWith("slots=")) {
                    host = words[0] + ":" + words[w].substring("slots=".length());
                }
            }
            add(host, where);
        }
    }

    private void add(String entry, String where) {
        int colon = entry.lastIndexOf(':');
        String host = colon < 0 ? entry : entry.substring(0, colon);
        int count = 1;
        if (colon >= 0) {
            String n = entry.substring(colon + 1);
            count = n.matches("[0-9]{1,6}") ? Integer.parseInt(n) : 0;
            if (count < 1) {
                throw new UserError(where + ": slots of host '" + host + "' must be a whole number of at least 1,"
                        + " found '" + n + "'", ExitCodes.USAGE);
            }
        }
        slots.merge(host, count, Integer::sum);
    }
}
